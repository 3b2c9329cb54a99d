"""from_json in C (json_read.c) against the Python reference, which it must equal exactly.

Every text here is read by a native model (the C reader first, the reference on
anything it does not take) and by a Python model (the reference only): both
accept with the same object (compared by ``repr``, which tells members from ints,
tuples from lists and shows NaNs) or both refuse with the same message.  Canonical
texts must also be taken by the C reader itself (its fallback count stays put), so
that the comparison is of the C code, not of the reference with itself.
"""

from __future__ import annotations

import dataclasses
import decimal
import enum
import json
import random
import typing
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from protoattr._json import native_read
from protoattr._json.plan import _plans
from tests.test_random_contracts import build_classes, schemas, values_for

pytestmark = pytest.mark.skipif(not native.available(), reason="C engine not built")

PY = pa.TypeModel(backend="python")
NAT = pa.TypeModel(backend="native") if native.available() else PY
FEW = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Colour(enum.IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


@pa.closed_enum
class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


@proto_contract
@dataclasses.dataclass
class Inner:
    name: str = field(1, default="")
    n: pa.sint64 = field(2, default=0)


@proto_contract
@dataclasses.dataclass
class All:
    i32: pa.int32 = field(1, default=0)
    i64: int = field(2, default=0)
    u32: pa.uint32 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    f64: pa.fixed64 = field(6, default=0)
    sf32: pa.sfixed32 = field(7, default=0)
    flag: bool = field(8, default=False)
    colour: Colour = field(9, default=Colour.RED)
    level: Level = field(10, default=Level.LOW)
    real: pa.float32 = field(11, default=0.0)
    double: float = field(12, default=0.0)
    text: str = field(13, default="")
    blob: bytes = field(14, default=b"")
    inner: Inner | None = field(15, default=None)
    inner_value: Inner = field(16, default_factory=Inner)
    ints: list[pa.int32] = field(17, default_factory=list)
    texts: tuple[str, ...] = field(18, default=())
    colours: list[Colour] = field(19, default_factory=list)
    inners: list[Inner] = field(20, default_factory=list)
    by_id: dict[pa.uint32, str] = field(21, default_factory=dict)
    by_name: dict[str, Inner] = field(22, default_factory=dict)
    by_flag: dict[bool, Colour] = field(23, default_factory=dict)
    by_long: dict[pa.sint64, float] = field(24, default_factory=dict)
    when: datetime = field(25, default=datetime(1970, 1, 1, tzinfo=timezone.utc))
    took: timedelta = field(26, default=timedelta(0))
    maybe: pa.int32 | None = field(27, default=None)
    a: str | None = field(28, default=None, oneof="choice")
    b: Inner | None = field(29, default=None, oneof="choice")
    c: Colour | None = field(30, default=None, oneof="choice")
    snake_case_name: str = field(31, default="")


@proto_contract
@dataclasses.dataclass
class Node:
    value: pa.int32 = field(1, default=0)
    next: Node | None = field(2, default=None)


@proto_contract
@dataclasses.dataclass
class Needs:
    key: str = field(1, required=True)
    n: pa.int32 = field(2, default=7)


def _outcome(model: pa.TypeModel, cls: Any, text: Any, ignore: bool) -> tuple[str, str]:
    try:
        obj = model.from_json(cls, text, ignore_unknown_fields=ignore)
    except pa.DecodeError as exc:
        return "DecodeError", str(exc)
    return type(obj).__qualname__, repr(obj)


def _fallbacks(cls: Any, ignore: bool) -> int:
    reader = _plans(NAT).native_readers[ignore].get(cls)
    return -1 if reader is None else int(reader.fallbacks)


def same(
    cls: Any, text: Any, ignore: bool = False, *, taken: bool | None = None
) -> tuple[str, str]:
    """Both models read ``text`` alike; ``taken``: whether the C reader must (not) take it."""
    before = max(_fallbacks(cls, ignore), 0)  # a reader built by this call starts at 0
    got = _outcome(NAT, cls, text, ignore)
    after = _fallbacks(cls, ignore)
    want = _outcome(PY, cls, text, ignore)
    assert got == want, text
    if taken is not None:
        assert after >= 0, f"{cls.__qualname__} has no C reader"
        assert (after == before) is taken, (text, got)
    return got


FULL = All(
    i32=-5, i64=-(2**63), u32=2**32 - 1, u64=2**64 - 1, s32=-(2**31), f64=2**64 - 1,
    sf32=2**31 - 1, flag=True, colour=Colour.BLUE, level=Level.HIGH, real=1.1, double=-2.5e-300,
    text="h\u00e9\u2028\U0001f600\"\\\n", blob=b"\x00\xfb\xff", inner=Inner("x", -3),
    inner_value=Inner("v", 2), ints=[1, -2, 3], texts=("a", ""), colours=[Colour.GREEN, 7],  # type: ignore[list-item]
    inners=[Inner(), Inner("i", 1)], by_id={0: "z", 7: "s"}, by_name={"k": Inner("q"), "": Inner()},
    by_flag={True: Colour.RED, False: Colour.BLUE}, by_long={-(2**63): 1.5, 5: float("inf")},
    when=datetime(2021, 2, 3, 4, 5, 6, 789000, tzinfo=timezone.utc), took=timedelta(seconds=-1.5),
    maybe=0, b=Inner("b"), snake_case_name="snake",
)  # fmt: skip

OPTIONS = [
    {},
    {"preserving_proto_field_name": True},
    {"use_integers_for_enums": True, "always_print_fields_with_no_presence": True},
    {"indent": None, "ensure_ascii": False},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_canonical_texts_are_read_in_c(options: dict[str, Any]) -> None:
    for obj in (FULL, All(), All(a="x"), All(c=Colour.GREEN), Node(1, Node(2, Node(3)))):
        text = PY.to_json(obj, **options)
        assert same(type(obj), text, taken=True)[0] == type(obj).__qualname__
        same(type(obj), text.encode(), taken=True)


def test_the_python_backend_runs_only_the_reference() -> None:
    assert native_read.read(PY, All, "{}", False) is None
    assert not any(_plans(PY).native_readers[0].values())


# ----------------------------------------------------------------- edge cases

#: (text, whether the C reader takes it): everything else is the reference's
CASES: list[tuple[str, bool]] = [
    # numbers as json_format reads them
    ('{"i32": 1e2}', True),
    ('{"i32": 1.0}', True),
    ('{"i32": "1e2"}', True),
    ('{"i32": -0}', True),
    ('{"i32": "-0"}', True),
    ('{"i32": "+5"}', True),
    ('{"i32": "007"}', True),
    ('{"i32": 1.5}', False),
    ('{"i32": 01}', False),
    ('{"i32": " 1"}', False),
    ('{"i32": "1_0"}', False),
    ('{"i32": "0x10"}', False),
    ('{"i32": 2147483648}', False),
    ('{"i32": -2147483648}', True),
    ('{"i32": true}', False),
    ('{"i32": "1."}', True),
    ('{"i32": ".5e1"}', True),
    ('{"u32": -1}', False),
    ('{"u32": "-0"}', True),
    ('{"u64": 18446744073709551615}', True),
    ('{"u64": 18446744073709551616}', False),
    ('{"u64": 1.8446744073709552e19}', False),
    ('{"i64": 9223372036854775807}', True),
    ('{"i64": -9223372036854775808}', True),
    ('{"i64": 9.223372036854776e18}', False),
    ('{"i64": "-9223372036854775809"}', False),
    ('{"i64": 1e18}', True),
    ('{"i32": 123456789012345678901234567890}', False),
    ('{"double": "NaN"}', True),
    ('{"double": "Infinity"}', True),
    ('{"double": "-Infinity"}', True),
    ('{"double": NaN}', False),
    ('{"double": Infinity}', False),
    ('{"double": "nan"}', False),
    ('{"double": 1e400}', False),
    ('{"double": "1e400"}', False),
    ('{"double": -0}', True),
    ('{"double": -0.0}', True),
    ('{"double": "-0"}', True),
    ('{"double": "1."}', True),
    ('{"double": ".5"}', True),
    ('{"double": "+.5e-3"}', True),
    ('{"double": "."}', False),
    ('{"double": 12345678901234567890123}', True),
    ('{"double": 5e-324}', True),
    ('{"real": 3.4028235e38}', True),
    ('{"real": -3.4028235e38}', True),
    ('{"real": 3.5e38}', False),
    ('{"real": 3.4028234663852886e38}', True),
    ('{"real": 1e-46}', True),
    ('{"real": 0.1}', True),
    ('{"double": true}', False),
    ('{"double": "1e5 "}', False),
    # strings, escapes, surrogates
    (r'{"text": "a\"b\\c\/d\b\f\n\r\t"}', True),
    (r'{"text": "\u00e9\u2028\ud83d\ude00"}', True),
    (r'{"text": "\ud83d"}', False),
    (r'{"text": "\ude00"}', False),
    (r'{"text": "\ud83dx"}', False),
    (r'{"text": "\u12"}', False),
    (r'{"text": "\x41"}', False),
    ('{"text": "a\tb"}', False),
    ('{"text": "\u0000"}', False),
    (r'{"text": "\u0000"}', True),
    ('{"text": 1}', False),
    (r'{"te\u0078t": "escaped key"}', True),
    ('{"text": "\U0001f600"}', True),
    # bytes
    ('{"blob": "AP8="}', True),
    ('{"blob": "AP8"}', True),
    ('{"blob": "-_-_"}', True),
    ('{"blob": "+/+/"}', True),
    ('{"blob": "+_-/"}', True),
    ('{"blob": "QR=="}', True),
    ('{"blob": "A"}', False),
    ('{"blob": "AP8=="}', False),
    ('{"blob": "AP=8"}', False),
    ('{"blob": "A==="}', False),
    ('{"blob": "AP 8"}', False),
    ('{"blob": "=="}', False),
    ('{"blob": ""}', True),
    (r'{"blob": "AP\/="}', True),
    ('{"blob": "AAA="}', True),
    # bools, enums
    ('{"flag": false}', True),
    ('{"flag": "true"}', False),
    ('{"flag": 1}', False),
    ('{"colour": "BLUE"}', True),
    ('{"colour": 2}', True),
    ('{"colour": "2"}', True),
    ('{"colour": 9}', True),
    ('{"colour": "9"}', True),
    ('{"colour": "PURPLE"}', False),
    ('{"colour": "COLOUR_RED"}', True),
    ('{"colour": 2.0}', False),
    ('{"colour": 2147483648}', False),
    ('{"colour": " 1"}', False),
    ('{"level": 2}', False),
    ('{"level": "HIGH"}', True),
    ('{"level": "LEVEL_UNSPECIFIED"}', True),
    ('{"colours": ["RED", 1, "BLUE", 5]}', True),
    # nulls, duplicates, both names, oneofs
    ('{"text": null, "inner": null, "ints": null, "byId": null}', True),
    ('{"maybe": null}', True),
    ('{"ints": [1, null]}', False),
    ('{"byName": {"k": null}}', False),
    ('{"text": "a", "text": "b"}', False),
    ('{"snakeCaseName": "a", "snake_case_name": "b"}', False),
    ('{"snake_case_name": "a"}', True),
    ('{"snakeCaseName": "a"}', True),
    ('{"snakeCaseName": null, "snake_case_name": "b"}', False),
    ('{"a": "x", "b": {}}', False),
    ('{"a": null, "b": {}}', True),
    ('{"a": null}', True),
    ('{"a": "x", "c": null}', True),
    ('{"c": "GREEN"}', True),
    # maps
    ('{"byId": {"1": "a", "01": "b"}}', False),
    ('{"byId": {"1e1": "a"}}', True),
    ('{"byId": {"-1": "a"}}', False),
    ('{"byId": {"1.5": "a"}}', False),
    ('{"byName": {"k": {}, "k": {}}}', False),
    ('{"byFlag": {"true": 1, "false": "RED"}}', True),
    ('{"byFlag": {"True": 1}}', False),
    ('{"byLong": {"-9223372036854775808": "NaN"}}', True),
    ('{"byId": []}', False),
    ('{"ints": {}}', False),
    # messages, times
    ('{"inner": {"name": "a", "n": "5"}}', True),
    ('{"inner": []}', False),
    ('{"inner": "x"}', False),
    ('{"inners": [{}, {"n": 1}]}', True),
    ('{"inner": {"nope": 1}}', False),
    ('{"when": "2021-02-03T04:05:06Z"}', True),
    ('{"when": "2021-02-03T04:05:06.1Z"}', True),
    ('{"when": "2021-02-03T04:05:06.123456789Z"}', True),
    ('{"when": "0001-01-01T00:00:00Z"}', True),
    ('{"when": "9999-12-31T23:59:59.999999999Z"}', True),
    ('{"when": "2021-02-29T00:00:00Z"}', False),
    ('{"when": "2020-02-29T00:00:00Z"}', True),
    ('{"when": "2021-02-03T24:00:00Z"}', False),
    ('{"when": "2021-02-03T04:05:60Z"}', False),
    ('{"when": "2021-02-03T04:05:06+01:00"}', True),  # an offset: converted to UTC in C
    ('{"when": "2021-02-03t04:05:06z"}', False),
    ('{"when": "2021-02-03T04:05:06.Z"}', False),
    ('{"when": "2021-02-03T04:05:06.1234567890Z"}', False),
    ('{"when": "0000-01-01T00:00:00Z"}', False),
    ('{"took": "1.5s"}', True),
    ('{"took": "-0.000001s"}', True),
    ('{"took": "-1.999999999s"}', True),
    ('{"took": "315576000000s"}', True),
    ('{"took": "315576000001s"}', False),
    ('{"took": "1s "}', False),
    ('{"took": "1.s"}', False),
    ('{"took": "s"}', False),
    ('{"took": "+1s"}', False),
    ('{"took": "0001s"}', True),
    ('{"took": 1}', False),
    ('{"when": null, "took": null}', True),
    # syntax, unknown fields, extensions
    ("", False),
    ("[]", False),
    ("{", False),
    ('{"text": "a",}', False),
    ('{"text" "a"}', False),
    (" \t\n{} \r\n", True),
    ("{} x", False),
    ('{"nope": 1}', False),
    ('{"[x.y]": 1}', False),
    ("\ufeff{}", False),
    ('{"text": "a"}{}', False),
]


@pytest.mark.parametrize(("text", "taken"), CASES)
def test_edge_cases_read_as_the_reference_reads_them(text: str, taken: bool) -> None:
    same(All, text, taken=taken)
    same(All, text.encode("utf-8", "surrogatepass"), taken=None)


IGNORED: list[tuple[str, bool]] = [
    ('{"nope": 1, "text": "a"}', True),
    ('{"nope": {"x": [1, {"y": null}]}, "i32": 2}', True),
    ('{"nope": 1, "nope": 2}', False),
    ('{"nope": {"x": 1, "x": 2}}', False),
    ('{"nope": NaN}', False),
    ('{"colour": "PURPLE"}', True),
    ('{"colours": ["PURPLE", "RED"]}', True),
    ('{"colour": "not a name"}', False),
    ('{"c": "PURPLE", "a": "x"}', False),
    ('{"byFlag": {"true": "PURPLE"}}', False),
    ('{"nope": "\\ud800"}', False),
    ('{"[x.y]": 1}', False),
    ('{"nope": [1, 2,]}', False),
]


@pytest.mark.parametrize(("text", "taken"), IGNORED)
def test_ignore_unknown_fields(text: str, taken: bool) -> None:
    same(All, text, True, taken=taken)
    same(All, text, False)


def test_bytes_input_must_be_utf8() -> None:
    for raw in (b'{"text": "\xff"}', b'{"text": "\xed\xa0\x80"}', b'{"text": "\xc0\x80"}',
                b'{"nope": "\xf4\x90\x80\x80"}', b'{"text": "\xe2\x82"}'):  # fmt: skip
        same(All, raw, taken=False)
        same(All, raw, True, taken=False)
    same(All, '{"text": "\u00e9"}'.encode(), taken=True)
    same(All, "{}", taken=True)
    same(All, bytearray(b"{}"))
    same(All, '{"text": "\udc80"}')  # a str that is no UTF-8


def test_required_fields_and_defaults() -> None:
    same(Needs, '{"key": "k"}', taken=True)
    same(Needs, "{}", taken=False)


def test_depth_is_bounded_as_the_reference_bounds_it() -> None:
    model_nat, model_py = (
        pa.TypeModel(backend="native", max_depth=5),
        pa.TypeModel(backend="python", max_depth=5),
    )
    for levels in range(1, 8):
        text = '{"next": ' * levels + "{}" + "}" * levels
        got = _outcome(model_nat, Node, text, False)
        assert got == _outcome(model_py, Node, text, False), levels
    deep = '{"next": ' * 3000 + "{}" + "}" * 3000
    assert _outcome(NAT, Node, deep, False) == _outcome(PY, Node, deep, False)
    for max_depth in (1, 2, 3):  # an absent non-Optional message, a Timestamp: levels too
        nat = pa.TypeModel(backend="native", max_depth=max_depth)
        py = pa.TypeModel(backend="python", max_depth=max_depth)
        for text in ("{}", '{"inner": {}}', '{"inners": [{}]}', '{"byName": {"k": {}}}'):
            assert _outcome(nat, All, text, False) == _outcome(py, All, text, False), text


def test_unsupported_contracts_go_to_the_reference() -> None:
    @proto_contract
    @dataclasses.dataclass
    class WithDecimal:
        d: decimal.Decimal = field(1, default=decimal.Decimal(0))

    assert same(WithDecimal, '{"d": "1.5"}')[0].endswith("WithDecimal")
    assert _plans(NAT).native_readers[False][WithDecimal] is None


# ------------------------------------------------------------ random contracts


@given(st.data())
@FEW
def test_random_contracts_read_as_the_reference_reads_them(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for spec in schema:
        cls = classes[spec.index]
        obj = data.draw(values_for(schema, spec.index, classes), label=cls.__name__)
        for options in OPTIONS[:3]:
            text = PY.to_json(obj, **options)
            reader_before = _fallbacks(cls, False)
            same(cls, text)
            if reader_before >= 0:  # a contract the C reader takes: it read this text itself
                assert _fallbacks(cls, False) == reader_before, text
            for _ in range(4):
                same(cls, _mutate(text, rnd), rnd.random() < 0.5)


_JUNK = [*'{}[],:"\\ 0123456789.eE+-tfnaul', "null", '"x"', "1e999", '"NaN"', "{}", "[]"]


def _mutate(text: str, rnd: random.Random) -> str:
    """``text`` with a few random edits: deletions, insertions of JSON-ish bits, swaps."""
    chars = list(text)
    for _ in range(rnd.randint(1, 3)):
        if not chars:
            break
        i = rnd.randrange(len(chars))
        what = rnd.random()
        if what < 0.35:
            del chars[i]
        elif what < 0.7:
            chars.insert(i, rnd.choice(_JUNK))
        else:
            chars[i] = rnd.choice(_JUNK)
    return "".join(chars)


# ------------------------------------------------------------- hostile texts

_KEYS = [
    *("i32", "i64", "u64", "colour", "level", "real", "double", "text", "blob", "inner"),
    *("innerValue", "ints", "texts", "colours", "inners", "byId", "byName", "byFlag", "byLong"),
    *("when", "took", "maybe", "a", "b", "c", "snake_case_name", "name", "n", "zz"),
]
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**65), 2**65), st.floats(allow_nan=False),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "RED", "BLUE", "HIGH", "PURPLE", "AP8=", "1e2",
                     "2021-02-03T04:05:06Z", "1.5s", "-0", "true", "3.4028235e38", "\ud800"]),
    st.text(max_size=4),
)  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(_KEYS) | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=6), st.booleans(), st.booleans())
@settings(max_examples=150, derandomize=True, deadline=None)
def test_hostile_objects_read_as_the_reference_reads_them(
    data: dict[str, Any], ignore: bool, ascii_only: bool
) -> None:
    text = json.dumps(data, ensure_ascii=ascii_only)
    same(All, text, ignore)


