"""pydantic v2 models as contracts: decoded objects are real, validated models.

pydantic is an optional test dependency (the ``test`` extra), never a runtime
one: protoattr itself never imports it.
"""

# ruff: noqa: UP045

import dataclasses
import enum
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

pydantic = pytest.importorskip("pydantic")

import protoattr as pa  # noqa: E402
from protoattr import ContractError, DecodeError, member, proto_contract  # noqa: E402
from tests import test_random_contracts as rc  # noqa: E402
from tests.contracts import assert_same  # noqa: E402
from tests.protoc import compile_proto  # noqa: E402

BaseModel = pydantic.BaseModel
Field = pydantic.Field


class Priority(enum.IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


@proto_contract
class Point(BaseModel):
    x: Annotated[pa.sint32, member(1)] = 0
    y: Annotated[pa.sint32, member(2)] = 0


@proto_contract
class Task(BaseModel):
    id: Annotated[pa.int32, member(1)]
    created_at: Annotated[datetime, member(2)]
    created_by: Annotated[str, member(3)] = ""
    priority: Annotated[Priority, member(4)] = Priority.LOW
    content: Annotated[str, member(5)] = Field(default="", max_length=20)
    tags: Annotated[list[str], member(6)] = Field(default_factory=list)
    origin: Annotated[Optional[Point], member(7)] = None
    by_name: Annotated[dict[str, Point], member(8)] = Field(default_factory=dict)
    shown_as: Annotated[str, member(9)] = Field(default="", alias="shownAs")

    @pydantic.field_validator("created_by")
    @classmethod
    def lower_case(cls, value: str) -> str:
        return value.lower()


WHEN = datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc)
TASK = Task(
    id=7,
    created_at=WHEN,
    created_by="ann",
    priority=Priority.HIGH,
    content="write the docs",
    tags=["a", "b"],
    origin=Point(x=-1, y=2),
    by_name={"p": Point(x=3)},
    shownAs="s",
)

TASK_PROTO = """syntax = "proto3";
import "google/protobuf/timestamp.proto";
message Point { sint32 x = 1; sint32 y = 2; }
enum Priority { LOW = 0; MEDIUM = 1; HIGH = 2; }
message Task {
  int32 id = 1;
  google.protobuf.Timestamp created_at = 2;
  string created_by = 3;
  Priority priority = 4;
  string content = 5;
  repeated string tags = 6;
  optional Point origin = 7;
  map<string, Point> by_name = 8;
  string shown_as = 9;
}
"""


def test_golden_bytes_and_a_real_model_back() -> None:
    data = pa.serialize(TASK)
    assert data == (
        b"\x08\x07"
        b"\x12\x06\x08\xd9\x83\xe2\xb1\x06"
        b"\x1a\x03ann"
        b"\x20\x02"
        b"\x2a\x0ewrite the docs"
        b"\x32\x01a\x32\x01b"
        b"\x3a\x04\x08\x01\x10\x04"
        b"\x42\x07\x0a\x01p\x12\x02\x08\x06"
        b"\x4a\x01s"
    )
    back = pa.deserialize(Task, data)
    assert type(back) is Task and back == TASK
    assert back.model_dump() == TASK.model_dump()
    assert back.model_copy() == TASK
    assert back.model_copy(update={"id": 8}).id == 8
    assert back.model_fields_set >= {"id", "created_at", "tags"}
    assert back.origin == Point(x=-1, y=2) and type(back.origin) is Point


def test_matches_googles_runtime() -> None:
    pb = compile_proto(TASK_PROTO, "pydantic_task")
    theirs = pb.Task(
        id=7, created_by="ann", priority=pb.HIGH, content="write the docs", tags=["a", "b"],
        shown_as="s",
    )  # fmt: skip
    theirs.created_at.FromDatetime(WHEN)
    theirs.origin.x, theirs.origin.y = -1, 2
    theirs.by_name["p"].x = 3
    assert pa.serialize(TASK) == theirs.SerializeToString()
    assert pa.deserialize(Task, theirs.SerializeToString()) == TASK


def test_the_exported_schema_interoperates() -> None:
    text = pa.default_model.schema(Task, syntax="proto3")
    assert "  string shown_as = 9;\n" in text and "enum Priority {\n  LOW = 0;" in text
    pb = compile_proto(text, "pydantic_task_exported")
    theirs = pb.Task.FromString(pa.serialize(TASK))
    assert theirs.created_by == "ann" and theirs.by_name["p"].x == 3 and theirs.origin.y == 2
    assert pa.deserialize(Task, theirs.SerializeToString()) == TASK


def test_decoding_validates() -> None:
    # validators run on decode: created_by is lower-cased, as in Task(...)
    data = pa.serialize(TASK.model_copy(update={"created_by": "ANN"}))  # copy skips validation
    assert pa.deserialize(Task, data).created_by == "ann"
    # a value the model refuses (content longer than max_length) is bad input
    bad = b"\x08\x07\x2a\x15" + b"x" * 21
    with pytest.raises(DecodeError, match=r"(?s)Task: .*content") as info:
        pa.deserialize(Task, bad)
    assert info.value.offset == len(bad)
    # a missing field reads as its protobuf zero, as for a dataclass (proto3 semantics)
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    assert pa.deserialize(Task, b"\x08\x07") == Task(id=7, created_at=epoch)


def test_defaults_from_pydantic_field() -> None:
    data = pa.serialize(Task(id=1, created_at=WHEN))
    assert data == b"\x08\x01\x12\x06\x08\xd9\x83\xe2\xb1\x06"
    back = pa.deserialize(Task, data)
    assert back.tags == [] and back.by_name == {} and back.content == "" and back.origin is None
    assert back == Task(id=1, created_at=WHEN)


