"""The JSON codec hands values with a registered special form to that form.

This is the interface the well-known types plug into
(:mod:`protoattr._json.forms`): a test-only contract gets a form, and the
codec must call it in singular fields, repeated fields, map values and at
the top level, in both directions, with a context that can recurse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import protoattr as pa
from protoattr import field, proto_contract
from protoattr._json import forms as _jsonforms
from tests.contracts import Inner


@proto_contract
@dataclass
class Money:
    units: pa.int64 = field(1, default=0)
    currency: str = field(2, default="")


@proto_contract
@dataclass
class Envelope:
    """Holds a contract instance as its JSON form, through ``ctx``."""

    payload: Inner | None = field(1, default=None)


@proto_contract
@dataclass
class Order:
    total: Money | None = field(1, default=None)
    lines: list[Money] = field(2, default_factory=list)
    by_sku: dict[str, Money] = field(3, default_factory=dict)
    wrapped: Envelope | None = field(4, default=None)


CALLS: list[tuple[str, Any]] = []


def money_to_json(value: Money, ctx: _jsonforms.JsonContext) -> Any:
    CALLS.append(("to", value))
    assert ctx.model is pa.default_model
    return f"{value.units} {value.currency}"


def money_from_json(value: Any, path: str, ctx: _jsonforms.JsonContext) -> Money:
    CALLS.append(("from", path))
    if not isinstance(value, str) or " " not in value:
        raise pa.DecodeError(f'{path}: expected "<units> <currency>", got {value!r}')
    units, currency = value.split(" ", 1)
    return Money(int(units), currency)


def envelope_to_json(value: Envelope, ctx: _jsonforms.JsonContext) -> Any:
    return {"inner": ctx.message_to_json(value.payload)} if value.payload else {}


def envelope_from_json(value: Any, path: str, ctx: _jsonforms.JsonContext) -> Envelope:
    if "inner" not in value:
        return Envelope()
    return Envelope(ctx.message_from_json(Inner, value["inner"], f"{path}.inner"))


_jsonforms.register(Money, money_to_json, money_from_json)
_jsonforms.register(Envelope, envelope_to_json, envelope_from_json)


@pytest.fixture(autouse=True)
def _clear_calls() -> None:
    CALLS.clear()


ORDER = Order(
    total=Money(12, "EUR"),
    lines=[Money(5, "EUR"), Money(7, "EUR")],
    by_sku={"a-1": Money(1, "USD")},
    wrapped=Envelope(Inner(3, "x")),
)
ORDER_JSON = {
    "total": "12 EUR",
    "lines": ["5 EUR", "7 EUR"],
    "bySku": {"a-1": "1 USD"},
    "wrapped": {"inner": {"a": 3, "s": "x"}},
}


def test_forms_are_used_in_fields_lists_and_maps() -> None:
    assert pa.to_dict(ORDER) == ORDER_JSON
    assert [kind for kind, _ in CALLS] == ["to"] * 4
    CALLS.clear()
    assert pa.from_dict(Order, ORDER_JSON) == ORDER
    assert CALLS == [
        ("from", "Order.total"),
        ("from", "Order.lines[0]"),
        ("from", "Order.lines[1]"),
        ("from", 'Order.bySku["a-1"]'),
    ]


def test_forms_at_the_top_level() -> None:
    assert pa.to_json(Money(3, "GBP")) == '"3 GBP"'
    assert pa.from_json(Money, '"3 GBP"') == Money(3, "GBP")
    assert [("to", Money(3, "GBP")), ("from", "Money")] == CALLS


def test_a_forms_errors_name_the_path() -> None:
    with pytest.raises(pa.DecodeError, match=r"^Order\.lines\[1\]: expected"):
        pa.from_dict(Order, {"lines": ["1 EUR", 5]})
    with pytest.raises(pa.DecodeError, match=r"^Order\.wrapped\.inner\.a: "):
        pa.from_dict(Order, {"wrapped": {"inner": {"a": "x"}}})


def test_null_is_the_default_and_forms_see_null_in_lists() -> None:
    assert pa.from_dict(Order, {"total": None}) == Order()
    assert CALLS == []  # a null singular field is the field's default
    with pytest.raises(pa.DecodeError, match=r"^Order\.lines\[0\]: expected"):
        pa.from_dict(Order, {"lines": [None]})  # in a list, the form decides
    assert CALLS == [("from", "Order.lines[0]")]


def test_duplicate_keys_inside_a_forms_value_are_rejected() -> None:
    with pytest.raises(pa.DecodeError, match=r"^Order\.wrapped: the key 'inner' is given twice"):
        pa.from_json(Order, '{"wrapped": {"inner": {}, "inner": {}}}')
