#!/usr/bin/env bash
# Long run of the differential test (tests/src/differential.rs): random Gala
# programs built through the interpreter and through their generated Rust,
# in batches compiled by tests/build.rs.
#
# Usage: tests/differential_long_run.sh [TOTAL] [BATCH] [FIRST_SEED]
#   TOTAL       programs in all (default 10000)
#   BATCH       programs per batch, i.e. per test build (default 500)
#   FIRST_SEED  seed of the first program (default 0)
# GALAC_DIFF_FEATURES (the generator's switches, see tests/progen/mod.rs)
# is empty by default: every feature on. Turn some off to look past a known
# bug, e.g. GALAC_DIFF_FEATURES=-large_enums.
# Logs go to $LOG_DIR (default target/differential-long-run/), one file per
# batch; a failing batch prints the seeds and the sources of the programs
# that diverge. The exit status is 1 if any batch failed. Reproduce one
# program with GALAC_DIFF_PROGRAMS=1 GALAC_DIFF_SEED=<seed>
# cargo test --workspace --locked differential::.
set -u
cd "$(dirname "$0")/.."
TOTAL=${1:-10000}
BATCH=${2:-500}
FIRST=${3:-0}
LOG_DIR=${LOG_DIR:-target/differential-long-run}
export GALAC_DIFF_FEATURES=${GALAC_DIFF_FEATURES-}
mkdir -p "$LOG_DIR"
failed=0
for ((seed = FIRST; seed < FIRST + TOTAL; seed += BATCH)); do
    n=$((FIRST + TOTAL - seed < BATCH ? FIRST + TOTAL - seed : BATCH))
    log="$LOG_DIR/batch-$seed.log"
    start=$(date +%s)
    GALAC_DIFF_PROGRAMS=$n GALAC_DIFF_SEED=$seed \
        cargo test --workspace --locked differential:: -- --nocapture >"$log" 2>&1
    status=$?
    summary=$(grep -o 'differential: .*' "$log" | tail -1)
    echo "seeds $seed..$((seed + n)): exit $status, $(($(date +%s) - start)) s; ${summary:-no summary (see $log)}"
    if [ $status -ne 0 ]; then
        failed=1
        grep -E '^=== seed' "$log" | sed 's/^/    /'
    fi
done
exit $failed
