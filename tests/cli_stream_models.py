"""A contract for the command line's stream tests (imported by ``MODULE:CLASS``)."""

from __future__ import annotations

from dataclasses import dataclass

import protoattr as pa
from protoattr import field, proto_contract


@proto_contract
@dataclass
class Reading:
    n: pa.int32 = field(1, default=0)
    s: str = field(2, default="")
