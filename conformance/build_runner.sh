#!/usr/bin/env bash
# Build Google's conformance test runner (protobuf v21.12) on a fresh Debian machine.
#
#   conformance/build_runner.sh PROTOBUF_TREE [WORKDIR]
#
# PROTOBUF_TREE is a copy of github.com/protocolbuffers/protobuf that this script
# does NOT download: either a checked-out tree at tag v21.12 or a git directory
# (a bare mirror, a clone's .git) holding that tag, from which the files are
# exported with `git archive v21.12`.  Get one with `git clone` where the network
# allows it, or with your own tooling; this project never commits those sources.
#
# What it needs from the tree: conformance/ (the runner, its suites and the
# jsoncpp it bundles), src/google/protobuf/test_messages_proto{2,3}.proto and
# src/google/protobuf/stubs/stringprintf.h (a header the Debian package dropped).
#
# The C++ library comes from Debian's own libprotobuf 3.21.12 packages (the
# release v21.12 is), fetched with `apt-get download` and unpacked with `dpkg -x`
# into WORKDIR/sysroot, so nothing is installed system-wide.  Then protoc
# generates the messages and g++ -std=c++17 builds the runner: about a minute
# of CPU (1.5 to 4 minutes of wall time on a shared two-core machine).
#
# WORKDIR defaults to /tmp/protoattr-conformance; the runner ends up as
# WORKDIR/conformance-test-runner.  Run the suite with conformance/run.sh.
set -euo pipefail

if [[ $# -lt 1 ]]; then
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
TREE=$(cd "$1" && pwd)
WORK=${2:-/tmp/protoattr-conformance}
TAG=v21.12
DEBS=(libprotobuf-dev libprotobuf32 libprotoc32 protobuf-compiler)
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
SRC=$WORK/src
SYSROOT=$WORK/sysroot
GEN=$WORK/gen

# 1. the sources, exported from the tree
rm -rf "$SRC" && mkdir -p "$SRC"
WANTED=(conformance src/google/protobuf/test_messages_proto2.proto
        src/google/protobuf/test_messages_proto3.proto src/google/protobuf/stubs/stringprintf.h)
if [[ -f "$TREE/conformance/conformance_test.cc" ]]; then
    (cd "$TREE" && tar -cf - "${WANTED[@]}") | tar -xf - -C "$SRC"
elif git --git-dir="$TREE" rev-parse --verify -q "$TAG^{commit}" >/dev/null \
     || git --git-dir="$TREE/.git" rev-parse --verify -q "$TAG^{commit}" >/dev/null; then
    GITDIR=$TREE
    [[ -d "$TREE/.git" ]] && GITDIR=$TREE/.git
    git --git-dir="$GITDIR" archive "$TAG" "${WANTED[@]}" | tar -xf - -C "$SRC"
else
    echo "$TREE is neither a protobuf tree nor a git directory holding $TAG" >&2
    exit 1
fi

# 2. Debian's libprotobuf 3.21.12, unpacked into a sysroot
if [[ ! -x "$SYSROOT/usr/bin/protoc" ]]; then
    rm -rf "$SYSROOT" "$WORK/debs" && mkdir -p "$SYSROOT" "$WORK/debs"
    if ! (cd "$WORK/debs" && apt-get download "${DEBS[@]}" >/dev/null 2>&1); then
        apt-get update -qq
        (cd "$WORK/debs" && apt-get download "${DEBS[@]}")
    fi
    for deb in "$WORK"/debs/*.deb; do dpkg -x "$deb" "$SYSROOT"; done
fi
LIBDIR=$(dirname "$(find "$SYSROOT" -name 'libprotobuf.so.32*' | head -n 1)")
export LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PROTOC_VERSION=$("$SYSROOT/usr/bin/protoc" --version)
echo "protoc from the sysroot: $PROTOC_VERSION"

# 3. the generated messages
rm -rf "$GEN" && mkdir -p "$GEN"
"$SYSROOT/usr/bin/protoc" -I"$SRC/src" -I"$SYSROOT/usr/include" --cpp_out="$GEN" \
    google/protobuf/test_messages_proto2.proto google/protobuf/test_messages_proto3.proto
"$SYSROOT/usr/bin/protoc" -I"$SRC/conformance" --cpp_out="$GEN" conformance.proto

# 4. the runner
C=$SRC/conformance
SOURCES=("$C/conformance_test.cc" "$C/conformance_test_runner.cc" "$C/conformance_test_main.cc"
         "$C/binary_json_conformance_suite.cc" "$C/text_format_conformance_suite.cc"
         "$C/third_party/jsoncpp/jsoncpp.cpp" "$GEN/conformance.pb.cc"
         "$GEN/google/protobuf/test_messages_proto2.pb.cc"
         "$GEN/google/protobuf/test_messages_proto3.pb.cc")
mkdir -p "$WORK/obj"
OBJECTS=()
PIDS=()
for s in "${SOURCES[@]}"; do
    o=$WORK/obj/$(basename "$s").o
    OBJECTS+=("$o")
    nice g++ -std=c++17 -O1 -w -pthread -I"$GEN" -I"$C" -I"$SRC/src" -I"$SYSROOT/usr/include" \
        -c "$s" -o "$o" &
    PIDS+=($!)
    # two at a time: the machines this runs on are small and shared
    if (( ${#PIDS[@]} == 2 )); then
        for p in "${PIDS[@]}"; do wait "$p"; done
        PIDS=()
    fi
done
for p in "${PIDS[@]}"; do wait "$p"; done
g++ -pthread -o "$WORK/conformance-test-runner" "${OBJECTS[@]}" \
    -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -lprotobuf
echo "built $WORK/conformance-test-runner (against $PROTOC_VERSION)"
