"""``TypeModel(max_messages=N)`` on both backends: the same count, the same error.

The C engine counts the messages a decode builds where the generated Python decoder
counts them (on entry: fresh, empty-for-absent and merged messages alike), so a
bounded model keeps the native backend and stops at the same message with the same
``DecodeError`` as the Python codecs.  The bound is differential-tested here against
the Python backend on every family of contracts the fuzzer knows (maps, oneofs,
recursion, groups, closed enums, inheritance, times, attrs), at every bound from 1
to past what the input builds, on valid and on garbled inputs; then the crossings
between the engine and Python codecs, merges and top-level lists, and the hostile
input that motivated the bound.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

import protoattr as pa
from fuzz import alltypes, families
from protoattr import DecodeError, field, proto_contract
from protoattr._native import engine
from tests.garble import garble

needs_engine = pytest.mark.skipif(engine() is None, reason="the C engine is not built")
ROOT = Path(__file__).resolve().parents[1]


def _outcome(model: pa.TypeModel, fn: str, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", getattr(model, fn)(*args)
    except Exception as exc:  # the class and the message are what must agree
        return type(exc).__name__, str(exc)


def _models(bound: int) -> tuple[pa.TypeModel, pa.TypeModel]:
    nat = pa.TypeModel(backend="native", max_messages=bound)
    py = pa.TypeModel(backend="python", max_messages=bound)
    return nat, py


def _messages_built(cls: Any, data: bytes) -> int:
    """How many messages decoding ``data`` builds: the smallest bound it passes."""
    for bound in range(1, 400):
        if (
            _outcome(pa.TypeModel(backend="python", max_messages=bound), "deserialize", cls, data)[
                1
            ]
            != _outcome(
                pa.TypeModel(backend="python", max_messages=10**6), "deserialize", cls, data
            )[1]
        ):
            continue
        return bound
    raise AssertionError("more than 400 messages")


@needs_engine
def test_a_bounded_model_runs_natively() -> None:
    model = pa.TypeModel(max_messages=10, backend="native")
    assert model.backend == "native"
    assert model._native.explain(families.Tree) == "native"


@needs_engine
@pytest.mark.parametrize("family", sorted(families.ROOTS))
def test_both_backends_stop_at_the_same_message(family: str) -> None:
    cls = families.ROOTS[family]
    rnd = random.Random(family)
    inputs = [pa.serialize(x) for x in families.samples()[family]]
    inputs += [garble(d, rnd) for d in inputs for _ in range(3)]
    bounds = sorted({1, 2, 3, 5, 8, 13, 21, 34})
    models = {b: _models(b) for b in bounds}
    for data in inputs:
        for bound in bounds:
            nat, py = models[bound]
            got = _outcome(nat, "deserialize", cls, data)
            want = _outcome(py, "deserialize", cls, data)
            assert got[0] == want[0] and got[1] == want[1], (family, data.hex(), bound)


@needs_engine
def test_merges_and_top_level_lists_count_the_same() -> None:
    tree = families.Tree("r", [families.Tree("a"), families.Tree("b", [families.Tree("c")])])
    data = pa.serialize(tree)
    items = pa.serialize([tree, tree], type=list[families.Tree])
    for bound in range(1, 14):
        nat, py = _models(bound)
        for args in ((families.Tree, items), (list[families.Tree], items)):
            assert _outcome(nat, "deserialize", *args) == _outcome(py, "deserialize", *args)
        merged = (
            _outcome(m, "merge", families.Tree("x", [families.Tree()]), data) for m in (nat, py)
        )
        assert next(merged) == next(merged), bound


class Odd(str):
    """A str subclass as a default: the engine does not run the contract holding it."""


@proto_contract
@dataclass
class Leaf:
    n: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Middle:  # runs as a Python codec inside a native model
    name: str = field(1, default=Odd(""), wire_default=Odd(""))
    leaves: list[Leaf] = field(2, default_factory=list)


@proto_contract
@dataclass
class Top:
    middles: list[Middle] = field(1, default_factory=list)
    leaf: Optional[Leaf] = field(2, default=None)  # noqa: UP045


@needs_engine
def test_the_count_crosses_into_python_codecs_and_back() -> None:
    nat = pa.TypeModel(backend="native", max_messages=5)
    assert nat._native.explain(Middle).startswith("python")
    top = Top([Middle("a", [Leaf(1), Leaf(2)]), Middle("b", [Leaf(3)])], Leaf(4))
    data = pa.serialize(top)  # 7 messages: Top, 2 Middles, 4 Leaves
    assert _messages_built(Top, data) == 7
    for bound in range(1, 9):
        nat, py = _models(bound)
        assert _outcome(nat, "deserialize", Top, data) == _outcome(py, "deserialize", Top, data)
    nat, _ = _models(7)
    assert nat.deserialize(Top, data) == top
    plan = nat._native.plans[Top]
    before = plan.fallbacks
    with pytest.raises(DecodeError, match="max_messages=6"):
        _models(6)[0].deserialize(Top, data)
    assert plan.fallbacks == before  # crossing the bound is final: no Python re-run


def _hostile() -> bytes:
    return bytes.fromhex("8203021200") * 200_000  # 1 MB; repeated_nested_message { corecursive {} }


@needs_engine
def test_a_megabyte_of_empty_messages_fails_fast_and_small_natively() -> None:
    model = pa.TypeModel(max_messages=10_000, backend="native")
    assert model.backend == "native"
    cls = alltypes.TestAllTypesProto3
    model.deserialize(cls, b"")
    data = _hostile()
    took = []
    for _ in range(2):  # the better of two: the machine may be busy
        began = time.perf_counter()
        with pytest.raises(DecodeError, match="max_messages=10000") as info:
            model.deserialize(cls, data)
        took.append(time.perf_counter() - began)
    assert min(took) < 0.5
    assert info.value.offset == 25_000  # the 10,001st message: the 5,001st corecursive
    # the peak resident memory the decode adds, in a fresh process (the benchmark's)
    one = [sys.executable, "-m", "fuzz.amplification", "_one", "nested", "1000000", "native+bound"]
    out = subprocess.run(one, capture_output=True, text=True, check=True, cwd=ROOT)
    measured = json.loads(out.stdout)
    assert measured["outcome"] == "DecodeError" and measured["bytes"] == 1_000_000
    assert measured["memory"] < 100e6


def test_the_python_backend_stops_at_the_same_place() -> None:
    model = pa.TypeModel(max_messages=1_000, backend="python")
    with pytest.raises(DecodeError, match="max_messages=1000") as info:
        model.deserialize(alltypes.TestAllTypesProto3, _hostile()[:100_000])
    assert info.value.offset == 2_500


def test_the_amplification_benchmark_measures_a_runner() -> None:
    from fuzz import amplification

    r = amplification._measure("tree", 40_000, "python+bound")  # 20,001 messages > 10,000
    assert r["outcome"] == "DecodeError" and r["bytes"] == 40_000
    assert isinstance(r["seconds"], float) and isinstance(r["memory"], int)


@needs_engine
def test_a_stream_item_over_the_bound_fails_the_same_on_both_backends() -> None:
    import io

    from protoattr._core.wire import encode_varint

    good = pa.serialize(families.Tree("a"))
    bad = b"\x12\x00" * 10  # 11 messages
    data = encode_varint(len(good)) + good + encode_varint(len(bad)) + bad
    outcomes = []
    for backend in ("native", "python"):
        model = pa.TypeModel(backend=backend, max_messages=5)
        with pytest.raises(DecodeError) as info:
            list(pa.deserialize_items(families.Tree, io.BytesIO(data), model=model))
        outcomes.append(str(info.value))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0].startswith("item 1: Tree: the input builds more than max_messages=5")
