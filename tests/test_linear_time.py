"""Decoding time grows linearly with the input, on both backends, for the inputs of
issue 22 item 12 (each used to be quadratic or far slower than upb somewhere)."""

from __future__ import annotations

import time

import protoattr as pa
from fuzz import alltypes


def _seconds(model: pa.TypeModel, data: bytes) -> float:
    began = time.perf_counter()
    model.deserialize(alltypes.TestAllTypesProto3, data)
    return time.perf_counter() - began


def test_a_repeated_unknown_field_costs_linear_time() -> None:
    model = pa.TypeModel()  # the backend of this run
    unit = bytes.fromhex("f20100")  # field 30, unknown to TestAllTypesProto3, empty
    model.deserialize(alltypes.TestAllTypesProto3, unit)
    small = min(_seconds(model, unit * 30_000) for _ in range(2))
    large = min(_seconds(model, unit * 120_000) for _ in range(2))
    assert large < 0.05 + 6 * small  # 4x the input (bytes += made it 16x)
    kept = model.deserialize(alltypes.TestAllTypesProto3, unit * 1000)
    assert pa.serialize(kept) == unit * 1000  # and every byte is kept
