#!/usr/bin/env bash
# DO-B / DO-SA / DO-SWP against the full sequence-form LP, same game in one
# run: the first player's value, NashConv (the LP's on the full tree; the
# oracle's exact gap, which is its answer's NashConv, computed with
# --no-tree so that the time is the oracle's alone, unless DO_FLAGS has a
# warm start, which builds the tree), iterations, the final
# restricted game's sequences per player and their share of the game's,
# wall and CPU seconds, peak
# memory. Usage:
#   bench/double_oracle.sh [GALAC]   (default: $CARGO_TARGET_DIR/release/galac)
# Environment: GAMES (one game per line, file and params, replaces the
# list below), SOLVERS (default "lp do-b do-sa do-swp"), LIMIT (seconds a
# run may take, default 600), DO_FLAGS (more flags for the oracle's runs,
# e.g. "--warm-start-cfr 100 --lp-backend highs").
set -euo pipefail
cd "$(dirname "$0")/.."
GALAC=${1:-${CARGO_TARGET_DIR:-target}/release/galac}
LIMIT=${LIMIT:-600}
SOLVERS=${SOLVERS:-lp do-b do-sa do-swp}
read -r -a do_flags <<<"${DO_FLAGS:-}"
# The oracle runs without the full tree, unless a warm start builds it
# (`--warm-start-cfr` refuses `--no-tree`).
no_tree=(--no-tree)
[[ " ${DO_FLAGS:-} " == *" --warm-start-cfr "* ]] && no_tree=()
tmp=$(mktemp)
tm=$(mktemp)
trap 'rm -f "$tmp" "$tm"' EXIT
default_games="examples/kuhn.gala
examples/leduc.gala
examples/goofspiel.gala
examples/generic_poker.gala --param types=2 --param bet_sizes=2
examples/search_game.gala --param graph=0 --param depth=4
examples/search_game.gala --param graph=1 --param depth=4
examples/search_game.gala --param graph=2 --param depth=4
examples/search_game.gala --param graph=0 --param depth=5
examples/search_game.gala --param graph=1 --param depth=5
examples/search_game.gala --param graph=2 --param depth=5
examples/search_game.gala --param graph=1 --param depth=6
examples/phantom_ttt.gala --param marks=3
examples/phantom_ttt.gala --param marks=4
examples/phantom_ttt.gala --param marks=5"
GAMES=${GAMES:-$default_games}
echo "| game | solver | value | NashConv | iterations | restricted sequences (share of full) | wall s | CPU s | peak MB |"
echo "|---|---|---|---|---|---|---|---|---|"
while IFS= read -r g; do
  [ -n "$g" ] || continue
  read -r -a argv <<<"$g"
  stats=$(timeout "$LIMIT" "$GALAC" tree "${argv[@]}" 2>/dev/null || true)
  full=$(sed -n 's/^nodes: \([0-9]*\).*/\1/p' <<<"$stats")
  seqs=$(sed -n 's/^sequences: [^ ]* \([0-9]*\), [^ ]* \([0-9]*\)/\1 \2/p' <<<"$stats")
  for s in $SOLVERS; do
    if [ "$s" = lp ]; then flags=(--solver lp); else flags=(--solver do --variant "${s#do-}" "${no_tree[@]}" "${do_flags[@]}"); fi
    rc=0
    /usr/bin/time -f "%e %U %S %M" -o "$tm" timeout "$LIMIT" "$GALAC" solve "${argv[@]}" "${flags[@]}" --format json >"$tmp" 2>/dev/null || rc=$?
    python3 - "$g" "${full:-?}" "${seqs:-}" "$s" "$rc" "$tm" "$tmp" <<'PY'
import json, sys
game, full, seqs, solver, rc, tm, out = sys.argv[1:8]
wall, user, sys_, peak = open(tm).read().split()[-4:]
cpu = float(user) + float(sys_)
name = f"{game.replace('examples/', '').replace(' --param', '')} ({full} nodes)"
if rc != "0":
    why = "time limit" if rc == "124" else f"exit {rc}"
    print(f"| {name} | {solver} | {why} | | | | {float(wall):.1f} | {cpu:.1f} | {int(peak) // 1024} |")
    sys.exit()
d = json.load(open(out))
do = d.get("double_oracle")
if do:
    value = (do["lower"] + do["upper"]) / 2
    nashconv = do["gap"]
    its = len(do["iterations"])
    last = do["iterations"][-1]["sequences"]
    full_seqs = [int(x) for x in seqs.split()] if seqs else None
    share = f" ({100 * sum(last) / sum(full_seqs):.1f}%)" if full_seqs else ""
    rseqs = f"{last[0]}/{last[1]}{share}"
else:
    # The first player's value, as the oracle's bounds are.
    import re
    src = open(game.split()[0]).read()
    first = re.search(r"^\s*players\s+(\w+)", src, re.M).group(1)
    value = d["value"][first]
    nashconv = d["exploitability"]
    its = 1
    rseqs = "/".join(seqs.split()) + " (full)" if seqs else "-"
print(f"| {name} | {solver} | {value:.9f} | {nashconv:.1e} | {its} | {rseqs} | {float(wall):.2f} | {cpu:.2f} | {int(peak) // 1024} |")
PY
  done
done <<<"$GAMES"
