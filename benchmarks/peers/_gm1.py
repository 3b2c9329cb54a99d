"""GoogleMessage1 codecs for the generated-class peers (Google upb, protobuf-py).

The workload's dataclasses (``benchmarks/google_message1.py``) carry the schema's
own field names, so the strong idiom for a user of generated classes is to
pass the dataclass's ``__dict__`` as the constructor's keywords (a ``None`` is
"not set" to both runtimes), after converting the sub-message, and on the way
back to build the dataclass from the fields the message has set (absent ones
take the dataclass's default: ``None`` in the proto2 form, the zero in proto3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any


def to_message(msg_cls: Any, sub_cls: Any) -> Callable[[Any], Any]:
    """``obj -> generated message`` with the same fields set."""

    def convert(obj: Any) -> Any:
        d = dict(obj.__dict__)
        sub = d["field15"]
        if sub is not None:
            d["field15"] = sub_cls(**sub.__dict__)
        return msg_cls(**d)

    return convert


def from_upb(cls: Any, sub_cls: Any) -> Callable[[Any], Any]:
    """``upb message -> obj``: ``ListFields()`` lists exactly the fields that are set."""

    def convert(m: Any) -> Any:
        d = {f.name: v for f, v in m.ListFields()}
        if "field5" in d:
            d["field5"] = list(d["field5"])
        sub = d.get("field15")
        if sub is not None:
            d["field15"] = sub_cls(**{f.name: v for f, v in sub.ListFields()})
        return cls(**d)

    return convert


def from_protobuf_py(cls: Any, sub_cls: Any, *, presence: bool) -> Callable[[Any], Any]:
    """``protobuf-py message -> obj``; with ``presence`` (proto2) ``has_field`` per field."""
    names = [f.name for f in fields(cls)]
    sub_names = [f.name for f in fields(sub_cls)]

    def present(m: Any, names: list[str]) -> dict[str, Any]:
        if presence:
            return {n: getattr(m, n) for n in names if m.has_field(n)}
        return {n: getattr(m, n) for n in names}

    def convert(m: Any) -> Any:
        d = present(m, names)
        d["field5"] = list(m.field5)
        if m.has_field("field15"):
            d["field15"] = sub_cls(**present(m.field15, sub_names))
        else:
            d["field15"] = None
        return cls(**d)

    return convert