def test_unknown_fields_survive_and_equality_ignores_them() -> None:
    data = pa.serialize(Point(x=1)) + b"\x98\x01\x05"
    point = pa.deserialize(Point, data)
    assert point == Point(x=1) and point.model_dump() == {"x": 1, "y": 0}
    assert pa.serialize(point) == data
    assert pa.serialize(point.model_copy()) == data


def test_merge_and_deep_clone() -> None:
    merged = pa.merge(Point(x=1, y=2), pa.serialize(Point(y=5)))
    assert merged == Point(x=1, y=5)
    clone = pa.deep_clone(TASK)
    assert clone == TASK and clone is not TASK


@proto_contract
class Frozen(BaseModel):
    model_config = pydantic.ConfigDict(frozen=True)

    name: Annotated[str, member(1)] = ""


@proto_contract
class Bag(BaseModel):
    items: Annotated[frozenset[Frozen], member(1)] = frozenset()


def test_frozen_models_are_hashable_set_members() -> None:
    bag = Bag(items=frozenset({Frozen(name="a"), Frozen(name="b")}))
    back = pa.deserialize(Bag, pa.serialize(bag))
    assert back == bag
    merged = pa.merge(Frozen(name="a"), pa.serialize(Frozen(name="b")))
    assert merged == Frozen(name="b")


def test_a_set_of_unfrozen_models_is_refused() -> None:
    with pytest.raises(ContractError, match=r"Bad\.items: .*hashable"):

        @proto_contract
        class Bad(BaseModel):
            items: Annotated[set[Point], member(1)] = Field(default_factory=set)


def test_protoattr_field_on_a_model_is_refused() -> None:
    with pytest.raises(ContractError, match=r"Bad\.x: .*Annotated\[T, member\(tag\)\]"):

        @proto_contract
        class Bad(BaseModel):
            x: int = pa.field(1, default=0)


def test_an_untagged_model_is_refused() -> None:
    with pytest.raises(ContractError, match=r"Bad has attributes \(x\) but no protobuf field"):

        @proto_contract
        class Bad(BaseModel):
            x: int = 0


def test_protoattr_imports_without_pydantic() -> None:
    code = (
        "import sys; sys.modules['pydantic'] = None\n"  # an import of pydantic would fail
        "import dataclasses, protoattr as pa\n"
        "@pa.proto_contract\n@dataclasses.dataclass\n"
        "class P:\n    x: int = pa.field(1, default=0)\n"
        "assert pa.deserialize(P, pa.serialize(P(3))) == P(3)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------- random contracts against Google's runtime


def _as_pydantic(schema: tuple[rc.MessageSpec, ...]) -> tuple[rc.MessageSpec, ...]:
    return tuple(dataclasses.replace(spec, flavour="pydantic") for spec in schema)


@given(st.data())
@rc.SETTINGS
def test_random_pydantic_contracts_round_trip_and_match_google(data: st.DataObject) -> None:
    schema = data.draw(rc.schemas().map(_as_pydantic), label="schema")
    classes = rc.build_classes(schema)
    twin = rc.compile_twin(schema)
    for spec in schema:
        cls = classes[spec.index]
        assert issubclass(cls, BaseModel)
        message_cls = getattr(twin, f"M{spec.index}")
        for _ in range(2):
            obj = data.draw(rc.values_for(schema, spec.index, classes), label=cls.__name__)
            rc.check_one(obj, message_cls)
            # decoded objects are real models, down to the nested ones
            back = pa.deserialize(cls, pa.serialize(obj))
            assert_same(cls.model_validate(back.model_dump()), obj)
            assert_same(back.model_copy(), obj)


def test_timedelta_and_enum_fields(tmp_path: Any) -> None:
    @proto_contract
    class Wait(BaseModel):
        span: Annotated[timedelta, member(1)] = timedelta(0)
        level: Annotated[Priority, member(2)] = Priority.LOW

    wait = Wait(span=timedelta(seconds=-1, microseconds=5), level=Priority.MEDIUM)
    assert pa.deserialize(Wait, pa.serialize(wait)) == wait


@pa.closed_enum
class Colour(enum.IntEnum):
    RED = 0
    GREEN = 1


@proto_contract
class Paint(BaseModel):
    colour: Annotated[Colour, member(1)] = Colour.RED
    priority: Annotated[Priority, member(2)] = Priority.LOW


def test_unknown_enum_numbers() -> None:
    # pydantic holds only members in an enum field: an open enum's unknown number
    # (which a dataclass keeps as a plain int) is refused, as Paint(priority=9) is
    with pytest.raises(DecodeError, match=r"(?s)Paint: .*priority"):
        pa.deserialize(Paint, b"\x10\x09")
    # a closed enum keeps it with the unknown fields instead, and writes it back
    paint = pa.deserialize(Paint, b"\x08\x09")
    assert paint == Paint() and pa.serialize(paint) == b"\x08\x09"


@proto_contract
class Shape(BaseModel):
    name: Annotated[str, member(1)] = ""


@proto_contract(subtype_tag=10)
class Circle(Shape):
    radius: Annotated[float, member(1)] = 0.0


def test_model_hierarchies() -> None:
    circle = Circle(name="c", radius=2.0)
    data = pa.serialize(circle)
    assert data == b"\x52\x09\x09" + b"\x00" * 6 + b"\x00\x40" + b"\x0a\x01c"
    back = pa.deserialize(Shape, data)
    assert type(back) is Circle and back == circle
