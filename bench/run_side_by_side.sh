#!/usr/bin/env bash
# Side by side: OpenSpiel's C++ tree walk (pyspiel.CFRSolver construction)
# against galac's tree generation (IR interpreter, compiled solver), on Leduc hold'em with
# 3 ranks and with 13 ranks.
#
#   pip install -r bench/requirements.txt   # once
#   bash bench/run_side_by_side.sh
#
# Env: RUNS_LEDUC (default 5) and RUNS_LEDUC13 (default 3) set the number of
# runs for both tools (best run kept); COUNT_BUDGET (default 120) bounds the
# OpenSpiel Python node-count walk per game, in seconds.
#
# What is timed:
#   OpenSpiel: `pyspiel.CFRSolver(game)`: the C++ constructor walks the whole
#     tree and fills the info-state table (strings, legal actions, zeroed
#     regrets). The game is loaded before the clock starts.
#   galac: the `generation:` line of `galac tree`: building the tree through
#     the IR interpreter (`--threads 1`), not the parse/check/lower of the file;
#     then the same line of the compiled solver (`galac FILE -o BIN`), on one
#     thread (`--threads 1`) and on two (`--threads 2`, the parallel builder).
# Neither includes process start-up.
#
# Both tools are timed two ways, and each way is compared only with itself:
#   fresh process: each run is a new process that builds once (OpenSpiel:
#     `openspiel_tree.py --runs 1 --count-budget 0`; galac: `tree`), so the
#     build pays for faulting its memory in and for cold caches;
#   one process: the runs are builds repeated in one process (OpenSpiel: the
#     constructions after the node-count walk; galac: `tree --repeat N`).
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS_LEDUC=${RUNS_LEDUC:-5}
RUNS_LEDUC13=${RUNS_LEDUC13:-3}
COUNT_BUDGET=${COUNT_BUDGET:-120}
PY=${PYTHON:-python3}

echo "== machine"
echo "nproc: $(nproc)"
lscpu | grep 'Model name' || true
uname -srm
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
# Read-only look at git (no index refresh): is galac built from a clean tree?
commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
if ! GIT_OPTIONAL_LOCKS=0 git diff --quiet HEAD -- compiler runtime solvers app cli templates Cargo.toml Cargo.lock 2>/dev/null; then
    commit="$commit + uncommitted changes in compiler/ runtime/ or Cargo.*"
fi
echo "commit: $commit"
echo

echo "== OpenSpiel, runs in one process"
os_out=$("$PY" bench/openspiel_tree.py --games leduc --runs "$RUNS_LEDUC" --count-budget "$COUNT_BUDGET"
        "$PY" bench/openspiel_tree.py --games leduc13 --runs "$RUNS_LEDUC13" --count-budget "$COUNT_BUDGET")
echo "$os_out"
echo

# os_fresh NAME RUNS: the best of RUNS first constructions, each in a fresh
# Python process; sets OS_FRESH_S.
os_fresh() {
    local name=$1 runs=$2 i s
    OS_FRESH_S=""
    for ((i = 1; i <= runs; i++)); do
        s=$("$PY" bench/openspiel_tree.py --games "$name" --runs 1 --count-budget 0 | awk '$1 == "RESULT" {print $4}')
        echo "$name, fresh process $i: $s s"
        if [[ -z $OS_FRESH_S ]] || awk -v a="$s" -v b="$OS_FRESH_S" 'BEGIN {exit !(a < b)}'; then
            OS_FRESH_S=$s
        fi
    done
}
echo "== OpenSpiel, one construction per fresh process"
os_fresh leduc "$RUNS_LEDUC"
os_leduc_fresh_s=$OS_FRESH_S
os_fresh leduc13 "$RUNS_LEDUC13"
os_leduc13_fresh_s=$OS_FRESH_S
echo

echo "== galac"
cargo build --release --quiet
rustc --version
GALAC=./target/release/galac

# galac_best NAME RUNS ARGS...: runs `$GALAC tree ARGS` RUNS times, prints each
# `generation:` line, and sets BEST_S / NODES.
galac_best() {
    local name=$1 runs=$2; shift 2
    echo "-- $name: $GALAC tree $*"
    BEST_S=""
    NODES=""
    local i out s
    for ((i = 1; i <= runs; i++)); do
        out=$("$GALAC" tree "$@")
        [[ $i -eq 1 ]] && echo "$out"
        [[ $i -gt 1 ]] && echo "$out" | grep '^generation:'
        NODES=$(echo "$out" | awk '/^nodes:/ {print $2}')
        s=$(echo "$out" | awk '/^generation:/ {print $2}')
        if [[ -z $BEST_S ]] || awk -v a="$s" -v b="$BEST_S" 'BEGIN {exit !(a < b)}'; then
            BEST_S=$s
        fi
    done
}

