"""protobuf's text format for contracts: ``to_text`` and ``from_text``.

``to_text(obj)`` is what ``text_format.MessageToString`` prints for the same
message (the message of the ``.proto`` :meth:`TypeModel.schema` exports for
``obj``'s class), with its options under the same names; ``from_text``
reads what ``text_format.Parse`` reads and refuses what it refuses, with a
:class:`DecodeError` naming the line and column (``3:7 : ...``, 1-based).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .plan import plan_for
from .printer import Options, print_message

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["from_text", "to_text"]


_OPTIONS: dict[tuple[bool, ...], Options] = {}


def to_text(model: CodecModel, obj: Any, flags: tuple[bool, ...], indent: int) -> str:
    """``obj`` in text format, as ``text_format.MessageToString`` prints it.

    ``flags`` are ``MessageToString``'s options in :class:`Options`' order (``as_utf8``,
    ``as_one_line``, ``use_short_repeated_primitives``, ``pointy_brackets``,
    ``use_index_order``, ``use_field_number``, ``print_unknown_fields``,
    ``force_colon``), passed as one tuple so that a call costs one dict look-up.
    """
    roots = model.__dict__.get("_text_plans")
    plan = roots.roots.get(obj.__class__) if roots is not None else None
    if plan is None:
        plan = plan_for(model, obj.__class__)
    opts = _OPTIONS.get(flags)
    if opts is None:
        opts = _OPTIONS.setdefault(flags, Options(*flags))
    return print_message(model, plan, model.serialize(obj), opts, indent)


def from_text(
    model: CodecModel,
    cls: Any,
    text: str | bytes,
    *,
    allow_unknown_extension: bool = False,
    allow_field_number: bool = False,
    allow_unknown_field: bool = False,
    max_recursion_depth: int | None = None,
) -> Any:
    """Read ``text`` (what ``text_format.Parse`` reads) as a ``cls``."""
    from .parser import parse_to_bytes

    plan = plan_for(model, cls)
    data = parse_to_bytes(
        model,
        plan,
        text,
        allow_unknown_extension=allow_unknown_extension,
        allow_field_number=allow_field_number,
        allow_unknown_field=allow_unknown_field,
        max_recursion_depth=max_recursion_depth,
    )
    return model.deserialize(cls, data)
