"""Google's GoogleMessage1 benchmark, as plain dataclasses, and its data made at run time.

Google's protobuf repository kept, up to its 3.x releases, a cross-language
benchmark suite (``benchmarks/`` at tag ``v3.20.3``): ``GoogleMessage1``, 41
fields of strings, int32/int64, bools, a repeated fixed64 and a 20-field
sub-message, in a proto2 and a proto3 schema
(``datasets/google_message1/proto{2,3}/benchmark_message1_proto{2,3}.proto``),
and one payload of each (``dataset.google_message1_proto{2,3}.pb``, a
``BenchmarkDataset`` wrapping one 228-byte message).  Nothing of that
repository is copied here: the classes below are written from the schemas'
field lists, and :func:`make_gm1_proto2` / :func:`make_gm1_proto3` build a
message with the same fields set as the payload, each value of the same shape
(the same string lengths from the same printable-ASCII alphabet, integers of
the same encoded width, the same booleans), from a fixed seed.  The proto2
message encodes to 228 bytes, as the dataset's payload does
(``GM1_PAYLOAD_SIZE``, checked by ``benchmarks/_verify.py``).

The proto2 form keeps the schema's presence: an ``optional`` field is
``T | None`` (``None`` is absent), so the payload's explicitly set defaults
(``field12 = true``, ``field13 = false``, an empty ``field1``) are written, as
Google's runtimes write them.  The proto3 form has no presence: a zero is not
written, so the same values encode to fewer bytes.

As in ``benchmarks/workloads.py``, the fields are declared with protoattr's
``field(tag)`` (an ordinary ``dataclasses.Field``); only ``peers/protoattr_.py``
applies ``@proto_contract``, under the message names of ``MESSAGE_NAMES``.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from protoattr import field, fixed32, fixed64, int32, uint64

__all__ = [
    "GM1_PACKAGES",
    "GM1_PAYLOAD_SIZE",
    "MESSAGE_NAMES",
    "GM1Proto2",
    "GM1Proto3",
    "GM1SubProto2",
    "GM1SubProto3",
    "make_gm1_proto2",
    "make_gm1_proto3",
]

# The size of the dataset's one payload (both files carry the same bytes).
GM1_PAYLOAD_SIZE = 228

# The schemas' packages (the harness exports each contract into its package).
GM1_PACKAGES = {"gm1_proto2": "benchmarks.proto2", "gm1_proto3": "benchmarks.proto3"}


# --- proto2 ------------------------------------------------------------------


@dataclass
class GM1SubProto2:
    field1: int32 | None = field(1, default=None)
    field2: int32 | None = field(2, default=None)
    field3: int32 | None = field(3, default=None)
    field15: str | None = field(15, default=None)
    field12: bool | None = field(12, default=None)
    field13: int | None = field(13, default=None)
    field14: int | None = field(14, default=None)
    field16: int32 | None = field(16, default=None)
    field19: int32 | None = field(19, default=None)
    field20: bool | None = field(20, default=None)
    field28: bool | None = field(28, default=None)
    field21: fixed64 | None = field(21, default=None)
    field22: int32 | None = field(22, default=None)
    field23: bool | None = field(23, default=None)
    field206: bool | None = field(206, default=None)
    field203: fixed32 | None = field(203, default=None)
    field204: int32 | None = field(204, default=None)
    field205: str | None = field(205, default=None)
    field207: uint64 | None = field(207, default=None)
    field300: uint64 | None = field(300, default=None)


@dataclass
class GM1Proto2:
    field1: str = field(1, required=True, default="")
    field9: str | None = field(9, default=None)
    field18: str | None = field(18, default=None)
    field80: bool | None = field(80, default=None)
    field81: bool | None = field(81, default=None)
    field2: int32 = field(2, required=True, default=0)
    field3: int32 = field(3, required=True, default=0)
    field280: int32 | None = field(280, default=None)
    field6: int32 | None = field(6, default=None)
    field22: int | None = field(22, default=None)
    field4: str | None = field(4, default=None)
    field5: list[fixed64] = field(5, packed=False, default_factory=list)
    field59: bool | None = field(59, default=None)
    field7: str | None = field(7, default=None)
    field16: int32 | None = field(16, default=None)
    field130: int32 | None = field(130, default=None)
    field12: bool | None = field(12, default=None)
    field17: bool | None = field(17, default=None)
    field13: bool | None = field(13, default=None)
    field14: bool | None = field(14, default=None)
    field104: int32 | None = field(104, default=None)
    field100: int32 | None = field(100, default=None)
    field101: int32 | None = field(101, default=None)
    field102: str | None = field(102, default=None)
    field103: str | None = field(103, default=None)
    field29: int32 | None = field(29, default=None)
    field30: bool | None = field(30, default=None)
    field60: int32 | None = field(60, default=None)
    field271: int32 | None = field(271, default=None)
    field272: int32 | None = field(272, default=None)
    field150: int32 | None = field(150, default=None)
    field23: int32 | None = field(23, default=None)
    field24: bool | None = field(24, default=None)
    field25: int32 | None = field(25, default=None)
    field15: GM1SubProto2 | None = field(15, default=None)
    field78: bool | None = field(78, default=None)
    field67: int32 | None = field(67, default=None)
    field68: int32 | None = field(68, default=None)
    field128: int32 | None = field(128, default=None)
    field129: str | None = field(129, default=None)
    field131: int32 | None = field(131, default=None)


# --- proto3 ------------------------------------------------------------------


@dataclass
class GM1SubProto3:
    field1: int32 = field(1, default=0)
    field2: int32 = field(2, default=0)
    field3: int32 = field(3, default=0)
    field15: str = field(15, default="")
    field12: bool = field(12, default=False)
    field13: int = field(13, default=0)
    field14: int = field(14, default=0)
    field16: int32 = field(16, default=0)
    field19: int32 = field(19, default=0)
    field20: bool = field(20, default=False)
    field28: bool = field(28, default=False)
    field21: fixed64 = field(21, default=0)
    field22: int32 = field(22, default=0)
    field23: bool = field(23, default=False)
    field206: bool = field(206, default=False)
    field203: fixed32 = field(203, default=0)
    field204: int32 = field(204, default=0)
    field205: str = field(205, default="")
    field207: uint64 = field(207, default=0)
    field300: uint64 = field(300, default=0)


@dataclass
class GM1Proto3:
    field1: str = field(1, default="")
    field9: str = field(9, default="")
    field18: str = field(18, default="")
    field80: bool = field(80, default=False)
    field81: bool = field(81, default=False)
    field2: int32 = field(2, default=0)
    field3: int32 = field(3, default=0)
    field280: int32 = field(280, default=0)
    field6: int32 = field(6, default=0)
    field22: int = field(22, default=0)
    field4: str = field(4, default="")
    field5: list[fixed64] = field(5, default_factory=list)
    field59: bool = field(59, default=False)
    field7: str = field(7, default="")
    field16: int32 = field(16, default=0)
    field130: int32 = field(130, default=0)
    field12: bool = field(12, default=False)
    field17: bool = field(17, default=False)
    field13: bool = field(13, default=False)
    field14: bool = field(14, default=False)
    field104: int32 = field(104, default=0)
    field100: int32 = field(100, default=0)
    field101: int32 = field(101, default=0)
    field102: str = field(102, default="")
    field103: str = field(103, default="")
    field29: int32 = field(29, default=0)
    field30: bool = field(30, default=False)
    field60: int32 = field(60, default=0)
    field271: int32 = field(271, default=0)
    field272: int32 = field(272, default=0)
    field150: int32 = field(150, default=0)
    field23: int32 = field(23, default=0)
    field24: bool = field(24, default=False)
    field25: int32 = field(25, default=0)
    field15: GM1SubProto3 | None = field(15, default=None)
    field78: bool = field(78, default=False)
    field67: int32 = field(67, default=0)
    field68: int32 = field(68, default=0)
    field128: int32 = field(128, default=0)
    field129: str = field(129, default="")
    field131: int32 = field(131, default=0)


# Contract (message) names: both forms are "GoogleMessage1" in their own package.
MESSAGE_NAMES: dict[type, str] = {
    GM1SubProto2: "GoogleMessage1SubMessage",
    GM1Proto2: "GoogleMessage1",
    GM1SubProto3: "GoogleMessage1SubMessage",
    GM1Proto3: "GoogleMessage1",
}


# --- data --------------------------------------------------------------------

_SEED = 20080707  # any fixed seed: runs compare
# The payload's strings are printable ASCII without the space.
_ALPHABET = string.ascii_letters + string.digits + string.punctuation


def _values(seed: int) -> dict[str, object]:
    """The payload's fields and value shapes: string lengths, varint widths, booleans."""
    rnd = random.Random(seed)

    def text(n: int) -> str:
        return "".join(rnd.choices(_ALPHABET, k=n))

    def varint(width: int) -> int:
        """A positive int32 whose varint takes ``width`` bytes."""
        return rnd.randrange(1 << (7 * (width - 1)), 1 << (7 * width))

    sub = {
        "field1": varint(1),
        "field2": varint(1),
        "field15": text(67),
        "field21": rnd.randrange(1 << 60, 1 << 64),
        "field22": varint(1),
        "field23": True,
    }
    return {
        "field1": "",
        "field9": text(89),
        "field18": text(10),
        "field2": varint(1),
        "field3": varint(3),
        "field4": text(6),
        "field12": True,
        "field17": False,
        "field13": False,
        "field14": True,
        "field100": varint(1),
        "field15": sub,
        "field67": varint(3),
    }


def make_gm1_proto2(seed: int = _SEED) -> GM1Proto2:
    """The proto2 message: the payload's fields set (defaults included), values of its shape."""
    v = _values(seed)
    sub = v.pop("field15")
    assert isinstance(sub, dict)
    return GM1Proto2(**v, field15=GM1SubProto2(**sub))  # type: ignore[arg-type]


def make_gm1_proto3(seed: int = _SEED) -> GM1Proto3:
    """The proto3 message: the same values (zeros and empty strings are not written)."""
    v = _values(seed)
    sub = v.pop("field15")
    assert isinstance(sub, dict)
    return GM1Proto3(**v, field15=GM1SubProto3(**sub))  # type: ignore[arg-type]
