"""The C writer of canonical JSON (``json_write.c``) against the Python reference.

On the native backend ``pa.to_json`` runs the engine's ``JsonWriter`` where it
can; its text must be the reference's (``to_dict`` + ``json.dumps``) byte for
byte under every option, and where it gives up (an unusual value, an
unsupported construct) the reference must run and produce the same text or
the same ``EncodeError``.  Each check here computes both sides in one process:
the engine's through ``pa.to_json``, the reference's with the engine's writer
switched off.  On the Python backend both sides are the reference (the checks
still run; the ones about the engine taking a call are skipped).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import enum
import itertools
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr._core.wkt import ValueMessage
from protoattr._json import api as json_api
from protoattr._json import native_write
from tests.test_random_contracts import SETTINGS, build_classes, schemas, values_for

NATIVE = pa.default_model.backend == "native"

OPTIONS: list[dict[str, Any]] = [
    {},
    {"indent": None},
    {"indent": 0, "sort_keys": True},
    {"indent": -3},
    {"indent": 4, "ensure_ascii": False},
    {"sort_keys": True, "ensure_ascii": False, "indent": None},
    {"preserving_proto_field_name": True, "use_integers_for_enums": True},
    {"always_print_fields_with_no_presence": True},
    {"always_print_fields_with_no_presence": True, "sort_keys": True, "indent": 1},
    {"always_print_fields_with_no_presence": True, "preserving_proto_field_name": True,
     "ensure_ascii": False, "indent": None},
]  # fmt: skip


def reference(obj: Any, model: Any = None, **options: Any) -> Any:
    """The Python reference's text (or the exception it raises), the engine switched off."""
    model = model or pa.default_model
    saved = native_write.to_json
    native_write.to_json = lambda *args: None  # type: ignore[assignment]
    try:
        return json_api.to_json(model, obj, **options)
    except Exception as exc:
        return exc
    finally:
        native_write.to_json = saved  # type: ignore[assignment]


def engine(obj: Any, model: Any = None, **options: Any) -> Any:
    model = model or pa.default_model
    try:
        return model.to_json(obj, **options)
    except Exception as exc:
        return exc


def taken(obj: Any, model: Any = None, **options: Any) -> bool:
    """Whether the engine's writer printed ``obj`` itself (no fallback)."""
    model = model or pa.default_model
    return (
        native_write.to_json(
            model,
            obj,
            options.get("preserving_proto_field_name", False),
            options.get("use_integers_for_enums", False),
            options.get("always_print_fields_with_no_presence", False),
            options.get("indent", 2),
            options.get("sort_keys", False),
            options.get("ensure_ascii", True),
        )
        is not None
    )


def same(obj: Any, model: Any = None, options: list[dict[str, Any]] = OPTIONS) -> None:
    """The engine's text (or error) is the reference's under every option set."""
    for opts in options:
        ours, theirs = engine(obj, model, **opts), reference(obj, model, **opts)
        if isinstance(theirs, Exception):
            assert type(ours) is type(theirs), (opts, ours, theirs)
            if not isinstance(theirs, RecursionError):  # its wording depends on the stack
                assert str(ours) == str(theirs), opts
        else:
            assert ours == theirs, opts


native_only = pytest.mark.skipif(not NATIVE, reason="the engine's writer runs on native only")


# ------------------------------------------------------------------ contracts