def test_a_subtype_declared_later_is_read_as_the_reference_reads_it() -> None:
    @proto_contract
    @dataclasses.dataclass
    class Shape:
        name: str = field(1, default="")

    @dataclasses.dataclass
    class Circle(Shape):
        radius: float = field(2, default=0.0)

    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    text = '{"name": "c", "Circle": {"radius": 2.0}}'
    assert _outcome(nat, Shape, '{"name": "c"}', True) == _outcome(py, Shape, '{"name": "c"}', True)
    assert _plans(nat).native_readers[True][Shape] is not None  # read in C: no subtypes yet
    for model in (nat, py):
        model.add_subtype(Shape, 10, proto_contract(Circle))
    for ignore in (False, True):
        got = _outcome(nat, Shape, text, ignore)
        assert got == _outcome(py, Shape, text, ignore)
        assert got[0].endswith("Circle"), got


def test_the_c_entry_point_hands_unusual_calls_to_the_method() -> None:
    assert NAT.from_json.__self__ is NAT
    assert NAT.from_json(All, "{}", ignore_unknown_fields=1) == All()  # type: ignore[arg-type]
    assert NAT.from_json(cls=All, text='{"i32": 1}') == All(i32=1)
    assert NAT.from_json(list[Inner], '[{"name": "a"}]') == PY.from_json(
        list[Inner], '[{"name": "a"}]'
    )
    for call in (
        lambda m: m.from_json(All, "{}", True),
        lambda m: m.from_json(All),
        lambda m: m.from_json(All, "{}", nope=True),
        lambda m: m.from_json({}, "{}"),
        lambda m: m.from_json(All, 5),
    ):
        outcomes = []
        for model in (NAT, PY):
            try:
                outcomes.append(("ok", repr(call(model))))
            except Exception as exc:  # the same exception either way
                outcomes.append((type(exc).__name__, str(exc)))
        assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("at", range(0, 19))
