#!/usr/bin/env bash
# Side by side: galac and postflop-solver on the hold'em spot of issue 45
# (flop Td9d6h, turn Qc, river 2s; pot 200, stack 900; bets 50%, 100% and
# all-in, raises 2.5x and all-in on every street; no all-in or merging
# thresholds; no rake), to exploitability 0.3% of the pot, two threads each.
# Three cases: river with the two example ranges, river with every hand for
# both players, turn with the example ranges.
#
#   cargo build --release -p galac
#   bash bench/holdem_side_by_side.sh [cases...]    # default: river river-all turn
#
# postflop-solver (AGPL-3.0) is built here as a bench-only crate outside the
# workspace, from bench/holdem_peer/main.rs and the source snapshot in
# $POSTFLOP_SOLVER (default ../shared/peers/postflop-solver); it is never
# linked into galac. What is timed, on both sides: from the built tree to the
# target, exploitability checks included (postflop-solver checks every 10
# iterations, as its own `solve` does). Peak memory: the process's VmHWM.
# Env: GALAC (default $CARGO_TARGET_DIR/release/galac), TARGET (fraction of
# the pot, default 0.003), THREADS (default 2).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
GALAC=${GALAC:-$TARGET_DIR/release/galac}
PEER_SRC=${POSTFLOP_SOLVER:-$ROOT/../shared/peers/postflop-solver}
GOAL=${TARGET:-0.003}
export RAYON_NUM_THREADS=${THREADS:-2}
CASES=("$@")
[ ${#CASES[@]} -eq 0 ] && CASES=(river river-all turn)

if [ ! -f "$PEER_SRC/Cargo.toml" ]; then
    echo "postflop-solver's source is not at $PEER_SRC (set POSTFLOP_SOLVER)" >&2
    exit 2
fi
PEER_SRC=$(cd "$PEER_SRC" && pwd)

# The peer crate: its own workspace, so that cargo does not take it for a
# member of galac's.
PEER_DIR=$TARGET_DIR/holdem-peer
mkdir -p "$PEER_DIR"
cat >"$PEER_DIR/Cargo.toml" <<TOML
[package]
name = "holdem-peer"
version = "0.0.0"
edition = "2021"
publish = false

[[bin]]
name = "holdem_peer"
path = "$ROOT/bench/holdem_peer/main.rs"

[dependencies]
postflop-solver = { path = "$PEER_SRC", default-features = false, features = ["rayon"] }

[profile.release]
codegen-units = 1
lto = true

[workspace]
TOML
RUSTFLAGS=--cap-lints=allow cargo build --quiet --release --manifest-path "$PEER_DIR/Cargo.toml" \
    --target-dir "$PEER_DIR/target"
PEER=$PEER_DIR/target/release/holdem_peer

echo "== machine"
echo "nproc: $(nproc), threads: $RAYON_NUM_THREADS"
lscpu | grep 'Model name' || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo

for case in "${CASES[@]}"; do
    echo "== $case"
    echo "postflop-solver: $("$PEER" "$case" "$GOAL")"
    case $case in
        river) game=examples/holdem_river.gala; params=() ;;
        river-all) game=examples/holdem_river.gala; params=(--param oop=all --param ip=all) ;;
        turn) game=examples/holdem_turn.gala; params=() ;;
    esac
    if [ -f "$game" ] && [ -x "$GALAC" ]; then
        echo "galac: $(/usr/bin/env time -f '{"peak_rss_mib": %M}' "$GALAC" solve "$game" "${params[@]}" \
            --solver vcfr --target-exploitability "$GOAL" --threads "$RAYON_NUM_THREADS" --format json 2>&1 | tail -c 2000)"
    else
        echo "galac: $game or $GALAC is missing"
    fi
    echo
done
