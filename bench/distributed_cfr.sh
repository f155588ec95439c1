#!/usr/bin/env bash
# Distributed CFR (`--distributed`, issue 47) against the threaded solver:
# iterations per second of CFR+ on 13-rank Leduc and liar's dice, threaded
# on 2 and 1 threads and under `mpirun` on 1 and 2 loopback ranks, with the
# bytes each rank puts into the collectives an iteration (the answer's
# note); then the peak memory of each rank (each on its shard) on 1, 2 and
# 4 ranks of LEDUC_RANKS-rank Leduc (default 40), two iterations.
# OpenMPI; as root in a container the env below lets mpirun run.
#
#   apt-get install -y libopenmpi-dev openmpi-bin libclang-dev   # once
#   cargo build --release -p galac --features mpi
#   bash bench/distributed_cfr.sh
#
# What is timed: `seconds.cfr` of the JSON answer (the iterations, without
# tree generation and without the check after the last iteration). Env:
# GALAC (default $CARGO_TARGET_DIR/release/galac or target/release/galac).
set -euo pipefail

cd "$(dirname "$0")/.."
G=${GALAC:-${CARGO_TARGET_DIR:-target}/release/galac}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
rate() {
    python3 -c "
import json, re, sys
d = json.load(sys.stdin)
n = int(re.search(r'\((\d+) iterations', d['solver']).group(1))
print('%d it in %.3f s: %.1f it/s; NashConv %.6e; %s' % (n, d['seconds']['cfr'], n / d['seconds']['cfr'], d['exploitability'], d['notes']))"
}
for game in "examples/leduc.gala --param ranks=13:300" "examples/liars_dice.gala:100"; do
    g=${game%%:*}
    n=${game##*:}
    # shellcheck disable=SC2206
    args=(solve $g --solver cfr+ --iterations "$n" --check-every 1000000 --format json)
    uptime
    echo "== $g, threaded, 2 threads"; "$G" "${args[@]}" --threads 2 | rate
    echo "== $g, threaded, 1 thread"; "$G" "${args[@]}" --threads 1 | rate
    echo "== $g, mpirun -np 1"; mpirun -np 1 "$G" "${args[@]}" --distributed | rate
    echo "== $g, mpirun -np 2"; mpirun -np 2 "$G" "${args[@]}" --distributed | rate
done
n=${LEDUC_RANKS:-40}
for r in 1 2 4; do
    uptime
    echo "== $n-rank Leduc, peak RSS of each of $r ranks"
    mpirun -np "$r" /usr/bin/time -f "rank peak %M KiB, %e s" "$G" solve examples/leduc.gala --param "ranks=$n" \
        --solver cfr+ --iterations 2 --check-every 1000000 --format json --distributed | rate
done
