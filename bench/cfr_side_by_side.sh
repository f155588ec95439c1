#!/usr/bin/env bash
# Side by side: iterations per second of CFR+ in galac (`galac solve
# --solver cfr+`, one thread and two; with two the solver times one thread
# against two as it runs and keeps the faster, so on a busy machine "two"
# may mostly run one) and in OpenSpiel's C++
# `pyspiel.CFRPlusSolver`, on Leduc, 13-rank Leduc and (when
# examples/liars_dice.gala exists) liar's dice.
#
#   pip install -r bench/requirements.txt   # once
#   cargo build --release -p galac
#   bash bench/cfr_side_by_side.sh
#
# What is timed: galac's `seconds.cfr` of the JSON answer (the iterations,
# without tree generation and without the exactness check after the last
# iteration); OpenSpiel's `evaluate_and_update_policy` calls (the solver is
# built before the clock starts). Env: GALAC (default
# $CARGO_TARGET_DIR/release/galac or target/release/galac), PYTHON.
set -euo pipefail

cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
GALAC=${GALAC:-${CARGO_TARGET_DIR:-target}/release/galac}

echo "== machine"
echo "nproc: $(nproc)"
lscpu | grep 'Model name' || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo

# galac_rate FILE ITERATIONS THREADS [ARGS...]: iterations per second.
galac_rate() {
    local file=$1 n=$2 threads=$3
    shift 3
    "$GALAC" solve "$file" "$@" --solver cfr+ --iterations "$n" --check-every "$n" \
        --threads "$threads" --format json |
        "$PY" -c "import json,sys; d=json.load(sys.stdin); s=d['seconds']['cfr']; print(f'{$n/s:.1f} it/s ({$n} iterations in {s:.3f} s; NashConv {d[\"exploitability\"]:.3e})')"
}

row() {
    local name=$1 file=$2 n_galac=$3 n_os=$4
    shift 4
    echo "== $name"
    echo "galac, 1 thread:  $(galac_rate "$file" "$n_galac" 1 "$@")"
    echo "galac, 2 threads: $(galac_rate "$file" "$n_galac" 2 "$@")"
    echo "OpenSpiel C++:    $("$PY" bench/openspiel_cfr.py "$name" "$n_os" | awk '/^RESULT/ {print $5 " it/s (" $3 " iterations in " $4 " s)"}')"
    echo
}

row leduc examples/leduc.gala 20000 200
row leduc13 examples/leduc.gala 200 3 --param ranks=13
if [ -f examples/liars_dice.gala ]; then
    row liars_dice examples/liars_dice.gala 200 20
else
    echo "== liars_dice: examples/liars_dice.gala not found, skipped"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
