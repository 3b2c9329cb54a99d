"""The first hour of a new user: mistakes that used to lose data silently.

Each of these declared a class that serialized to ``b''`` or accepted a
declaration that could only fail later; now they work, or fail when the class
is declared with a ContractError naming the class and the field.

(No ``from __future__ import annotations``: the classes are local to their
tests and their annotations must be evaluated where they are written.)
"""

# ruff: noqa: UP045

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Optional

import attrs
import pytest

import protoattr as pa
from protoattr import ContractError, EncodeError, field, member, proto_contract


def raises_naming(build: Callable[[], Any], where: str, *words: str) -> str:
    """``build`` raises a ContractError naming ``where`` (``Class`` or ``Class.field``)."""
    with pytest.raises(ContractError) as info:
        build()
    message = str(info.value)
    assert re.search(rf"\b{re.escape(where)}\b", message), message
    for word in words:
        assert word in message, message
    return message


# --------------------------------------------------- @dataclass above @proto_contract


@dataclass
@proto_contract
class Wrong:
    number: int = field(1)
    text: str = field(2, default="")
    tags: list[str] = field(3, default_factory=list)


def test_dataclass_written_above_proto_contract_still_works() -> None:
    # the decorators apply bottom-up, so proto_contract saw a plain class whose
    # attributes are field() objects: unambiguous, resolved once @dataclass has run
    obj = Wrong(42, "x", ["a"])
    data = pa.serialize(obj)
    assert data == b"\x08\x2a\x12\x01x\x1a\x01a"
    assert pa.deserialize(Wrong, data) == obj
    assert [f.name for f in pa.default_model.info(Wrong).fields] == ["number", "text", "tags"]
    assert pa.deserialize(Wrong, b"") == Wrong(0)


def test_field_objects_on_a_class_that_never_becomes_a_dataclass() -> None:
    @proto_contract
    class Plain:
        number: int = field(1, default=0)

    raises_naming(lambda: pa.serialize(Plain()), "Plain.number", "@dataclass", "below")


def test_a_decorator_above_that_replaces_the_class_says_to_reorder() -> None:
    @dataclass(slots=True)  # makes a new class: the one proto_contract saw is gone
    @proto_contract
    class Slotted:
        number: int = field(1, default=0)

    raises_naming(lambda: pa.serialize(Slotted(1)), "Slotted", "put @proto_contract on top")

    @attrs.define
    @proto_contract
    class Attrs:
        number: Annotated[int, member(1)] = 0

    raises_naming(lambda: pa.serialize(Attrs(1)), "Attrs", "put @proto_contract on top")


# ------------------------------------------------------ field() on an attrs class


def test_field_on_an_attrs_class_is_refused() -> None:
    def build() -> None:
        @proto_contract
        @attrs.define
        class T:
            id: int = field(1, default=0)

    raises_naming(build, "T.id", "Annotated[T, member(tag)]")


# ------------------------------------------------- annotated but nothing tagged


def test_a_class_with_attributes_but_no_tag_is_refused() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Untagged:
            a: int = 0
            b: str = ""

        return None

    raises_naming(build, "Untagged", "(a, b)", "implicit_fields=True")

    def plain() -> None:
        @proto_contract
        class Annotated_:
            a: int = 0

    raises_naming(plain, "Annotated_", "(a)")


def test_a_deliberately_empty_class_and_partly_tagged_classes_are_fine() -> None:
    @proto_contract
    @dataclass
    class Empty:
        pass

    @proto_contract
    @dataclass
    class Partly:
        a: int = field(1, default=0)
        cache: pa.Ignored[dict[str, int]] = dataclasses.field(default_factory=dict)  # transient

    @proto_contract(implicit_fields=True)
    @dataclass
    class Implicit:
        a: int = 0

    @proto_contract(subtype_tag=5)
    @dataclass
    class Marked(Partly):  # its type travels, even with no data of its own
        note: pa.Ignored[str] = ""

    assert pa.serialize(Empty()) == b""
    assert pa.serialize(Partly(1, {"x": 1})) == b"\x08\x01"
    assert pa.serialize(Implicit(1)) == b"\x08\x01"
    assert pa.serialize(Marked(1, note="n")) == b"\x2a\x00\x08\x01"
    assert type(pa.deserialize(Partly, b"\x2a\x00")) is Marked


# ---------------------------------------------- subtype tag colliding with a base field


def test_a_subtype_tag_colliding_with_a_base_field_fails_at_declaration() -> None:
    @proto_contract
    @dataclass
    class Shape:
        name: str = field(1, default="")

    def build() -> None:
        @proto_contract(subtype_tag=1)
        @dataclass
        class Circle(Shape):
            radius: float = field(2, default=0.0)

    raises_naming(build, "Circle", "Shape.name")
    assert pa.serialize(Shape("s")) == b"\x0a\x01s"  # the base is left usable

    @proto_contract(reserved=[7])
    @dataclass
    class Base:
        name: str = field(1, default="")

    def reserved() -> None:
        @proto_contract(subtype_tag=7)
        @dataclass
        class Sub(Base):
            pass

    raises_naming(reserved, "Sub", "reserved")


