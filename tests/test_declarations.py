"""Declaration mistakes that used to lose data at run time (issue 22, items 2 and 3).

An untagged attribute beside tagged ones, and ``Optional[list[T]] = None``, are refused
when the class is declared, for dataclasses, attrs classes and pydantic models alike.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, ClassVar, Optional

import attrs
import pydantic
import pytest

import protoattr as pa
from protoattr import field, member, proto_contract


def _dataclass_untagged() -> Any:
    @proto_contract
    @dataclasses.dataclass
    class U:
        a: pa.int32 = field(1, default=0)
        b: int = 0

    return U


def _attrs_untagged() -> Any:
    @proto_contract
    @attrs.define
    class U:
        a: Annotated[pa.int32, member(1)] = 0
        b: int = 0

    return U


def _pydantic_untagged() -> Any:
    @proto_contract
    class U(pydantic.BaseModel):
        a: Annotated[pa.int32, member(1)] = 0
        b: int = 0

    return U


def _subtype_untagged() -> Any:
    @proto_contract
    @dataclasses.dataclass
    class Base:
        a: pa.int32 = field(1, default=0)

    @proto_contract(subtype_tag=5)
    @dataclasses.dataclass
    class U(Base):
        b: int = 0

    return U


@pytest.mark.parametrize(
    "declare", [_dataclass_untagged, _attrs_untagged, _pydantic_untagged, _subtype_untagged]
)
def test_an_untagged_attribute_beside_tagged_ones_is_refused(declare: Any) -> None:
    with pytest.raises(pa.ContractError, match=r"U\.b: no tag, so the value would be lost"):
        declare()


def test_ignored_attributes_and_class_variables_are_left_out_on_purpose() -> None:
    @proto_contract
    @dataclasses.dataclass
    class D:
        a: pa.int32 = field(1, default=0)
        b: pa.Ignored[int] = 0
        derived: int = dataclasses.field(default=0, init=False)  # never an __init__ argument
        KIND: ClassVar[str] = "d"

    @proto_contract
    @attrs.define
    class A:
        a: Annotated[pa.int32, member(1)] = 0
        b: pa.Ignored[int] = 0

    @proto_contract
    class P(pydantic.BaseModel):
        a: Annotated[pa.int32, member(1)] = 0
        b: pa.Ignored[int] = 0

    for cls in (D, A, P):
        obj = cls(a=1, b=2)
        assert pa.serialize(obj) == b"\x08\x01"
        back = pa.deserialize(cls, b"\x08\x01")
        assert (back.a, back.b) == (1, 0)
    with pytest.raises(pa.ContractError, match=r"N\.b is ignored and has no default"):

        @proto_contract
        @dataclasses.dataclass
        class N:
            b: pa.Ignored[int]
            a: pa.int32 = field(1, default=0)


def test_optional_repeated_is_refused() -> None:
    with pytest.raises(pa.ContractError, match=r"L\.m: a repeated field cannot be Optional"):

        @proto_contract
        @dataclasses.dataclass
        class L:
            m: Optional[list[int]] = field(1, default=None)  # noqa: UP045

    with pytest.raises(pa.ContractError, match=r"M\.m: a map field cannot be Optional"):

        @proto_contract
        @attrs.define
        class M:
            m: Annotated[dict[str, int] | None, member(1)] = None

    with pytest.raises(pa.ContractError, match=r"P\.m: a repeated field cannot be Optional"):

        @proto_contract
        class P(pydantic.BaseModel):
            m: Annotated[list[int] | None, member(1)] = None
