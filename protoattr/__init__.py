"""protoattr: the Protocol Buffers wire format for the classes you already have.

Decorate a dataclass or attrs class with :func:`proto_contract`, give its
fields tags with :func:`field` (or ``Annotated[..., member(n)]``), and
:func:`serialize`/:func:`deserialize` speak protobuf, byte-compatible with
every other runtime.  See https://github.com/ (docs/) for the guide.
"""


from ._contract import closed_enum, proto_contract
from ._convert import UUIDBytes
from ._errors import ContractError, DecodeError, EncodeError, ProtoError
from ._fields import field, member
from ._model import TypeModel, default_model
from ._stream import (
    PrefixStyle,
    deserialize_items,
    deserialize_with_length_prefix,
    serialize_items,
    serialize_with_length_prefix,
)
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
add_surrogate = default_model.add_surrogate
add_subtype = default_model.add_subtype
to_json = default_model.to_json
from_json = default_model.from_json
to_dict = default_model.to_dict
from_dict = default_model.from_dict

__all__ = [
    "ContractError",
    "DecodeError",
    "EncodeError",
    "PrefixStyle",
    "ProtoError",
    "TypeModel",
    "UUIDBytes",
    "__version__",
    "add_subtype",
    "add_surrogate",
    "closed_enum",
    "deep_clone",
    "default_model",
    "deserialize",
    "deserialize_from",
    "deserialize_items",
    "deserialize_with_length_prefix",
    "field",
    "fixed32",
    "fixed64",
    "float32",
    "from_dict",
    "from_json",
    "int32",
    "int64",
    "measure",
    "member",
    "merge",
    "proto_contract",
    "serialize",
    "serialize_items",
    "serialize_to",
    "serialize_with_length_prefix",
    "sfixed32",
    "sfixed64",
    "sint32",
    "sint64",
    "to_dict",
    "to_json",
    "uint32",
    "uint64",
]
