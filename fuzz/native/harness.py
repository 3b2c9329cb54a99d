#!/usr/bin/env python3
"""Fuzz the native decoder with atheris: ``python fuzz/native/harness.py TARGET [libFuzzer args]``.

Every input is decoded by the C engine and by the Python codec: anything but a
result or a ``DecodeError`` is a crash, and the two must agree (same object,
or same error class and message, byte offset included).  Run it through
``fuzz/native/run.sh``, which builds the engine with AddressSanitizer and
UndefinedBehaviorSanitizer first and loads that build here.

``--write-seeds`` writes the seed corpus (``fuzz/native/corpus/TARGET/``).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))


def _load_sanitized_engine() -> None:
    """Use the sanitizer build of the engine when ``PROTOATTR_ENGINE`` names it."""
    path = os.environ.get("PROTOATTR_ENGINE")
    if not path:
        return
    name = "protoattr._native._engine"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[name] = module


_load_sanitized_engine()

import atheris  # noqa: E402

if os.environ.get("PROTOATTR_FUZZ_COVERAGE") == "1":  # the Python side's coverage (slow)
    with atheris.instrument_imports(include=["protoattr"]):
        import protoattr as pa
else:
    import protoattr as pa
from targets import JSON_TARGETS, TARGETS, seeds  # noqa: E402

from protoattr import DecodeError  # noqa: E402

#: PROTOATTR_FUZZ_MAX_MESSAGES=N: both models bounded (the engine's message count,
#: its call-backs and its final error checked against the Python codecs')
_BOUND = int(os.environ.get("PROTOATTR_FUZZ_MAX_MESSAGES", "0")) or None
NATIVE = pa.TypeModel(backend="native", max_messages=_BOUND)
PYTHON = pa.TypeModel(backend="python", max_messages=_BOUND)


def _outcome(model: pa.TypeModel, cls: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "ok", model.deserialize(cls, data)
    except DecodeError as exc:
        return "DecodeError", str(exc)


def check(cls: Any, data: bytes) -> None:
    native = _outcome(NATIVE, cls, data)
    python = _outcome(PYTHON, cls, data)
    if native[0] != python[0] or (native[0] != "ok" and native[1] != python[1]):
        raise AssertionError(f"native {native!r} != python {python!r} for {data!r}")
    kind = cls if isinstance(native[1], list) else None
    if native[0] == "ok" and NATIVE.serialize(native[1], type=kind) != PYTHON.serialize(
        python[1], type=kind
    ):
        raise AssertionError(f"re-encodings differ for {data!r}")
    if native[0] == "ok" and kind is None:  # the C JSON writer on the decoded object
        for options in _JSON_OPTIONS:
            ours, theirs = _json(NATIVE, native[1], options), _json(PYTHON, native[1], options)
            if ours != theirs:
                raise AssertionError(f"to_json{options} differs: {ours!r} != {theirs!r}")


#: the writer's option sets the harness compares (json_write.c against _json/write.py)
_JSON_OPTIONS: list[dict[str, Any]] = [
    {},
    {"indent": None, "sort_keys": True, "ensure_ascii": False},
    {"always_print_fields_with_no_presence": True, "use_integers_for_enums": True},
]


def _json(model: pa.TypeModel, obj: Any, options: dict[str, Any]) -> tuple[str, str]:
    try:
        return "ok", model.to_json(obj, **options)
    except pa.EncodeError as exc:
        return "EncodeError", str(exc)


def _json_outcome(model: pa.TypeModel, cls: Any, data: bytes, ignore: bool) -> tuple[str, Any]:
    try:
        return "ok", repr(model.from_json(cls, data, ignore_unknown_fields=ignore))
    except DecodeError as exc:
        return "DecodeError", str(exc)


def check_json(cls: Any, data: bytes) -> None:
    """The C reader (native model) and the Python reference read the JSON text alike:
    the same object (by repr: NaNs, members and containers shown), or the same error."""
    for ignore in (False, True):
        native = _json_outcome(NATIVE, cls, data, ignore)
        python = _json_outcome(PYTHON, cls, data, ignore)
        if native != python:
            raise AssertionError(f"native {native!r} != python {python!r} for {data!r}")
    if native[0] == "ok":  # and what was read, written back by both JSON writers
        obj = NATIVE.from_json(cls, data, ignore_unknown_fields=True)
        for options in _JSON_OPTIONS:
            ours, theirs = _json(NATIVE, obj, options), _json(PYTHON, obj, options)
            if ours != theirs:
                raise AssertionError(f"to_json{options} differs: {ours!r} != {theirs!r}")


def mutated_seed(seeds: list[bytes], data: bytes) -> bytes:
    """A seed of the target changed as ``data`` says (a byte flipped, cut, inserted,
    a slice repeated or spliced from another seed).  Without coverage feedback for
    the C side (gcc), libFuzzer's own mutations stay near its one-byte start; this
    keeps every input close to a valid message, where the deep paths are."""
    fdp = atheris.FuzzedDataProvider(data)
    out = bytearray(seeds[fdp.ConsumeIntInRange(0, len(seeds) - 1)])
    for _ in range(fdp.ConsumeIntInRange(1, 4)):
        op = fdp.ConsumeIntInRange(0, 5)
        at = fdp.ConsumeIntInRange(0, len(out))
        if op == 0 and out:
            out[min(at, len(out) - 1)] = fdp.ConsumeInt(1) & 0xFF
        elif op == 1:
            del out[at:]
        elif op == 2:
            out[at:at] = fdp.ConsumeBytes(fdp.ConsumeIntInRange(1, 6))
        elif op == 3 and out:
            out[min(at, len(out) - 1)] ^= 0x80
        elif op == 4:
            stop = fdp.ConsumeIntInRange(at, len(out))
            out[stop:stop] = out[at:stop]
        else:
            other = seeds[fdp.ConsumeIntInRange(0, len(seeds) - 1)]
            start = fdp.ConsumeIntInRange(0, len(other))
            out[at:at] = other[start : fdp.ConsumeIntInRange(start, len(other))]
    return bytes(out)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--write-seeds":
        for name, items in seeds().items():
            folder = HERE / "corpus" / name
            folder.mkdir(parents=True, exist_ok=True)
            for i, data in enumerate(items):
                (folder / f"seed-{i}").write_bytes(data)
        return
    if len(sys.argv) > 1 and sys.argv[1] in TARGETS:
        # libFuzzer's -merge/-fork children run argv[0] with libFuzzer's flags only:
        # they find the target in the environment
        os.environ["FUZZ_NATIVE_TARGET"] = sys.argv.pop(1)
    name = os.environ.get("FUZZ_NATIVE_TARGET", "")
    if name not in TARGETS:
        raise SystemExit(f"usage: harness.py {{{','.join(TARGETS)}}} [libFuzzer args]")
    cls = TARGETS[name]
    own_seeds = seeds()[name]
    checker = check_json if name in JSON_TARGETS else check
    print(f"INFO: - engine {pa._native.engine().__file__}", file=sys.stderr)  # type: ignore[union-attr]
    for items in seeds().values():  # compile everything before the clock starts
        for data in items:
            checker(cls, data)

    def one_input(data: bytes) -> None:
        checker(cls, data)
        checker(cls, mutated_seed(own_seeds, data))

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
