"""Decoding time grows linearly with the input, on both backends, for the inputs of
issue 22 item 12 (each used to be quadratic or far slower than upb somewhere)."""

from __future__ import annotations

import time

import pytest

import protoattr as pa
from fuzz import alltypes
from protoattr._core.wire import encode_varint


def _seconds(model: pa.TypeModel, data: bytes) -> float:
    began = time.perf_counter()
    model.deserialize(alltypes.TestAllTypesProto3, data)
    return time.perf_counter() - began


def test_a_repeated_unknown_field_costs_linear_time() -> None:
    model = pa.TypeModel()  # the backend of this run
    unit = bytes.fromhex("f20100")  # field 30, unknown to TestAllTypesProto3, empty
    model.deserialize(alltypes.TestAllTypesProto3, unit)
    small = min(_seconds(model, unit * 30_000) for _ in range(2))
    large = min(_seconds(model, unit * 120_000) for _ in range(2))
    assert large < 0.05 + 6 * small  # 4x the input (bytes += made it 16x)
    kept = model.deserialize(alltypes.TestAllTypesProto3, unit * 1000)
    assert pa.serialize(kept) == unit * 1000  # and every byte is kept


def _chain(depth: int, tags: list[int]) -> bytes:
    body = b""
    for i in range(depth):
        body = encode_varint(tags[i % len(tags)] << 3 | 2) + encode_varint(len(body)) + body
    return body


@pytest.mark.parametrize("bound", [None, 10_000], ids=["unbounded", "max_messages"])
@pytest.mark.parametrize(
    "unit",
    [_chain(100, [27]), _chain(98, [2, 18])],  # recursive_message; corecursive via nested
    ids=["recursive_message", "corecursive"],
)
def test_a_repeated_deep_chain_merges_in_linear_time(unit: bytes, bound: int | None) -> None:
    """Each copy of the chain merges into the objects the first one built (in place):
    the Python codecs rebuilt the whole chain at every copy (~11 s per MB, 1.2 s to
    the max_messages DecodeError of 100 kB), as the engine used to."""
    model = pa.TypeModel(max_messages=bound)  # the backend of this run
    cls = alltypes.TestAllTypesProto3
    chain = model.deserialize(cls, unit)
    data = unit * (300_000 // len(unit))
    if bound is not None:
        began = time.perf_counter()
        with pytest.raises(pa.DecodeError, match="more than max_messages=10000"):
            model.deserialize(cls, data)
        assert time.perf_counter() - began < 0.15  # was 0.5 s on the Python codecs
        return
    assert model.deserialize(cls, data) == chain  # merging a chain into itself: the chain
    best = min(_seconds(model, data) for _ in range(2))
    assert best < (1.0 if model.backend == "python" else 0.1)  # was 3.4 s on Python


def _len(tag: int, body: bytes) -> bytes:
    return encode_varint(tag << 3 | 2) + encode_varint(len(body)) + body


UNKNOWN = bytes.fromhex("f20100")  # field 30, unknown to TestAllTypesProto3, empty


@pytest.mark.parametrize(
    "path", [[18], [18, 2]], ids=["nested", "two_deep"]
)  # optional_nested_message { ... }, optional_nested_message { corecursive { ... } }
def test_unknown_fields_of_a_message_merged_many_times_are_not_recopied(
    path: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each merge appended its unknown field to a copy of those kept so far (old +
    new, stored anew): n merges handed O(n^2) bytes to ``set_unknown``, on both
    backends.  Now they grow in place and are stored as bytes once, before the
    decode that built the object returns."""
    from protoattr._native import plan as native_plan
    from protoattr._python import runtime

    handed: list[int] = []
    real = runtime.set_unknown

    def counting(obj: object, key: str, data: bytes) -> None:
        handed.append(len(data))
        real(obj, key, data)

    monkeypatch.setattr(runtime, "set_unknown", counting)
    monkeypatch.setattr(native_plan, "set_unknown", counting)
    model = pa.TypeModel()  # the backend of this run, compiled with the counter

    def wrap(body: bytes) -> bytes:
        for tag in reversed(path):
            body = _len(tag, body)
        return body

    n = 2000
    decoded = model.deserialize(alltypes.TestAllTypesProto3, wrap(UNKNOWN) * n)
    assert sum(handed) <= 3 * len(UNKNOWN) * n  # (it was 6 million bytes)
    holder = decoded
    for tag in path:
        holder = getattr(holder, "optional_nested_message" if tag == 18 else "corecursive")
    kept = runtime.get_unknown(holder, runtime.UNKNOWN_KEY)
    assert kept.__class__ is bytes and kept == UNKNOWN * n  # the form kept, as before
    assert model.serialize(decoded) == wrap(UNKNOWN * n)


def test_merge_has_a_few_locals_whatever_the_number_of_fields() -> None:
    """``merge_`` had a local per field (120 for TestAllTypesProto3): its frames, 100
    deep in a chain of merges, made CPython's frame stack allocate and free a chunk
    every few levels, about 3 us per level (1.1 s per MB of the repeated chain)."""
    model = pa.TypeModel(backend="python")
    cls = alltypes.TestAllTypesProto3
    model.deserialize(cls, _chain(2, [27]) * 2)  # the second copy merges: merge_ made
    merge = model._codecs[cls].merge
    assert merge.__name__ == "merge_TestAllTypesProto3"
    assert merge.__code__.co_nlocals < 40
