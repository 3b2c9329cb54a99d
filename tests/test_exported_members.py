"""The public surface is exactly what ``protoattr.__all__`` lists, sorted (as httpx pins it)."""

from __future__ import annotations

import protoattr as pa

EXPECTED = {
    "CallContext",
    "Any",
    "Duration",
    "Empty",
    "FieldMask",
    "Ignored",
    "JsonValue",
    "ListValue",
    "NullValue",
    "Struct",
    "Timestamp",
    "ContractError",
    "DecodeError",
    "EncodeError",
    "Extension",
    "extension",
    "PrefixStyle",
    "ProtoError",
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
    "field",
    "from_dict",
    "from_json",
    "from_text",
    "fixed32",
    "fixed64",
    "float32",
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
}


def test_all_is_the_public_surface() -> None:
    assert set(pa.__all__) == EXPECTED
    assert pa.__all__ == sorted(pa.__all__)


def test_every_exported_name_exists() -> None:
    for name in pa.__all__:
        assert hasattr(pa, name), name


#: submodules with public names of their own (``pa.grpc``, which needs grpcio)
SUBMODULES = {"grpc", "mypy"}  # mypy: the plugin, imported by mypy (and by tests running it)


def test_no_public_name_escapes_all() -> None:
    public = {n for n in vars(pa) if not n.startswith("_")} - SUBMODULES
    assert public <= set(pa.__all__), public - set(pa.__all__)


def test_the_grpc_submodule_is_imported_on_first_use() -> None:
    import protoattr.grpc

    assert pa.grpc is protoattr.grpc
    assert set(protoattr.grpc.__all__) == {
        "AsyncClient",
        "AsyncResponseStream",
        "CallContext",
        "ResponseStream",
        "ServiceError",
        "add_service",
        "aio_client",
        "client",
        "descriptor_pool",
        "enable_reflection",
    }
    assert protoattr.grpc.__all__ == sorted(protoattr.grpc.__all__)
    assert protoattr.grpc.CallContext is pa.CallContext


def test_import_protoattr_does_not_import_grpc() -> None:
    import subprocess
    import sys

    code = "import sys, protoattr; assert 'grpc' not in sys.modules, 'grpc imported'"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_module_shortcuts_use_the_default_model() -> None:
    for name in (
        "serialize", "deserialize", "merge", "deep_clone", "measure", "add_subtype",
        "to_json", "from_json", "to_dict", "from_dict", "to_text", "from_text",
    ):  # fmt: skip
        assert getattr(pa, name).__self__ is pa.default_model, name
