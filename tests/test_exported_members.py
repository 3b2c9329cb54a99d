"""The public surface is exactly what ``protoattr.__all__`` lists, sorted (as httpx pins it)."""

from __future__ import annotations

import protoattr as pa

EXPECTED = {
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
    "from_dict",
    "from_json",
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
}


def test_all_is_the_public_surface() -> None:
    assert set(pa.__all__) == EXPECTED
    assert pa.__all__ == sorted(pa.__all__)


def test_every_exported_name_exists() -> None:
    for name in pa.__all__:
        assert hasattr(pa, name), name


def test_no_public_name_escapes_all() -> None:
    public = {n for n in vars(pa) if not n.startswith("_")}
    assert public <= set(pa.__all__), public - set(pa.__all__)


def test_module_shortcuts_use_the_default_model() -> None:
    for name in (
        "serialize", "deserialize", "merge", "deep_clone", "measure", "add_subtype",
        "to_json", "from_json", "to_dict", "from_dict",
    ):  # fmt: skip
        assert getattr(pa, name).__self__ is pa.default_model, name
