"""The fuzz targets: one function of ``bytes`` each, which raises on a finding.

Every target decodes the input with one model and checks the decoder's promise
(docs/errors.md): it returns, or raises :class:`protoattr.DecodeError` with an
offset inside the input - nothing else.  What decodes must re-encode
(``serialize`` raises nothing), the re-encoding must be a fixed point
(decode and encode it again: the same bytes) and ``measure`` must agree.

The differential targets (``diff3``, ``diff2``) also parse the input with upb
(Google's runtime, from the twins' ``.proto`` text) and require that the two
accept and reject the same inputs and that, when both accept, upb reads
protoattr's re-encoding as the message it read from the input - apart from
the differences protoattr documents (listed in :func:`_tolerated`).

The model is built with ``backend=`` when ``PROTOATTR_BACKEND`` is set and the
model accepts it, so a native engine runs through the same targets.
"""

from __future__ import annotations

import inspect
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import protoattr as pa

from . import alltypes, families


class Finding(AssertionError):
    """An input broke one of protoattr's promises."""


@dataclass
class Target:
    name: str
    cls: type
    check: Callable[[bytes], None]
    seeds: Callable[[], list[bytes]]
    about: str
    model: pa.TypeModel | None = None
    #: ``(rng, input, pool) -> input``: the target's own mutations (the engines' otherwise)
    mutate: Callable[[random.Random, bytes, list[bytes]], bytes] | None = None


def make_model() -> pa.TypeModel:
    """The model under test: ``TypeModel(backend=$PROTOATTR_BACKEND)`` when set and known."""
    backend = os.environ.get("PROTOATTR_BACKEND")
    if backend and "backend" in inspect.signature(pa.TypeModel).parameters:
        return pa.TypeModel(backend=backend)  # type: ignore[call-arg]
    return pa.TypeModel()


def _roundtrip(model: pa.TypeModel, cls: type, data: bytes) -> Any:
    """Decode ``data``; if it decodes, check re-encoding.  Returns the object (or None)."""
    try:
        obj = model.deserialize(cls, data)
    except pa.DecodeError as exc:
        if exc.offset is None or not 0 <= exc.offset <= len(data):
            raise Finding(
                f"DecodeError offset {exc.offset!r} outside 0..{len(data)}: {exc}"
            ) from exc
        return None
    try:
        again = model.serialize(obj)
    except pa.EncodeError as exc:
        raise Finding(f"decoded, but the object cannot be encoded: {exc}") from exc
    if model.measure(obj) != len(again):
        raise Finding("measure() disagrees with len(serialize())")
    second = model.deserialize(cls, again)
    if model.serialize(second) != again:
        raise Finding("re-encoding is not a fixed point")
    return obj


def protoattr_target(name: str, cls: type, seeds: Callable[[], list[bytes]], about: str) -> Target:
    model = make_model()
    model.add(cls)
    model.compile()

    def check(data: bytes) -> None:
        _roundtrip(model, cls, data)

    return Target(name, cls, check, seeds, about, model)


# -- differential -------------------------------------------------------------------

_TIME_FIELDS = (
    "optional_duration",
    "optional_timestamp",
    "repeated_duration",
    "repeated_timestamp",
)


def _tolerated(exc: pa.DecodeError, proto2: bool) -> bool:
    """protoattr refuses where upb accepts, by design (docs/errors.md, "Hostile input"):
    Timestamps and Durations outside datetime's range; field number 0 inside an
    unknown group (upb's group skipper accepts ``0b 00 00 0c``, the spec does not);
    and, in proto2, invalid UTF-8 (upb does not check proto2 strings; protoattr's
    str cannot hold it)."""
    text = str(exc)
    if "Timestamp" in text or "Duration" in text or "timedelta" in text:
        return True
    if "invalid field number 0" in text:  # upb skips field 0 inside unknown groups
        return True
    return proto2 and "UTF-8" in text


def _google(version: int) -> Any:
    from tests.protoc import compile_proto  # the test suite's protoc helper (grpc_tools)

    module: ModuleType = compile_proto(getattr(alltypes, f"PROTO{version}"), f"alltypes{version}")
    return getattr(module, f"TestAllTypesProto{version}")


def differential_target(version: int) -> Target:
    from google.protobuf.message import DecodeError as GoogleDecodeError

    cls = getattr(alltypes, f"TestAllTypesProto{version}")
    model = make_model()
    model.add(cls)
    model.compile()
    google = _google(version)
    proto2 = version == 2

    def check(data: bytes) -> None:
        try:
            msg = google.FromString(data)
        except GoogleDecodeError:
            msg = None
        except RecursionError:  # upb's own limit is 100, like protoattr's
            msg = None
        try:
            obj = model.deserialize(cls, data)
        except pa.DecodeError as exc:
            if msg is not None and not _tolerated(exc, proto2):
                raise Finding(f"upb accepts, protoattr refuses: {exc}") from exc
            return
        if msg is None:
            raise Finding("protoattr accepts, upb refuses")
        ours = google.FromString(model.serialize(obj))
        for name in _TIME_FIELDS:  # protoattr keeps microseconds: compare the rest
            msg.ClearField(name)
            ours.ClearField(name)
        if msg.SerializeToString(deterministic=True) != ours.SerializeToString(deterministic=True):
            raise Finding("upb reads protoattr's re-encoding as another message")

    def seeds() -> list[bytes]:
        return alltypes_seeds(version)

    about = f"TestAllTypesProto{version}: upb and protoattr agree"
    return Target(f"diff{version}", cls, check, seeds, about, model)