def test_long_strings_are_scanned_exactly(at: int) -> None:
    """The string scan takes eight bytes at a time: every special byte at every offset."""
    pad = "abcdefghijklmnopqrstuvwxyz"
    specials = [("\\n", True), ('\\"', True), ("\u00e9", True), ("\U0001f600", True)]
    specials += [("\t", False), ("\x01", False), ("\\ud800", False), ("\x7f", True)]
    for special, taken in specials:
        text = '{"text": "' + pad[:at] + special + pad[at:] + '"}'
        same(All, text, taken=taken)
        same(All, text.encode("utf-8", "surrogatepass"))
        same(All, '{"nope": "' + pad[:at] + special + '", "text": "x"}', True, taken=taken)


@proto_contract
@dataclasses.dataclass
class Wrapped:
    i: pa.wrappers.Int32Value = field(1, default=None)
    u: pa.wrappers.UInt64Value = field(2, default=None)
    d: pa.wrappers.DoubleValue = field(3, default=None)
    f: pa.wrappers.FloatValue = field(4, default=None)
    b: pa.wrappers.BoolValue = field(5, default=None)
    s: pa.wrappers.StringValue = field(6, default=None)
    y: pa.wrappers.BytesValue = field(7, default=None)
    many: list[pa.wrappers.Int64Value] = field(8, default_factory=list)
    by_key: dict[str, pa.wrappers.StringValue] = field(9, default_factory=dict)
    inner: Inner | None = field(10, default=None)


