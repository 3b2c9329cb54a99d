"""The native backend: selection, coverage and fallback, and a differential test.

The whole suite runs under either backend (``PROTOATTR_BACKEND=native`` or
``=python``); this module checks what only the comparison can show: for random
contracts and random values, random garbled bytes and random bad values, the C
engine and the generated Python codecs give the same bytes, the same objects
and the same exceptions with the same messages (byte offsets included).
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
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
from tests.garble import garble
from tests.test_random_contracts import build_classes, schemas, values_for

needs_engine = pytest.mark.skipif(not native.available(), reason="C engine not built")

PY = pa.TypeModel(backend="python")


def _native_model(**kw: Any) -> pa.TypeModel:
    return pa.TypeModel(backend="native", **kw)


# ------------------------------------------------------------------ selection


def test_backend_names_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    assert pa.TypeModel(backend="python").backend == "python"
    with pytest.raises(ValueError, match="backend must be 'native' or 'python', not 'fast'"):
        pa.TypeModel(backend="fast")
    monkeypatch.setenv("PROTOATTR_BACKEND", "python")
    assert pa.TypeModel().backend == "python"
    monkeypatch.setenv("PROTOATTR_BACKEND", "c")
    with pytest.raises(ValueError, match="PROTOATTR_BACKEND must be 'native' or 'python'"):
        pa.TypeModel()
    monkeypatch.delenv("PROTOATTR_BACKEND")
    assert pa.TypeModel().backend == ("native" if native.available() else "python")


def test_native_without_the_extension_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "engine", lambda: None)
    monkeypatch.setattr(native, "_warned", False)
    monkeypatch.delenv("PROTOATTR_BACKEND", raising=False)
    with pytest.warns(RuntimeWarning, match="C engine is not built"):  # once, at first use
        assert pa.TypeModel().backend == "python"
    with pytest.raises(ImportError, match="needs protoattr's C extension"):
        pa.TypeModel(backend="native")
    monkeypatch.setenv("PROTOATTR_BACKEND", "native")
    with pytest.raises(ImportError, match="PROTOATTR_BACKEND='native' needs"):
        pa.TypeModel()


def test_default_model_follows_the_environment() -> None:
    import os

    wanted = os.environ.get("PROTOATTR_BACKEND") or ("native" if native.available() else "python")
    assert pa.default_model.backend == wanted


# ------------------------------------------------------------------ coverage


@proto_contract
@dataclass
class Leaf:
    name: str = field(1)
    n: pa.sint32 = field(2)


@proto_contract
@dataclass
class Choice:
    a: int | None = field(1, oneof="pick", default=None)
    b: str | None = field(2, oneof="pick", default=None)


@proto_contract
@dataclass
class Priced:
    price: decimal.Decimal = field(1)


@proto_contract
@dataclass
class Odd:
    """A contract the engine leaves to Python: its default cannot be written as UTF-8."""

    text: str = field(1, default="\udc80", wire_default="\udc80")


@proto_contract
@dataclass
class Holder:
    leaf: Leaf = field(1)
    choice: Choice | None = field(2, default=None)
    priced: list[Priced] = field(3, default_factory=list)
    leaves: dict[str, Leaf] = field(4, default_factory=dict)
    odd: list[Odd] = field(5, default_factory=list)


@proto_contract
@dataclass
class Animal:
    name: str = field(1)


@proto_contract(subtype_tag=10)
@dataclass
class Dog(Animal):
    good: bool = field(2)


@needs_engine
def test_which_contracts_run_natively() -> None:
    from protoattr._native.plan import NativeBackend

    model = _native_model()
    backend = model._native
    assert isinstance(backend, NativeBackend)
    assert backend.explain(Leaf) == "native"
    assert backend.explain(Holder) == "native"
    assert backend.explain(Choice) == "native"
    assert backend.explain(Priced) == "native"
    assert backend.explain(Odd) == "python: Odd.text: default that is not UTF-8"
    assert backend.explain(Animal) == "native"  # a hierarchy: every level in one plan
    assert backend.explain(Dog) == "native"
    # the Python codec is still what model.source shows
    assert "def encode_Leaf(obj):" in model.source(Leaf)


@needs_engine
def test_native_contract_calls_back_the_python_codecs_it_nests() -> None:
    model = _native_model()
    obj = Holder(
        Leaf("x", -3),
        Choice(b="hi"),
        [Priced(decimal.Decimal("1.50"))],
        {"k": Leaf("y", 7), "": Leaf("", 0)},
        [Odd("a"), Odd()],
    )
    data = model.serialize(obj)
    assert data == PY.serialize(obj)
    assert_same(model.deserialize(Holder, data), obj)
    assert model.deserialize(Holder, data) == PY.deserialize(Holder, data)


@needs_engine
def test_a_subtype_declared_later_reaches_native_callers() -> None:
    @proto_contract
    @dataclass
    class Base:
        x: int = field(1)

    @proto_contract
    @dataclass
    class User:
        base: Base | None = field(1, default=None)

    model = _native_model()
    assert model.deserialize(User, model.serialize(User(Base(5)))) == User(Base(5))

    @proto_contract(subtype_tag=7)
    @dataclass
    class Derived(Base):
        y: str = field(2)

    obj = User(Derived(5, "d"))
    data = model.serialize(obj)
    assert data == PY.serialize(obj)
    back = model.deserialize(User, data)
    assert type(back.base) is Derived and back == obj


# ------------------------------------------------------------------ differential


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    if len(args) == 2 and fn.__name__ == "serialize":
        args, kw = args[:1], {"type": args[1]}
    else:
        kw = {}
    try:
        return "ok", fn(*args, **kw)
    except Exception as exc:  # the class and the message are what must agree
        return type(exc).__name__, str(exc)


def _same(native_out: tuple[str, Any], python_out: tuple[str, Any]) -> None:
    assert native_out[0] == python_out[0], (native_out, python_out)
    if native_out[0] == "ok":
        assert_same(native_out[1], python_out[1])
    else:
        assert native_out[1] == python_out[1]


JUNK = st.one_of(
    st.none(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.booleans(),
    st.lists(st.integers(-(2**40), 2**40), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)

DIFF = settings(
    derandomize=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@needs_engine
@given(st.data())
@DIFF
def test_native_and_python_agree_on_random_contracts(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    nat = _native_model()
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for spec in schema:
        cls = classes[spec.index]
        for _ in range(2):
            obj = data.draw(values_for(schema, spec.index, classes), label=cls.__name__)
            encoded = PY.serialize(obj)
            before = _fallbacks(nat)
            assert nat.serialize(obj) == encoded
            _same(_outcome(nat.deserialize, cls, encoded), _outcome(PY.deserialize, cls, encoded))
            assert _fallbacks(nat) == before, "valid values must not need the Python codec"
            for _ in range(8):
                bad = garble(encoded, rnd)
                _same(_outcome(nat.deserialize, cls, bad), _outcome(PY.deserialize, cls, bad))
            names = (
                [f.name for f in dataclasses.fields(cls)]
                if dataclasses.is_dataclass(cls)
                else [a.name for a in cls.__attrs_attrs__]
            )  # type: ignore[attr-defined]
            name = data.draw(st.sampled_from(names), label="field")
            junk = data.draw(JUNK, label="junk")
            changed = _with(obj, name, junk)
            _same(_outcome(nat.serialize, changed), _outcome(PY.serialize, changed))


def _fallbacks(model: pa.TypeModel) -> int:
    """Calls the model's plans handed to the Python codec so far."""
    assert model._native is not None
    return sum(plan.fallbacks for plan in model._native.plans.values())