class Color(enum.IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


class Plain(enum.Enum):  # not an int subclass
    ZERO = 0
    ONE = 1


@pa.proto_contract
@dataclasses.dataclass
class Leaf:
    n: pa.int32 = pa.field(1, default=0)
    s: str = pa.field(2, default="")


@pa.proto_contract
@dataclasses.dataclass
class Scalars:
    i32: pa.int32 = pa.field(1, default=0)
    i64: int = pa.field(2, default=0)
    u32: pa.uint32 = pa.field(3, default=0)
    u64: pa.uint64 = pa.field(4, default=0)
    s32: pa.sint32 = pa.field(5, default=0)
    s64: pa.sint64 = pa.field(6, default=0)
    f32: pa.fixed32 = pa.field(7, default=0)
    f64: pa.fixed64 = pa.field(8, default=0)
    sf32: pa.sfixed32 = pa.field(9, default=0)
    sf64: pa.sfixed64 = pa.field(10, default=0)
    flag: bool = pa.field(11, default=False)
    color: Color = pa.field(12, default=Color.RED)
    single: pa.float32 = pa.field(13, default=0.0)
    double: float = pa.field(14, default=0.0)
    text: str = pa.field(15, default="")
    blob: bytes = pa.field(16, default=b"")
    leaf: Leaf | None = pa.field(17, default=None)
    plain: Plain = pa.field(18, default=Plain.ZERO)
    maybe: pa.int32 | None = pa.field(19, default=None)


@pa.proto_contract
@dataclasses.dataclass
class Containers:
    ints: list[pa.int32] = pa.field(1, default_factory=list)
    names: list[str] = pa.field(2, default_factory=list)
    leaves: list[Leaf] = pa.field(3, default_factory=list)
    by_name: dict[str, Leaf] = pa.field(4, default_factory=dict)
    by_int: dict[pa.int32, str] = pa.field(5, default_factory=dict)
    by_u64: dict[pa.uint64, pa.int64] = pa.field(6, default_factory=dict)
    by_bool: dict[bool, Color] = pa.field(7, default_factory=dict)
    blobs: list[bytes] = pa.field(8, default_factory=list)
    floats: list[pa.float32] = pa.field(9, default_factory=list)
    colors: list[Color] = pa.field(10, default_factory=list)
    nums: tuple[float, ...] = pa.field(11, default=())


@pa.proto_contract
@dataclasses.dataclass
class Choice:
    name: str = pa.field(1, default="")
    number: pa.int32 | None = pa.field(2, default=None, oneof="kind")
    word: str | None = pa.field(3, default=None, oneof="kind")
    leaf: Leaf | None = pa.field(4, default=None, oneof="kind")


@pa.proto_contract
@dataclasses.dataclass
class Times:
    at: datetime.datetime | None = pa.field(1, default=None)
    took: datetime.timedelta | None = pa.field(2, default=None)
    ats: list[datetime.datetime] = pa.field(3, default_factory=list)
    tooks: dict[str, datetime.timedelta] = pa.field(4, default_factory=dict)


@pa.proto_contract
@dataclasses.dataclass
class Wrapped:
    i32: pa.wrappers.Int32Value = pa.field(1, default=None)
    i64: pa.wrappers.Int64Value = pa.field(2, default=None)
    u32: pa.wrappers.UInt32Value = pa.field(3, default=None)
    u64: pa.wrappers.UInt64Value = pa.field(4, default=None)
    flag: pa.wrappers.BoolValue = pa.field(5, default=None)
    text: pa.wrappers.StringValue = pa.field(6, default=None)
    blob: pa.wrappers.BytesValue = pa.field(7, default=None)
    single: pa.wrappers.FloatValue = pa.field(8, default=None)
    double: pa.wrappers.DoubleValue = pa.field(9, default=None)
    texts: list[pa.wrappers.StringValue] = pa.field(10, default_factory=list)
    by_name: dict[str, pa.wrappers.Int64Value] = pa.field(11, default_factory=dict)


@pa.proto_contract
@dataclasses.dataclass
class Node:
    value: pa.int32 = pa.field(1, default=0)
    next: Node | None = pa.field(2, default=None)


@pa.proto_contract
@dataclasses.dataclass
class Defaults:
    n: pa.int32 = pa.field(1, default=7)
    s: str = pa.field(2, default="x")
    d: float = pa.field(3, default=-0.0)
    c: Color = pa.field(4, default=Color.GREEN)


def chain(n: int) -> Node:
    node = Node(0)
    for i in range(1, n):
        node = Node(i, node)
    return node


# ------------------------------------------------------------------ fixed cases

TEXTS = [
    "", "plain", 'quote " and \\ backslash', "\b\f\n\r\t\x00\x1f", "del \x7f",
    "é ü ß", "中文", "emoji 😀 \U0010ffff", "mixed \x7f é \n 😀",
]  # fmt: skip


@pytest.mark.parametrize("text", TEXTS)
def test_strings_are_escaped_as_json_dumps_escapes_them(text: str) -> None:
    same(Scalars(text=text))
    same(Containers(names=[text, text + "!"], by_name={text: Leaf(1, text)}))


def test_lone_surrogates_go_to_the_reference() -> None:
    same(Scalars(text="a\ud800b"))
    same(Containers(by_name={"\udc00": Leaf()}))


SCALARS = [
    Scalars(),
    Scalars(i32=-(2**31), i64=-(2**63), u32=2**32 - 1, u64=2**64 - 1, s32=2**31 - 1,
            s64=2**63 - 1, f32=1, f64=2**64 - 1, sf32=-1, sf64=-(2**63)),
    Scalars(flag=True, color=Color.BLUE, text="t", blob=b"\x00\xff", leaf=Leaf()),
    Scalars(flag=1, color=7, plain=Plain.ONE, maybe=0),  # type: ignore[arg-type]
    Scalars(color=-5, plain=Plain.ZERO, maybe=-3),  # type: ignore[arg-type]
    Scalars(single=0.1, double=0.1),
    Scalars(single=-0.0, double=-0.0),
    Scalars(single=3.4028234663852886e38, double=1e300),
    Scalars(single=1.401298464324817e-45, double=5e-324),
    Scalars(single=16777217.0, double=1e16),
    Scalars(single=math.nan, double=math.inf),
    Scalars(single=-math.inf, double=-math.nan),
    Scalars(single=3, double=2**53 + 1),  # ints in float fields
    Scalars(blob=b"a"), Scalars(blob=b"ab"), Scalars(blob=b"abc"),
    Scalars(blob=bytearray(b"\x01\x02\x03\x04")),  # type: ignore[arg-type]
]  # fmt: skip


@pytest.mark.parametrize("obj", SCALARS, ids=range(len(SCALARS)))
def test_scalars_print_as_the_reference_prints_them(obj: Any) -> None:
    same(obj)


BAD_SCALARS = [
    Scalars(i32=2**31), Scalars(i64=2**63), Scalars(u32=-1), Scalars(u64=2**64),
    Scalars(i32="1"), Scalars(i64=1.0), Scalars(flag=2), Scalars(flag="yes"),
    Scalars(i32=True), Scalars(color="RED"), Scalars(color=Plain.ONE),
    Scalars(single=1e39), Scalars(single="0.5"), Scalars(double=True), Scalars(double=2**1024),
    Scalars(text=b"bytes"), Scalars(blob="str"), Scalars(leaf=Choice()),
    Scalars(leaf=Leaf(n=2**40)),
]  # fmt: skip


@pytest.mark.parametrize("obj", BAD_SCALARS, ids=range(len(BAD_SCALARS)))
def test_bad_values_raise_the_references_errors(obj: Any) -> None:
    same(obj)


class MyStr(str):
    pass


class MyInt(int):
    pass


def test_subclasses_go_to_the_reference() -> None:
    same(Scalars(text=MyStr("sub"), i32=MyInt(3), i64=MyInt(-4), color=MyInt(1)))
    same(Containers(by_name={MyStr("k"): Leaf()}, ints=[MyInt(1)]))


CONTAINERS = [
    Containers(),
    Containers(ints=[1, -2, 3], names=["a", "b"], leaves=[Leaf(), Leaf(1, "x")]),
    Containers(by_name={"b": Leaf(1), "a": Leaf(), "": Leaf(s="e")}),
    Containers(by_int={10: "ten", 9: "nine", -1: "minus", 0: "zero", -10: "m10", 100: "h"}),
    Containers(by_u64={2**64 - 1: -(2**63), 0: 1, 18: 2}),
    Containers(by_bool={True: Color.BLUE, False: Color.RED}),
    Containers(by_bool={1: Color.GREEN}),  # type: ignore[dict-item]
    Containers(blobs=[b"", b"x"], floats=[0.1, 1e-7, -2.5], colors=[Color.RED, 9]),  # type: ignore[list-item]
    Containers(leaves=(Leaf(1),), nums=(1.0, math.nan, 2)),  # type: ignore[arg-type]
    Containers(by_name={f"k{i:02d}": Leaf(i) for i in range(40, 0, -1)}),  # > 16 items
    Containers(by_int={i * 7919 % 1000 - 500: str(i) for i in range(30)}),
]  # fmt: skip


@pytest.mark.parametrize("obj", CONTAINERS, ids=range(len(CONTAINERS)))
def test_lists_and_maps_print_as_the_reference_prints_them(obj: Any) -> None:
    same(obj)


BAD_CONTAINERS = [
    Containers(ints=[1, "2"]), Containers(ints={1, 2}), Containers(ints="12"),
    Containers(by_name={1: Leaf()}), Containers(by_name={"a": None}),
    Containers(by_int={"1": "x"}), Containers(by_int={2**40: "x"}), Containers(by_bool={2: 1}),
    Containers(by_name=[("a", Leaf())]), Containers(leaves=[Leaf(), None]),
]  # fmt: skip


@pytest.mark.parametrize("obj", BAD_CONTAINERS, ids=range(len(BAD_CONTAINERS)))
def test_bad_containers_raise_the_references_errors(obj: Any) -> None:
    same(obj)


def test_oneofs_optional_and_defaults() -> None:
    for obj in [Choice(), Choice(number=0), Choice(word=""), Choice(leaf=Leaf()),
                Choice(name="n", number=5)]:  # fmt: skip
        same(obj)
    for obj in [Defaults(), Defaults(n=0, s="", d=0.0, c=Color.RED), Defaults(d=math.nan)]:
        same(obj)


UTC = datetime.timezone.utc
TIMES = [
    Times(),
    Times(at=datetime.datetime(1970, 1, 1), took=datetime.timedelta(0)),
    Times(at=datetime.datetime(2024, 2, 29, 23, 59, 59, 999999, tzinfo=UTC),
          took=datetime.timedelta(seconds=-1, microseconds=1)),
    Times(at=datetime.datetime(1, 1, 1, tzinfo=UTC), took=datetime.timedelta(microseconds=-1500)),
    Times(at=datetime.datetime(9999, 12, 31, 23, 59, 59, 123000),
          took=datetime.timedelta(days=-3, hours=5, milliseconds=20)),
    Times(at=datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=5)))),
    Times(at=datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(0)))),
    Times(took=datetime.timedelta(seconds=315576000000, microseconds=999999)),
    Times(took=datetime.timedelta(seconds=-315576000001)),
    Times(took=datetime.timedelta(days=999999999)),
    Times(ats=[datetime.datetime(2001, 2, 3, 4, 5, 6, 7000)],
          tooks={"a": datetime.timedelta(minutes=1, microseconds=10), "b": datetime.timedelta(0)}),
    Times(at="2001-01-01T00:00:00Z"),  # type: ignore[arg-type]
    Times(took=5),  # type: ignore[arg-type]
]  # fmt: skip


