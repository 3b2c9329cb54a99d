"""Canonical JSON over randomly generated contract classes, against ``json_format``.

The schemas, classes, twins and values are :mod:`tests.test_random_contracts`'s
(random kinds, labels, oneofs, maps, nesting, class flavours); each value goes
through every check of :func:`tests.test_json.check_json`.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.test_json import check_json
from tests.test_random_contracts import SETTINGS, build_classes, compile_twin, schemas, values_for


@given(st.data())
@SETTINGS
def test_random_contracts_json_matches_json_format(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    twin = compile_twin(schema)
    for spec in schema:
        cls = classes[spec.index]
        message_cls = getattr(twin, f"M{spec.index}")
        obj = data.draw(values_for(schema, spec.index, classes), label=cls.__name__)
        check_json(obj, message_cls, ordered=False)