def _with(obj: Any, name: str, value: Any) -> Any:
    import copy

    clone = copy.copy(obj)
    object.__setattr__(clone, name, value)
    return clone


@needs_engine
@given(st.binary(max_size=40))
@settings(derandomize=True, max_examples=300)
def test_native_and_python_agree_on_random_bytes(data: bytes) -> None:
    nat = _native_model()
    for cls in (Holder, Leaf, Everything, list[Leaf], list[Holder]):
        _same(_outcome(nat.deserialize, cls, data), _outcome(PY.deserialize, cls, data))


class Colour(enum.Enum):  # not an int enum: encode reads .value
    RED = 0
    GREEN = 1


@pa.closed_enum
class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@proto_contract
@dataclass
class Everything:
    i32: pa.int32 = field(1, default=0)
    i64: int = field(2, default=0)
    u32: pa.uint32 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    s64: pa.sint64 = field(6, default=0)
    f32: pa.fixed32 = field(7, default=0)
    f64: pa.fixed64 = field(8, default=0)
    sf32: pa.sfixed32 = field(9, default=0)
    sf64: pa.sfixed64 = field(10, default=0)
    flag: bool = field(11, default=False)
    colour: Colour = field(12, default=Colour.RED)
    real: pa.float32 = field(13, default=0.0)
    double: float = field(14, default=0.0)
    text: str = field(15, default="")
    blob: bytes = field(16, default=b"")
    leaf: Leaf | None = field(17, default=None)
    level: Level = field(18, default=Level.LOW)
    packed: list[pa.sint64] = field(19, default_factory=list)
    unpacked: list[pa.fixed32] = field(20, default_factory=list, packed=False)
    texts: tuple[str, ...] = field(21, default=())
    by_id: dict[pa.int64, str] = field(22, default_factory=dict)
    by_name: dict[str, Leaf] = field(23, default_factory=dict)
    flags: list[bool] = field(24, default_factory=list)
    reals: list[float] = field(25, default_factory=list)
    maybe: pa.int32 | None = field(26, default=None)
    wide: int = field(1000, default=7, wire_default=7)


