"""protoattr: the Protocol Buffers wire format for the classes you already have.

Decorate a dataclass or attrs class with :func:`proto_contract`, give its
fields tags with :func:`field` (or ``Annotated[..., member(n)]``), and
:func:`serialize`/:func:`deserialize` speak protobuf, byte-compatible with
every other runtime.  See https://github.com/ (docs/) for the guide.
"""

from __future__ import annotations

from ._contract import proto_contract
from ._errors import ContractError, DecodeError, EncodeError, ProtoError
from ._fields import field, member
from ._model import TypeModel, default_model
from ._types import (
    fixed32,
    fixed64,
    float32,
    int32,
    int64,
    sfixed32,
    sfixed64,
    sint32,
    sint64,
    uint32,
    uint64,
)

__version__ = "0.1.0"

serialize = default_model.serialize
deserialize = default_model.deserialize
serialize_to = default_model.serialize_to
deserialize_from = default_model.deserialize_from
merge = default_model.merge
deep_clone = default_model.deep_clone
measure = default_model.measure

__all__ = [
    "ContractError",
    "DecodeError",
    "EncodeError",
    "ProtoError",
    "TypeModel",
    "__version__",
    "deep_clone",
    "default_model",
    "deserialize",
    "deserialize_from",
    "field",
    "fixed32",
    "fixed64",
    "float32",
    "int32",
    "int64",
    "measure",
    "member",
    "merge",
    "proto_contract",
    "serialize",
    "serialize_to",
    "sfixed32",
    "sfixed64",
    "sint32",
    "sint64",
    "uint32",
    "uint64",
]
