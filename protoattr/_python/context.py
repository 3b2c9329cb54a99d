"""What the code generator needs from the model, in a module of its own.

Every model builds a :class:`CodecContext` when it is made (the default model at
``import protoattr``), while the generator itself (:mod:`protoattr._python.codegen`)
is imported only when a Python codec is first generated: on the native backend,
when the engine hands something over, so not by a binary round trip.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._core.contract import ContractInfo, FieldInfo

__all__ = ["CodecContext"]


@dataclasses.dataclass
class CodecContext:
    """What the generator needs from the model: nested codecs, hierarchies, limits."""

    codec_for: Callable[[type], Any]  # the (possibly not yet compiled) codec of a contract
    max_depth: int
    info_for: Callable[[type], ContractInfo]
    own_fields: Callable[[type], list[FieldInfo]]  # fields of this level of a hierarchy
    parent_of: Callable[[type], tuple[type, int] | None]  # (base, subtype tag)
    chain_of: Callable[[type], list[type]]  # the class, its base, ..., the hierarchy's root
    children_of: Callable[[type], list[tuple[int, type]]]  # [(subtype tag, subclass)]
    #: write map entries sorted by key (upb's ``SerializeToString(deterministic=True)``)
    deterministic: bool = False
    max_messages: int | None = None  # messages one decode may build (None: no bound)