# -- seeds ----------------------------------------------------------------------------


def alltypes_seeds(version: int) -> list[bytes]:
    """Valid TestAllTypes encodings, built with Google's runtime (so Google's bytes seed it)."""
    google = _google(version)
    out = [b""]
    m = google()
    m.optional_int32 = -5
    m.optional_uint64 = 2**64 - 1
    m.optional_sint64 = -(2**63)
    m.optional_float = 1.5
    m.optional_double = float("-inf")
    m.optional_bool = True
    m.optional_string = "héllo"
    m.optional_bytes = b"\x00\xff"
    m.optional_nested_message.a = 7
    m.optional_nested_message.corecursive.optional_int32 = 1
    m.optional_foreign_message.c = 3
    m.optional_nested_enum = 2
    m.recursive_message.optional_string = "r"
    out.append(m.SerializeToString())
    m = google()
    m.repeated_int32.extend([1, -1, 300])
    m.packed_sint32.extend([-2, 2])
    m.unpacked_fixed64.extend([0, 2**64 - 1])
    m.repeated_string.extend(["a", ""])
    m.repeated_nested_message.add().a = 1
    m.repeated_nested_message.add().corecursive.repeated_bool.append(True)
    m.packed_nested_enum.extend([0, 1, 2])
    m.packed_double.extend([0.5, -0.0])
    out.append(m.SerializeToString())
    m = google()
    m.map_int32_int32[1] = -1
    m.map_string_string["k"] = "v"
    m.map_bool_bool[True] = False
    m.map_string_nested_message["n"].a = 5
    m.map_string_foreign_enum["e"] = 2
    m.map_int32_double[-7] = 2.25
    out.append(m.SerializeToString())
    for name, value in [("oneof_uint32", 5), ("oneof_string", "s"), ("oneof_bytes", b"b")]:
        m = google()
        setattr(m, name, value)
        out.append(m.SerializeToString())
    m = google()
    m.oneof_nested_message.a = 3
    m.optional_timestamp.seconds = 1_700_000_000
    m.optional_timestamp.nanos = 5000
    m.optional_duration.seconds = -3
    m.repeated_timestamp.add().seconds = 1
    out.append(m.SerializeToString())
    if version == 2:
        m = google()
        m.data.group_int32 = 4
        m.optional_nested_enum = -1
        out.append(m.SerializeToString())
    return out


def family_seeds(family: str) -> Callable[[], list[bytes]]:
    def seeds() -> list[bytes]:
        return [pa.serialize(obj) for obj in families.samples()[family]]

    return seeds


# -- JSON against json_format ---------------------------------------------------------


def json_target() -> Target:
    """JSON text (UTF-8) read by protoattr on both backends and by json_format:
    :mod:`fuzz.json_diff` says what must agree."""
    from . import json_diff

    def check(data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return  # json_format reads str; protoattr's UTF-8 errors are tested elsewhere
        json_diff.check(text)

    def seeds() -> list[bytes]:
        return json_diff.seeds()

    def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
        texts = [p.decode("utf-8", "replace") for p in pool]
        return json_diff.mutate(rng, data.decode("utf-8", "replace"), texts).encode("utf-8")

    about = "TestAllTypesProto3/2 JSON: protoattr (both backends) and json_format agree"
    model = json_diff.models()[0]
    return Target("json", json_diff.ours()[3], check, seeds, about, model, mutate)


# -- text format against text_format ---------------------------------------------------


def text_target() -> Target:
    """Text format (UTF-8) read and printed by protoattr and by text_format:
    :mod:`fuzz.text_diff` says what must agree."""
    from . import text_diff

    model = text_diff.models()[0]

    def check(data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return  # text_format reads str; protoattr's UTF-8 errors are tested elsewhere
        try:
            text_diff.check(text, model)
        except text_diff.Finding as exc:
            raise Finding(str(exc)) from exc

    def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
        texts = [p.decode("utf-8", "replace") for p in pool]
        return text_diff.mutate(rng, data.decode("utf-8", "replace"), texts).encode("utf-8")

    about = "TestAllTypesProto3/2 text format: protoattr and text_format agree"
    return Target("text", alltypes.TestAllTypesProto3, check, text_diff.seeds, about, model, mutate)


def all_targets() -> dict[str, Callable[[], Target]]:
    """Name -> a function building the target (building compiles its codecs)."""
    out: dict[str, Callable[[], Target]] = {}
    for version in (3, 2):
        cls = getattr(alltypes, f"TestAllTypesProto{version}")

        def build(cls: type = cls, version: int = version) -> Target:
            return protoattr_target(
                f"alltypes{version}", cls, lambda: alltypes_seeds(version),
                f"TestAllTypesProto{version}: decode, re-encode, fixed point",
            )  # fmt: skip

        out[f"alltypes{version}"] = build
    for version in (3, 2):
        out[f"diff{version}"] = lambda version=version: differential_target(version)  # type: ignore[misc]
    for family, root in families.ROOTS.items():

        def build_family(family: str = family, root: type = root) -> Target:
            return protoattr_target(
                family, root, family_seeds(family), f"{root.__qualname__}: the {family} family"
            )

        out[family] = build_family
    out["json"] = json_target
    out["text"] = text_target
    return out
