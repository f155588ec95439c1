#!/usr/bin/env bash
# Writes cli/symbol-order.txt: the functions of the galac binary that a few
# typical runs execute, for the linker to lay out together at the front of
# the binary's code (cli/build.rs passes it to lld as
# `--symbol-ordering-file`).
#
# Why: the kernel maps a binary's code into a process 64 KiB around each
# page it touches (fault-around), and left to the linker the code one run
# executes is spread over most of galac's 6.7 MB, so a run's resident
# code was most of it; laid out together it is about the code executed.
# Figures: BENCHMARKS.md, "Hold'em" and "Memory".
#
# The names are mangled, with hashes that change with the toolchain and
# with a function's path or generic arguments, not with its body: a stale
# name is ignored by the linker (the order of the others is kept), so the
# file degrades with renames and toolchain updates rather than breaking a
# build. Rerun this after either, and commit the file.
#
#   bash bench/symbol_order.sh        # needs valgrind; about 5 minutes
#
# The runs: `check`; solving Kuhn (the LP); the hold'em river by vector CFR
# in text, with every hand in JSON, and the turn for 12 iterations. Functions
# executed by more of them come first, then in order of first execution.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
# The build the README sets up (its `png` feature changes the names).
cargo build --quiet --release --locked -p galac --features png
GALAC=$TARGET_DIR/release/galac
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

ALL="22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
VCFR=(--solver vcfr --check-every 10 --threads 2)
run() {
    local name=$1
    shift
    valgrind -q --tool=callgrind --demangle=no "--callgrind-out-file=$WORK/$name.out" "$GALAC" "$@" >/dev/null
}
run check check examples/holdem_river.gala
run kuhn solve examples/kuhn.gala
run river solve examples/holdem_river.gala "${VCFR[@]}" --target-exploitability 1.2
run river_all solve examples/holdem_river.gala --param "oop_range=$ALL" --param "ip_range=$ALL" \
    --step-limit 100000000 "${VCFR[@]}" --target-exploitability 1.2 --format json
run turn solve examples/holdem_turn.gala --step-limit 100000000 "${VCFR[@]}" --iterations 12 --format json

# The binary's own functions (not the C library's, which callgrind lists too).
nm --defined-only "$GALAC" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$WORK/defined.txt"
python3 - "$WORK" >cli/symbol-order.txt <<'PY'
import collections, re, sys
work = sys.argv[1]
defined = set(open(f"{work}/defined.txt").read().split())
first, runs = {}, collections.Counter()
for name in ("check", "kuhn", "river", "river_all", "turn"):
    seen = set()
    for line in open(f"{work}/{name}.out"):
        m = re.match(r"c?fn=\(\d+\) (.+)", line)
        if m and m.group(1) in defined and m.group(1) not in seen:
            seen.add(m.group(1))
            first.setdefault(m.group(1), len(first))
    runs.update(seen)
for name in sorted(first, key=lambda n: (-runs[n], first[n])):
    print(name)
PY
echo "cli/symbol-order.txt: $(wc -l <cli/symbol-order.txt) functions"
