"""protoattr: the Protocol Buffers wire format for the classes you already have.

Decorate a dataclass or attrs class with :func:`proto_contract`, give its
fields tags with :func:`field` (or ``Annotated[..., member(n)]``), and
:func:`serialize`/:func:`deserialize` speak protobuf, byte-compatible with
every other runtime.  The user guide is the ``docs/`` folder of the source
distribution (``README.md`` there is the quick start); ``help()`` on any name
exported here shows its reference.
"""

import importlib as _importlib
import typing as _typing

from ._core.contract import closed_enum, proto_contract
from ._core.errors import ContractError, DecodeError, EncodeError, ProtoError
from ._core.fields import Ignored, field, member
from ._core.oneof import which_oneof
from ._core.types import (
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
from ._typemodel import TypeModel, default_model
from ._version import __version__

if _typing.TYPE_CHECKING:
    from . import bcl, wrappers
    from ._core.convert import UUIDBytes
    from ._core.wkt import (
        Any,
        Duration,
        Empty,
        FieldMask,
        JsonValue,
        ListValue,
        NullValue,
        Struct,
        Timestamp,
    )
    from ._model.extensions import Extension, extension
    from ._service import CallContext, dotnet_service_name, rpc, service
    from ._stream import (
        PrefixStyle,
        deserialize_items,
        deserialize_items_async,
        deserialize_with_length_prefix,
        serialize_items,
        serialize_items_async,
        serialize_with_length_prefix,
    )

#: the well-known types load on first use: declaring their contracts costs import time
_WELL_KNOWN = frozenset(
    {"Any", "Duration", "Empty", "FieldMask", "JsonValue", "ListValue", "NullValue", "Struct",
     "Timestamp"}
)  # fmt: skip


_SERVICES = frozenset({"CallContext", "dotnet_service_name", "rpc", "service"})

#: names of modules a binary round trip does not need, imported on first use (issue 20)
_LAZY = {
    "Extension": "protoattr._model.extensions",
    "extension": "protoattr._model.extensions",
    **dict.fromkeys(
        ("PrefixStyle", "deserialize_items", "deserialize_items_async",
         "deserialize_with_length_prefix", "serialize_items", "serialize_items_async",
         "serialize_with_length_prefix"),
        "protoattr._stream",
    ),
}  # fmt: skip


def __getattr__(name: str) -> _typing.Any:
    # import_module, not "from . import": that would ask this very __getattr__ again
    if name in _WELL_KNOWN:
        value = getattr(_importlib.import_module("protoattr._core.wkt"), name)
        globals()[name] = value
        return value
    if name in _LAZY:  # length-prefixed streams and extensions: ~2.5 ms of import time
        value = getattr(_importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in _SERVICES:  # declaring services is not needed by a binary round trip
        value = getattr(_importlib.import_module("protoattr._service"), name)
        globals()[name] = value
        return value
    if name == "UUIDBytes":  # it needs the uuid module, which imports platform: ~3 ms
        value = _importlib.import_module("protoattr._core.convert").UUIDBytes
        globals()[name] = value
        return value
    if name == "wrappers":
        return _importlib.import_module("protoattr.wrappers")
    if name == "bcl":
        return _importlib.import_module("protoattr.bcl")
    if name == "grpc":
        # ``pa.grpc`` without ``import protoattr.grpc``: imported on first use, so that
        # ``import protoattr`` never needs grpcio.
        return _importlib.import_module("protoattr.grpc")
    raise AttributeError(f"module 'protoattr' has no attribute {name!r}")


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
to_text = default_model.to_text
from_text = default_model.from_text
load_schema = default_model.load_schema

__all__ = [
    "Any",
    "CallContext",
    "ContractError",
    "DecodeError",
    "Duration",
    "Empty",
    "EncodeError",
    "Extension",
    "FieldMask",
    "Ignored",
    "JsonValue",
    "ListValue",
    "NullValue",
    "PrefixStyle",
    "ProtoError",
    "Struct",
    "Timestamp",
    "TypeModel",
    "UUIDBytes",
    "__version__",
    "add_subtype",
    "add_surrogate",
    "bcl",
    "closed_enum",
    "deep_clone",
    "default_model",
    "deserialize",
    "deserialize_from",
    "deserialize_items",
    "deserialize_items_async",
    "deserialize_with_length_prefix",
    "dotnet_service_name",
    "extension",
    "field",
    "fixed32",
    "fixed64",
    "float32",
    "from_dict",
    "from_json",
    "from_text",
    "int32",
    "int64",
    "load_schema",
    "measure",
    "member",
    "merge",
    "proto_contract",
    "rpc",
    "serialize",
    "serialize_items",
    "serialize_items_async",
    "serialize_to",
    "serialize_with_length_prefix",
    "service",
    "sfixed32",
    "sfixed64",
    "sint32",
    "sint64",
    "to_dict",
    "to_json",
    "to_text",
    "uint32",
    "uint64",
    "which_oneof",
    "wrappers",
]