galac_best leduc "$RUNS_LEDUC" examples/leduc.gala --threads 1
g_leduc_s=$BEST_S g_leduc_n=$NODES
galac_best leduc13 "$RUNS_LEDUC13" examples/leduc.gala --param ranks=13 --threads 1
g_leduc13_s=$BEST_S g_leduc13_n=$NODES

# The compiled solver of the same game (generated Rust), same command.
SOLVER_DIR=$(mktemp -d)
"$GALAC" examples/leduc.gala -o "$SOLVER_DIR/leduc_solver"
INTERP=$GALAC
GALAC=$SOLVER_DIR/leduc_solver
galac_best leduc-compiled "$RUNS_LEDUC" --param ranks=3 --threads 1
c_leduc_s=$BEST_S
galac_best leduc13-compiled "$RUNS_LEDUC13" --param ranks=13 --threads 1
c_leduc13_s=$BEST_S
# The same solver on both cores (the parallel builder; identical tree).
galac_best leduc-compiled-2-threads "$RUNS_LEDUC" --param ranks=3 --threads 2
t_leduc_s=$BEST_S
galac_best leduc13-compiled-2-threads "$RUNS_LEDUC13" --param ranks=13 --threads 2
t_leduc13_s=$BEST_S
# The same solver, its runs repeated in one process (`--repeat`).
galac_best leduc-compiled-one-process 1 --param ranks=3 --threads 1 --repeat "$RUNS_LEDUC"
w_leduc_s=$BEST_S
galac_best leduc13-compiled-one-process 1 --param ranks=13 --threads 1 --repeat "$RUNS_LEDUC13"
w_leduc13_s=$BEST_S
GALAC=$INTERP
rm -rf "$SOLVER_DIR"

echo
echo "== summary (best run; nodes/s = nodes / best seconds)"
echo "-- fresh process: every run a new process that builds once"
{
    printf '%-8s %10s %12s %14s %12s %14s %11s %14s %11s %14s %11s\n' \
        game nodes openspiel_s openspiel_n/s interp_s interp_n/s interp/os compiled_n/s compiled/os 2threads_n/s 2threads/os
    for name in leduc leduc13; do
        read -r _ os_n _ < <(echo "$os_out" | awk -v n="$name" '$1 == "RESULT" && $2 == n {print $2, $3, $4}')
        if [[ $name == leduc ]]; then
            os_s=$os_leduc_fresh_s g_s=$g_leduc_s g_n=$g_leduc_n c_s=$c_leduc_s t_s=$t_leduc_s
        else
            os_s=$os_leduc13_fresh_s g_s=$g_leduc13_s g_n=$g_leduc13_n c_s=$c_leduc13_s t_s=$t_leduc13_s
        fi
        [[ $os_n == "$g_n" ]] || echo "warning: $name node counts differ: OpenSpiel $os_n, galac $g_n" >&2
        awk -v g="$name" -v n="$g_n" -v os="$os_s" -v gs="$g_s" -v cs="$c_s" -v ts="$t_s" 'BEGIN {
            printf "%-8s %10d %12.6f %14.0f %12.6f %14.0f %11.2f %14.0f %11.2f %14.0f %11.2f\n", g, n, os, n / os, gs, n / gs, os / gs, n / cs, os / cs, n / ts, os / ts
        }'
    done
}
echo "-- one process: the best of the runs repeated in one process (compiled, one thread)"
{
    printf '%-8s %10s %12s %14s %12s %14s %11s\n' game nodes openspiel_s openspiel_n/s compiled_s compiled_n/s compiled/os
    for name in leduc leduc13; do
        read -r _ os_n os_s _ < <(echo "$os_out" | awk -v n="$name" '$1 == "RESULT" && $2 == n {print $2, $3, $4, $5}')
        if [[ $name == leduc ]]; then w_s=$w_leduc_s; else w_s=$w_leduc13_s; fi
        awk -v g="$name" -v n="$os_n" -v os="$os_s" -v ws="$w_s" 'BEGIN {
            printf "%-8s %10d %12.6f %14.0f %12.6f %14.0f %11.2f\n", g, n, os, n / os, ws, n / ws, os / ws
        }'
    done
}
