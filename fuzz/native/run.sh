#!/usr/bin/env bash
# Fuzz the native decoder under ASan+UBSan: bash fuzz/native/run.sh [RUNS] [TARGET...]
# RUNS inputs per target (default 1000000); targets default to all (scalars proto2 recursive list groups hierarchy converted bcl json json_more merged).
#
# With clang (and its libFuzzer runtime, Debian's libclang-rt-NN-dev) the engine is built
# with -fsanitize=address,undefined,fuzzer-no-link, so libFuzzer sees the C engine's edge
# coverage; without clang, gcc builds it with the sanitizers only (no C coverage).
# FUZZ_CC=gcc|clang forces one; FUZZ_BUILD=DIR builds there (default fuzz/native/.build);
# FUZZ_CORPUS_OUT=DIR keeps the grown corpora there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${1:-1000000}"
shift || true
targets=("$@")
[ $# -eq 0 ] && targets=(scalars proto2 recursive list groups hierarchy converted bcl json json_more merged)
python="${PYTHON:-python}"

build="${FUZZ_BUILD:-$here/.build}"
rm -rf "$build" && mkdir -p "$build"

# libFuzzer and the sanitizers in one shared runtime (what atheris calls asan_with_fuzzer.so):
# the extension's coverage callbacks then reach the libFuzzer that atheris drives.
clang_runtime() {
  local rt
  rt="$(clang -print-resource-dir 2>/dev/null)/lib/linux"
  [ -f "$rt/libclang_rt.asan-x86_64.a" ] && [ -f "$rt/libclang_rt.fuzzer_no_main-x86_64.a" ] \
    || return 1
  local objs="$build/asan-objs"
  mkdir -p "$objs"
  (cd "$objs" && ar x "$rt/libclang_rt.asan-x86_64.a" && rm -f asan_preinit.cpp.o \
    && ar rcs ../asan-nopreinit.a ./*.o)  # .preinit_array is not allowed in a shared object
  clang++ -shared -o "$build/asan_with_fuzzer.so" -Wl,--whole-archive "$build/asan-nopreinit.a" \
    "$rt/libclang_rt.fuzzer_no_main-x86_64.a" -Wl,--no-whole-archive -lpthread -ldl -lrt -lm
}

cc="${FUZZ_CC:-}"
if [ -z "$cc" ]; then
  cc=gcc
  command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1 && cc=clang
fi
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all"
if [ "$cc" = clang ]; then
  if ! clang_runtime; then
    echo "clang has no libFuzzer runtime (install libclang-rt-dev): building with gcc" >&2
    cc=gcc
  fi
fi
if [ "$cc" = clang ]; then
  build_env=(CC=clang LDSHARED="clang -shared")
  cflags="-O1 -g -fno-omit-frame-pointer $sanitize -fsanitize=fuzzer-no-link"
  preload="$build/asan_with_fuzzer.so"
else
  build_env=()
  cflags="-O1 -g -fno-omit-frame-pointer $sanitize"
  preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
fi
echo "== engine: $cc ($cflags)"
(cd "$root" && env "${build_env[@]}" PROTOATTR_REQUIRE_EXTENSION=1 PROTOATTR_CFLAGS="$cflags" \
  PROTOATTR_LDFLAGS="-fsanitize=address,undefined" \
  "$python" setup.py -q build_ext --build-lib "$build" --build-temp "$build/tmp" >/dev/null)
engine="$(ls "$build"/protoattr/_native/_engine*.so)"

for t in "${targets[@]}"; do
  corpus="${FUZZ_CORPUS_OUT:-$build}/corpus-$t"
  mkdir -p "$corpus"
  cp "$here/corpus/$t/"* "$corpus/"
  echo "== $t: $runs inputs"
  log="$build/$t.log"
  set +e
  LD_PRELOAD="$preload" \
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  PROTOATTR_ENGINE="$engine" \
    "$python" "$here/harness.py" "$t" -runs="$runs" -max_len=512 -print_final_stats=1 \
      "$corpus" > "$log" 2>&1
  status=$?
  set -e
  grep -E "^(INFO: - engine|INFO: Loaded .* modules|stat::number_of_executed_units|stat::new_units_added)" \
    "$log" || true
  grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -1 || true
  if [ "$status" -ne 0 ]; then
    echo "FAILED: $t (exit $status), the end of $log:"
    tail -40 "$log"
    exit 1
  fi
done
