"""``import protoattr`` imports only what a binary round trip needs (issue 20: start-up).

attrs, uuid (which imports platform), decimal, pathlib and the service declarations are
imported when a program uses them: a program with an attrs class, a UUID or a
Decimal has imported their modules already, and ``pa.service``/``pa.UUIDBytes``
load on first use.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

LAZY = (
    "attrs",
    "attr",
    "uuid",
    "platform",
    "decimal",
    "pathlib",
    "protoattr._service",
    "google.protobuf",
    # length-prefixed streams and extensions load on first use of their names
    "protoattr._stream",
    "protoattr._model.extensions",
    "protoattr._core.extensions",
)
#: the Python code generator: a model on the native backend makes its Python codecs only
#: when something asks for them (the engine hands an input over, source(), write_module())
LAZY_ON_NATIVE = ("protoattr._python.codegen", "protoattr._python.compiler")


def _modules_after(code: str) -> set[str]:
    """The modules ``code`` imported (not those the interpreter's start-up had, such as an
    editable install's finder importing pathlib)."""
    script = (
        f"import sys\nbefore = set(sys.modules)\n{code}\nprint(' '.join(set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_import_protoattr_leaves_the_unneeded_modules_unimported() -> None:
    loaded = _modules_after(
        "import dataclasses, protoattr as pa\n"
        "@pa.proto_contract\n@dataclasses.dataclass\nclass P:\n    x: int = pa.field(1)\n"
        "assert pa.deserialize(P, pa.serialize(P(5))) == P(5)"
    )
    assert not [m for m in LAZY if m in loaded]
    import protoattr as pa  # the child runs the same backend (PROTOATTR_BACKEND)

    if pa.default_model._native is not None:
        assert not [m for m in LAZY_ON_NATIVE if m in loaded]


def test_the_lazy_names_still_work() -> None:
    loaded = _modules_after(
        "import attrs, uuid, protoattr as pa\n"
        "from typing import Annotated\n"
        "@pa.proto_contract\n@attrs.define\nclass A:\n"
        "    u: Annotated[pa.UUIDBytes, pa.member(1)] = uuid.UUID(int=1)\n"
        "assert pa.deserialize(A, pa.serialize(A())) == A()\n"
        "assert pa.service and pa.rpc and pa.CallContext\n"
        "from protoattr import PrefixStyle, extension\n"
        "assert pa.deserialize_items and pa.serialize_with_length_prefix and pa.Extension"
    )
    assert {"protoattr._service", "protoattr._stream", "protoattr._model.extensions"} <= loaded


def test_plain_fields_share_their_options_and_others_keep_theirs() -> None:
    """field(tag) with no other option shares one (frozen) ProtoMember per tag; any option
    makes a member of its own."""
    import dataclasses

    import protoattr as pa
    from protoattr._core.fields import METADATA_KEY

    def member(f: object) -> object:
        assert isinstance(f, dataclasses.Field)
        return f.metadata[METADATA_KEY]

    assert member(pa.field(3)) is member(pa.field(3, default=0)) is pa.member(3)
    assert member(pa.field(3, oneof="o")).oneof == "o"  # type: ignore[attr-defined]
    assert member(pa.field(3, name="x")) is not member(pa.field(3))
    assert member(pa.field(3, metadata={"k": 1})) is member(pa.field(3))
    assert pa.field(3, metadata={"k": 1}).metadata["k"] == 1
    assert member(pa.field(True)) is not member(pa.field(1))  # a bool is no tag: refused later


#: the contract layer's dataclasses, made dataclasses when their first instance is
#: (``protoattr._core.lazy_dataclass``): about a millisecond each of ``import protoattr``
LAZY_DATACLASSES = (
    "protoattr._core.fields.ProtoMember",
    "protoattr._core.contract.ValueType",
    "protoattr._core.contract.FieldInfo",
    "protoattr._core.contract.ContractOptions",
    "protoattr._core.contract.ContractInfo",
)


def _built_after(code: str) -> dict[str, bool]:
    script = (
        "import importlib, protoattr\nfrom protoattr._core.lazy_dataclass import built\n"
        f"{code}\n"
        f"for name in {LAZY_DATACLASSES!r}:\n"
        "    module, _, cls = name.rpartition('.')\n"
        "    print(name, built(getattr(importlib.import_module(module), cls)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    return {name: flag == "True" for name, flag in (line.split() for line in out.splitlines())}


def test_import_protoattr_builds_none_of_the_contract_dataclasses() -> None:
    assert not any(_built_after("").values())
    declared = _built_after(
        "import dataclasses, protoattr as pa\n"
        "@pa.proto_contract\n@dataclasses.dataclass\nclass P:\n    x: int = pa.field(1)\n"
        "assert pa.deserialize(P, pa.serialize(P(5))) == P(5)"
    )
    assert all(declared.values()), declared


def test_a_lazy_dataclass_behaves_as_the_decorator_makes_it() -> None:
    import dataclasses
    import threading

    from protoattr._core.lazy_dataclass import built, dataclass

    @dataclass(frozen=True)
    class Point:
        """A point."""

        x: int
        y: int = 0
        tags: tuple[str, ...] = dataclasses.field(default=())

    @dataclasses.dataclass(frozen=True)
    class Eager:
        """A point."""

        x: int
        y: int = 0
        tags: tuple[str, ...] = dataclasses.field(default=())

    assert not built(Point) and not dataclasses.is_dataclass(Point)
    made: list[Point] = []
    threads = [threading.Thread(target=lambda: made.append(Point(1, y=2))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert built(Point) and dataclasses.is_dataclass(Point)
    p = Point(1, 2)
    assert made == [p] * 4 and p == Point(1, 2) and p != Point(2, 2)
    assert repr(p) == repr(Eager(1, 2)).replace("Eager", "Point")
    assert hash(p) == hash(Point(1, 2))
    assert dataclasses.replace(p, y=5) == Point(1, 5)
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags"]
    assert Point.__doc__ == "A point." and Point.__match_args__ == ("x", "y", "tags")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