@pytest.mark.parametrize("obj", TIMES, ids=range(len(TIMES)))
def test_timestamps_and_durations(obj: Any) -> None:
    same(obj)


WRAPPED = [
    Wrapped(),
    Wrapped(i32=0, i64=0, u32=0, u64=0, flag=False, text="", blob=b"", single=0.0, double=0.0),
    Wrapped(i32=2**40, i64=-(2**63), u32=-1, u64=2**64 - 1, flag=True, text="é",
            blob=b"\x01", single=0.1, double=math.nan),
    Wrapped(texts=["a", None, ""], by_name={"x": 1, "y": None}),  # type: ignore[list-item]
    Wrapped(single=1e39), Wrapped(flag=1), Wrapped(i32="7"), Wrapped(i64=2**70),  # type: ignore[arg-type]
]  # fmt: skip


@pytest.mark.parametrize("obj", WRAPPED, ids=range(len(WRAPPED)))
def test_wrappers(obj: Any) -> None:
    same(obj)


def test_deep_nesting_and_cycles_go_to_the_reference() -> None:
    same(chain(150))
    same(chain(300), options=[{}, {"indent": None}])
    node = Node(1)
    node.next = node
    same(node, options=[{}])


def test_many_fields_and_the_second_pass_of_always_print() -> None:
    fields = [(f"f{i}", pa.int32, pa.field(i + 1, default=0)) for i in range(70)]
    cls = pa.proto_contract(dataclasses.make_dataclass("Wide", fields))
    same(cls())
    same(cls(**{f"f{i}": i for i in range(0, 70, 3)}))


