"""Plans set up on first use: a first call on a native model plans its contract and
vets the flat contracts it nests; the engine sets each of those up when it first meets
one of its values (``NativeBackend._pend``), so a first call pays for what its value
holds, not for every contract its class can reach."""

from __future__ import annotations

import dataclasses
import io
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

import protoattr as pa
from protoattr._native import plan as planner

pytestmark = pytest.mark.skipif(planner.engine() is None, reason="the engine is not built")


@pa.proto_contract
@dataclasses.dataclass
class Leaf:
    n: pa.int32 = pa.field(1, default=0)
    s: str = pa.field(2, default="")


@pa.proto_contract
@dataclasses.dataclass
class Branch:
    leaf: Leaf | None = pa.field(1, default=None)
    leaves: list[Leaf] = pa.field(2, default_factory=list)


@pa.proto_contract
@dataclasses.dataclass
class Side:
    x: pa.sint64 = pa.field(1, default=0)


@pa.proto_contract
@dataclasses.dataclass
class Root:
    branch: Branch | None = pa.field(1, default=None)
    sides: dict[str, Side] = pa.field(2, default_factory=dict)
    grouped: Side | None = pa.field(3, default=None, group=True)


def _ready(model: pa.TypeModel) -> set[type]:
    assert model._native is not None
    return {cls for cls, plan in model._native.plans.items() if plan.ready}


def _fallbacks(model: pa.TypeModel) -> int:
    assert model._native is not None
    return sum(plan.fallbacks for plan in model._native.plans.values())


FULL = Root(Branch(Leaf(3, "é"), [Leaf(-1), Leaf()]), {"a": Side(-5)}, Side(7))
PYTHON = pa.TypeModel(backend="python")


def test_a_first_serialize_plans_what_its_value_holds() -> None:
    model = pa.TypeModel(backend="native")
    assert model.serialize(Root()) == b""
    assert _ready(model) == {Root}
    assert model._native is not None
    assert {Branch, Side} <= set(model._native.plans)  # made, vetted, not set up
    data = model.serialize(Root(Branch()))
    assert data == PYTHON.serialize(Root(Branch()))
    assert _ready(model) == {Root, Branch}
    assert model.serialize(FULL) == PYTHON.serialize(FULL)
    assert _ready(model) == {Root, Branch, Leaf, Side}
    assert _fallbacks(model) == 0


def test_a_first_deserialize_sets_up_the_plans_it_meets() -> None:
    data = PYTHON.serialize(FULL)
    model = pa.TypeModel(backend="native")
    assert model.deserialize(Root, data) == FULL
    assert _ready(model) == {Root, Branch, Leaf, Side}
    assert _fallbacks(model) == 0
    other = pa.TypeModel(backend="native")
    assert other.deserialize(Root, PYTHON.serialize(Root(sides={"k": Side(1)}))) == Root(
        sides={"k": Side(1)}
    )
    assert _ready(other) == {Root, Side}


def test_a_nested_contract_called_directly_first_uses_its_pending_plan() -> None:
    model = pa.TypeModel(backend="native")
    model.serialize(Root())
    assert model._native is not None
    pending = model._native.plans[Branch]
    assert model.serialize(Branch(Leaf(1))) == PYTHON.serialize(Branch(Leaf(1)))
    assert model._native.plans[Branch] is pending and pending.ready
    assert model.serialize(FULL) == PYTHON.serialize(FULL)
    assert _fallbacks(model) == 0


def test_compile_sets_up_every_plan() -> None:
    model = pa.TypeModel(backend="native")
    model.add(Root)
    model.compile()
    assert _ready(model) == {Root, Branch, Leaf, Side}
    assert model._native is not None
    assert not model._native._pending
    assert model._native.explain(Leaf) == "native"


def test_compile_after_a_first_call_sets_up_what_it_left() -> None:
    model = pa.TypeModel(backend="native")
    model.serialize(Root())  # Root is used, not added: compile() still reaches its nested
    assert model._native is not None
    assert set(model._native.waiting()) == {Branch, Side}
    model.compile()
    assert _ready(model) == {Root, Branch, Leaf, Side}
    assert model._native.waiting() == []


