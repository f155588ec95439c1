#!/usr/bin/env bash
# DO-B / DO-SA / DO-SWP against the full sequence-form LP, same game in one
# run: value, NashConv (on the full tree), iterations, the final
# restricted game's sequences per player, wall seconds. Usage:
#   bench/double_oracle.sh [GALAC]   (default: $CARGO_TARGET_DIR/release/galac)
set -euo pipefail
cd "$(dirname "$0")/.."
GALAC=${1:-${CARGO_TARGET_DIR:-target}/release/galac}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
games=(
  "examples/kuhn.gala"
  "examples/poker.gala"
  "examples/inspection.gala --param stages=5 --param inspections=2"
  "examples/leduc.gala"
  "examples/goofspiel.gala"
  "examples/generic_poker.gala --param types=2 --param bet_sizes=2"
)
echo "| game | solver | value | NashConv | iterations | restricted sequences (first / second) | seconds |"
echo "|---|---|---|---|---|---|---|"
for g in "${games[@]}"; do
  read -r -a argv <<<"$g"
  stats=$("$GALAC" tree "${argv[@]}")
  full=$(sed -n 's/^nodes: \([0-9]*\).*/\1/p' <<<"$stats")
  seqs=$(sed -n 's/^sequences: [^ ]* \([0-9]*\), [^ ]* \([0-9]*\)/\1\/\2/p' <<<"$stats")
  for s in lp do-b do-sa do-swp; do
    if [ "$s" = lp ]; then flags=(--solver lp); else flags=(--solver do --variant "${s#do-}"); fi
    start=$(date +%s.%N)
    "$GALAC" solve "${argv[@]}" "${flags[@]}" --format json >"$tmp"
    end=$(date +%s.%N)
    python3 - "$g ($full nodes, $seqs sequences)" "$s" "$start" "$end" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[5]))
game, solver, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
do = d.get("double_oracle")
its = len(do["iterations"]) if do else 1
seqs = "/".join(str(x) for x in do["iterations"][-1]["sequences"]) if do else "-"
print(f"| {game} | {solver} | {d['value'][list(d['value'])[0]]:.9f} | {d['exploitability']:.1e} | {its} | {seqs} | {end - start:.2f} |")
PY
  done
done
