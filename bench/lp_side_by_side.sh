#!/usr/bin/env bash
# galac's sequence-form LP per backend (and its public LP, where the game
# is in vector CFR's class) against scipy's HiGHS on the same LP,
# in one run: the lpsolve bench solves each case (and writes the LP it gives
# HiGHS), then bench/lp_scipy.py solves that file with scipy's linprog
# (method highs). Needs scipy (bench/requirements.txt). Usage:
#   bench/lp_side_by_side.sh [CASE...]   (default: leduc liars leduc13)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(leduc liars leduc13)
uptime
cargo bench --locked -p galac-tests --bench lpsolve -- "${cases[@]}" --write-lp "$dir"
for c in "${cases[@]}"; do
  python3 bench/lp_scipy.py "$dir/$c.lp.txt"
  # The public LP (clarabel-pub, highs-pub rows) of a case in vector CFR's class.
  [ ! -f "$dir/$c.pub.lp.txt" ] || python3 bench/lp_scipy.py "$dir/$c.pub.lp.txt"
done
uptime