def test_write_module_after_a_first_call_writes_every_plan(tmp_path: Path) -> None:
    model = pa.TypeModel(backend="native")
    model.serialize(Root())
    model.write_module(tmp_path / "codecs_after_first_call.py")
    assert model._native is not None
    assert {Root, Branch, Leaf, Side} <= set(model._native.specs)
    text = (tmp_path / "codecs_after_first_call.py").read_text()
    for cls in (Root, Branch, Leaf, Side):  # each installed with its plan, as data
        added = f"    _i.add(\n        _ref({__name__!r}, {cls.__qualname__!r}),"
        assert text.count(added) == 1, cls
        plan = f"        plan=lambda: ((\n            _ref({__name__!r}, {cls.__qualname__!r}),"
        assert text.count(plan) == 1, cls


def test_json_and_streams_set_up_pending_plans() -> None:
    model = pa.TypeModel(backend="native")
    model.serialize(Root())
    text = PYTHON.to_json(FULL)
    assert model.to_json(FULL) == text
    assert model.from_json(Root, text) == FULL
    fresh = pa.TypeModel(backend="native")
    fresh.serialize(Root())
    items = [FULL, Root(Branch(Leaf(9))), Root()]
    stream = io.BytesIO()
    for x in items:
        pa.serialize_with_length_prefix(stream, x, model=PYTHON)
    stream.seek(0)
    assert list(pa.deserialize_items(Root, stream, model=fresh)) == items
    assert _ready(fresh) == {Root, Branch, Leaf, Side}


def test_a_set_up_the_planner_rejects_hands_over_to_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = planner._flat_hier_spec

    def refuse_leaf(info: Any, reads: Any, ctor: Any) -> Any:
        if info.cls is Leaf:
            raise TypeError("a planner bug")
        return real(info, reads, ctor)

    monkeypatch.setattr(planner, "_flat_hier_spec", refuse_leaf)
    model = pa.TypeModel(backend="native")
    model.serialize(Branch())
    with pytest.warns(RuntimeWarning, match="Leaf runs its Python codec"):
        assert model.serialize(Branch(Leaf(2, "x"))) == PYTHON.serialize(Branch(Leaf(2, "x")))
    assert model._native is not None
    assert model._native.explain(Leaf) == "python: plan rejected (a planner bug)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rejected once: later calls hand over quietly
        value = Branch(Leaf(1), [Leaf(4)])
        assert model.serialize(value) == PYTHON.serialize(value)
        assert model.deserialize(Branch, PYTHON.serialize(value)) == value


def test_a_set_up_that_raises_is_reported_and_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = planner._flat_hier_spec
    broken = [True]

    def failing(info: Any, reads: Any, ctor: Any) -> Any:
        if info.cls is Leaf and broken[0]:
            raise RuntimeError("out of something")
        return real(info, reads, ctor)

    monkeypatch.setattr(planner, "_flat_hier_spec", failing)
    model = pa.TypeModel(backend="native")
    model.serialize(Branch())
    assert model._native is not None
    pending = model._native.plans[Leaf]
    with pytest.raises(RuntimeError, match="out of something"):
        model.serialize(Branch(Leaf(2)))
    assert not pending.ready and model._native.waiting() == [Leaf]
    broken[0] = False
    value = Branch(Leaf(2), [Leaf(3)])
    before = _fallbacks(model)
    assert model.serialize(value) == PYTHON.serialize(value)
    assert model.deserialize(Branch, PYTHON.serialize(value)) == value
    assert _fallbacks(model) == before  # natively, through the plan Branch holds
    assert model._native.plans[Leaf] is pending and pending.ready
    assert model._native.waiting() == []


def test_a_subtype_declared_before_the_first_use_replans_the_pending_contract() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class Base:
        a: pa.int32 = pa.field(1, default=0)

    @dataclasses.dataclass
    class Derived(Base):
        b: str = pa.field(2, default="")

    @pa.proto_contract
    @dataclasses.dataclass
    class Holder:
        base: Base | None = pa.field(1, default=None)

    model = pa.TypeModel(backend="native")
    model.serialize(Holder())  # Base: pending
    model.add_subtype(Base, 10, pa.proto_contract(Derived))
    python = pa.TypeModel(backend="python")
    python.add_subtype(Base, 10, Derived)
    value = Holder(Derived(1, "d"))
    data = model.serialize(value)
    assert data == python.serialize(value)
    assert model.deserialize(Holder, data) == value


def test_threads_meeting_one_pending_plan_agree() -> None:
    model = pa.TypeModel(backend="native")
    model.serialize(Root())
    barrier = threading.Barrier(8)
    results: list[bytes] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(model.serialize(FULL))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [PYTHON.serialize(FULL)] * 8
    assert _ready(model) == {Root, Branch, Leaf, Side}
