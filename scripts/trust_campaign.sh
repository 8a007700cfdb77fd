#!/usr/bin/env bash
# The campaign of issue 27: `auto` and the best of our methods against the best of four
# Siconos solvers (NSGS, PROX, NSN_AC, NSN_FB) at 1e-8, on every shipped fc3d file and on
# problems dumped from the crate's own simulations (every scene, several sizes), converted
# to Siconos .dat so that both sides read the same numbers.
#
#   bash scripts/trust_campaign.sh OUTDIR      (needs /usr/bin/python3 with python3-siconos)
#
# Writes OUTDIR/problems/*.dat, OUTDIR/campaign.jsonl and prints `bench ratios`.
set -euo pipefail
out=${1:?usage: trust_campaign.sh OUTDIR}
bin=${NONSMOOTH_BIN:-target/release/nonsmooth}
[ -x "$bin" ] || cargo build --release --bin nonsmooth
mkdir -p "$out/problems" "$out/dumps"
cp data/siconos/fc3d/*.dat "$out/problems/"

# scene, size flag, steps, keep every k-th dumped step
dump() {
    local name=$1 k=$2; shift 2
    local d="$out/dumps/$name"
    rm -rf "$d"
    "$bin" simulate "$@" -m nsgs --max-iter 200 --quiet --dump-problems "$d" > /dev/null
    local i=0
    for f in $(ls "$d"/step-*.json | sort); do
        if [ $((i % k)) -eq $((k - 1)) ]; then
            "$bin" convert "$f" -o "$out/problems/sim-$name-$(basename "$f" .json).dat"
        fi
        i=$((i + 1))
    done
}
dump pile30-s0 15 pile --n 30 --seed 0 --steps 150
dump pile30-s1 15 pile --n 30 --seed 1 --steps 150
dump pile60 15 pile --n 60 --seed 2 --steps 150
dump box-stack10 10 box-stack --n 10 --steps 50
dump heavy-on-light 20 heavy-on-light --ratio 1000 --steps 100
dump wall4 10 wall --n 4 --steps 50
dump tower4 10 tower --n 4 --steps 50
dump ball-grid4 20 ball-grid --n 4 --steps 100
ls "$out/problems" | wc -l

"$bin" bench "$out/problems" -m auto,nsgs,nsn,ppa --siconos \
    --siconos-solver NSGS,PROX,NSN_AC,NSN_FB --tol 1e-8 --timeout 30 \
    --jsonl "$out/campaign.jsonl" > "$out/table.txt"
"$bin" bench ratios "$out/campaign.jsonl"
