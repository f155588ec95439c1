#!/usr/bin/env bash
# Side by side: galac and postflop-solver on the hold'em spot of issue 45
# (flop Td9d6h, turn Qc, river 2s; pot 200, stack 900; bets 50%, 100% and
# all-in, raises 2.5x and all-in on every street; no all-in or merging
# thresholds; no rake), to exploitability 0.3% of the pot, two threads each.
# Three cases: river with the two example ranges, river with every hand for
# both players, turn with the example ranges.
#
#   cargo build --release --locked -p galac --features png   # the README's build
#   bash bench/holdem_side_by_side.sh [cases...]    # default: river river-all turn
#
# The README's build, as cli/symbol-order.txt names its functions: the
# linker lays out together the code a run executes, which galac's peak
# counts (bench/symbol_order.sh).
# postflop-solver (AGPL-3.0) is built here as a bench-only crate outside the
# workspace, from bench/holdem_peer/main.rs and the source snapshot in
# $POSTFLOP_SOLVER (default ../shared/peers/postflop-solver); it is never
# linked into galac. What is timed, on both sides: from the built tree to the
# target, exploitability checks included; both check every 10 iterations
# (postflop-solver's own `solve` does; galac's `--check-every 10`, where its
# automatic schedule spaces checks by a quarter of the iterations so far and
# so passes the target by up to that, 101 iterations on the river against
# 90); galac's tree generation and the derivation of its public game are
# shown apart. Peak memory: the process's.
# Agreement: both must build the same action tree (decision and terminal
# nodes per street: postflop-solver's ActionTree, galac's public game, whose
# river nodes are per river card on the turn) and
# OOP's first-action frequencies (over OOP's hands, weighted by their reach)
# must agree within 2 percentage points; the script prints both and exits 1
# when either check fails.
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
# How much of cli/symbol-order.txt the binary still defines: names change
# with a crate's dependencies and paths, and a stale list lays out less
# code together, which galac's peak shows (bench/symbol_order.sh remakes it).
if [ -x "$GALAC" ] && command -v nm >/dev/null; then
    found=$(nm --defined-only "$GALAC" | awk 'NR == FNR { want[$1] = 1; next } ($3 in want) && !seen[$3]++ { n++ } END { print n + 0 }' \
        cli/symbol-order.txt -)
    listed=$(grep -c . cli/symbol-order.txt)
    echo "symbol order: $found of $listed names in galac$([ $((found * 10)) -lt $((listed * 9)) ] && echo ' (stale: run bench/symbol_order.sh)')"
fi
echo

# Every two-card hand, as a range.
ALL="22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
# galac reports NashConv, the sum of both players' gains from deviating;
# postflop-solver's exploitability is their mean: the same target is twice
# as many chips in NashConv.
NASHCONV=$(python3 -c "print(2 * 200 * $GOAL)")

status=0
for case in "${CASES[@]}"; do
    echo "== $case"
    peer_line=$("$PEER" "$case" "$GOAL")
    echo "postflop-solver: $peer_line"
    # River cards per public river node (galac counts a public node per
    # river card, postflop-solver its action tree once).
    file=examples/holdem_river.gala
    cards=1
    case $case in
        river) params=() ;;
        river-all) params=(--param "oop_range=$ALL" --param "ip_range=$ALL" --step-limit 100000000) ;;
        turn) file=examples/holdem_turn.gala params=(--step-limit 100000000) cards=48 ;;
    esac
    if [ -x "$GALAC" ]; then
        /usr/bin/time -o "$TARGET_DIR/holdem-galac.time" -f '%M' "$GALAC" solve "$file" "${params[@]}" \
            --solver vcfr --target-exploitability "$NASHCONV" --check-every 10 --threads "$RAYON_NUM_THREADS" --format json \
            >"$TARGET_DIR/holdem-galac.json"
        python3 - "$TARGET_DIR/holdem-galac.json" "$(cat "$TARGET_DIR/holdem-galac.time")" "$peer_line" "$cards" <<'PY' || status=1
import json, sys
d = json.load(open(sys.argv[1]))
peer = json.loads(sys.argv[3])
s = d["seconds"]
# OOP's first decision, over its hands weighted by reach (solve's `hands`).
root = next(g for g in d["hands"] if g["player"] == "oop")
galac_root = dict(zip(root["actions"], root["frequencies"]))
print("galac: {{\"value\": {}, \"nashconv\": {:.4f}, \"exploitability_pot\": {:.5f}, \"generate_s\": {:.3f}, "
      "\"public_game_s\": {:.3f}, \"solve_s\": {:.3f}, \"peak_rss_mib\": {:.1f}, \"solver\": \"{}\", "
      "\"public_game\": {}, \"oop_root\": {}}}".format(
    json.dumps(d["value"]), d["exploitability"], d["exploitability"] / 2 / 200, s.get("generate", 0), s["public_game"],
    s["vcfr"] + s["exploitability_checks"], int(sys.argv[2]) / 1024, d["solver"],
    json.dumps(d["public_game"]), json.dumps({a: round(f, 4) for a, f in galac_root.items()})))

def trimmed(counts):
    counts = list(counts)
    while counts and counts[-1] == 0:
        counts.pop()
    return counts

# Past the first street galac has a public node per river card: its counts
# there, divided by the cards, are postflop-solver's.
cards = int(sys.argv[4])
def per_card(counts):
    return [c if s == 0 else c / cards for s, c in enumerate(trimmed(counts))]
if cards == 1:
    same_tree = all(trimmed(d["public_game"][k]) == trimmed(peer[k]) for k in ("decisions", "leaves"))
else:
    # postflop-solver counts a river chance node as a river decision, and
    # its leaves apart from galac's all-in lines: decisions alone compare.
    same_tree = per_card(d["public_game"]["decisions"]) == trimmed(peer["decisions"])
print("same action tree: {} (decisions per street galac {} / postflop-solver {}; leaves {} / {}; galac per river card)".format(
    "yes" if same_tree else "NO", per_card(d["public_game"]["decisions"]), trimmed(peer["decisions"]),
    per_card(d["public_game"]["leaves"]), trimmed(peer["leaves"])))
gaps = {a: abs(galac_root.get(a, float("nan")) - f) for a, f in peer["oop_root"].items()}
worst = max(gaps.values())
agree = set(galac_root) == set(peer["oop_root"]) and worst <= 0.02
print("OOP's first action agrees within 2 points: {} (largest gap {:.2f} points: {})".format(
    "yes" if agree else "NO", 100 * worst,
    ", ".join("{} {:.1f}% / {:.1f}%".format(a, 100 * galac_root.get(a, float("nan")), 100 * f)
              for a, f in peer["oop_root"].items())))
sys.exit(0 if same_tree and agree else 1)
PY
    else
        echo "galac: $GALAC is missing (cargo build --release --locked -p galac --features png)"
    fi
    echo
done
exit $status