@native_only
def test_the_engine_takes_the_ordinary_cases() -> None:
    for obj in [*SCALARS, *CONTAINERS, *TIMES[:5], *WRAPPED[:4], Choice(leaf=Leaf(1))]:
        for opts in OPTIONS:
            assert taken(obj, **opts), (obj, opts)


@native_only
def test_the_engine_gives_up_where_the_reference_must_decide() -> None:
    assert not taken(Scalars(i32=2**31))
    assert not taken(Scalars(text="\ud800"), ensure_ascii=False)
    assert taken(Scalars(text="\ud800"))  # escaped with ensure_ascii, as json.dumps does
    assert not taken(chain(300))
    assert not taken(Times(at=TIMES[5].at))
    assert not taken(Scalars(), indent="\t")


@native_only
def test_unsupported_contracts_are_decided_at_plan_time() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class WithDecimal:
        price: decimal.Decimal = pa.field(1, default=decimal.Decimal(0))

    @pa.proto_contract
    @dataclasses.dataclass
    class Holder:
        inner: WithDecimal | None = pa.field(1, default=None)
        at: pa.Timestamp | None = pa.field(2, default=None)

    assert not taken(WithDecimal(decimal.Decimal("1.5")))
    assert not taken(Holder(WithDecimal()))
    same(Holder(WithDecimal(decimal.Decimal("9.99")), pa.Timestamp(5, 1000)))