WRAPPED: list[tuple[str, bool]] = [
    ('{"i": 5, "u": "18446744073709551615", "d": "NaN", "f": 0.1, "b": false}', True),
    ('{"s": "x", "y": "AP8=", "many": ["1", 2], "byKey": {"a": "b"}}', True),
    ('{"i": null, "s": null, "many": null}', True),
    ('{"i": 2147483648}', False), ('{"i": "1e2"}', True), ('{"b": 0}', False),
    ('{"many": [null]}', False), ('{"byKey": {"a": null}}', False), ('{"s": "\\ud800"}', False),
    ('{"y": "A"}', False), ('{"i": {"value": 1}}', False), ('{"f": 3.4028235e38}', True),
]  # fmt: skip


@pytest.mark.parametrize(("text", "taken"), WRAPPED)
def test_wrappers_read_as_their_bare_values(text: str, taken: bool) -> None:
    same(Wrapped, text, taken=taken)
    obj = Wrapped(1, 2, 0.5, 1.5, True, "s", b"b", [0, -1], {"k": ""}, Inner())
    for options in OPTIONS:
        same(Wrapped, PY.to_json(obj, **options), taken=True)


def test_a_wrapper_is_a_level_of_nesting() -> None:
    for max_depth in (1, 2, 3):
        nat = pa.TypeModel(backend="native", max_depth=max_depth)
        py = pa.TypeModel(backend="python", max_depth=max_depth)
        for text in ('{"i": 1}', '{"many": ["1"]}', '{"byKey": {"a": "b"}}', '{"inner": {}}'):
            assert _outcome(nat, Wrapped, text, False) == _outcome(py, Wrapped, text, False)


