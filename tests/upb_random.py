"""Random messages of any upb message class, filled through its descriptor.

For differential tests over schemas nobody wrote contracts for (``load_schema`` of
every ``.proto`` grpcio-tools bundles): each field is set or not at random, with a
value of its type (float32-exact floats, valid enum numbers, nested messages to a
bounded depth, maps).  A field is never set to a declared non-zero default: gen
declares those ``T = d``, which protoattr does not write (parse-equal, not
byte-equal, as docs/gen.md says).
"""

from __future__ import annotations

import random
import struct
from typing import Any

from google.protobuf.descriptor import FieldDescriptor as F

_INTS = {
    F.TYPE_INT32: (-(1 << 31), (1 << 31) - 1), F.TYPE_SINT32: (-(1 << 31), (1 << 31) - 1),
    F.TYPE_SFIXED32: (-(1 << 31), (1 << 31) - 1), F.TYPE_INT64: (-(1 << 63), (1 << 63) - 1),
    F.TYPE_SINT64: (-(1 << 63), (1 << 63) - 1), F.TYPE_SFIXED64: (-(1 << 63), (1 << 63) - 1),
    F.TYPE_UINT32: (0, (1 << 32) - 1), F.TYPE_FIXED32: (0, (1 << 32) - 1),
    F.TYPE_UINT64: (0, (1 << 64) - 1), F.TYPE_FIXED64: (0, (1 << 64) - 1),
}  # fmt: skip


def scalar(rng: random.Random, f: Any) -> Any:
    t = f.type
    if t in _INTS:
        lo, hi = _INTS[t]
        return rng.choice([0, 1, -1 if lo else 2, lo, hi, rng.randint(lo, hi)])
    if t == F.TYPE_BOOL:
        return rng.random() < 0.5
    if t == F.TYPE_FLOAT:
        return struct.unpack("<f", struct.pack("<f", rng.uniform(-1e6, 1e6)))[0]
    if t == F.TYPE_DOUBLE:
        return rng.choice([0.0, -0.0, 1.5, rng.uniform(-1e300, 1e300)])
    if t == F.TYPE_STRING:
        return "".join(rng.choice("ab\u00e9\u4e2d\U0001f600") for _ in range(rng.randint(0, 5)))
    if t == F.TYPE_BYTES:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 5)))
    if t == F.TYPE_ENUM:
        return rng.choice(f.enum_type.values).number
    raise AssertionError(t)


def fill(rng: random.Random, msg: Any, depth: int = 0) -> Any:
    """Set a random selection of ``msg``'s fields (only the required ones from depth 3
    on); returns ``msg``."""
    for f in msg.DESCRIPTOR.fields:
        if not f.is_required and (depth >= 3 or rng.random() < 0.5):
            continue
        message = f.message_type
        if message is not None and message.GetOptions().map_entry:
            key_f, value_f = message.fields_by_name["key"], message.fields_by_name["value"]
            target = getattr(msg, f.name)
            for _ in range(rng.randint(0, 3)):
                key = scalar(rng, key_f)
                if value_f.message_type is not None:
                    if depth < 3:
                        fill(rng, target[key], depth + 1)
                else:
                    target[key] = scalar(rng, value_f)
            continue
        if f.is_repeated:
            target = getattr(msg, f.name)
            for _ in range(rng.randint(0, 3)):
                if message is not None:
                    if depth < 3:
                        fill(rng, target.add(), depth + 1)
                else:
                    target.append(scalar(rng, f))
            continue
        if message is not None:
            getattr(msg, f.name).SetInParent()
            fill(rng, getattr(msg, f.name), depth + 1)
            continue
        value = scalar(rng, f)
        if f.has_default_value and value == f.default_value and value not in (0, False, "", b""):
            continue
        setattr(msg, f.name, value)
    return msg
