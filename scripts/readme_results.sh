#!/usr/bin/env bash
# Regenerates the result tables in README.md from the command-line program's own output.
# Nothing in those tables is typed by hand: each block between
#   <!-- results:NAME -->  and  <!-- /results:NAME -->
# is replaced by what the command recorded above it prints. tests/book/readme.rs re-runs the
# deterministic ones (everything but the timing columns) and fails if README.md differs.
#
# Usage: scripts/readme_results.sh          (Siconos for the ratios)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

features=()
if pkg-config --exists hdf5 2>/dev/null || [ -e /usr/include/hdf5/serial/hdf5.h ]; then
    features=(--features hdf5)
fi
cargo build --release "${features[@]}" --quiet
bin=target/release/nonsmooth
shared=data

# splice NAME < content: replace the block NAME in README.md
splice() {
    local name=$1 content
    content=$(cat)
    NAME="$name" CONTENT="$content" python3 - <<'PY'
import os, re
name, content = os.environ["NAME"], os.environ["CONTENT"]
text = open("README.md").read()
pat = re.compile(r"(<!-- results:%s -->\n).*?(<!-- /results:%s -->)" % (name, name), re.S)
if not pat.search(text):
    raise SystemExit(f"README.md has no block results:{name}")
text = pat.sub(lambda m: m.group(1) + content.rstrip("\n") + "\n" + m.group(2), text)
open("README.md", "w").write(text)
PY
}

"$bin" solve data/ --format markdown --quiet | splice data || true
if [ -d "$shared" ]; then
    "$bin" bench "$shared/siconos/fc3d" --method nsgs --siconos --format markdown 2>/dev/null | splice bench-siconos
    "$bin" bench "$shared/siconos/fc3d" --method nsn --solve --siconos --repeat 3 --format markdown 2>/dev/null | splice bench-newton
    small=("$shared"/siconos/fc3d/Rover*.dat "$shared"/siconos/fc3d/FrictionContact3D_*.dat "$shared"/siconos/fc3d/FC3D_Example1*.dat)
    for m in nsgs auto; do
        "$bin" bench "${small[@]}" --method $m --solve --siconos --siconos-solver NSGS,PROX,NSN_AC,NSN_FB --repeat 20 --format markdown 2>/dev/null | splice bench-small-$m
    done
fi
"$bin" bench --scene box-stack --format markdown | splice bench-box-stack
"$bin" bench --scene pyramid --contacts 100,1000,10000 --format markdown | splice bench-pyramid
echo "README.md results regenerated on $(date -u +%Y-%m-%d) ($(nproc) cores)"
