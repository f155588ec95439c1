#!/usr/bin/env bash
# Distributed CFR (`--distributed`, issue 47) against the threaded solver:
# iterations per second of CFR+ on 13-rank Leduc and liar's dice, threaded
# on 2 and 1 threads and under `mpirun` on 1 and 2 loopback ranks, with the
# bytes each rank puts into the collectives an iteration (the answer's
# note); then the peak memory of each rank (each on its shard) on 1, 2 and
# 4 ranks of LEDUC_RANKS-rank Leduc (default 40; 0: skip it), two
# iterations.
# OpenMPI; as root in a container the env below lets mpirun run.
#
#   apt-get install -y libopenmpi-dev openmpi-bin libclang-dev   # once
#   cargo build --release -p galac --features mpi
#   bash bench/distributed_cfr.sh
#
# What is timed: `seconds.cfr` of the JSON answer (the iterations, without
# tree generation and without the check after the last iteration). Env:
# GALAC (default $CARGO_TARGET_DIR/release/galac or target/release/galac).
#
# With CALLGRIND=1, instead: instructions an iteration (callgrind, which a
# loaded machine does not change), threaded on 1 thread and on 1 and 2
# ranks (each rank's own), as the difference of two runs of N and 6N
# iterations over 5N (so the tree's build and the last check cancel out).
# With WIRE=1, instead: the bytes the ranks send an iteration over TCP on
# loopback (OpenMPI's tcp transport, not shared memory), read from the
# loopback's counter in /proc/net/dev over runs of 20 and 120
# iterations, on 2 and 4 ranks (other traffic on lo counts too: run it
# on a quiet machine).
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
if [ "${WIRE:-0}" = 1 ]; then
    lo() { awk '/^ *lo:/ {print $2}' /proc/net/dev; }
    for g in "examples/leduc.gala --param ranks=13" examples/liars_dice.gala; do
        for r in 2 4; do
            bytes=()
            for n in 20 120; do
                before=$(lo)
                # shellcheck disable=SC2086
                OMPI_MCA_btl=self,tcp mpirun -np $r "$G" solve $g --solver cfr+ --iterations $n \
                    --check-every 1000000 --quiet --distributed >/dev/null
                bytes+=($(($(lo) - before)))
            done
            echo "$g, $r ranks: $(((bytes[1] - bytes[0]) / 100 / r)) bytes a rank sends an iteration"
        done
    done
    exit 0
fi
if [ "${CALLGRIND:-0}" = 1 ]; then
    cg=$(mktemp -d)
    # Instructions of every callgrind file matching $1, one line each.
    total() { for f in "$1".*; do sed -n 's/^summary: //p' "$f"; done; }
    for game in "examples/leduc.gala --param ranks=13:10" "examples/liars_dice.gala:100"; do
        g=${game%%:*}
        n=${game##*:}
        rm -f "$cg"/*
        for how in threads ranks1 ranks2; do
            for k in 1 6; do
                # shellcheck disable=SC2206
                args=(solve $g --solver cfr+ --iterations $((k * n)) --check-every 1000000 --format json --quiet)
                vg=(valgrind -q --tool=callgrind "--callgrind-out-file=$cg/$how.$k.%p")
                case $how in
                threads) "${vg[@]}" "$G" "${args[@]}" --threads 1 >/dev/null ;;
                ranks1) mpirun -np 1 "${vg[@]}" "$G" "${args[@]}" --distributed >/dev/null ;;
                ranks2) mpirun -np 2 "${vg[@]}" "$G" "${args[@]}" --distributed >/dev/null ;;
                esac
            done
            python3 -c "
import sys
a = sorted(map(int, sys.argv[1].split())); b = sorted(map(int, sys.argv[2].split()))
print('$g, $how: %s instructions an iteration (each process)' % ', '.join('{:,}'.format((y - x) // (5 * $n)) for x, y in zip(a, b)))" \
                "$(total "$cg/$how.1")" "$(total "$cg/$how.6")"
        done
    done
    rm -rf "$cg"
    exit 0
fi
for game in "examples/leduc.gala --param ranks=13:1000" "examples/liars_dice.gala:1000"; do
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
[ "$n" = 0 ] && exit 0
for r in 1 2 4; do
    uptime
    echo "== $n-rank Leduc, peak RSS of each of $r ranks"
    mpirun -np "$r" /usr/bin/time -f "rank peak %M KiB, %e s" "$G" solve examples/leduc.gala --param "ranks=$n" \
        --solver cfr+ --iterations 2 --check-every 1000000 --format json --distributed | rate
done
