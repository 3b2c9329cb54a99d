"""How the native decoder builds dataclasses: without a frame when nothing can tell.

A dataclass whose ``__init__`` is the generated ``self.a = a; ...`` is built by
``object.__new__`` and the same assignments (the plan's ``_init_assigns``); every
class whose ``__init__`` may do more is still called.  Each case here compares
with the Python backend, which always calls the class.
"""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass
from typing import Any, ClassVar

import pytest

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from protoattr._core.contract import resolve
from protoattr._native.plan import _init_assigns

pytestmark = pytest.mark.skipif(not native.available(), reason="C engine not built")

CALLS: list[str] = []


@proto_contract
@dataclass
class Plain:
    b: str = field(2)
    a: pa.int32 = field(1)
    c: list[int] = field(3, default_factory=list)
    d: str = field(4, default="x", kw_only=True)
    note: ClassVar[str] = "class variables are not fields"


@proto_contract
@dataclass
class WithPostInit:
    a: pa.int32 = field(1)

    def __post_init__(self) -> None:
        CALLS.append("post_init")


@proto_contract
@dataclass
class WithInitVar:
    a: pa.int32 = field(1)
    scale: InitVar[int] = 1

    def __post_init__(self, scale: int) -> None:
        CALLS.append(f"scale {scale}")


@proto_contract
@dataclass
class WithOwnInit:
    a: pa.int32 = field(1)

    def __init__(self, a: int = 0) -> None:
        CALLS.append("own init")
        self.a = a


@proto_contract
@dataclass
class WithPlainField:
    a: pa.int32 = field(1)
    cache: dict[str, Any] = dataclasses.field(default_factory=dict, init=False)


@proto_contract
@dataclass(frozen=True)
class Frozen:
    a: pa.int32 = field(1)


@proto_contract
@dataclass
class WithSetattr:
    a: pa.int32 = field(1)

    def __setattr__(self, name: str, value: Any) -> None:
        CALLS.append(f"set {name}")
        object.__setattr__(self, name, value)


@proto_contract
@dataclass(slots=True)
class Slotted:
    a: pa.int32 = field(1)
    b: str = field(2)


def test_only_the_generated_init_is_skipped() -> None:
    def skips(cls: type) -> bool:
        return _init_assigns(resolve(cls, final=True)) is not None

    assert skips(Plain) and skips(Slotted)
    for cls in (WithPostInit, WithInitVar, WithOwnInit, WithPlainField, Frozen, WithSetattr):
        assert not skips(cls), cls


def test_a_plain_dataclass_is_built_identically() -> None:
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    obj = Plain("bee", 7, [1, 2], d="dee")
    data = py.serialize(obj)
    for _ in range(2):  # the first call compiles
        got, want = nat.deserialize(Plain, data), py.deserialize(Plain, data)
        assert got == want == obj
        assert list(vars(got).items()) == list(vars(want).items())  # same order too
    empty = nat.deserialize(Plain, b"")
    assert list(vars(empty).items()) == list(vars(py.deserialize(Plain, b"")).items())
    assert empty.c == [] and empty.c is not nat.deserialize(Plain, b"").c
    slotted = nat.deserialize(Slotted, py.serialize(Slotted(3, "s")))
    assert slotted == Slotted(3, "s") and not hasattr(slotted, "__dict__")


@pytest.mark.parametrize(
    ("cls", "calls"),
    [
        (WithPostInit, ["post_init"]),
        (WithInitVar, ["scale 1"]),
        (WithOwnInit, ["own init"]),
        (WithSetattr, ["set a"]),
    ],
)
def test_an_init_that_does_more_still_runs(cls: type, calls: list[str]) -> None:
    nat = pa.TypeModel(backend="native")
    data = nat.serialize(cls(5))
    nat.deserialize(cls, data)  # compiles
    want = cls(5)
    CALLS.clear()
    assert nat.deserialize(cls, data) == want
    assert calls == CALLS


def test_fields_init_sets_by_itself_are_set() -> None:
    nat = pa.TypeModel(backend="native")
    got = nat.deserialize(WithPlainField, nat.serialize(WithPlainField(4)))
    assert got.cache == {} and got.a == 4
    frozen = nat.deserialize(Frozen, nat.serialize(Frozen(9)))
    assert frozen == Frozen(9)