@pa.proto_contract
@dataclasses.dataclass
class Values:
    data: pa.Struct = pa.field(1, default_factory=dict)
    value: pa.JsonValue = pa.field(2, default=None)
    items: pa.ListValue = pa.field(3, default_factory=list)
    values: list[pa.JsonValue] = pa.field(4, default_factory=list)
    by_name: dict[str, pa.Struct] = pa.field(5, default_factory=dict)


def _nested(n: int) -> Any:
    x: Any = "leaf"
    for i in range(n):
        x = {"k": x} if i % 2 else [x]
    return x


VALUES = [
    Values(),
    Values({"b": 1, "a": [1.5, None, True, False, "s", {"z": {}, "y": []}]}, 0, [()], [None]),
    Values({"n": pa.NullValue.NULL_VALUE, "m": ValueMessage()}, pa.NullValue.NULL_VALUE),
    Values(value={"é": "ü", "\n": "\x7f"}, items=[2**53, -0.0, 1e300, (1, [2])]),
    Values(by_name={"x": {"b": 2, "a": 1}, "": {}}, values=[{"q": None}, [], "t", 7]),
    Values(value=_nested(60)), Values(value=_nested(500)),
    Values(data={"x": math.nan}), Values(value=math.inf), Values(items=[2**1024]),
    Values(data={1: "x"}), Values(data={MyStr("k"): 1}), Values(value=MyStr("s")),
    Values(value=b"bytes"), Values(data=[1]), Values(items={"a": 1}),  # type: ignore[arg-type]
    Values(value=Color.GREEN), Values(value={"e": Plain.ONE}),
]  # fmt: skip


