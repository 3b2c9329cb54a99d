"""A bounded leak check of the native backend (the long run is tests/leak/cycles.py)."""

from __future__ import annotations

import pytest

import protoattr._native as native
from tests.leak.cycles import run


@pytest.mark.skipif(not native.available(), reason="C engine not built")
def test_native_cycles_leave_live_allocations_flat() -> None:
    # the first 1,000 cycles after the warm-up still fill caches (about 150 blocks, once:
    # exception and time-zone objects the error paths make); a leak is the growth after them
    points = run(4000, checkpoints=4)
    growth = points[-1][1] - points[1][1]
    assert growth < 200, f"live allocations grew by {growth} blocks over 2000 cycles: {points}"
