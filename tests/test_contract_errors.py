"""Bad declarations raise ContractError when the class is decorated, naming class and field.

(This module deliberately does not use ``from __future__ import annotations``:
the classes below are local to their tests, and their annotations must be
evaluated where they are written for the error to be raised at decoration.)
"""

# ruff: noqa: UP007, UP045

import dataclasses
import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Optional, Union

import pytest

import protoattr as pa
from protoattr import ContractError, field, member, proto_contract


@proto_contract
@dataclass
class Good:
    a: pa.int32 = field(1, default=0)


@dataclass
class NotAContract:
    a: int = 0


class Word(enum.Enum):
    A = "a"
    B = "b"


class Small(enum.IntEnum):
    ZERO = 0
    ONE = 1


class Huge(enum.IntEnum):
    ZERO = 0
    BIG = 2**31


def raises_naming(build: Callable[[], Any], field_name: str, cls_name: str = "Bad") -> str:
    """Run ``build`` (which decorates a class) and check the ContractError names both."""
    with pytest.raises(ContractError) as info:
        build()
    message = str(info.value)
    assert re.search(rf"\b{cls_name}\.{field_name}\b", message), message
    return message


# ------------------------------------------------------------------ tags


def test_contract_error_is_a_type_error_and_a_proto_error() -> None:
    assert issubclass(ContractError, TypeError)
    assert issubclass(ContractError, pa.ProtoError)


def test_duplicate_tag() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            first: int = field(1, default=0)
            second: str = field(1, default="")

    message = raises_naming(build, "(first|second)")
    assert "1" in message


@pytest.mark.parametrize("tag", [0, -1, 536870912, 2**32, 19000, 19500, 19999])
def test_tag_out_of_range(tag: int) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            ok: int = field(1, default=0)
            wrong: int = field(tag, default=0)

    assert str(tag) in raises_naming(build, "wrong")


@pytest.mark.parametrize("tag", [1, 18999, 20000, 536870911])
def test_tags_at_the_edges_are_accepted(tag: int) -> None:
    @proto_contract
    @dataclass
    class Edge:
        value: pa.int32 = field(tag, default=0)

    assert pa.deserialize(Edge, pa.serialize(Edge(7))) == Edge(7)


@pytest.mark.parametrize("reserved", [(5,), (1, 5, 9), (range(4, 6),), (range(5, 6), "zzz")])
def test_reserved_tag(reserved: tuple[Any, ...]) -> None:
    def build() -> None:
        @proto_contract(reserved=reserved)
        @dataclass
        class Bad:
            ok: int = field(2, default=0)
            wrong: int = field(5, default=0)

    raises_naming(build, "wrong")


def test_reserved_name() -> None:
    def build() -> None:
        @proto_contract(reserved=("old", 7))
        @dataclass
        class Bad:
            ok: int = field(2, default=0)
            old: int = field(3, default=0)

    assert "old" in raises_naming(build, "old")


def test_reserved_proto_name() -> None:
    def build() -> None:
        @proto_contract(reserved=("legacy",))
        @dataclass
        class Bad:
            current: int = field(3, default=0, name="legacy")

    assert "legacy" in raises_naming(build, "current")


def test_reserved_ranges_that_do_not_overlap_are_fine() -> None:
    @proto_contract(reserved=(1, range(3, 5), "gone"))
    @dataclass
    class Fine:
        b: int = field(2, default=0)
        f: int = field(5, default=0)

    assert pa.serialize(Fine(1, 2)) == b"\x10\x01\x28\x02"


# ----------------------------------------------------- annotations


UNSUPPORTED: dict[str, Any] = {
    "bare-set": set,
    "set-of-lists": set[list[int]],
    "complex": complex,
    "object": object,
    "union": Union[int, str],
    "pipe-union": int | str,
    "optional-union": Optional[Union[int, str]],
    "bare-list": list,
    "bare-dict": dict,
    "nested-list": list[list[int]],
    "list-of-dicts": list[dict[str, int]],
    "heterogeneous-tuple": tuple[int, str],
    "float-keys": dict[float, int],
    "bytes-keys": dict[bytes, int],
    "message-keys": dict[Good, int],
    "enum-keys": dict[Small, int],
    "map-of-lists": dict[str, list[int]],
    "none": type(None),
    "str-enum": Word,
    "int32-enum-overflow": Huge,
    "any": Any,
}


