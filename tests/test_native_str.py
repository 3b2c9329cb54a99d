"""Strings read by the engine's ASCII fast path (decode.c's is_ascii: 8 bytes at a
time, the tail read overlapping) and by CPython's UTF-8 decoder otherwise: every
length up to 40 with a non-ASCII byte at every position reads as the Python codecs
read it (the same str, or the same DecodeError)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import protoattr as pa
from protoattr import field, proto_contract
from protoattr._native import engine


@proto_contract
@dataclass
class Text:
    s: str = field(1, default="")
    t: str | None = field(2, default=None)


def _outcome(model: pa.TypeModel, data: bytes) -> object:
    try:
        return model.deserialize(Text, data)
    except pa.DecodeError as exc:
        return str(exc)


@pytest.mark.skipif(engine() is None, reason="the C engine is not built")
def test_every_length_and_position_of_a_non_ascii_byte() -> None:
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    for length in range(40):
        plain = bytes(65 + i % 26 for i in range(length))
        cases = [plain]
        for i in range(length):
            cases += [plain[:i] + bytes([b]) + plain[i + 1 :] for b in (0x80, 0xFF, 0xC3)]
            cases.append(plain[:i] + "é".encode() + plain[i + 2 :])
        for body in cases:
            for tag in (0x0A, 0x12):  # singular, Optional
                data = bytes([tag, len(body)]) + body
                assert _outcome(nat, data) == _outcome(py, data), data.hex()
