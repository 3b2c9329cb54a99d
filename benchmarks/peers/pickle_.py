"""stdlib ``pickle`` at the highest protocol, straight on the dataclasses."""

from __future__ import annotations

import pickle
import platform
from typing import Any

NAME = "pickle"

_PROTOCOL = pickle.HIGHEST_PROTOCOL


def version() -> str:
    return f"stdlib (Python {platform.python_version()}, protocol {_PROTOCOL})"


def encode(obj: Any) -> bytes:
    return pickle.dumps(obj, protocol=_PROTOCOL)


decode = pickle.loads

CODECS = {
    w: (encode, decode) for w in ("book", "tasks", "boilers", "dns", "gm1_proto2", "gm1_proto3")
}
