#!/usr/bin/env bash
# Runs the crate's property tests (the test crates tests/laws/ and tests/regress/, and the
# unit tests) ROUNDS times, each time with fresh random cases, and reports every round that
# fails. One `cargo test` draws a few thousand cases per law; a law whose check is
# sensitive to rounding near a boundary may pass a hundred runs and fail the next, so a law
# is not finished until it survives a soak. A failure is saved by proptest in
# tests/proptest-regressions/<module>.txt and replayed first on every later run: commit it
# with the fix.
#
# Usage: scripts/proptest_soak.sh [ROUNDS]      (default 100; about 5 s per round)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-100}"
args=(--test laws --test regress)
cargo test -q --release --no-run --lib "${args[@]}" || exit 1
failed=0
for i in $(seq 1 "$rounds"); do
    if ! out=$(cargo test -q --release --no-fail-fast --lib "${args[@]}" 2>&1); then
        failed=$((failed + 1))
        echo "=== round $i failed"
        echo "$out" | grep -A12 "panicked\|minimal failing" | head -30
    fi
done
echo "$failed of $rounds rounds failed"
[ "$failed" -eq 0 ]