def test_a_text_handed_back_is_read_in_c_once() -> None:
    same(All, "{}", taken=True)
    before = _fallbacks(All, False)
    with pytest.raises(pa.DecodeError):
        NAT.from_json(All, '{"nope": 1}')
    assert _fallbacks(All, False) == before + 1


ITEMS: list[tuple[Any, str, bool]] = [
    (list[Inner], '[{"name": "a"}, {}, {"n": "3"}]', True),
    (list[Inner], "[]", True),
    (tuple[Inner, ...], '[{"name": "a"}]', True),
    (list[Inner], '[{"name": "a"}, null]', False),
    (list[Inner], '[{"name": "a"},]', False),
    (list[Inner], '[[{"name": "a"}]]', False),
    (list[Inner], '{"name": "a"}', False),
    (list[Inner], '[{"nope": 1}]', False),
    (list[Node], '[{"next": {"next": {}}}]', True),
]


@pytest.mark.parametrize(("cls", "text", "taken"), ITEMS)
def test_top_level_lists(cls: Any, text: str, taken: bool) -> None:
    item = typing.get_args(cls)[0]
    before = max(_fallbacks(item, False), 0)
    got = _outcome(NAT, cls, text, False)
    assert got == _outcome(PY, cls, text, False), text
    assert _plans(NAT).native_readers[False][cls] is not None
    assert (_fallbacks(item, False) == before) is taken, (text, got)


