"""A Timestamp/Duration field whose default is the zero (a module's own ``EPOCH``) is
read by the engine itself, not by a Python call per value (issue 20: the 200-contract
start-up benchmark spent most of its first use there), with the same results as the
Python codec, merges included."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

import protoattr as pa
from protoattr._core.types import Kind
from protoattr._native import plan

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
ONE_HOUR_EAST = timezone(timedelta(hours=1))


def _declare() -> type:
    @pa.proto_contract
    @dataclasses.dataclass
    class Stamped:
        at: datetime = pa.field(1, default=EPOCH)
        took: timedelta = pa.field(2, default=timedelta(0))
        local: datetime = pa.field(3, default=datetime(1970, 1, 1, 1, tzinfo=ONE_HOUR_EAST))
        naive: datetime = pa.field(4, default=datetime(1970, 1, 1))
        later: datetime = pa.field(5, default=EPOCH + timedelta(seconds=5))

    return Stamped


CASES = [
    b"",
    b"\x0a\x06\x08\x80\xa3\x05\x10\x07",  # at: seconds and nanos
    b"\x0a\x03\x10\xe8\x07",  # at: nanos only (merged into the default's seconds)
    b"\x0a\x02\x08\x05\x0a\x03\x10\xe8\x07",  # at twice: merged
    b"\x12\x02\x08\x03",  # took
    b"\x1a\x03\x10\xe8\x07\x22\x02\x08\x01\x2a\x03\x10\xe8\x07",  # local, naive, later
]


@pytest.mark.parametrize("data", CASES)
def test_the_backends_agree(data: bytes) -> None:
    cls = _declare()
    native = pa.TypeModel(backend="native") if plan.engine() is not None else None
    python = pa.TypeModel(backend="python")
    expected = python.deserialize(cls, data)
    if native is not None:
        got = native.deserialize(cls, data)
        assert got == expected
        assert native.serialize(got) == python.serialize(expected)


def test_an_epoch_default_is_read_without_the_python_helper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if plan.engine() is None:
        pytest.skip("the engine is not built")
    calls: list[int] = []
    helpers = plan._time_helpers
    encode, decode = helpers(Kind.TIMESTAMP)

    def counting(*args: object) -> object:
        calls.append(1)
        return decode(*args)

    def counted(kind: Kind) -> tuple[object, object]:
        return (encode, counting) if kind is Kind.TIMESTAMP else helpers(kind)

    monkeypatch.setattr(plan, "_time_helpers", counted)
    # value specs are shared by every model (plan._SCALAR_SPECS): this one's are made anew
    monkeypatch.setattr(plan, "_SCALAR_SPECS", {})
    cls = _declare()
    model = pa.TypeModel(backend="native")
    got = model.deserialize(cls, b"\x0a\x06\x08\x80\xa3\x05\x10\x07")
    assert got.at == EPOCH + timedelta(seconds=86400)  # type: ignore[attr-defined]
    assert calls == []
    model.deserialize(cls, b"\x2a\x03\x10\xe8\x07")  # `later`: not the zero, merged by Python
    assert calls == [1]
