"""What the backends work out from a contract alone is worked out once per contract and
kept with the ContractInfo it came from (issue 20, start-up: a second model planning the
same contract no longer repeats it).  Kept answers must never outlive their contract: a
class declared again, or seen at another compatibility level, has another ContractInfo and
gets its answer anew."""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import protoattr as pa
from protoattr._core.contract import ContractInfo
from protoattr._core.facts import contract_fact
from protoattr._native.plan import reads_dict
from protoattr._python.plain import init_assigns


def _counting() -> tuple[Any, list[type]]:
    calls: list[type] = []

    @contract_fact
    def fact(info: ContractInfo) -> int:
        calls.append(info.cls)
        return len(info.fields)

    return fact, calls


def _declare() -> type:
    @pa.proto_contract
    @dataclasses.dataclass
    class Point:
        x: int = pa.field(1, default=0)
        when: datetime.datetime | None = pa.field(2, default=None)

    return Point


def test_one_answer_per_contract_info() -> None:
    fact, calls = _counting()
    cls = _declare()
    first, second = pa.TypeModel().info(cls), pa.TypeModel().info(cls)
    assert first is second  # what makes the answer shareable between models
    assert fact(first) == 2 and fact(second) == 2
    assert calls == [cls]


def test_declared_again_is_worked_out_again() -> None:
    fact, calls = _counting()
    cls = _declare()
    before = pa.TypeModel().info(cls)
    fact(before)
    pa.proto_contract(cls)  # declared again: its contract is resolved anew
    after = pa.TypeModel().info(cls)
    assert after is not before
    fact(after), fact(after)
    assert calls == [cls, cls]


def test_another_compatibility_level_is_another_answer() -> None:
    fact, calls = _counting()
    cls = _declare()
    plain, legacy = pa.TypeModel().info(cls), pa.TypeModel(compatibility_level=200).info(cls)
    assert plain.fields[1].value != legacy.fields[1].value  # a Timestamp, a bcl.DateTime
    fact(plain), fact(legacy), fact(legacy), fact(plain)
    assert calls == [cls, cls, cls]  # each worked out where the info changed


def test_kept_answers_follow_the_class() -> None:
    """The planner's two facts, asked of a contract whose answers differ from another's:
    each class keeps its own (the cache is per class, not one slot)."""

    @pa.proto_contract
    @dataclasses.dataclass
    class Plain:
        a: int = pa.field(1, default=0)

    @pa.proto_contract
    @dataclasses.dataclass
    class Custom:
        a: int = pa.field(1, default=0)

        def __getattribute__(self, name: str) -> Any:  # a custom lookup: no __dict__ reads
            return object.__getattribute__(self, name)

    plain, custom = pa.TypeModel().info(Plain), pa.TypeModel().info(Custom)
    assert reads_dict(plain) is True and reads_dict(custom) is False
    assert init_assigns(plain) == (0,)
    assert reads_dict(plain) is True and reads_dict(custom) is False
    for model in (pa.TypeModel(), pa.TypeModel()):  # planned twice: same bytes, same objects
        assert model.deserialize(Custom, model.serialize(Custom(a=5))) == Custom(a=5)
        assert model.deserialize(Plain, model.serialize(Plain(a=7))) == Plain(a=7)
