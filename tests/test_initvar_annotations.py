"""A dataclass contract with an ``InitVar`` under ``from __future__ import annotations``.

Python 3.10's ``typing.get_type_hints`` refuses the quoted ``InitVar[int]``
("Forward references must evaluate to types"), which made declaring such a
contract a ``TypeError`` there; 3.11 accepts it.  The contract must declare and
work on every Python.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass

import protoattr as pa
from protoattr import field, proto_contract


@proto_contract
@dataclass
class Scaled:
    value: int = field(1, default=0)
    scale: InitVar[int] = 1

    def __post_init__(self, scale: int) -> None:
        self.value *= scale


def test_an_initvar_contract_declares_and_round_trips() -> None:
    assert [f.name for f in pa.default_model.info(Scaled).fields] == ["value"]
    obj = Scaled(3, scale=2)
    assert obj.value == 6
    data = pa.serialize(obj)
    assert data == b"\x08\x06"
    assert pa.deserialize(Scaled, data).value == 6  # __post_init__ ran with scale=1
