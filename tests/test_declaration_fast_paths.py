"""The short cuts that make declaring a contract cheap (issue 20: start-up) give the same
answers as the long way round.

* annotations without forward references are taken as ``get_type_hints`` would return them;
* one value type is shared per enum class (open and closed) and per contract class,
  and an enum closed after a first declaration is closed in the next one.
"""

# no ``from __future__ import annotations``: the classes here need unquoted annotations

import dataclasses
import enum
import sys
import typing
from collections.abc import Sequence
from dataclasses import InitVar
from typing import Annotated, Any, ClassVar, Optional

import pytest

import protoattr as pa
from protoattr import field
from protoattr._core import contract
from protoattr._core.types import Kind

plain_only = pytest.mark.skipif(
    not contract._PLAIN_HINTS, reason="the short cut is taken on Python 3.11 to 3.13"
)


class Hue(enum.IntEnum):
    RED = 0
    BLUE = 1


@dataclasses.dataclass
class Base:
    a: int = 0
    b: Optional[str] = None  # noqa: UP045 (the typing form on purpose)


@dataclasses.dataclass
class Plain(Base):
    c: pa.int32 = 0
    d: list[Annotated[int, Kind.SINT64]] = dataclasses.field(default_factory=list)
    e: dict[str, list[Hue]] = dataclasses.field(default_factory=dict)
    f: int | None = None
    g: Sequence[bytes] = ()
    h: ClassVar[int] = 3
    i: InitVar[int] = 0
    j: Annotated[Any, "a string in metadata is not evaluated"] = None
    k: None = None
    b: str = ""  # redefined: keeps its place, takes the new annotation


@plain_only
def test_annotations_without_forward_references_are_what_get_type_hints_returns() -> None:
    hints = contract._plain_hints(Plain)
    assert hints is not None
    expected = typing.get_type_hints(Plain, include_extras=True)
    assert hints == expected
    assert list(hints) == list(expected)  # the same order too


@dataclasses.dataclass
class Later:
    x: int = 0


@dataclasses.dataclass
class Quoted:
    a: list[Later] = dataclasses.field(default_factory=list)
    b: list["Later"] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class QuotedInside:
    a: Optional["Later"] = None


@dataclasses.dataclass
class QuotedWhole:
    a: "int" = 0


@dataclasses.dataclass
class QuotedInBase(QuotedWhole):
    b: int = 0


@plain_only
@pytest.mark.parametrize("cls", [Quoted, QuotedInside, QuotedWhole, QuotedInBase])
def test_a_forward_reference_anywhere_takes_the_long_way(cls: type) -> None:
    assert contract._plain_hints(cls) is None
    assert contract._type_hints(cls, False) == typing.get_type_hints(cls, include_extras=True)


def test_enum_value_types_are_shared_and_closing_an_enum_later_still_counts() -> None:
    class Shade(enum.IntEnum):
        LIGHT = 0
        DARK = 1

    @pa.proto_contract
    @dataclasses.dataclass
    class First:
        a: Shade = field(1, default=Shade.LIGHT)
        b: list[Shade] = field(2, default_factory=list)

    pa.closed_enum(Shade)

    @pa.proto_contract
    @dataclasses.dataclass
    class Second:
        a: Shade = field(1, default=Shade.LIGHT)

    first = contract.resolve(First).fields
    second = contract.resolve(Second).fields
    assert first[0].value is first[1].value  # one value type for the open enum
    assert first[0].value.closed is False
    assert second[0].value.closed is True
    assert second[0].value == first[0].value.replace(closed=True)
    # what the model does with it: an unknown number is kept aside only by Second
    data = bytes([8, 7])
    assert pa.deserialize(First, data).a == 7
    assert pa.deserialize(Second, data).a is Shade.LIGHT
    assert pa.serialize(pa.deserialize(Second, data)) == data


def test_a_flag_is_never_closed_and_an_enum_with_a_bad_value_is_refused_every_time() -> None:
    class Perm(enum.IntFlag):
        R = 1
        W = 2

    pa.closed_enum(Perm)

    @pa.proto_contract
    @dataclasses.dataclass
    class Holder:
        p: Perm = field(1, default=Perm(0))

    value = contract.resolve(Holder).fields[0].value
    assert value.closed is False and value.decode_with is Perm

    class Big(enum.IntEnum):
        HUGE = 1 << 40

    for _ in range(2):  # nothing of the failed analysis is kept
        with pytest.raises(pa.ContractError, match=r"\.b: enum .*Big needs int32 values"):

            @pa.proto_contract
            @dataclasses.dataclass
            class Bad:
                b: Big = field(1, default=Big.HUGE)