# --------------------------------------------------------------- badly typed options


@pytest.mark.parametrize("tag", ["1", 1.0, True, (1,)], ids=repr)
def test_a_tag_that_is_not_an_int(tag: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            a: int = field(tag, default=0)

    raises_naming(build, "Bad.a", repr(tag))


def test_a_member_tag_that_is_not_an_int() -> None:
    def build() -> None:
        @proto_contract
        @attrs.define
        class Bad:
            a: Annotated[int, member("2")] = 0  # type: ignore[arg-type]

    raises_naming(build, "Bad.a", "'2'")


@pytest.mark.parametrize("entry", [1.5, True, None, b"name"], ids=repr)
def test_a_reserved_entry_that_is_not_a_number_range_or_name(entry: Any) -> None:
    def build() -> None:
        @proto_contract(reserved=[entry])
        @dataclass
        class Bad:
            a: int = field(1, default=0)

    raises_naming(build, "Bad", repr(entry))


def test_reserved_given_one_name() -> None:
    def build() -> None:
        @proto_contract(reserved="old")  # one name, not the letters o, l, d
        @dataclass
        class Bad:
            old: int = field(1, default=0)

    raises_naming(build, "Bad.old", "reserved")


@pytest.mark.parametrize("tag", ["10", 1.0, 0], ids=repr)
def test_a_subtype_tag_that_is_not_a_field_number(tag: Any) -> None:
    @proto_contract
    @dataclass
    class Base:
        name: str = field(1, default="")

    def build() -> None:
        @proto_contract(subtype_tag=tag)
        @dataclass
        class Sub(Base):
            pass

    raises_naming(build, "Sub", repr(tag))


@pytest.mark.parametrize(
    ("annotation", "default"),
    [
        (str, 5),
        (str, b"x"),
        (bytes, "x"),
        (bool, 1),
        (float, "1.5"),
        (float, True),
        (pa.float32, "0"),
    ],
    ids=repr,
)
def test_a_default_of_the_wrong_type(annotation: Any, default: Any) -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            s: annotation = field(1, default=default)  # type: ignore[valid-type]

    raises_naming(build, "Bad.s", repr(default))


def test_defaults_of_the_right_type_are_accepted() -> None:
    from datetime import datetime, timedelta, timezone
    from decimal import Decimal
    from enum import IntEnum

    class Level(IntEnum):
        LOW = 0
        HIGH = 1

    @proto_contract
    @dataclass
    class Good:
        f: float = field(1, default=1)  # an int is a fine float
        s: str = field(2, default="x")
        b: bytes = field(3, default=b"x")
        t: bool = field(4, default=True)
        level: Level = field(5, default=Level.HIGH)
        when: datetime = field(6, default=datetime(2020, 1, 1, tzinfo=timezone.utc))
        span: timedelta = field(7, default=timedelta(seconds=1))
        price: Decimal = field(8, default=Decimal("1.5"))
        maybe: Optional[str] = field(9, default="y")

    assert pa.deserialize(Good, pa.serialize(Good())) == Good()

    def bad_enum() -> None:
        @proto_contract
        @dataclass
        class Bad:
            level: Level = field(1, default="HIGH")  # type: ignore[assignment]

    raises_naming(bad_enum, "Bad.level", "'HIGH'")

    def bad_domain() -> None:
        @proto_contract
        @dataclass
        class Bad:
            price: Decimal = field(1, default="1.5")  # type: ignore[assignment]

    raises_naming(bad_domain, "Bad.price", "Decimal")


# ------------------------------------------------------------------------- oneof


def test_a_oneof_member_without_optional_is_refused() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Event:
            code: int = field(1, default=0, oneof="payload")
            text: str = field(2, default="", oneof="payload")

    raises_naming(build, "Event.code", "Optional")


def test_two_oneof_members_set_by_default_are_refused() -> None:
    def build() -> None:
        @proto_contract
        @dataclass
        class Event:
            code: Optional[int] = field(1, default=0, oneof="payload")
            text: Optional[str] = field(2, default="", oneof="payload")

    raises_naming(build, "Event.text", "code, text")

    @proto_contract
    @dataclass
    class OneDefault:  # one member set by default is a choice, not a conflict
        code: Optional[int] = field(1, default=0, oneof="payload")
        text: Optional[str] = field(2, default=None, oneof="payload")

    assert pa.serialize(OneDefault()) == b"\x08\x00"


# ------------------------------------------------------------------ sets


def test_a_set_of_unhashable_contracts_is_refused() -> None:
    @proto_contract
    @dataclass
    class Item:
        a: int = field(1, default=0)

    def build() -> None:
        @proto_contract
        @dataclass
        class Holder:
            items: set[Item] = field(1, default_factory=set)

    raises_naming(build, "Holder.items", "hashable", "list[")

    @proto_contract
    @dataclass(frozen=True)
    class Frozen:
        a: int = field(1, default=0)

    @proto_contract
    @dataclass
    class Fine:
        items: frozenset[Frozen] = field(1, default_factory=frozenset)

    obj = Fine(frozenset({Frozen(1), Frozen(2)}))
    assert pa.deserialize(Fine, pa.serialize(obj)) == obj


# ------------------------------------------------------------------ serialize(type=)


@proto_contract
@dataclass
class Money:
    units: int = field(1, default=0)


@proto_contract
@dataclass
class Address:
    street: str = field(1, default="")


def test_serialize_checks_the_type_it_is_given() -> None:
    with pytest.raises(EncodeError, match=r"type=Money\): the object is a Address, which is not"):
        pa.serialize(Address("x"), type=Money)
    with pytest.raises(EncodeError, match=r"type=Money"):
        pa.default_model.measure(Address("x"), type=Money)
    with pytest.raises(EncodeError, match=r"dict\[str, int\]"):
        pa.serialize(Address("x"), type=dict[str, int])
    assert pa.serialize(Money(3), type=Money) == b"\x08\x03"


def test_serialize_with_a_base_type_writes_the_subtype() -> None:
    @proto_contract
    @dataclass
    class Shape:
        name: str = field(1, default="")

    @proto_contract(subtype_tag=10)
    @dataclass
    class Circle(Shape):
        radius: pa.int32 = field(1, default=0)

    circle = Circle("c", 2)
    assert pa.serialize(circle, type=Shape) == pa.serialize(circle)


def test_a_bare_list_hints_at_type_list() -> None:
    with pytest.raises(ContractError, match=r"type=list\[Money\]"):
        pa.serialize([Money(1), Money(2)])
    with pytest.raises(ContractError, match=r"type=list\[T\]"):
        pa.serialize(())
    data = pa.serialize([Money(1), Money(2)], type=list[Money])
    assert data == b"\x0a\x02\x08\x01\x0a\x02\x08\x02"


# ------------------------------------------- quoted names inside generics (3.10 too)


@proto_contract
@dataclass
class Node:
    value: int = field(1, default=0)
    children: list["Node"] = field(2, default_factory=list)
    by_name: dict[str, "Node"] = field(3, default_factory=dict)
    leaves: tuple["Leaf", ...] = field(4, default=())
    tagged: Annotated[list["Leaf"], "a note"] = field(5, default_factory=list)


@proto_contract
@dataclass
class Leaf:
    text: str = field(1, default="")


def test_quoted_forward_references_inside_generics() -> None:
    tree = Node(
        1,
        [Node(2)],
        {"n": Node(3)},
        (Leaf("a"),),
        [Leaf("b")],
    )
    data = pa.serialize(tree)
    assert data == (
        b"\x08\x01\x12\x02\x08\x02\x1a\x07\x0a\x01n\x12\x02\x08\x03"
        b"\x22\x03\x0a\x01a\x2a\x03\x0a\x01b"
    )
    assert pa.deserialize(Node, data) == tree
    kinds = [f.value.py_type for f in pa.default_model.info(Node).fields]
    assert kinds == [None, Node, Node, Leaf, Leaf]


def test_literal_values_are_not_taken_for_names() -> None:
    from typing import Literal

    def build() -> None:
        @proto_contract
        @dataclass
        class Bad:
            mode: Literal["fast"] = field(1, default="fast")

    raises_naming(build, "Bad.mode", "unsupported annotation")


# ----------------------------------- a missing C engine is said where the user looks (22.4)

_NO_ENGINE = """
import sys, warnings
sys.modules["protoattr._native._engine"] = None  # as if the build had failed
warnings.simplefilter("default")
import protoattr as pa
pa.TypeModel(); pa.TypeModel()
print(pa.default_model.backend)
"""


@pytest.mark.parametrize("env", [{}, {"PROTOATTR_BACKEND": "python"}], ids=["warns", "silenced"])
def test_a_missing_engine_warns_once_with_the_fix(env: dict[str, str]) -> None:
    import os
    import subprocess
    import sys

    environ = {k: v for k, v in os.environ.items() if k != "PROTOATTR_BACKEND"} | env
    done = subprocess.run(
        [sys.executable, "-c", _NO_ENGINE], capture_output=True, text=True, env=environ, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "python"
    if env:
        assert "C engine" not in done.stderr
    else:
        assert done.stderr.count("RuntimeWarning: protoattr's C engine is not built") == 1
        assert "--no-binary protoattr" in done.stderr and "PROTOATTR_BACKEND=python" in done.stderr
