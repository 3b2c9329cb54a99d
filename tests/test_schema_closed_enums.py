"""Schema export of closed enums without a zero member, as map values and as fields.

protoc wants a map's enum value type to define 0 first (in every syntax), so
such an enum gets a synthetic ``<NAME>_UNSPECIFIED = 0``; a non-Optional field
of it then declares its real default (``[default = ONE]``).  A non-Optional
closed-enum field cannot have implicit presence in protobuf (protoc: "Implicit
presence enum fields must always be open"), so it is explicit there while
protoattr skips it when it equals its default: the values read the same both
ways, and the bytes too, except that Google writes a default it was told to set.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import pytest

import protoattr as pa
from protoattr import field, proto_contract
from tests.protoc import compile_proto


@pa.closed_enum
class Phase(enum.IntEnum):
    ONE = 1
    TWO = 2


@proto_contract
@dataclass
class Plan:
    phases: dict[str, Phase] = field(1, default_factory=dict)
    phase: Phase = field(2, default=Phase.ONE)
    later: list[Phase] = field(3, default_factory=list)


def google(syntax: str) -> Any:
    text = pa.default_model.schema(Plan, syntax=syntax, package="plans")
    return compile_proto(text, f"plan_{syntax}").Plan


@pytest.mark.parametrize("syntax", ["proto2", "editions"])
def test_a_closed_enum_without_zero_as_a_map_value_compiles(syntax: str) -> None:
    text = pa.default_model.schema(Plan, syntax=syntax)
    assert "PHASE_UNSPECIFIED = 0;" in text
    assert "Phase phase = 2 [default = ONE];" in text  # the real default, not the new zero
    google(syntax)  # protoc accepts it


@pytest.mark.parametrize("syntax", ["proto2", "editions"])
@pytest.mark.parametrize(
    "plan",
    [
        Plan(),
        Plan(phases={"a": Phase.ONE, "b": Phase.TWO}, phase=Phase.TWO, later=[Phase.TWO]),
        Plan(phases={"": Phase.TWO}, later=[Phase.ONE, Phase.ONE]),
    ],
)
def test_values_and_bytes_agree_with_google(syntax: str, plan: Plan) -> None:
    cls = google(syntax)
    data = pa.serialize(plan)
    msg = cls.FromString(data)
    assert dict(msg.phases) == plan.phases
    assert msg.phase == plan.phase and list(msg.later) == plan.later
    if len(plan.phases) < 2:  # (the order of map entries is not fixed)
        assert msg.SerializeToString() == data
    assert pa.deserialize(Plan, msg.SerializeToString()) == plan


@pytest.mark.parametrize("syntax", ["proto2", "editions"])
def test_presence_is_explicit_in_google_and_implicit_in_protoattr(syntax: str) -> None:
    msg = google(syntax)(phase=Phase.ONE)  # Google writes a default it was told to set
    assert msg.SerializeToString() == b"\x10\x01"
    back = pa.deserialize(Plan, msg.SerializeToString())
    assert back == Plan() and pa.serialize(back) == b""  # the same value, skipped as default
    assert google(syntax).FromString(b"").phase == Phase.ONE  # absent reads as ONE in both
