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


def to_text(
    model: CodecModel,
    obj: Any,
    *,
    as_utf8: bool = True,
    as_one_line: bool = False,
    use_short_repeated_primitives: bool = False,
    pointy_brackets: bool = False,
    use_index_order: bool = False,
    use_field_number: bool = False,
    indent: int = 0,
    print_unknown_fields: bool = False,
    force_colon: bool = False,
) -> str:
    """``obj`` in text format, as ``text_format.MessageToString`` prints it."""
    plan = plan_for(model, obj.__class__)
    data = model.serialize(obj)
    opts = Options(
        as_utf8=as_utf8,
        as_one_line=as_one_line,
        use_short_repeated_primitives=use_short_repeated_primitives,
        pointy_brackets=pointy_brackets,
        use_index_order=use_index_order,
        use_field_number=use_field_number,
        print_unknown_fields=print_unknown_fields,
        force_colon=force_colon,
    )
    return print_message(model, plan, data, opts, indent)


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
