"""A bounded leak check of the native backend (the long run is tests/leak/cycles.py)."""

from __future__ import annotations

import pytest

import protoattr._native as native
from tests.leak.cycles import run


@pytest.mark.skipif(not native.available(), reason="C engine not built")
def test_native_cycles_leave_live_allocations_flat() -> None:
    points = run(3000, checkpoints=3)
    growth = points[-1][1] - points[0][1]
    assert growth < 200, f"live allocations grew by {growth} blocks over 2000 cycles: {points}"
