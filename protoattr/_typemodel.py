"""The public type model: the codec model with the features' methods on top.

:class:`~protoattr._model.codecs.CodecModel` owns the codecs and the binary
operations; the features (canonical JSON, ``.proto`` schemas and descriptor
sets, ahead-of-time modules) are modules above it that take a model.  This
module is where the two meet, so that ``model.to_json(...)`` and
``model.schema(...)`` are methods without the model layer importing upward.
The features are imported when first used, so that ``import protoattr`` stays
light.  ``default_model`` is created here and registered as the default, which is what
the contract layer adds every decorated class to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, overload

from ._core import registry
from ._model.codecs import CodecModel

if TYPE_CHECKING:  # pathlib (with urllib and ipaddress) costs import time: ~4 ms
    import os
    from collections.abc import Sequence
    from pathlib import Path

__all__ = ["TypeModel", "default_model"]

T = TypeVar("T")


class TypeModel(CodecModel):
    """Contracts, their generated codecs, and the operations over them.

    ``max_depth`` bounds message nesting on decode (Google's runtimes use 100).
    ``max_messages`` bounds how many messages one decode may build (``None``: no
    bound), so that a small hostile input cannot make a server build millions of
    empty messages (see "Hostile input" in docs/errors.md).
    ``compatibility_level`` is protobuf-net's (200, 240, 300; ``None`` is 300) for the
    contracts that do not name their own: at 200 plain ``datetime``, ``timedelta``,
    ``Decimal`` and ``UUID`` fields take protobuf-net's bcl.proto forms (see ``pa.bcl``).
    ``include_date_time_kind=True`` (protobuf-net's ``IncludeDateTimeKind``) makes every
    bcl.DateTime field write its kind, unless its contract says otherwise.
    ``backend`` is ``"native"`` (the C engine), ``"python"`` (the generated codecs) or
    ``None``: ``PROTOATTR_BACKEND``, else native when the extension is built.
    Both backends count the messages a decode builds, at the same points, and stop
    with the same ``DecodeError``: a bounded model keeps the C engine's speed.
    """

    def schema(self, cls: Any, *, syntax: str = "proto3", package: str | None = None) -> str:
        """``.proto`` text declaring ``cls`` (a contract or a list of them) and all it reaches.

        ``syntax`` is ``"proto2"``, ``"proto3"`` or ``"editions"`` (edition 2023); a
        contract the syntax cannot express is a :class:`ContractError` naming the
        field and a syntax that would work.
        """
        from ._schema import proto as _proto

        return _proto.schema(self, cls, syntax=syntax, package=package)

    def descriptor_set(
        self,
        cls: Any,
        *,
        syntax: str = "proto3",
        package: str | None = None,
        name: str | None = None,
        include_imports: bool = True,
    ) -> bytes:
        """A serialized ``FileDescriptorSet`` of what ``schema(cls, ...)`` declares.

        The same bytes ``protoc --descriptor_set_out`` writes for that schema
        (``include_imports`` adds the Timestamp/Duration files a contract uses),
        without protoc: load it with ``google.protobuf.descriptor_pool``, serve
        it by gRPC reflection.  ``cls`` may include services; ``name`` is the
        file's name (by default from the package and the first service or
        contract, ``shop/v1/catalog.proto``).  ``syntax`` as for :meth:`schema`.
        """
        from ._schema import export as _export

        return _export.descriptor_set(
            self, cls, syntax=syntax, package=package, name=name, include_imports=include_imports
        )

    def write_module(self, path: str | Path) -> Path:
        """Write this model's codecs as an importable Python module (ahead of time).

        Compiles every added contract first.  Importing the written module
        installs the codecs (into the default model, if this is it; otherwise
        call its ``install(model)``) with no reflection or code generation, and
        refuses to if a contract's declaration changed since.
        """
        from . import _aot

        return _aot.write_module(self, path)

    # -- canonical JSON (protoattr._json) -------------------------------------

    def to_json(
        self,
        obj: Any,
        *,
        type: Any = None,
        preserving_proto_field_name: bool = False,
        use_integers_for_enums: bool = False,
        always_print_fields_with_no_presence: bool = False,
        indent: int | None = 2,
        sort_keys: bool = False,
        ensure_ascii: bool = True,
    ) -> str:
        """``obj`` as canonical proto3 JSON text: what ``json_format.MessageToJson`` writes.

        A list of contracts is a JSON array (``type=list[T]`` checks its items); a
        plain ``dict`` needs ``type=pa.Struct`` (see :meth:`to_dict`)."""
        _json = _JSON_API or _json_api()
        text: str = _json.to_json(
            self,
            obj,
            type=type,
            preserving_proto_field_name=preserving_proto_field_name,
            use_integers_for_enums=use_integers_for_enums,
            always_print_fields_with_no_presence=always_print_fields_with_no_presence,
            indent=indent,
            sort_keys=sort_keys,
            ensure_ascii=ensure_ascii,
        )
        return text

    def to_dict(
        self,
        obj: Any,
        *,
        type: Any = None,
        preserving_proto_field_name: bool = False,
        use_integers_for_enums: bool = False,
        always_print_fields_with_no_presence: bool = False,
    ) -> Any:
        """``obj`` as a canonical JSON value (a dict): what ``json_format.MessageToDict`` makes.

        ``type=list[T]`` for a top-level list (a JSON array); ``type=pa.Struct``,
        ``pa.ListValue`` or ``pa.JsonValue`` to print a plain ``dict``, ``list`` or
        scalar in those types' form (numbers as doubles), which is otherwise refused."""
        _json = _JSON_API or _json_api()
        return _json.to_dict(
            self,
            obj,
            type=type,
            preserving_proto_field_name=preserving_proto_field_name,
            use_integers_for_enums=use_integers_for_enums,
            always_print_fields_with_no_presence=always_print_fields_with_no_presence,
        )

    @overload
    def from_json(
        self, cls: type[T], text: str | bytes, *, ignore_unknown_fields: bool = False
    ) -> T: ...
    @overload
    def from_json(
        self, cls: Any, text: str | bytes, *, ignore_unknown_fields: bool = False
    ) -> Any: ...
    def from_json(self, cls: Any, text: str | bytes, *, ignore_unknown_fields: bool = False) -> Any:
        """Read canonical JSON text as ``cls``; bad input is a ``DecodeError`` naming the path."""
        _json = _JSON_API or _json_api()
        return _json.from_json(self, cls, text, ignore_unknown_fields=ignore_unknown_fields)

    @overload
    def from_dict(self, cls: type[T], data: Any, *, ignore_unknown_fields: bool = False) -> T: ...
    @overload
    def from_dict(self, cls: Any, data: Any, *, ignore_unknown_fields: bool = False) -> Any: ...
    def from_dict(self, cls: Any, data: Any, *, ignore_unknown_fields: bool = False) -> Any:
        """Read a canonical JSON value (what ``json.loads`` returns) as ``cls``."""
        _json = _JSON_API or _json_api()
        return _json.from_dict(self, cls, data, ignore_unknown_fields=ignore_unknown_fields)

    # -- text format (protoattr._text) ----------------------------------------

    def to_text(
        self,
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
        """``obj`` in protobuf's text format: what ``text_format.MessageToString`` prints."""
        flags = (
            as_utf8,
            as_one_line,
            use_short_repeated_primitives,
            pointy_brackets,
            use_index_order,
            use_field_number,
            print_unknown_fields,
            force_colon,
        )
        text: str = _text_api().to_text(self, obj, flags, indent)
        return text

    @overload
    def from_text(
        self,
        cls: type[T],
        text: str | bytes,
        *,
        allow_unknown_extension: bool = ...,
        allow_field_number: bool = ...,
        allow_unknown_field: bool = ...,
        max_recursion_depth: int | None = ...,
    ) -> T: ...
    @overload
    def from_text(
        self,
        cls: Any,
        text: str | bytes,
        *,
        allow_unknown_extension: bool = ...,
        allow_field_number: bool = ...,
        allow_unknown_field: bool = ...,
        max_recursion_depth: int | None = ...,
    ) -> Any: ...
    def from_text(
        self,
        cls: Any,
        text: str | bytes,
        *,
        allow_unknown_extension: bool = False,
        allow_field_number: bool = False,
        allow_unknown_field: bool = False,
        max_recursion_depth: int | None = None,
    ) -> Any:
        """Read protobuf's text format (what ``text_format.Parse`` reads) as ``cls``."""
        from ._text import api as _text

        return _text.from_text(
            self,
            cls,
            text,
            allow_unknown_extension=allow_unknown_extension,
            allow_field_number=allow_field_number,
            allow_unknown_field=allow_unknown_field,
            max_recursion_depth=max_recursion_depth,
        )

    def schema_files(
        self, cls: Any, *, syntax: str = "proto3", package: str | None = None
    ) -> dict[str, str]:
        """One ``.proto`` file per package, ``{"acme/orders/v1.proto": text, ...}``, for
        contracts of several packages (:meth:`schema` writes one file for one package)."""
        from ._schema import proto as _proto

        return _proto.schema_files(self, cls, syntax=syntax, package=package)

    def load_schema(
        self, source: bytes | str | os.PathLike[str], include: Sequence[str | os.PathLike[str]] = ()
    ) -> dict[str, Any]:
        """The contracts a schema declares, made in memory, by protobuf full name.

        ``source`` is a serialized ``FileDescriptorSet`` or a ``.proto`` path (parsed
        with grpcio-tools' protoc, ``include`` its import path).  The classes are the
        ones ``protoattr gen`` would write (services and extensions included), added to
        this model; ``model.find(full_name)`` finds them too.
        """
        from ._schema import runtime as _runtime

        return _runtime.load_schema(self, source, include)


_TEXT_API: Any = None


def _text_api() -> Any:
    """``protoattr._text.api``, imported on first use (and then without an import statement
    per call: printing small messages is a few microseconds)."""
    global _TEXT_API
    if _TEXT_API is None:
        from ._text import api

        _TEXT_API = api
    return _TEXT_API


_JSON_API: Any = None


def _json_api() -> Any:
    """``protoattr._json.api``, imported on first use (and then without an import statement
    per call, which cost more than the engine's writing of a small message)."""
    global _JSON_API
    if _JSON_API is None:
        from ._json import api

        _JSON_API = api
    return _JSON_API


default_model = TypeModel()
registry.set_default(default_model)
