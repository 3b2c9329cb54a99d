"""The native planner builds each plan in one pass and shares what does not depend on the
field (issue 20, start-up): value specs per ValueType (enums per enum), tag bytes per
number, the defaults its vetting pass converted.  None of that may change a plan: a
contract planned after others, in a model that shares their pieces, gets the spec a
fresh model gives it, and nothing of one install is left for the next."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import uuid
from typing import Any

import pytest

import protoattr as pa
from protoattr._core.wire import tag_bytes
from protoattr._native import engine
from protoattr._native import plan as planner

pytestmark = pytest.mark.skipif(engine() is None, reason="the C engine is not built")

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


class Colour(enum.IntEnum):
    RED = 0
    GREEN = 1


class Shade(enum.Enum):  # not an int: the engine maps members itself
    DARK = 1
    LIGHT = 2


@pa.proto_contract
@dataclasses.dataclass
class Inner:
    name: str = pa.field(1)
    colour: Colour = pa.field(2, default=Colour.GREEN)


@pa.proto_contract
@dataclasses.dataclass
class Wide:
    a: pa.int32 = pa.field(1)
    b: pa.int32 = pa.field(2, default=7)
    c: str = pa.field(3, default="x")
    d: bytes = pa.field(16, default=b"")  # a two-byte tag
    e: Colour = pa.field(2047, default=Colour.RED)
    f: Colour = pa.field(5, default=Colour.GREEN)
    g: Shade = pa.field(6, default=Shade.LIGHT)
    h: float = pa.field(7, default=0.5)
    at: datetime.datetime = pa.field(8, default=EPOCH)
    took: datetime.timedelta = pa.field(9, default=datetime.timedelta(0))
    money: decimal.Decimal = pa.field(10, default=decimal.Decimal("0"))
    key: uuid.UUID = pa.field(11, default=uuid.UUID(int=0))
    day: datetime.date = pa.field(12, default=datetime.date(1970, 1, 1))
    tags: list[str] = pa.field(13, default_factory=list)
    counts: dict[str, pa.int32] = pa.field(14, default_factory=dict)
    inner: Inner | None = pa.field(15, default=None)
    inners: list[Inner] = pa.field(17, default_factory=list)
    by_name: dict[int, Inner] = pa.field(18, default_factory=dict)
    pick_a: int | None = pa.field(19, oneof="pick", default=None)
    pick_b: str | None = pa.field(20, oneof="pick", default=None)
    maybe: pa.int64 | None = pa.field(21, default=None)


@pa.proto_contract
@dataclasses.dataclass
class Other:  # shares Wide's kinds and enums, planned first in one model
    x: pa.int32 = pa.field(1)
    y: Colour = pa.field(2)
    z: Shade = pa.field(3, default=Shade.DARK)
    w: str = pa.field(4, default="")


def _normal(value: Any) -> Any:
    """A spec with its nested plans named by class (plans are per model)."""
    if type(value) is tuple:
        return tuple(_normal(v) for v in value)
    if type(value).__name__ == "Plan":
        return ("plan", value.cls)
    return value


def _spec(model: pa.TypeModel, cls: type) -> Any:
    assert model._native is not None
    return _normal(model._native.specs[cls])


def test_a_contract_planned_after_others_gets_a_fresh_models_spec() -> None:
    fresh = pa.TypeModel(backend="native")
    # (an Inner value: a first call sets up the plans of the contracts its value holds)
    fresh.serialize(Wide(1, d=b"", e=Colour.RED, inner=Inner("i")))
    shared = pa.TypeModel(backend="native")
    shared.serialize(Other(1, Colour.GREEN, w="w"))
    shared.serialize(Inner("n"))
    shared.serialize(Wide(1, d=b"", e=Colour.RED))
    for cls in (Wide, Inner):
        assert _spec(shared, cls) == _spec(fresh, cls)
    compiled = pa.TypeModel(backend="native")
    compiled.add(Other)
    compiled.add(Wide)
    compiled.compile()
    assert _spec(compiled, Wide) == _spec(fresh, Wide)


def test_fields_of_one_kind_share_one_value_spec() -> None:
    model = pa.TypeModel(backend="native")
    model.add(Other)
    model.add(Wide)
    model.compile()
    wide = {f[0]: f[4] for f in model._native.specs[Wide][1]}  # type: ignore[union-attr]
    other = {f[0]: f[4] for f in model._native.specs[Other][1]}  # type: ignore[union-attr]
    assert wide["a"] is wide["b"] is other["x"]  # int32: one ValueType, one spec
    assert wide["e"] is wide["f"] is other["y"]  # one per enum, not one per field
    assert wide["g"] is other["z"]
    assert wide["e"] is not wide["g"]


def test_models_share_the_value_specs_of_their_scalars() -> None:
    """A second model planning the same contracts works none of their value specs out
    again, at any compatibility level (whose fields are ValueTypes of their own); specs
    of types that differ in any part stay apart."""
    specs = []
    for model in (pa.TypeModel(backend="native"), pa.TypeModel(backend="native",
                  compatibility_level=300)):  # fmt: skip
        model.serialize(Wide(1, d=b"", e=Colour.RED))
        model.serialize(Other(1, Colour.GREEN, w="w"))
        assert model._native is not None
        specs.append({f[0]: f[4] for f in model._native.specs[Wide][1]})
    first, second = specs
    for name in ("a", "e", "g", "day"):
        assert first[name] is second[name], name
    assert first["e"] is not first["g"] and first["a"] is not first["day"]


def test_a_value_specs_key_is_every_part_of_its_value_type() -> None:
    """What the shared table tells ValueTypes apart by holds each of their slots: a part
    added to ValueType and left out of the key would give two types one spec."""
    from protoattr._core.contract import ValueType
    from protoattr._core.types import Kind

    slots = [name for name in ValueType.__slots__ if name != "__weakref__"]
    base = {name: getattr(ValueType(Kind.INT32), name) for name in slots}
    for name in slots:
        marker = object()
        changed = ValueType(**{**base, name: marker})
        assert planner._parts(changed) != planner._parts(ValueType(**base)), name


def test_tag_bytes_are_the_wires() -> None:
    model = pa.TypeModel(backend="native")
    model.serialize(Wide(1, d=b"", e=Colour.RED))
    for f in model._native.specs[Wide][1]:  # type: ignore[union-attr]
        name, number, _label, _packed, value, *_ = f
        wire_type = planner._WIRE_TYPES[next(k for k, v in planner.KINDS.items() if v == value[0])]
        assert f[6] == tag_bytes(number, wire_type), name
        assert f[7] == tag_bytes(number, 2), name


def test_nothing_of_an_install_is_kept_for_the_next() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class Odd:  # a default the engine does not write: vetting stops at it
        ok: pa.int32 = pa.field(1, default=3)
        bad: str = pa.field(2, default="\udc80", wire_default="\udc80")

    @pa.proto_contract
    @dataclasses.dataclass
    class Holder:
        n: pa.int32 = pa.field(1, default=5)
        odd: Odd | None = pa.field(2, default=None)

    model = pa.TypeModel(backend="native")
    assert model._native is not None
    data = model.serialize(Holder(6, Odd()))
    assert model._native._cmps == {} and model._native._vetted == {}
    assert model._native.explain(Holder) == "native"
    assert model._native.explain(Odd).endswith("Odd.bad: default that is not UTF-8")
    assert data == pa.TypeModel(backend="python").serialize(Holder(6, Odd()))
    model.compile()
    assert model._native._cmps == {}


def test_unsupported_answers_as_before() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class Shouty:
        n: pa.int32 = pa.field(1, default=2)
        s: str = pa.field(2, default="\udc80", wire_default="\udc80")

    model = pa.TypeModel(backend="native")
    assert planner.unsupported(model, model.info(Shouty)) == (
        "test_unsupported_answers_as_before.<locals>.Shouty.s: default that is not UTF-8"
    )
    assert planner.unsupported(model, model.info(Wide)) is None


class _Settable:
    """A data descriptor through its base: instances of the subclass are too."""

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        return 0 if obj is None else obj.__dict__.get("v", 0)

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["v"] = value


class _Derived(_Settable):
    pass


def test_data_descriptors_are_found_through_the_mro() -> None:
    assert planner._is_data_descriptor(_Derived)
    assert planner._is_data_descriptor(property)
    assert not planner._is_data_descriptor(Colour)
    assert not planner._is_data_descriptor(datetime.datetime)

    class Plain:
        v = 0

    class Shadowed:
        v = _Derived()

    info: Any = type("Info", (), {"fields": [type("F", (), {"name": "v"})()]})()  # a stand-in
    assert planner._reads_dict(Plain, info) is True
    assert planner._reads_dict(Shadowed, info) is False