@pytest.mark.parametrize("obj", VALUES, ids=range(len(VALUES)))
def test_struct_value_and_list_value(obj: Any) -> None:
    same(obj)


@native_only
def test_the_engine_takes_the_json_values() -> None:
    for obj in VALUES[:6]:
        for opts in OPTIONS:
            assert taken(obj, **opts), (obj, opts)


# ------------------------------------------------------------------ random contracts


@given(st.data())
@settings(SETTINGS, max_examples=12)
def test_random_contracts_engine_text_is_the_references(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    for spec in schema:
        obj = data.draw(values_for(schema, spec.index, classes), label=f"M{spec.index}")
        same(obj, options=OPTIONS[::3] if spec.index else OPTIONS)


_JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=4),
    st.binary(max_size=4), st.lists(st.integers(-3, 3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(0, 3), max_size=2),
)  # fmt: skip


@given(st.data())
@settings(SETTINGS, max_examples=25)
def test_random_values_of_any_type_raise_or_print_as_the_reference(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from([Scalars, Containers, Wrapped, Times, Choice]))
    names = [f.name for f in dataclasses.fields(cls)]
    obj = cls()
    for name in data.draw(st.lists(st.sampled_from(names), max_size=3, unique=True)):
        object.__setattr__(obj, name, data.draw(_JUNK, label=name))
    same(obj, options=list(itertools.islice(OPTIONS, 0, None, 2)))


# ------------------------------------------------------------------ the C to_json entry point