@needs_engine
def test_every_kind_round_trips_natively_and_matches_python() -> None:
    nat = _native_model()
    obj = Everything(
        -1, -(2**63), 2**32 - 1, 2**64 - 1, -(2**31), 2**63 - 1, 2**32 - 1, 2**64 - 1,
        -(2**31), -(2**63), True, Colour.GREEN, 1.5, -0.0, "héllo", b"\x00\xff", Leaf("l", -1),
        Level.HIGH, [-1, 0, 2**62], [0, 1, 2**32 - 1], ("a", ""), {-5: "x", 2**40: ""},
        {"k": Leaf("v", 3)}, [True, False], [float("inf"), -1e-300], 0, 0,
    )  # fmt: skip
    data = nat.serialize(obj)
    assert data == PY.serialize(obj)
    assert_same(nat.deserialize(Everything, data), obj)
    assert nat.serialize(Everything()) == PY.serialize(Everything()) == b""
    assert_same(nat.deserialize(Everything, b""), Everything())
    assert _fallbacks(nat) == 0  # all of it ran in the engine


@needs_engine
def test_unknown_fields_survive_natively_byte_exact() -> None:
    nat = _native_model()
    extra = b"\xf8\x3e\x05" + b"\x82\x3f\x03abc" + b"\x8d\x3f\x01\x02\x03\x04"
    data = PY.serialize(Leaf("a", 1)) + extra
    back = nat.deserialize(Leaf, data)
    assert back == Leaf("a", 1)
    assert nat.serialize(back) == data == PY.serialize(PY.deserialize(Leaf, data))
    assert _fallbacks(nat) == 0


@proto_contract
@dataclass
class Chain:
    next: Chain | None = field(1, default=None)
    value: int = field(2, default=0)


@needs_engine
def test_max_depth_and_deep_nesting_match_python() -> None:
    for depth in (3, 4, 5, 1200):
        nat, py = _native_model(max_depth=4), pa.TypeModel(backend="python", max_depth=4)
        data = b""
        for _ in range(depth):
            data = b"\x0a" + _varint(len(data)) + data
        _same(_outcome(nat.deserialize, Chain, data), _outcome(py.deserialize, Chain, data))


def _varint(n: int) -> bytes:
    from protoattr._core.wire import encode_varint

    return encode_varint(n)


@needs_engine
def test_errors_are_the_python_backends() -> None:
    nat = _native_model()
    for bad in (Leaf("x", 2**31), Leaf(3, 1), Everything(u32=-1), Everything(colour=5)):  # type: ignore[arg-type]
        _same(_outcome(nat.serialize, bad), _outcome(PY.serialize, bad))
    for data in (b"\x0a\x05ab", b"\x12\x80", b"\x0a\x01\xff", b"\x08", b"\x00", b"\x0c"):
        _same(_outcome(nat.deserialize, Leaf, data), _outcome(PY.deserialize, Leaf, data))


@proto_contract
@dataclass
class When:
    at: datetime.datetime | None = field(1, default=None)
    took: datetime.timedelta | None = field(2, default=None)
    ats: list[datetime.datetime] = field(3, default_factory=list)


_ZONES = st.sampled_from(
    [None, datetime.timezone.utc, datetime.timezone(datetime.timedelta(hours=-5, minutes=-30))]
)


