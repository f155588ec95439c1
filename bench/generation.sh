#!/usr/bin/env bash
# Tree generation in one run, per game: the compiled solver on one thread
# and on two, galac's interpreter, and OpenSpiel's C++ tree walk where
# OpenSpiel has the game (Leduc, 13-rank Leduc, liar's dice): the table of
# BENCHMARKS.md, Tree generation.
#
#   pip install -r bench/requirements.txt   # once (OpenSpiel)
#   cargo build --release -p galac
#   bash bench/generation.sh
#
# What is timed: the `generation:` line of `tree -q` (the build, without
# start-up, the parse or the check) in a fresh process, best of RUNS
# (default 3); peak memory of the same process (`/usr/bin/time %M`).
# OpenSpiel: `bench/openspiel_tree.py` (the `pyspiel.CFRSolver(game)`
# constructor, which walks the whole tree; best of its runs).
# Env: GALAC, RUNS, INTERP_BUDGET (default 200: the interpreter is skipped
# on games whose compiled build times 40 exceed it, with the estimate
# printed), GALAC_CACHE_DIR (where compiled solvers are kept), GAMES (the
# rows to run, default all: `GAMES="leduc liars_dice"` for the small games).
set -euo pipefail

cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
GALAC=${GALAC:-${CARGO_TARGET_DIR:-target}/release/galac}
RUNS=${RUNS:-3}
INTERP_BUDGET=${INTERP_BUDGET:-200}
GAMES=${GAMES:-leduc leduc13 liars_dice poker65M blind_tictactoe}
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT

echo "== machine"
echo "nproc: $(nproc); $(lscpu | grep 'Model name' | sed 's/  */ /g')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

# best RUNS CMD...: the fastest `generation:` seconds of RUNS fresh runs,
# with its nodes/s and peak KiB.
best() {
    local runs=$1 i out secs kb best_s="" best_line=""
    shift
    for i in $(seq "$runs"); do
        out=$( { /usr/bin/time -f "PEAK %M" "$@" -q; } 2>&1 )
        secs=$(echo "$out" | awk '/^generation:/ {print $2}')
        kb=$(echo "$out" | awk '/^PEAK/ {print $2}')
        if [ -z "$best_s" ] || awk "BEGIN {exit !($secs < $best_s)}"; then
            best_s=$secs
            best_line="$(echo "$out" | awk '/^generation:/ {print $2 " s, " substr($4, 2) " nodes/s"}'), peak $kb KiB"
        fi
    done
    echo "$best_line"
}

# row NAME FILE PARAMS...: one game.
row() {
    local name=$1 file=$2 stem
    shift 2
    [[ " $GAMES " == *" $name "* ]] || return 0
    stem=$(basename "$file" .gala)
    [ -x "$BIN/$stem" ] || "$GALAC" "$file" -o "$BIN/$stem" >/dev/null 2>&1
    local limits=(--step-limit 100000000 --max-nodes 2000000000 --max-memory 20000)
    echo
    echo "== $name ($file $*)"
    local one two
    one=$(best "$RUNS" "$BIN/$stem" tree "$@" "${limits[@]}" --threads 1)
    two=$(best "$RUNS" "$BIN/$stem" tree "$@" "${limits[@]}" --threads 2)
    echo "compiled, 1 thread:  $one"
    echo "compiled, 2 threads: $two"
    local secs
    secs=$(echo "$one" | awk '{print $1}')
    if awk "BEGIN {exit !($secs * 40 <= $INTERP_BUDGET)}"; then
        echo "interpreter:         $(best 1 "$GALAC" tree "$file" "$@" "${limits[@]}" --threads 1)"
    else
        echo "interpreter:         skipped (about 40 x $secs s > INTERP_BUDGET=$INTERP_BUDGET s)"
    fi
}

row leduc examples/leduc.gala
row leduc13 examples/leduc.gala --param ranks=13
row liars_dice examples/liars_dice.gala
row poker65M examples/poker.gala --param ranks=13 --param suits=4 --param cash=12
row blind_tictactoe examples/blind_tictactoe.gala

# The games of GAMES that OpenSpiel has.
spiel=()
for g in leduc leduc13 liars_dice; do
    if [[ " $GAMES " == *" $g "* ]]; then spiel+=("$g"); fi
done
if [ ${#spiel[@]} -gt 0 ]; then
    echo
    echo "== OpenSpiel C++ (pyspiel.CFRSolver construction)"
    "$PY" bench/openspiel_tree.py --games "${spiel[@]}" --count-budget 0 | grep -E '^(open_spiel|RESULT)'
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