def _any_outcome(model: pa.TypeModel, cls: Any, text: str) -> tuple[str, str]:
    try:
        return "ok", repr(model.from_json(cls, text))
    except Exception as exc:  # the same exception either way
        return type(exc).__name__, str(exc)


def test_top_level_lists_the_c_reader_does_not_take() -> None:
    cases = [(list[pa.Struct], '[{"a": 1}]'), (list[list[Inner]], "[[{}]]")]
    cases += [(tuple[Inner, Inner], "[{}, {}]"), (list[int], "[1]")]
    for cls, text in cases:
        assert _any_outcome(NAT, cls, text) == _any_outcome(PY, cls, text)


def test_mutated_top_level_lists() -> None:
    rnd = random.Random(20)
    text = PY.to_json([Inner("a", 1), Inner("b\u00e9", -2), Inner()], indent=None)
    for cls in (list[Inner], tuple[Inner, ...]):
        for _ in range(300):
            mutated = _mutate(text, rnd)
            assert _outcome(NAT, cls, mutated, False) == _outcome(PY, cls, mutated, False), mutated


def test_nan_is_read_as_the_positive_quiet_nan_by_both_readers() -> None:
    """``"NaN"`` gives the same NaN, bit for bit, on both readers (so the same bytes when
    serialized): CPython 3.10's ``Py_NAN`` has the sign bit set, ``math.nan`` does not."""
    import struct

    text = '{"real": "NaN", "double": "NaN"}'
    for model in (PY, NAT):
        obj = model.from_json(All, text)
        assert struct.pack("<d", obj.real).hex() == "000000000000f87f"
        assert struct.pack("<d", obj.double).hex() == "000000000000f87f"
