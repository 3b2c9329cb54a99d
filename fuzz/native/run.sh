#!/usr/bin/env bash
# Fuzz the native decoder under ASan+UBSan: bash fuzz/native/run.sh [RUNS] [TARGET...]
# RUNS inputs per target (default 1000000); targets default to all (scalars proto2 recursive list groups hierarchy converted).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${1:-1000000}"
shift || true
targets=("${@:-scalars}")
[ $# -eq 0 ] && targets=(scalars proto2 recursive list groups hierarchy converted)
python="${PYTHON:-python}"

build="$here/.build"
rm -rf "$build" && mkdir -p "$build"
(cd "$root" && PROTOATTR_REQUIRE_EXTENSION=1 \
  PROTOATTR_CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
  PROTOATTR_LDFLAGS="-fsanitize=address,undefined" \
  "$python" setup.py -q build_ext --build-lib "$build" --build-temp "$build/tmp" >/dev/null)
engine="$(ls "$build"/protoattr/_native/_engine*.so)"

asan="$(gcc -print-file-name=libasan.so)"
ubsan="$(gcc -print-file-name=libubsan.so)"
for t in "${targets[@]}"; do
  corpus="$build/corpus-$t"
  mkdir -p "$corpus"
  cp "$here/corpus/$t/"* "$corpus/"
  echo "== $t: $runs inputs"
  log="$build/$t.log"
  set +e
  LD_PRELOAD="$asan:$ubsan" \
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  PROTOATTR_ENGINE="$engine" \
    "$python" "$here/harness.py" "$t" -runs="$runs" -max_len=512 -print_final_stats=1 \
      "$corpus" > "$log" 2>&1
  status=$?
  set -e
  grep -E "^(INFO: - engine|stat::number_of_executed_units)" "$log" || true
  if [ "$status" -ne 0 ]; then
    echo "FAILED: $t (exit $status), the end of $log:"
    tail -40 "$log"
    exit 1
  fi
done