@needs_engine
@given(
    st.datetimes(timezones=_ZONES) | st.none(),
    st.timedeltas() | st.none(),
    st.lists(st.datetimes(timezones=st.just(datetime.timezone.utc)), max_size=2),
)
@settings(derandomize=True, max_examples=300)
def test_timestamps_and_durations_match_python(
    at: datetime.datetime | None, took: datetime.timedelta | None, ats: list[datetime.datetime]
) -> None:
    nat = _native_model()
    obj = When(at, took, ats)
    enc_n, enc_p = _outcome(nat.serialize, obj), _outcome(PY.serialize, obj)
    _same(enc_n, enc_p)
    if enc_p[0] == "ok":
        data = enc_p[1]
        _same(_outcome(nat.deserialize, When, data), _outcome(PY.deserialize, When, data))
    for body in (b"\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", b"\x10\xff\xff\xff\xff\x0f"):
        for tag in (b"\x0a", b"\x12"):
            data = tag + bytes([len(body)]) + body
            _same(_outcome(nat.deserialize, When, data), _outcome(PY.deserialize, When, data))


@needs_engine
def test_top_level_lists_run_in_the_engine() -> None:
    nat = _native_model()
    leaves = [Leaf("a", 1), Leaf("", 0), Leaf("c" * 200, -(2**31))]
    data = nat.serialize(leaves, type=list[Leaf])
    assert data == PY.serialize(leaves, type=list[Leaf])
    assert nat.deserialize(list[Leaf], data) == leaves
    assert nat.deserialize(list[Leaf], data + b"\x10\x05") == leaves  # other fields skipped
    assert _fallbacks(nat) == 0
    # a generator or a wrong item: the Python list codec (same bytes, same error)
    assert nat.serialize((x for x in leaves), type=list[Leaf]) == data
    bad = [Leaf("a", 1), Leaf("b", 2**40)]
    _same(_outcome(nat.serialize, bad, list[Leaf]), _outcome(PY.serialize, bad, list[Leaf]))
    assert _fallbacks(nat) == 3  # the generator, the bad list, and the bad item in it


