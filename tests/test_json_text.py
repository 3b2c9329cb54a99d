"""The indented JSON writer produces exactly ``json.dumps``'s text."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protoattr._json.text import dumps

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=6),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(derandomize=True, max_examples=500)
@given(
    _VALUES,
    st.sampled_from([0, 1, 2, 4, -1, "\t", "--"]),
    st.booleans(),
    st.booleans(),
)
def test_same_text_as_json_dumps(value: Any, indent: Any, sort_keys: bool, ascii: bool) -> None:
    expected = json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ascii)
    assert dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ascii) == expected


@pytest.mark.parametrize(
    "value",
    [{1: "int key"}, {"t": (1, 2)}, [(1,)], {"a": {"b": [1, {2: 3}]}}, {"x": 1.5, "y": [None]}],
)
def test_unusual_values_fall_back_to_json_dumps(value: Any) -> None:
    assert dumps(value, indent=2, sort_keys=False, ensure_ascii=True) == json.dumps(value, indent=2)


def test_unserialisable_values_raise_as_json_dumps_does() -> None:
    with pytest.raises(TypeError):
        dumps({"a": [Decimal(1)]}, indent=2, sort_keys=False, ensure_ascii=True)
