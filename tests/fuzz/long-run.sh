#!/usr/bin/env bash
# Long fuzz runs for docs/reliability.md (not part of CI): runs fuzz targets from an already built
# tree with W worker processes each, all workers of a target sharing one corpus folder (libFuzzer
# -jobs/-workers; each job re-reads the others' new units), for a bounded time, then sums the
# executions of every job. Any crash, leak, timeout, sanitizer report or broken invariant stops
# that job with a non-zero exit and its input saved in OUTDIR/artifacts/.
# Usage: bash tests/fuzz/long-run.sh BUILD_DIR OUTDIR SECONDS TARGET=WORKERS [TARGET=WORKERS ...]
#   e.g. bash tests/fuzz/long-run.sh build-fuzz-long /tmp/fuzz 3600 fuzz_decode_link=2 fuzz_cli=1
# OUTDIR/corpus/<target> is kept across runs (seeded from tests/fuzz/corpus/<target>), merged to
# a subset of the same coverage before each run;
# OUTDIR/summary.txt gets one line per target: executions, jobs, failures.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$1" && pwd); out=$2; seconds=$3; shift 3
mkdir -p "$out/artifacts" && out=$(cd "$out" && pwd)
declare -A dicts=([fuzz_decode_link]=link [fuzz_scenario_json]=scenario_json [fuzz_scenario_fields]=scenario_fields [fuzz_import_hf]=import_hf [fuzz_import_gguf]=import_gguf
                  [fuzz_import_deepspeed]=import_deepspeed [fuzz_cli]=cli)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pids=()
for spec in "$@"; do
  target=${spec%%=*} workers=${spec#*=}
  corpus=$out/corpus/$target logs=$out/logs/$target
  mkdir -p "$corpus" "$logs"
  cp -n "$root/tests/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
  # Continuing runs: the folder keeps every unit the workers ever wrote (34k files after a few
  # hours), which -reload=1 lists every second (perf: 4-5 % of the time). Merge it first (-merge=1
  # keeps a subset with the same coverage: 2.8k files); the merge's executions are not counted.
  (cd "$logs" && rm -rf "$corpus.merged" && mkdir "$corpus.merged" && "$build/tests/fuzz/$target" -merge=1 \
     -timeout=10 -rss_limit_mb=2048 -max_len=16384 "$corpus.merged" "$corpus" > merge.log 2>&1 \
     && [ -n "$(ls -A "$corpus.merged")" ] && rm -rf "$corpus" && mv "$corpus.merged" "$corpus") \
    || echo "$target: merge failed (logs/$target/merge.log), fuzzing the folder as it is" >&2
  # -jobs=W -workers=W: W processes, each fuzzing for SECONDS; logs as fuzz-<job>.log in $logs.
  (cd "$logs" && "$build/tests/fuzz/$target" -jobs="$workers" -workers="$workers" -max_total_time="$seconds" \
     -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 -reload=1 \
     -dict="$root/tests/fuzz/dict/${dicts[$target]}.dict" -artifact_prefix="$out/artifacts/$target-" \
     "$corpus" > "$logs/driver.log" 2>&1; echo $? > "$logs/rc") &
  pids+=($!)
done
wait "${pids[@]}"
for spec in "$@"; do
  target=${spec%%=*} logs=$out/logs/$target
  runs=$(cat "$logs"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s+=$1} END {print s+0}')
  jobs=$(ls "$logs"/fuzz-*.log 2>/dev/null | wc -l)
  bad=$(grep -l -E "ERROR: |INVARIANT|runtime error|==ABORTING|Test unit written" "$logs"/fuzz-*.log 2>/dev/null | wc -l)
  line="$target: ${runs:-0} executions in $jobs jobs of at most ${seconds} s, $bad jobs with findings, corpus $(ls "$out/corpus/$target" | wc -l) units, exit $(cat "$logs/rc")"
  echo "$line" | tee -a "$out/summary.txt"
done
