#!/usr/bin/env bash
# Regenerates data/dumps/: one step's contact problem from each of seven simulations of the
# crate's own scenes, as `nonsmooth simulate --dump-problems` writes them (the local
# Coulomb friction problem the step solved, with the answer the simulation applied), then
# converted to NumPy archives (`.npz`, W stored sparse) by `nonsmooth convert`.
#
# Each line: the scene and its options, the step kept, the file's name. The simulation runs
# with the defaults of `nonsmooth simulate` (dt 0.01 s, velocity stepper, `auto` to 1e-8, at
# most 1000 iterations a step), so a change of a solver may change the trajectory and the
# files: they are a snapshot of the problems this version's simulations produce.
#
# Usage: scripts/make_dumps.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --quiet
bin=target/release/nonsmooth
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while read -r scene options step name; do
    # shellcheck disable=SC2086
    "$bin" simulate "$scene" $options --steps "$step" --every 0 --dump-problems "$tmp/$name" >/dev/null
    "$bin" convert "$(printf '%s/%s/step-%06d.json' "$tmp" "$name" "$step")" \
        -o "data/dumps/${name}_step_${step}.npz"
done <<'LIST'
heavy-on-light --ratio=100000 30 heavy_on_light_1e5
pile --n=30 120 pile_30
box-stack --n=10 150 box_stack_10
wall-push --n=8 120 wall_push_8
wall --n=10 90 wall_10
tower --n=10 75 tower_10
ball-grid --n=6 150 ball_grid_6
LIST
