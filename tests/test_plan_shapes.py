"""The planner's short paths give the specs its general ones give (issue 20, start-up).

``_fields`` (planner.c in the engine) writes the common field shapes out (singular
scalars, repeated, maps) and hands the rest to ``_any_field``; ``_vet`` compares integer
defaults without a call; ``_flat_ctor_spec`` is ``_ctor_spec`` for a flat contract.
Each must agree with the general code on every shape, including the ones the short
paths hand over."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import uuid
from typing import Annotated, Any

import attrs
import pytest

import protoattr as pa
from protoattr._native import engine
from protoattr._native import plan as planner
from tests.test_plan_sharing import _normal  # a spec with its nested plans named by class

pytestmark = pytest.mark.skipif(engine() is None, reason="the C engine is not built")

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


class Tone(enum.IntEnum):
    LOW = 0
    HIGH = 1


@pa.proto_contract
@dataclasses.dataclass
class Leaf:
    n: pa.int32 = pa.field(1, default=0)


@pa.proto_contract
@dataclasses.dataclass
class Shapes:
    need: pa.int32 = pa.field(1, required=True)
    plain: pa.sint64 = pa.field(2, default=-4)
    flag: bool = pa.field(3, default=True)
    text: str = pa.field(4, default="t")
    raw: bytearray = pa.field(5, default_factory=bytearray)
    tone: Tone = pa.field(6, default=Tone.HIGH)
    when: datetime.datetime = pa.field(7, default=EPOCH)
    took: datetime.timedelta = pa.field(8, default=datetime.timedelta(0))
    day: datetime.date = pa.field(9, default=datetime.date(1970, 1, 1))
    money: decimal.Decimal = pa.field(10, default=decimal.Decimal("0"))
    guid: uuid.UUID = pa.field(11, default=uuid.UUID(int=0))
    leaf: Leaf = pa.field(12, default_factory=Leaf)
    maybe_leaf: Leaf | None = pa.field(13, default=None)
    group_leaf: Leaf | None = pa.field(14, default=None, group=True)
    leaves: list[Leaf] = pa.field(15, default_factory=list)
    grouped: list[Leaf] = pa.field(16, default_factory=list, group=True)
    far: pa.int32 = pa.field(300, default=1)
    far_list: list[str] = pa.field(301, default_factory=list)
    numbers: tuple[pa.int32, ...] = pa.field(17, default=())
    packed: list[pa.fixed32] = pa.field(18, default_factory=list)
    by_key: dict[str, Leaf] = pa.field(19, default_factory=dict)
    counts: dict[int, pa.int64] = pa.field(20, default_factory=dict)
    maybe: float | None = pa.field(21, default=None)
    pick_a: int | None = pa.field(22, oneof="pick", default=None)
    pick_b: str | None = pa.field(23, oneof="pick", default=None)
    late: pa.int32 = pa.field(24, default=9, init=False)
    by_kw: str = pa.field(25, default="k", kw_only=True)


@pa.proto_contract
@attrs.define
class AttrsShapes:
    b: Annotated[str, pa.member(2)] = ""
    a: Annotated[pa.int32, pa.member(1)] = 0
    c: Annotated[list[pa.int32], pa.member(3)] = attrs.field(factory=list)


@pa.proto_contract
@dataclasses.dataclass(frozen=True)
class Frozen:
    x: pa.uint64 = pa.field(3, default=5)
    y: str = pa.field(1, default="")


CLASSES = [Leaf, Shapes, AttrsShapes, Frozen]


@pytest.mark.parametrize("cls", CLASSES)
def test_every_field_shape_gets_the_general_spec(cls: type) -> None:
    model = pa.TypeModel(backend="native")
    model.add(cls)
    model.compile()
    backend = model._native
    assert backend is not None and backend.explain(cls) == "native"
    planned = backend.specs[cls][1]
    info = model.info(cls)
    oneofs = {key: i + 1 for i, key in enumerate(dict.fromkeys(
        planner._oneof_key(f) for f in info.fields if f.oneof))}  # fmt: skip
    for f, spec in zip(info.fields, planned, strict=True):
        oneof = oneofs.get(planner._oneof_key(f), 0)
        general = _normal(backend._any_field(f, oneof, None))
        assert _normal(spec) == general, f.name
        assert _normal(backend._fields([f], [oneof])[0]) == general, f.name
    assert backend._cmps == {}


@pytest.mark.parametrize("cls", CLASSES)
def test_vetting_converts_defaults_as_default_cmp(cls: type) -> None:
    model = pa.TypeModel(backend="native")
    info = model.info(cls)
    cmps: dict[int, Any] = {}
    assert planner._vet(model, info, [cls], cmps) is None
    compared = [f for f in info.fields if id(f) in cmps]
    assert compared
    for f in compared:
        got, want = cmps[id(f)], planner._default_cmp(f)
        assert type(got) is type(want) and got == want, f.name


@pytest.mark.parametrize("cls", CLASSES)
def test_a_flat_contracts_constructor_is_ctor_specs(cls: type) -> None:
    info = pa.TypeModel(backend="native").info(cls)
    index = {f.name: i for i, f in enumerate(info.fields)}
    assert planner._flat_ctor_spec(info, index) == planner._ctor_spec(info, info.fields, index)


def test_flat_constructor_with_parameters_that_are_not_fields() -> None:
    info = pa.TypeModel(backend="native").info(Frozen)
    index = {f.name: i for i, f in enumerate(info.fields)}
    for params in (
        [("y", "y", False), ("nope", "nope", False), ("x", "x", False)],
        [("y", "y", False), ("x", "x_", True)],
        [("x", "x", True), ("nope", "nope", True), ("y", "y", False)],
        [("nope", "nope", False)],
        [],
    ):
        fake = _with_params(info, params)
        assert planner._flat_ctor_spec(fake, index) == planner._ctor_spec(fake, fake.fields, index)


def _with_params(info: Any, params: list[tuple[str, str, bool]]) -> Any:
    """``info`` with other ``__init__`` parameters (a stand-in with the same attributes)."""
    fake = type("Info", (), {})()
    for name in ("cls", "fields", "construct", "options", "frozen", "validated"):
        setattr(fake, name, getattr(info, name))
    fake.init_params = params
    return fake


def test_fields_holding_one_plan_share_a_value_spec_until_it_is_replanned() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class Base:
        n: pa.int32 = pa.field(1, default=0)

    @dataclasses.dataclass
    class Sub(Base):
        m: pa.int32 = pa.field(2, default=0)

    @pa.proto_contract
    @dataclasses.dataclass
    class Holder:
        one: Base | None = pa.field(1, default=None)
        many: list[Base] = pa.field(2, default_factory=list)
        as_group: Base | None = pa.field(3, default=None, group=True)

    @pa.proto_contract
    @dataclasses.dataclass
    class Later:
        one: Base | None = pa.field(1, default=None)

    model = pa.TypeModel(backend="native")
    backend = model._native
    assert backend is not None
    model.serialize(Holder())
    one, many, as_group = (f[4] for f in backend.specs[Holder][1])
    assert one is many and one[1] is backend.plans[Base]
    assert as_group is not one and as_group[1] is one[1]
    old = backend.plans[Base]
    model.add_subtype(Base, 10, pa.proto_contract(Sub))
    data = model.serialize(Later(Sub(1, 2)))
    assert backend.specs[Later][1][0][4][1] is backend.plans[Base] is not old
    assert model.deserialize(Later, data) == Later(Sub(1, 2))
    python = pa.TypeModel(backend="python")
    python.add_subtype(Base, 10, Sub)
    assert data == python.serialize(Later(Sub(1, 2)))


@pytest.mark.parametrize("where", ["_any_field", "_value"])
def test_the_planners_errors_pass_through_field_specs(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = pa.TypeModel(backend="native")._native
    assert backend is not None
    fields = pa.TypeModel().info(Shapes).fields

    def fails(*args: Any) -> Any:
        raise LookupError(f"from {where}")

    monkeypatch.setattr(backend, where, fails)  # what field_specs calls back
    with pytest.raises(LookupError, match=f"from {where}"):
        backend._fields(fields, None)
    with pytest.raises(ValueError, match="one oneof number per slot"):
        backend._fields(fields, [0])
    with pytest.raises(TypeError, match="bad planner state"):
        engine().field_specs(fields, None, {}, {}, fails, fails, ())
