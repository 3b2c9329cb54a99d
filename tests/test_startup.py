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
)


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


def test_the_lazy_names_still_work() -> None:
    loaded = _modules_after(
        "import attrs, uuid, protoattr as pa\n"
        "from typing import Annotated\n"
        "@pa.proto_contract\n@attrs.define\nclass A:\n"
        "    u: Annotated[pa.UUIDBytes, pa.member(1)] = uuid.UUID(int=1)\n"
        "assert pa.deserialize(A, pa.serialize(A())) == A()\n"
        "assert pa.service and pa.rpc and pa.CallContext"
    )
    assert "protoattr._service" in loaded