@needs_engine
def test_threads_racing_on_first_use_get_one_plan() -> None:
    import threading

    nat = _native_model()
    barrier = threading.Barrier(16)
    seen: list[Any] = []

    def first_use() -> None:
        barrier.wait()
        data = nat.serialize(Holder(Leaf("t", 1)))
        seen.append((nat.deserialize(Holder, data), nat._codecs[Holder].encode))

    threads = [threading.Thread(target=first_use) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 16
    assert all(obj == Holder(Leaf("t", 1)) for obj, _ in seen)
    assert nat._native is not None
    plan = nat._native.plans[Holder]
    assert all(enc == plan.encode for _, enc in seen)  # one plan, installed once
    assert _fallbacks(nat) == 0


@needs_engine
def test_oneof_runs_natively_last_member_wins() -> None:
    nat = _native_model()
    assert nat.serialize(Choice(a=5)) == PY.serialize(Choice(a=5)) == b"\x08\x05"
    both = b"\x08\x05\x12\x02hi\x08\x07"  # a, then b, then a again
    assert nat.deserialize(Choice, both) == PY.deserialize(Choice, both) == Choice(a=7)
    assert nat.deserialize(Choice, both[:6]) == Choice(b="hi")
    assert _fallbacks(nat) == 0
    two = Choice(a=1, b="x")  # two members set: the Python codec's EncodeError
    _same(_outcome(nat.serialize, two), _outcome(PY.serialize, two))
    assert "more than one member of oneof 'pick'" in _outcome(nat.serialize, two)[1]


@needs_engine
def test_a_rejected_plan_leaves_the_python_codec_and_warns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from protoattr._native import plan as planner

    def broken(self: Any, slots: Any, oneofs: Any) -> tuple[Any, ...]:
        return tuple(("not", "a", "field") for _ in slots)

    monkeypatch.setattr(planner.NativeBackend, "_fields", broken)
    nat = _native_model()
    with pytest.warns(RuntimeWarning, match="Leaf runs its Python codec"):
        data = nat.serialize(Leaf("x", 1))
    assert data == PY.serialize(Leaf("x", 1))
    assert nat.deserialize(Leaf, data) == Leaf("x", 1)
    assert nat._native is not None
    assert nat._native.explain(Leaf).startswith("python: plan rejected")


# ------------------------------------------- the robust rules, mirrored by the engine


_UTC = datetime.timezone.utc


@pa.closed_enum
class ClosedLevel(enum.IntEnum):
    LOW = 0
    MID = 1
    HIGH = 2


@proto_contract
@dataclass
class Strict:
    """Natively run fields where None is refused and closed enums take members only."""

    leaf: Leaf = field(1, default_factory=lambda: Leaf("a", 1))
    at: datetime.datetime = field(2, default=datetime.datetime(2000, 1, 1, tzinfo=_UTC))
    level: ClosedLevel = field(3, default=ClosedLevel.LOW)
    levels: list[ClosedLevel] = field(4, default_factory=list)
    named: dict[str, ClosedLevel] = field(5, default_factory=dict)
    f32: pa.float32 = field(6, default=0.0)


@needs_engine
def test_the_engine_refuses_what_the_python_codec_refuses() -> None:
    nat = _native_model()
    before = _fallbacks(nat)
    good = Strict(
        level=ClosedLevel.HIGH, levels=[ClosedLevel.LOW, 1], named={"k": ClosedLevel.HIGH}
    )
    assert nat.serialize(good) == PY.serialize(good)
    assert nat._native is not None and nat._native.explain(Strict) == "native"
    assert _fallbacks(nat) == before
    bad_values = {
        "leaf": None,  # absent reads back as Leaf("a", 1), not None
        "at": None,
        "level": 7,  # not a member of the closed enum
        "levels": [1, 7],
        "named": {"k": 9},
        "f32": float("nan"),  # not refused: written with its bits by the Python codec
    }
    for name, value in bad_values.items():
        changed = _with(good, name, value)
        _same(_outcome(nat.serialize, changed), _outcome(PY.serialize, changed))
    assert "None is not a" in _outcome(nat.serialize, _with(good, "leaf", None))[1]
    _same(
        _outcome(nat.serialize, [ClosedLevel.HIGH, 7], list[ClosedLevel]),
        _outcome(PY.serialize, [ClosedLevel.HIGH, 7], list[ClosedLevel]),
    )


@needs_engine
def test_a_model_with_max_messages_runs_natively() -> None:
    model = _native_model(max_messages=10)  # the engine counts messages too
    assert model.backend == "native"
    assert model.deserialize(Strict, b"\x0a\x00").leaf == Leaf("", 0)


@needs_engine
def test_decoding_mirrors_the_python_rules() -> None:
    nat = _native_model()
    cases = [
        b"\x88\x80\x80\x80\x80\x00\x01",  # a tag of six bytes
        b"\x35\x01\x00\xc0\x7f",  # a float32 NaN with a payload keeps its bits
        b"\x2a\x05\x0a\x01k\x18\x01",  # a map entry with a third field: unknown whole
        b"\x2a\x05\x0a\x01k\x10\x07",  # a closed enum's unknown number in a map value
        b"\x12\x04\x10\x05\x08\x01",  # a Timestamp merged into the field's default
        b"\x12\x02\x1b\x1c",  # a group inside a Timestamp counts depth
        b"\x20\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # a closed enum's 64-bit unknown
    ]
    for data in cases:
        got, want = _outcome(nat.deserialize, Strict, data), _outcome(PY.deserialize, Strict, data)
        _same(got, want)
        if got[0] == "ok":
            assert nat.serialize(got[1]) == PY.serialize(want[1])


@needs_engine
def test_float32_nans_keep_their_bits_natively() -> None:
    nat = _native_model()
    nat.serialize(Strict())
    before = _fallbacks(nat)
    nans = [b"\x01\x00\x80\x7f", b"\x01\x00\xc0\xff", b"\x00\x00\xc0\x7f", b"\xff\xff\xff\x7f"]
    for bits in nans:  # signalling, negative quiet, quiet, all-ones payload
        data = b"\x35" + bits
        written = nat.serialize(nat.deserialize(Strict, data))
        assert written == PY.serialize(PY.deserialize(Strict, data))
        assert written.endswith(data)
    low_payload = struct.unpack("<d", b"\x01\x00\x00\x00\x00\x00\xf8\x7f")[0]
    for nan in (float("nan"), -float("nan"), low_payload):
        assert nat.serialize(Strict(f32=nan)) == PY.serialize(Strict(f32=nan))
    assert _fallbacks(nat) == before
