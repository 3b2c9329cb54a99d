"""The native engine on inheritance hierarchies, groups and merges.

These used to hand the contract (or the call) to the Python codec; now the C
engine runs them.  The checks: ``explain()`` says "native", valid data needs no
hand-over (``Plan.fallbacks`` stays 0), and on random hierarchies, random
group contracts and random merges, garbled bytes included, the engine and the
generated Python codecs agree: same bytes, same objects (same classes), or the
same error class and message with its byte offset.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import struct
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from tests.contracts import assert_same
from tests.contracts3 import Circle, Cube, Drawing, Shape, Square
from tests.test_groups import G, Holder, Item
from tests.test_native import _fallbacks, _garble, _outcome, _same

pytestmark = pytest.mark.skipif(not native.available(), reason="C engine not built")

PY = pa.TypeModel(backend="python")
DIFF = settings(
    derandomize=True,
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _nat() -> pa.TypeModel:
    return pa.TypeModel(backend="native")


def _agree(nat: pa.TypeModel, py: pa.TypeModel, cls: Any, data: bytes) -> tuple[str, Any]:
    got = _outcome(nat.deserialize, cls, data)
    _same(got, _outcome(py.deserialize, cls, data))
    if got[0] == "ok":
        assert type(got[1]) is type(py.deserialize(cls, data))
    return got


# ------------------------------------------------------------- coverage


def test_hierarchies_groups_and_merges_run_natively() -> None:
    nat = _nat()
    assert nat._native is not None
    for cls in (Shape, Circle, Square, Cube, Drawing, Holder, Item, G):
        assert nat._native.explain(cls) == "native", cls
    drawing = Drawing(
        shapes=[Circle(radius=1.0), Shape(name="s"), Cube(depth=2, labels=["l"]), Square(side=3)],
        main=Cube(name="m"),
        by_name={"c": Circle(name="cc"), "q": Square()},
    )
    holder = Holder(x=1, g=G(a=2, s="g"), item=[Item(n=-1, tags=["t"], deep=G(a=3))], last="z")
    for obj in (drawing, holder, Cube("k", 1, 2, 3, ["a"]), Circle()):
        data = nat.serialize(obj)
        assert data == PY.serialize(obj)
        back = nat.deserialize(type(obj), data)
        assert_same(back, obj)
        assert [type(s) for s in getattr(back, "shapes", [])] == [
            type(s) for s in getattr(obj, "shapes", [])
        ]
    assert type(nat.deserialize(Shape, nat.serialize(Cube()))) is Cube
    # merges: the top level, and singular messages (and groups) seen twice
    cube = Cube(name="a", side=1, labels=["x"])
    assert nat.merge(cube, nat.serialize(Cube(depth=7, labels=["y"]))) is cube
    assert_same(cube, Cube(name="a", side=1, depth=7, labels=["x", "y"]))
    twice = nat.serialize(Holder(g=G(a=1), msg=G(s="m"))) + nat.serialize(
        Holder(g=G(s="t"), msg=G(a=5))
    )
    assert_same(nat.deserialize(Holder, twice), Holder(g=G(a=1, s="t"), msg=G(a=5, s="m")))
    merged = nat.merge(Holder(x=1, item=[Item(n=1)]), nat.serialize(Holder(item=[Item(n=2)])))
    assert_same(merged, Holder(x=1, item=[Item(n=1), Item(n=2)]))
    # an unknown group (with a group inside) is skipped and kept byte-exact
    unknown = b"\x9b\x06\x08\x01\xa3\x06\x12\x01x\xa4\x06\x9c\x06"  # group 99 { 1: 1, group 100 }
    data = nat.serialize(holder) + unknown
    assert nat.serialize(nat.deserialize(Holder, data)) == data
    assert _fallbacks(nat) == 0


def test_the_rules_of_hierarchies_stay_the_python_codecs() -> None:
    nat = _nat()
    cube = nat.serialize(Cube(name="k", depth=4))
    circle = nat.serialize(Circle(radius=2.0))
    cases: list[tuple[Any, bytes]] = [
        (Square, circle),  # a sibling subtype is not a Square
        (Circle, cube),
        (Shape, b"\x5a\x03\x08\x01"),  # a subtype level running past its length
        (Shape, b"\x5a\x02\x08\x96\x01"),  # a value running past its level's end
        (Shape, b"\x52\x09\x09" + b"\x00" * 7),  # a truncated level
        (Cube, circle + cube),  # the last subtype wins
        (Shape, circle + cube),
        (Square, circle + cube),
        (Cube, nat.serialize(Square(side=5))),  # the requested class is the least built
        (Shape, b"\x5a\x00\x52\x00"),  # Square, then Circle: a Circle
        (Shape, b"\x53\x54"),  # the subtype tag as a group: an unknown field
    ]
    for cls, data in cases:
        _agree(nat, PY, cls, data)

    # merging into a subtype-typed value never turns it into a sibling
    @proto_contract
    @dataclass
    class Slot:
        sq: Square | None = field(1, default=None)

    bad = nat.serialize(Slot(Square(side=1))) + b"\x0a" + bytes([len(circle)]) + circle
    _agree(nat, PY, Slot, bad)
    with pytest.raises(pa.DecodeError, match="which is not a Square"):
        nat.deserialize(Slot, bad)


def test_merging_into_objects_follows_the_python_codec() -> None:
    nat = _nat()
    cases = [
        (Circle(name="c", id=3, radius=2.0), Square(side=4)),
        (Square(name="q", side=1), Cube(depth=2)),
        (Cube(name="q", side=1, depth=5), Square(side=2)),
        (Shape(name="s"), Circle(radius=1.0)),
        (Holder(g=G(a=1), item=[Item()]), Holder(g=G(s="x"), item=[Item(n=3)], x=2)),
        (Drawing(main=Circle(radius=1.0)), Drawing(main=Square(side=1))),
    ]
    for target, incoming in cases:
        data = nat.serialize(incoming)
        _same(
            _outcome(nat.merge, copy.deepcopy(target), data),
            _outcome(PY.merge, copy.deepcopy(target), data),
        )
        assert type(nat.merge(copy.deepcopy(target), data)) is type(
            PY.merge(copy.deepcopy(target), data)
        )
    assert _fallbacks(nat) == 0


# ------------------------------------------------- random hierarchies


@proto_contract
@dataclass
class Leaf:
    name: str = field(1, default="")
    n: pa.sint32 = field(2, default=0)


INT32 = st.integers(-(2**31), 2**31 - 1)
TEXT = st.text(st.characters(codec="utf-8"), max_size=6)
LEAVES = st.builds(Leaf, TEXT, INT32)
#: (annotation, field() keywords, values)
KINDS: list[tuple[Any, dict[str, Any], st.SearchStrategy[Any]]] = [
    (pa.int32, {"default": 0}, INT32),
    (pa.sint64, {"default": 0}, st.integers(-(2**63), 2**63 - 1)),
    (str, {"default": ""}, TEXT),
    (bytes, {"default": b""}, st.binary(max_size=5)),
    (float, {"default": 0.0}, st.floats(allow_nan=False)),
    (list[str], {"default_factory": list}, st.lists(TEXT, max_size=3)),
    (list[pa.int32], {"default_factory": list}, st.lists(INT32, max_size=3)),
    (pa.uint32 | None, {"default": None}, st.none() | st.integers(0, 2**32 - 1)),
    (Leaf | None, {"default": None}, st.none() | LEAVES),
    (list[Leaf], {"default_factory": list}, st.lists(LEAVES, max_size=2)),
    (Leaf | None, {"default": None, "group": True}, st.none() | LEAVES),
    (list[Leaf], {"default_factory": list, "group": True}, st.lists(LEAVES, max_size=2)),
    (dict[str, pa.int32], {"default_factory": dict}, st.dictionaries(TEXT, INT32, max_size=2)),
]


@dataclasses.dataclass
class Hierarchy:
    classes: list[type]  # [root, ...]: each after its parent
    values: dict[type, dict[str, st.SearchStrategy[Any]]]  # own fields' values per class
    holder: type  # list[root], root | None, a root group, a field typed as level 1
    level1: type


@st.composite
def hierarchies(draw: st.DrawFn) -> Hierarchy:
    n = draw(st.integers(1, 5), label="levels")
    frozen = draw(st.booleans(), label="frozen")
    classes: list[type] = []
    values: dict[type, dict[str, st.SearchStrategy[Any]]] = {}
    used_tags: dict[int, set[int]] = {}
    for i in range(n):
        parent = draw(st.integers(0, i - 1), label="parent") if i else None
        kinds = draw(st.lists(st.integers(0, len(KINDS) - 1), max_size=4), label="fields")
        specs = []
        own: dict[str, st.SearchStrategy[Any]] = {}
        for j, k in enumerate(kinds):
            ann, kw, strategy = KINDS[k]
            name = f"c{i}_{j}"
            specs.append((name, ann, field(j + 1, **kw)))
            own[name] = strategy
        bases = (classes[parent],) if parent is not None else ()
        cls = dataclasses.make_dataclass(f"L{i}", specs, bases=bases, frozen=frozen)
        cls.__module__ = __name__
        if parent is None:
            cls = proto_contract(cls)
        else:
            taken = used_tags.setdefault(parent, set())
            free = sorted(set(range(10, 15)) - taken)
            tag = draw(st.sampled_from(free), label="tag")
            taken.add(tag)
            cls = proto_contract(subtype_tag=tag)(cls)
        classes.append(cls)
        values[cls] = own
    root = classes[0]
    level1 = classes[1] if n > 1 else root
    holder = dataclasses.make_dataclass(
        "Holder",
        [
            ("items", list[root], field(1, default_factory=list)),  # type: ignore[valid-type]
            ("main", root | None, field(2, default=None)),
            ("grp", root | None, field(3, default=None, group=True)),
            ("sub", level1 | None, field(4, default=None)),
        ],
    )
    holder.__module__ = __name__
    return Hierarchy(classes, values, proto_contract(holder), level1)


def instances(h: Hierarchy, among: list[type] | None = None) -> st.SearchStrategy[Any]:
    def build(cls: type) -> st.SearchStrategy[Any]:
        kw: dict[str, st.SearchStrategy[Any]] = {}
        for klass in cls.__mro__:
            kw.update(h.values.get(klass, {}))
        return st.builds(cls, **kw)

    return st.one_of(*[build(cls) for cls in (among or h.classes)])


def holders(h: Hierarchy) -> st.SearchStrategy[Any]:
    below = [c for c in h.classes if issubclass(c, h.level1)]
    return st.builds(
        h.holder,
        items=st.lists(instances(h), max_size=3),
        main=st.none() | instances(h),
        grp=st.none() | instances(h),
        sub=st.none() | instances(h, below),
    )


def _models() -> tuple[pa.TypeModel, pa.TypeModel]:
    return _nat(), pa.TypeModel(backend="python")


@given(st.data())
@DIFF
def test_random_hierarchies_native_equals_python(data: st.DataObject) -> None:
    h = data.draw(hierarchies(), label="hierarchy")
    nat, py = _models()
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for cls in [*h.classes, h.holder]:
        assert nat._native is not None and nat._native.explain(cls) == "native"
    for _ in range(3):
        obj = data.draw(instances(h) | holders(h), label="value")
        encoded = py.serialize(obj)
        assert nat.serialize(obj) == encoded
        targets = [h.holder] if isinstance(obj, h.holder) else [h.classes[0], type(obj)]
        before = _fallbacks(nat)
        for cls in targets:
            got = _agree(nat, py, cls, encoded)
            assert got[0] == "ok"
        assert _fallbacks(nat) == before, "valid data must not need the Python codec"
        for _ in range(8):
            bad = _garble(encoded, rnd)
            for cls in [*targets, rnd.choice(h.classes)]:
                _agree(nat, py, cls, bad)


@given(st.data())
@DIFF
def test_random_merges_native_equals_python(data: st.DataObject) -> None:
    h = data.draw(hierarchies(), label="hierarchy")
    nat, py = _models()
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for _ in range(3):
        kind = data.draw(st.sampled_from(["levels", "holders"]), label="kind")
        values = instances(h) if kind == "levels" else holders(h)
        target = data.draw(values, label="target")
        incoming = data.draw(values, label="incoming")
        encoded = py.serialize(incoming)
        before = _fallbacks(nat)
        got = _outcome(nat.merge, copy.deepcopy(target), encoded)
        _same(got, _outcome(py.merge, copy.deepcopy(target), encoded))
        if got[0] == "ok":
            assert type(got[1]) is type(py.merge(copy.deepcopy(target), encoded))
            assert _fallbacks(nat) == before, "a valid merge must not need the Python codec"
        # the same bytes twice in one message: singular messages and groups merge
        twice = py.serialize(target) + encoded
        cls = type(target) if kind == "holders" else h.classes[0]
        _agree(nat, py, cls, twice)
        bad = _garble(encoded, rnd)
        _same(
            _outcome(nat.merge, copy.deepcopy(target), bad),
            _outcome(py.merge, copy.deepcopy(target), bad),
        )


GROUP_JUNK = st.lists(
    st.sampled_from(
        [
            b"\x9b\x06\x08\x01\x9c\x06",  # group 99 { 1: 1 }
            b"\x9b\x06\xa3\x06\x12\x01x\xa4\x06\x9c\x06",  # group 99 { group 100 { 2: "x" } }
            b"\x9b\x06",  # an unterminated group
            b"\x9c\x06",  # an end-group without its start
            b"\x9b\x06\xa4\x06",  # a mismatched end-group
            b"\x9b\x06\x03\x9c\x06",  # field number 0 inside
            b"\xfa\x06\x02\x08\x01",  # a plain unknown message
        ]
    ),
    max_size=3,
)


@given(st.data())
@DIFF
def test_groups_and_unknown_groups_native_equals_python(data: st.DataObject) -> None:
    nat, py = _models()
    gs = st.none() | st.builds(G, st.none() | INT32, st.none() | TEXT)
    items = st.builds(
        Item, st.none() | st.integers(-(2**63), 2**63 - 1), st.lists(TEXT, max_size=2), gs
    )
    obj = data.draw(
        st.builds(Holder, st.none() | INT32, gs, st.lists(items, max_size=3), gs, st.none() | TEXT)
    )
    encoded = py.serialize(obj)
    assert nat.serialize(obj) == encoded
    junk = data.draw(GROUP_JUNK, label="junk")
    at = data.draw(st.integers(0, len(junk)), label="at")
    mixed = b"".join(junk[:at]) + encoded + b"".join(junk[at:])
    before = _fallbacks(nat)
    got = _agree(nat, py, Holder, mixed)
    if got[0] == "ok":
        assert nat.serialize(got[1]) == py.serialize(py.deserialize(Holder, mixed))
        assert _fallbacks(nat) == before
    small = pa.TypeModel(backend="native", max_depth=3), pa.TypeModel(backend="python", max_depth=3)
    _same(
        _outcome(small[0].deserialize, Holder, mixed), _outcome(small[1].deserialize, Holder, mixed)
    )


def test_add_subtype_and_attrs_hierarchies_run_natively() -> None:
    from tests.test_inheritance import Account, Frozen, Garage, Savings, SportsCar, Truck, Vehicle

    nat = _nat()
    nat.add_subtype(Vehicle, 10, SportsCar.__mro__[1])  # Car
    nat.add_subtype(SportsCar.__mro__[1], 7, SportsCar)
    nat.add_subtype(Vehicle, 11, Truck)
    py = pa.TypeModel(backend="python")
    py.add_subtype(Vehicle, 10, SportsCar.__mro__[1])
    py.add_subtype(SportsCar.__mro__[1], 7, SportsCar)
    py.add_subtype(Vehicle, 11, Truck)
    garage = Garage(vehicles=[Vehicle(wheels=1), SportsCar(top_speed=3.5), Truck(load=9)])
    data = nat.serialize(garage)
    assert data == py.serialize(garage)
    assert_same(nat.deserialize(Garage, data), garage)
    assert nat._native is not None and nat._native.explain(Garage) == "native"
    # attrs levels, slotted (unknown fields in the side table) and frozen
    raw = b"\x52\x0b\x09" + struct.pack("<d", 0.5) + b"\x10\x07" + b"\x0a\x01o\x18\x09"
    got = nat.deserialize(Account, raw)
    assert got == Savings(owner="o", rate=0.5) and nat.serialize(got) == raw
    frozen = nat.deserialize(Account, b"\x5a\x02\x08\x05\x0a\x01f")
    assert frozen == Frozen(owner="f", until=5) and type(frozen) is Frozen
    assert nat._native.explain(Account) == "native"
    assert _fallbacks(nat) == 0
