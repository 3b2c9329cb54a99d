"""The exception hierarchy.

Every error protoattr raises on purpose derives from :class:`ProtoError`, and
each one also derives from the built-in a Python user would reach for first
(``TypeError`` for bad declarations, ``ValueError`` for bad values and bytes),
so ``except ValueError`` keeps working in code that does not know protoattr.
"""

from __future__ import annotations

__all__ = ["ContractError", "DecodeError", "EncodeError", "ProtoError"]


class ProtoError(Exception):
    """Base class of every protoattr error."""


class ContractError(ProtoError, TypeError):
    """A class or field declaration protoattr cannot map to protobuf.

    Raised when the class is decorated (or, for forward references, when its
    codec is first compiled); the message names the class and the field.
    """


class EncodeError(ProtoError, ValueError):
    """A value that does not fit its field; nothing has been written."""


class DecodeError(ProtoError, ValueError):
    """Malformed protobuf input.

    ``offset`` is the byte offset in the input where decoding failed, or
    ``None`` where no single offset applies.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        if offset is not None:
            message = f"{message} (at byte offset {offset})"
        super().__init__(message)
        self.offset = offset
