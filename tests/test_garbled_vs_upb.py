"""Damaged bytes over random contracts: protoattr accepts and refuses what upb does.

For random schemas (tests/test_random_contracts.py) and their compiled ``.proto``
twins, valid encodings are garbled (tests/garble.py) and read by both protoattr
and Google's upb runtime.  The active backend reads them (the suite runs once
per backend), so this is the native engine against upb in one pass and the
generated Python against upb in the other:

* where upb refuses, protoattr raises ``DecodeError``, and nothing else;
* where upb accepts, protoattr accepts too, except where it refuses by design
  (the same list the differential fuzz targets use, ``fuzz.targets._tolerated``);
* where both accept, upb reads protoattr's re-encoding as the message upb read
  (skipped for schemas with Timestamp/Duration, which protoattr holds as
  ``datetime``/``timedelta`` at microsecond precision, and with slotted classes
  without ``__weakref__``, which have nowhere to keep unknown fields: see
  docs/unknown-fields.md).
"""

from __future__ import annotations

import random

from google.protobuf.message import DecodeError as GoogleDecodeError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
from fuzz.targets import _tolerated
from tests.contracts3 import canonical, parse
from tests.garble import garble
from tests.test_random_contracts import build_classes, compile_twin, schemas, values_for

SETTINGS = settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TIME_KINDS = {"timestamp", "duration"}


def _upb(message_cls: type, data: bytes) -> object | None:
    try:
        return parse(message_cls, data)
    except (GoogleDecodeError, RecursionError):
        return None


@given(st.data())
@SETTINGS
def test_garbled_bytes_are_accepted_and_refused_as_upb_does(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    twin = compile_twin(schema)
    model = pa.TypeModel()
    lossy = any(f.kind in TIME_KINDS for spec in schema for f in spec.fields) or any(
        spec.flavour == "slots" for spec in schema
    )
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for spec in schema:
        cls, message_cls = classes[spec.index], getattr(twin, f"M{spec.index}")
        obj = data.draw(values_for(schema, spec.index, classes), label=cls.__name__)
        encoded = model.serialize(obj)
        for _ in range(16):
            bad = garble(encoded, rnd)
            theirs = _upb(message_cls, bad)
            try:
                ours = model.deserialize(cls, bad)
            except pa.DecodeError as exc:
                assert theirs is None or _tolerated(exc, proto2=False), (
                    f"upb accepts {bad.hex(' ')} as {cls.__name__}, protoattr refuses: {exc}"
                )
                continue
            assert theirs is not None, f"protoattr accepts {bad.hex(' ')}, upb refuses"
            if not lossy:
                again = parse(message_cls, model.serialize(ours))
                assert canonical(again) == canonical(theirs), bad.hex(" ")  # type: ignore[arg-type]
