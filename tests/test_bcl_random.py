"""Round trips of the bcl forms over the full .NET ranges, the two backends side by side
(the C engine's bcl.c against the Python reference in protoattr._core.bcl)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import DecodeError, field, proto_contract
from protoattr._core.wire import encode_varint
from protoattr._native import available

UTC = timezone.utc
MODELS = [pa.TypeModel(backend="python")] + (
    [pa.TypeModel(backend="native")] if available() else []
)
FEW = settings(max_examples=60, deadline=None)
TICKS_MAX = (1 << 63) - 1


@proto_contract
@dataclass
class All:
    when: list[pa.bcl.DateTimeWithKind] = field(1)
    wait: list[pa.bcl.TimeSpan] = field(2)
    total: list[pa.bcl.Decimal] = field(3)
    ref: list[pa.bcl.Guid] = field(4)


@proto_contract
@dataclass
class Raw:
    when: pa.bcl.DateTime = field(1)


whens = st.datetimes(datetime.min, datetime.max, timezones=st.sampled_from([None, UTC]))
SPAN = timedelta(microseconds=TICKS_MAX // 10)  # TimeSpan.MaxValue, in whole microseconds
waits = st.one_of(
    st.timedeltas(-SPAN, SPAN),
    st.sampled_from([timedelta.min, timedelta.max, timedelta(0)]),
)
totals = st.builds(
    lambda c, s, neg: Decimal(f"{'-' if neg else ''}{c}E-{s}"),
    st.integers(0, (1 << 96) - 1) | st.sampled_from([0, 1, (1 << 96) - 1]),
    st.integers(0, 28),
    st.booleans(),
)
refs = st.uuids() | st.just(UUID(int=0))


@FEW
@given(st.lists(whens, max_size=3), st.lists(waits, max_size=3), st.lists(totals, max_size=3),
       st.lists(refs, max_size=3))  # fmt: skip
def test_round_trips_agree_on_both_backends(
    when: list[datetime], wait: list[timedelta], total: list[Decimal], ref: list[UUID]
) -> None:
    obj = All(when, wait, total, ref)
    outs = {m.serialize(obj) for m in MODELS}
    assert len(outs) == 1
    data = outs.pop()
    for m in MODELS:
        back = m.deserialize(All, data)
        assert back == obj
        assert [x.tzinfo for x in back.when] == [x.tzinfo for x in when]
        assert [x.as_tuple() for x in back.total] == [x.as_tuple() for x in total]
        assert m.measure(obj) == len(data)


def _scaled(value: int, scale: int, kind: int) -> bytes:
    body = b""
    if value:
        z = (value << 1) ^ (value >> 63)
        body += b"\x08" + encode_varint(z)
    body += bytes([0x10, scale, 0x18, kind])
    return bytes([0x0A, len(body)]) + body


@FEW
@given(st.integers(-(1 << 63), TICKS_MAX), st.sampled_from([0, 1, 2, 3, 4, 5, 6, 15]),
       st.integers(0, 3))  # fmt: skip
def test_any_scaled_body_decodes_alike(value: int, scale: int, kind: int) -> None:
    data = _scaled(value, scale, kind)
    results = []
    for m in MODELS:
        try:
            results.append(m.deserialize(Raw, data))
        except DecodeError:
            results.append(None)
    assert len(set(map(repr, results))) == 1, results


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m.backend)
def test_every_scale_at_the_edges(m: pa.TypeModel) -> None:
    for when in [datetime(1, 1, 1, 0, 0, 0, 1), datetime(9999, 12, 31, 23, 59, 59, 999998),
                 datetime(1969, 12, 31, 23, 59, 59, 999999), datetime(1970, 1, 1)]:  # fmt: skip
        assert m.deserialize(Raw, m.serialize(Raw(when))).when == when


@FEW
@given(st.lists(whens, max_size=2), st.lists(waits, max_size=2), st.lists(totals, max_size=2),
       st.lists(refs, max_size=2))  # fmt: skip
def test_json_round_trips(
    when: list[datetime], wait: list[timedelta], total: list[Decimal], ref: list[UUID]
) -> None:
    obj = All(when, wait, total, ref)
    back = pa.from_json(All, pa.to_json(obj))
    assert back == obj
    assert [x.as_tuple() for x in back.total] == [x.as_tuple() for x in total]
    assert [x.tzinfo for x in back.when] == [x.tzinfo for x in when]