def test_the_entry_point_hands_unusual_calls_to_the_method() -> None:
    obj = Scalars(i32=3, color=Color.GREEN)
    expected = reference(obj, use_integers_for_enums=True, indent=None)
    assert pa.to_json(obj, use_integers_for_enums=1, indent=None) == expected
    assert pa.to_json(obj, type=Scalars, use_integers_for_enums=True, indent=None) == expected
    assert pa.to_json(obj, **{"use_integers_" + "for_enums": True}, indent=None) == expected
    with pytest.raises(TypeError):
        pa.to_json(obj, indentation=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        pa.to_json()  # type: ignore[call-arg]
    with pytest.raises(pa.EncodeError, match="expected Scalars"):
        pa.to_json(Leaf(), type=Scalars)


def test_a_hierarchy_change_drops_the_writers_the_entry_point_uses() -> None:
    model = pa.TypeModel()

    @pa.proto_contract
    @dataclasses.dataclass
    class Base:
        name: str = pa.field(1, default="")

    @pa.proto_contract
    @dataclasses.dataclass
    class Sub(Base):
        size: pa.int32 = pa.field(2, default=0)

    obj = Sub("s", 3)
    flat = model.to_json(obj)
    assert flat == reference(obj, model)
    if NATIVE:
        assert taken(obj, model)
    model.add_subtype(Base, 10, Sub)
    nested = model.to_json(obj)
    assert nested == reference(obj, model) != flat
    assert '"Sub"' in nested


class Odd:
    """An option value json.dumps cannot take as a flag."""

    def __bool__(self) -> bool:
        raise ValueError("no truth")


def test_option_values_other_than_bools_are_the_references() -> None:
    obj = Containers(by_name={"b": Leaf(), "a": Leaf(1)})
    for opts in [{"sort_keys": 1}, {"ensure_ascii": 0}, {"sort_keys": Odd()}, {"indent": True},
                 {"indent": "\t"}, {"indent": 2.0}, {"indent": 10**30}]:  # fmt: skip
        same(obj, options=[opts])


@native_only
def test_writing_and_giving_up_leave_live_allocations_flat() -> None:
    import gc
    import tracemalloc

    objs = [SCALARS[1], CONTAINERS[9], TIMES[2], WRAPPED[3], VALUES[1], BAD_SCALARS[0],
            Scalars(text="a\ud800"), Containers(by_name={"a": None})]  # fmt: skip

    def cycle() -> None:
        for obj in objs:
            for opts in ({}, {"sort_keys": True, "ensure_ascii": False}):
                with contextlib.suppress(pa.EncodeError):
                    pa.to_json(obj, **opts)

    for _ in range(50):  # warm-up: plans, caches
        cycle()
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(50):
            cycle()
        gc.collect()
        before = len(tracemalloc.take_snapshot().traces)
        for _ in range(300):
            cycle()
        gc.collect()
        after = len(tracemalloc.take_snapshot().traces)
    finally:
        tracemalloc.stop()
    assert after - before < 100, (before, after)


def test_a_plain_enum_at_its_zero_default_is_absent_as_in_json_format() -> None:
    # regression: the reference compared the member with its number (Plain.ZERO == 0 is
    # False for a plain Enum) and printed "plain": "ZERO", which json_format leaves out
    from tests.protoc import compile_proto

    twin = compile_proto(
        'syntax = "proto3";\nenum Plain { ZERO = 0; ONE = 1; }\n'
        "message M { int32 n = 1; Plain plain = 18; }\n",
        "plain_enum",
    )

    @pa.proto_contract
    @dataclasses.dataclass
    class M:
        n: pa.int32 = pa.field(1, default=0)
        plain: Plain = pa.field(18, default=Plain.ZERO)

    from google.protobuf import json_format

    for obj in [M(), M(plain=Plain.ONE), M(plain=0), M(plain=1)]:  # type: ignore[arg-type]
        pb = twin.M.FromString(pa.serialize(obj))
        for opts in OPTIONS:
            assert pa.to_json(obj, **opts) == json_format.MessageToJson(pb, **opts), opts
        same(obj)
    assert pa.to_dict(Scalars()) == {}


def test_a_small_thread_stack_makes_the_engine_give_up_not_crash() -> None:
    import threading

    deep = Containers(leaves=[Leaf(1)])
    values = Values(value=_nested(190))
    results: list[Any] = []

    def work() -> None:
        results.append((engine(chain(190)), engine(deep), engine(values)))

    old = threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old)
    assert results == [(reference(chain(190)), reference(deep), reference(values))]


@pa.proto_contract
@dataclasses.dataclass
class WithDecimalList:  # a contract the engine's writer leaves to the reference
    data: decimal.Decimal = pa.field(1, default=decimal.Decimal(0))


LISTS = [
    [], (), [Leaf(1)], [Leaf(), Scalars(i32=3), Leaf(2, "x")], (Choice(word="w"), Times()),
    [Containers(by_name={"b": Leaf(), "a": Leaf(1)})],
    [Leaf(), datetime.datetime(2000, 1, 1)], [Leaf(), {"a": 1}], [Leaf(), None], [Leaf(), 3],
    [Leaf(), Scalars(i32=2**40)], [Leaf(), WithDecimalList(decimal.Decimal(1))],
]  # fmt: skip


@pytest.mark.parametrize("items", LISTS, ids=range(len(LISTS)))
def test_top_level_lists_of_contracts(items: Any) -> None:
    same(items)
    same(items)  # the second call: the writers planned, the entry point takes it


@native_only
def test_the_engine_takes_top_level_lists_of_its_contracts() -> None:
    for items in LISTS[:6]:
        for opts in OPTIONS:
            pa.to_json(items, **opts)
            assert taken(items, **opts), (items, opts)
    assert not taken(LISTS[6]) and not taken(LISTS[-1])