@pytest.mark.parametrize("annotation", UNSUPPORTED.values(), ids=UNSUPPORTED.keys())
def test_unsupported_annotation(annotation: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: annotation = field(1, default=None)  # type: ignore[valid-type]

    raises_naming(build, "wrong")


def test_non_contract_dataclass_as_field_type() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: Optional[NotAContract] = field(1, default=None)

    assert "NotAContract" in raises_naming(build, "wrong")


@pytest.mark.parametrize(
    "annotation",
    [NotAContract, list[NotAContract], dict[str, NotAContract]],
    ids=["singular", "list", "map-value"],
)
def test_non_contract_dataclass_anywhere(annotation: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: annotation = field(1, default=None)  # type: ignore[valid-type]

    raises_naming(build, "wrong")


def test_field_with_no_tag_and_no_default() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            tagged: int = field(1)
            wrong: int

    raises_naming(build, "wrong")


def test_an_ignored_field_is_just_not_serialized() -> None:
    @proto_contract
    @dataclass
    class Partial:
        tagged: pa.int32 = field(1, default=0)
        local: pa.Ignored[str] = "not on the wire"

    assert pa.serialize(Partial(1, "changed")) == b"\x08\x01"
    assert pa.deserialize(Partial, b"\x08\x01") == Partial(1)


# --------------------------------------------------------- options


@pytest.mark.parametrize(
    "annotation",
    [list[str], list[bytes], list[Good], pa.int32, dict[pa.int32, pa.int32], Optional[pa.int32]],
    ids=["strings", "bytes", "messages", "singular", "map", "optional"],
)
def test_packed_true_on_a_non_packable_field(annotation: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: annotation = field(1, default=None, packed=True)  # type: ignore[valid-type]

    raises_naming(build, "wrong")


def test_packed_true_on_numeric_lists_is_fine() -> None:
    @proto_contract
    @dataclass
    class Fine:
        values: list[pa.sint64] = field(1, default_factory=list, packed=True)

    assert pa.serialize(Fine([1])) == b"\x0a\x01\x02"


@pytest.mark.parametrize(
    "annotation", [Optional[pa.int32], list[pa.int32], dict[str, str]], ids=repr
)
def test_required_on_optional_repeated_or_map(annotation: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: annotation = field(1, required=True)  # type: ignore[valid-type]

    raises_naming(build, "wrong")


@pytest.mark.parametrize("annotation", [pa.int32, str, list[str]], ids=repr)
def test_group_on_a_non_message(annotation: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: annotation = field(1, default=None, group=True)  # type: ignore[valid-type]

    raises_naming(build, "wrong")


@pytest.mark.parametrize("annotation", [list[pa.int32], dict[str, str]], ids=repr)
def test_repeated_or_map_in_a_oneof(annotation: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            ok: Optional[str] = field(1, default=None, oneof="choice")
            wrong: annotation = field(2, default=None, oneof="choice")  # type: ignore[valid-type]

    raises_naming(build, "wrong")


@pytest.mark.parametrize(
    ("annotation", "default"),
    [(pa.int32, 2**31), (pa.uint32, -1), (pa.uint64, 2**64), (pa.sint32, "1"), (pa.int64, 1.5)],
    ids=repr,
)
def test_default_that_does_not_fit(annotation: Any, default: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: annotation = field(1, default=default)  # type: ignore[valid-type]

    raises_naming(build, "wrong")


def test_two_markers_on_one_field() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            wrong: Annotated[pa.int32, member(2)] = field(1, default=0)

    raises_naming(build, "wrong")


def test_subtype_tag_out_of_range() -> None:
    with pytest.raises(ContractError, match=r"\bSub\b"):

        @proto_contract(subtype_tag=0)
        @dataclass
        class Sub(Good):
            b: int = field(2, default=0)


def test_decorating_something_that_is_not_a_class() -> None:
    with pytest.raises(ContractError):
        proto_contract(lambda: None)  # type: ignore[arg-type]


def test_a_rejected_class_is_not_registered() -> None:
    @dataclass
    class Bad:
        wrong: complex = field(1, default=0j)

    with pytest.raises(ContractError):
        proto_contract(Bad)
    with pytest.raises(ContractError, match=r"\bBad\b"):
        pa.serialize(Bad())


def test_serializing_a_class_that_is_not_a_contract() -> None:
    with pytest.raises(ContractError, match="NotAContract"):
        pa.serialize(NotAContract())
    with pytest.raises(ContractError, match="NotAContract"):
        pa.deserialize(NotAContract, b"")


# ------------------------------------------------ forward references


@proto_contract
@dataclass
class EarlyBad:
    """Refers to a class defined later, so it is resolved on first use - and is bad."""

    later: Optional["DefinedLater"] = field(1, default=None)
    wrong: "complex" = field(2, default=0j)


@proto_contract
@dataclass
class Dangling:
    """Refers to a class that never exists."""

    ghost: Optional["NoSuchClass"] = field(1, default=None)  # type: ignore[name-defined]  # noqa: F821


@proto_contract
@dataclass
class DefinedLater:
    x: pa.int32 = field(1, default=0)


def test_forward_reference_errors_surface_on_first_use_naming_class_and_field() -> None:
    with pytest.raises(ContractError) as info:
        pa.serialize(EarlyBad())
    assert re.search(r"\bEarlyBad\.wrong\b", str(info.value)), str(info.value)
    with pytest.raises(ContractError, match=r"\bEarlyBad\.wrong\b"):
        pa.deserialize(EarlyBad, b"")


def test_unresolvable_forward_reference_names_the_class() -> None:
    with pytest.raises(ContractError) as info:
        pa.serialize(Dangling())
    message = str(info.value)
    assert "Dangling" in message and "NoSuchClass" in message, message
    assert isinstance(info.value, ContractError)


def test_errors_name_the_field_not_just_any_field() -> None:
    # a contract with several fields: the message names the one that is wrong
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            alpha: pa.int32 = field(1, default=0)
            beta: complex = field(2, default=0j)
            gamma: str = field(3, default="")

    message = raises_naming(build, "beta")
    assert "alpha" not in message and "gamma" not in message


def test_dataclass_fields_keep_their_metadata() -> None:
    # field() is a dataclasses.Field; user metadata survives next to protoattr's
    f = field(3, default=0, metadata={"doc": "x"})
    assert isinstance(f, dataclasses.Field)
    assert f.metadata["doc"] == "x"
