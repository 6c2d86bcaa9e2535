#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang, ASan and UBSan in a build
# folder of their own and runs each for a short time: CI's smoke run after the tests.
# The build is lean: only the layers the readers need (ir, util, frontends and two
# files of devices/history), no workbench, tests or benchmarks.
#
# usage: tests/fuzz/smoke.sh [SECONDS_PER_TARGET (20; 0 = build and seed only)] [BUILD_DIR (build/fuzz)]
# env:   EC_FUZZ_TARGETS="onnx eir" to run only some; EC_FUZZ_RUNS=N stops each target after N
#        inputs and EC_FUZZ_SEED (1) fixes libFuzzer's seed, so a CI run repeats (a prefix of) the
#        run checked before it landed instead of failing on a new random finding.
# A finding (crash, sanitizer report, timeout over 10 s, leak, out-of-memory) fails the
# script and leaves the input in BUILD_DIR/artifacts/. docs/RELIABILITY.md has the long run.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
build=${2:-build/fuzz}
targets=${EC_FUZZ_TARGETS:-"onnx tflite coreml_package coreml_blob eir npy devices_json runs_db keras torchscript savedmodel savedmodel_index"}

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DCMAKE_CXX_COMPILER=clang++ -DEC_FUZZ=ON \
  -DEC_BUILD_WORKBENCH=OFF -DEC_BUILD_TESTS=OFF -DEC_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target $(printf 'fuzz_%s ' $targets)
/usr/bin/python3 tests/fuzz/make_seeds.py "$build/seeds" >/dev/null

mkdir -p "$build/artifacts" "$build/logs"
[ "$secs" -gt 0 ] || exit 0  # 0: build and seed only (libFuzzer's 0 would mean no limit)
status=0
for t in $targets; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  log="$build/logs/$t.log"
  # First dir: the growing corpus (kept between runs); second: the seeds (read only).
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
     "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -runs="${EC_FUZZ_RUNS:--1}" -seed="${EC_FUZZ_SEED:-1}" -timeout=10 -rss_limit_mb=2560 -max_len=262144 \
       -dict="tests/fuzz/dict/$t.dict" -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 \
       "$corpus" "$build/seeds/$t" >"$log" 2>&1; then
    verdict=ok
  else
    verdict=FAILED
    status=1
  fi
  execs=$(grep -ho 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{s+=$2} END {print s+0}')
  echo "fuzz $t: $verdict, $execs executions in ${secs} s, corpus $(ls "$corpus" | wc -l) files (log $log)"
  if [ "$verdict" != ok ]; then grep -m5 -E 'ERROR|SUMMARY|runtime error|ec-fuzz' "$log" || tail -5 "$log"; fi
done
exit $status
