"""``import protoattr`` imports only what a binary round trip needs (issue 20: start-up).

attrs, uuid (which imports platform), decimal, pathlib and the service declarations are
imported when a program uses them: a program with an attrs class, a UUID or a
Decimal has imported their modules already, and ``pa.service``/``pa.UUIDBytes``
load on first use.
"""

from __future__ import annotations

import subprocess
import sys

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
