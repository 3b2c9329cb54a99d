#!/usr/bin/env bash
# Run Google's conformance suite against protoattr's testee.
#
#   conformance/run.sh [WORKDIR] [RUNNER ARGS ...]
#
# WORKDIR is where conformance/build_runner.sh built the runner (default
# /tmp/protoattr-conformance).  PYTHON (default: python on PATH) is the
# interpreter with protoattr installed; PROTOATTR_BACKEND picks the backend as
# everywhere.  The runner's arguments default to --enforce_recommended; its
# report ends with the counts of successes, skips and failures.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${1:-/tmp/protoattr-conformance}
shift || true
ARGS=("$@")
[[ ${#ARGS[@]} -gt 0 ]] || ARGS=(--enforce_recommended)
PYTHON=$(command -v "${PYTHON:-python}")
RUNNER=$WORK/conformance-test-runner
[[ -x "$RUNNER" ]] || { echo "no runner at $RUNNER: run conformance/build_runner.sh" >&2; exit 1; }

# the runner execs one program without arguments: a launcher naming this checkout
LAUNCHER=$WORK/protoattr-testee
printf '#!/bin/sh\nexec "%s" "%s/conformance/testee.py"\n' "$PYTHON" "$ROOT" >"$LAUNCHER"
chmod +x "$LAUNCHER"
cd "$WORK"
exec "$RUNNER" "${ARGS[@]}" "$LAUNCHER"