def test_message_value_types_are_shared_per_contract_class() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class Leaf:
        x: int = field(1, default=0)

    @pa.proto_contract
    @dataclasses.dataclass
    class Tree:
        one: Optional[Leaf] = field(1, default=None)  # noqa: UP045
        many: list[Leaf] = field(2, default_factory=list)
        named: dict[str, Leaf] = field(3, default_factory=dict)

    values = [f.value for f in contract.resolve(Tree).fields]
    assert values[0] is values[1] is values[2]
    assert values[0] == contract.ValueType(Kind.MESSAGE, Leaf)


def test_python_version_gate() -> None:
    assert ((3, 11) <= sys.version_info < (3, 14)) == contract._PLAIN_HINTS


def _tag_fields(tags: list[int]) -> list[contract.FieldInfo]:
    value = contract.ValueType(Kind.INT64)
    return [
        contract.FieldInfo(f"f{i}", tag, contract.Label.SINGULAR, value, proto_name=f"f{i}")
        for i, tag in enumerate(tags)
    ]


def test_the_quick_tag_check_passes_exactly_what_the_full_check_passes() -> None:
    """_plainly_distinct_tags (builtins over the sorted tags) answers True only where
    _check_tags raises nothing; where it says False the full check runs and names the field."""
    import random

    rng = random.Random(20)
    edges = [0, 1, 2, 15, 16, 18999, 19000, 19500, 19999, 20000, 2**29 - 1, 2**29, -1]
    plain = contract.ContractOptions()
    reserving = contract.ContractOptions(reserved=(5,))
    for _ in range(3000):
        tags = [
            rng.choice(edges) if rng.random() < 0.3 else rng.randint(1, 40)
            for _ in range(rng.randint(0, 6))
        ]
        fields = _tag_fields(tags)
        try:
            contract._check_tags("C", fields, plain)
            full = True
        except pa.ContractError:
            full = False
        assert contract._plainly_distinct_tags(fields, plain) is full, tags
        if fields:  # options the quick check does not read: always the full check
            assert contract._plainly_distinct_tags(fields, reserving) is False


def test_tag_errors_name_the_first_wrong_field_in_declaration_order() -> None:
    with pytest.raises(pa.ContractError, match=r"\.C\.b: tag 19000 is in 19000\.\.19999"):

        @pa.proto_contract
        @dataclasses.dataclass
        class C:
            a: int = field(30, default=0)
            b: int = field(19000, default=0)
            c: int = field(0, default=0)

    with pytest.raises(pa.ContractError, match=r"\.D\.c: tag 3 is already used by a$"):

        @pa.proto_contract
        @dataclasses.dataclass
        class D:
            a: int = field(3, default=0)
            b: int = field(1, default=0)
            c: int = field(3, default=0)


def test_origin_and_args_answer_as_typing_does() -> None:
    import collections.abc
    from typing import Callable, Dict, List, Literal, Union  # noqa: UP035 (typing's aliases)

    cases: list[Any] = [
        list[int], dict[str, int], Optional[int], Union[int, str], int | None,  # noqa: UP007, UP045
        List[int], Dict[str, int], Callable[[int], str],  # noqa: UP006
        collections.abc.Callable[[int], str], collections.abc.Sequence[int], tuple[int, ...],
        frozenset[int], set[int], int, Literal["a"], ClassVar[int], Sequence[int], str,
        list[typing.ForwardRef("Leaf")], Optional[typing.ForwardRef("Leaf")],  # noqa: UP045
    ]  # fmt: skip
    for case in cases:
        assert contract._origin(case) == typing.get_origin(case), case
        assert contract._args(case) == typing.get_args(case), case


def test_members_without_a_tag_are_numbered_with_or_without_implicit_fields() -> None:
    @pa.proto_contract
    @dataclasses.dataclass
    class Numbered:
        a: int = field(None, default=0)  # type: ignore[arg-type]
        b: int = field(1, default=0)
        c: int = field(None, default=0)  # type: ignore[arg-type]

    tags = {f.name: f.tag for f in contract.resolve(Numbered).fields}
    assert tags == {"b": 1, "a": 2, "c": 3}

    @pa.proto_contract(implicit_fields=True)
    @dataclasses.dataclass
    class Implicit:
        a: int = 0
        b: int = field(1, default=0)

    assert {f.name: f.tag for f in contract.resolve(Implicit).fields} == {"b": 1, "a": 2}
