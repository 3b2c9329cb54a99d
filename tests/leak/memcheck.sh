#!/usr/bin/env bash
# valgrind memcheck over the C engine: bash tests/leak/memcheck.sh [CYCLES]
#
# Builds nothing: runs the installed engine (pip install -e . builds it) under
# valgrind --tool=memcheck with PYTHONMALLOC=malloc, on the operations of every
# feature group of tests/leak/cycles.py, CYCLES times (default 2), and fails on an
# invalid read/write, a use of an uninitialised value or a "definitely lost" block
# that the engine's code is part of (see tests/leak/memcheck.py --report).
# Slow: several minutes (valgrind runs CPython ~50x slower; --track-origins doubles it).
# MEMCHECK_LOG=FILE keeps valgrind's log there (default: a temporary file, printed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cycles="${1:-2}"
python="${PYTHON:-python}"
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed" >&2; exit 2; }
log="${MEMCHECK_LOG:-$(mktemp "${TMPDIR:-/tmp}/protoattr-memcheck.XXXXXX")}"
cd "$root"
"$python" -c "import protoattr._native as n, sys; sys.exit(0 if n.available() else 'memcheck: the C engine is not built (pip install -e .)')"
echo "== valgrind memcheck, $cycles cycles; log: $log"
status=0
PYTHONMALLOC=malloc valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --track-origins=yes --num-callers=40 \
  --suppressions="$here/cpython.supp" --log-file="$log" \
  "$python" -m tests.leak.memcheck "$cycles" || status=$?
[ "$status" -eq 0 ] || echo "memcheck: the workload exited $status"
"$python" -m tests.leak.memcheck --report "$log" && [ "$status" -eq 0 ]
