"""The type model: reflection once, generated codecs per class, cached.

A :class:`CodecModel` owns one :class:`Codec` per contract class.  A codec
starts *lazy*: its ``encode``/``decode`` attributes are trampolines that
generate, compile and install the real functions on first call.  Generated
code refers to other contracts through their codec objects, so recursive and
mutually recursive contracts need no special ordering, and
:meth:`CodecModel.compile` can install everything up front so that no call ever
pays for generation.
"""

from __future__ import annotations

import gc
import struct
import typing
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, TypeVar, overload

from .._core import registry
from .._core.bcl import LEVELS
from .._core.contract import _LOCK as _DECLARATIONS_LOCK
from .._core.contract import (
    ContractInfo,
    FieldInfo,
    contract_base,
    declared_subtypes,
    is_contract,
    proto_contract,
    resolve,
    with_level,
)
from .._core.convert import add_surrogate, surrogate_for
from .._core.errors import ContractError, DecodeError, EncodeError
from .._core.fields import field
from .._core.types import Kind
from .._core.wire import encode_varint, prefix_table
from .._native import choose as _choose_backend
from .._native.plan import NativeBackend
from .._python.runtime import (
    BUDGET,
    decode_message_list,
    get_unknown,
    set_unknown,
    too_deep_for_python,
    unknown_key,
)
from .._python.runtime import (
    NOT_LISTS as _NOT_LISTS,
)

if TYPE_CHECKING:
    from .._python import codegen as _codegen
    from .._python.codegen import CodecContext
    from .extensions import Extension

__all__ = ["Codec", "CodecModel", "default"]

T = TypeVar("T")
Buffer = bytes | bytearray | memoryview

_TYPE = type  # serialize() has a parameter named type
_MESSAGE = Kind.MESSAGE

_ENCODE_FAILURES = (
    TypeError, AttributeError, ValueError, OverflowError, struct.error, RecursionError
)  # fmt: skip


def _is_class(value: Any) -> bool:
    return isinstance(value, _TYPE) and typing.get_origin(value) is None


def _wrong_type(obj: Any, expected: Any) -> EncodeError:
    name = expected.__qualname__ if _is_class(expected) else repr(expected)
    return EncodeError(
        f"serialize(type={name}): the object is a {obj.__class__.__qualname__}, "
        f"which is not {name} nor a subclass of it"
    )


def _bare_list(items: Any) -> ContractError:
    kind = items.__class__.__name__
    first = next(iter(items), None)
    item = first.__class__.__qualname__ if first is not None else "T"
    return ContractError(
        f"a {kind} is not a contract: to write a top-level list (repeated field 1), "
        f"say its type: serialize(items, type=list[{item}])"
    )


if TYPE_CHECKING:
    _Generated = tuple[
        _codegen.GeneratedSource, Callable[[Any], bytes], Callable[..., Any], Callable[..., Any]
    ]


def _generate(info: ContractInfo, context: CodecContext) -> _Generated:
    """The generated Python source of ``info``'s codec and its compiled functions
    (encode, decode, and merge: see ``_codegen._Generator.merger``).

    The generator is imported here, on first use: on the native backend a binary round
    trip never needs it (plans run the codecs, the Python ones are made when asked)."""
    from .._python import codegen as _codegen
    from .._python import compiler as _compiler

    generated = _codegen.codec_source(info, context)
    stem = generated.stem
    functions = _compiler.compile_functions(
        generated.source,
        dict(generated.namespace),
        [f"encode_{stem}", f"decode_{stem}", f"merge_{stem}"],
        qualname=info.cls.__qualname__,
        module=info.cls.__module__,
    )
    made = (functions[f"encode_{stem}"], functions[f"decode_{stem}"], functions[f"merge_{stem}"])
    return (generated, *made)


class Codec:
    """The encode/decode pair of one contract class in one model."""

    __slots__ = (
        "_info", "_model", "_source", "_source_fn", "cls", "decode", "deterministic", "encode",
        "generated", "merge",
    )  # fmt: skip

    def __init__(self, model: CodecModel, cls: type, *, deterministic: bool = False) -> None:
        self._model = model
        self.cls = cls
        self.deterministic = deterministic  # map entries sorted by key
        self._source: str | None = None
        self._source_fn: Callable[[], str] | None = None  # ahead-of-time codecs: read on demand
        self.generated: _codegen.GeneratedSource | None = None
        self._info: ContractInfo | None = None
        self.encode: Callable[[Any], bytes] = self._lazy_encode
        self.decode: Callable[[bytes, int, int, int, Any], Any] = self._lazy_decode
        #: (buf, pos, end, depth, obj, pend) -> obj: the generated Python codecs' merge
        #: into an object the decode built (always Python: the engine merges in place
        #: itself); pend: the decode's list of pending unknown fields
        self.merge: Callable[[bytes, int, int, int, Any, list[Any]], Any] = self._lazy_merge

    @property
    def compiled(self) -> bool:
        return self._source is not None or self._source_fn is not None

    @property
    def source(self) -> str | None:
        """The generated source (``None`` while the codec is lazy)."""
        if self._source is None and self._source_fn is not None:
            self._source = self._source_fn()
        return self._source

    @source.setter
    def source(self, value: str | None) -> None:
        self._source = value
        self._source_fn = None

    @property
    def info(self) -> ContractInfo:
        """The contract behind this codec (resolved on demand: installed ahead-of-time
        codecs skip reflection until something asks)."""
        if self._info is None:
            self._info = self._model.info(self.cls)
        return self._info

    def _lazy_encode(self, obj: Any) -> bytes:
        self._model._install(self)
        return self.encode(obj)

    def _lazy_decode(self, buf: bytes, pos: int, end: int, depth: int, base: Any) -> Any:
        self._model._install(self)
        return self.decode(buf, pos, end, depth, base)

    def _lazy_merge(
        self, buf: bytes, pos: int, end: int, depth: int, obj: Any, pend: list[Any]
    ) -> Any:
        self.merge = self._model._python_merge(self)
        return self.merge(buf, pos, end, depth, obj, pend)

    def __repr__(self) -> str:
        state = "compiled" if self.compiled else "lazy"
        return f"<Codec {self.cls.__qualname__} ({state})>"


class CodecModel:
    """The codecs of a set of contracts and the binary operations over them.

    :class:`protoattr.TypeModel` is this plus the features' methods (JSON,
    schemas, ahead-of-time modules); the features themselves take a
    ``CodecModel``, so that they sit above this layer, not inside it.
    """

    def __init__(
        self,
        *,
        max_depth: int = 100,
        max_messages: int | None = None,
        backend: str | None = None,
        compatibility_level: int | None = None,
        include_date_time_kind: bool = False,
    ) -> None:
        if compatibility_level not in (None, *LEVELS):
            raise ValueError(
                f"compatibility_level must be 200, 240 or 300, not {compatibility_level!r}"
            )
        #: protobuf-net's level for contracts that do not name their own (None: 300)
        self.compatibility_level = compatibility_level
        #: protobuf-net's IncludeDateTimeKind: bcl.DateTime fields write their kind
        self.include_date_time_kind = include_date_time_kind
        self._leveled: dict[type, tuple[ContractInfo, ContractInfo]] = {}
        if max_depth < 1:
            raise ValueError("max_depth must be at least 1")
        if max_messages is not None and max_messages < 1:
            raise ValueError("max_messages must be at least 1 (or None)")
        self.max_depth = max_depth
        self.max_messages = max_messages
        self._native: NativeBackend | None = None
        if _choose_backend(backend) == "native":  # the engine counts max_messages too
            self._native = NativeBackend(self)
        self._codecs: dict[type, Codec] = {}
        self._det_codecs: dict[type, Codec] = {}  # serialize(..., deterministic=True)
        #: generated Python codecs (source, encode, decode), made on first need
        self._python: dict[type, _Generated] = {}
        self._det_python: dict[type, _Generated] = {}  # the deterministic codecs'
        self._deferred: dict[type, None] = {}  # run by plans; Python codec not made yet
        self._added: dict[type, None] = {}
        self._lists: dict[Any, Any] = {}
        self._list_wrappers: dict[Any, type] = {}
        self._subtypes: dict[type, dict[int, type]] = {}
        # one lock for declarations and every model's code generation: a subtype declared
        # while a codec of its hierarchy is generated waits (see _contract.proto_contract)
        self._lock = _DECLARATIONS_LOCK
        with self._lock:
            registry.register(self)
        #: what the code generator is given (plain, deterministic), made when it first runs
        self._contexts: tuple[CodecContext, CodecContext] | None = None
        self._context_limits = (max_depth, max_messages)
        if self._native is not None:  # serialize/deserialize/measure entered in C
            self._native.install_entry_points(CodecModel)

    def _generator_context(self, deterministic: bool = False) -> CodecContext:
        """The code generator's view of this model (the deterministic codecs' for
        ``deterministic``), made on first use with the limits the model was made with:
        the generator is imported only when a Python codec is first generated, which a
        binary round trip on the native backend never needs."""
        if self._contexts is None:
            from .._python.codegen import CodecContext

            max_depth, max_messages = self._context_limits
            plain = CodecContext(
                codec_for=self._codec,
                max_depth=max_depth,
                info_for=self.info,
                own_fields=self._own_fields,
                parent_of=self._parent_of,
                chain_of=self._chain,
                children_of=self._children_of,
                max_messages=max_messages,
            )
            det = plain.replace(codec_for=self._det_codec, deterministic=True)
            self._contexts = (plain, det)
        return self._contexts[deterministic]

    @property
    def backend(self) -> str:
        """``"native"`` or ``"python"``: what runs this model's codecs."""
        return "python" if self._native is None else "native"

    # -- registration and compilation ---------------------------------------

    def add(self, cls: type) -> None:
        """Add a contract class (optional: contracts are added on first use)."""
        with self._lock:
            self._added[cls] = None
            self._codec(cls)

    def add_subtype(self, base: type, tag: int, subtype: type) -> None:
        """Declare ``subtype`` as travelling in field ``tag`` of ``base`` (protobuf-net's
        ``AddSubType``), without touching either class."""
        if not (isinstance(subtype, type) and issubclass(subtype, base)) or subtype is base:
            raise ContractError(f"{subtype!r} is not a subclass of {base.__qualname__}")
        with self._lock:
            current = self._children_of(base)
            for t, other in current:
                if t == tag and other is not subtype:
                    raise ContractError(
                        f"{base.__qualname__}: subtype tag {tag} is already used by "
                        f"{other.__qualname__}"
                    )
            self._subtypes.setdefault(base, {})[tag] = subtype
            self._children_of(base)  # validates the tag against base's fields
            self._hierarchy_changed(base)
            self.add(subtype)

    def _hierarchy_changed(self, base: type) -> None:
        """A subtype of ``base`` was declared: its hierarchy's codecs must be regenerated."""
        with self._lock:
            self.__dict__.pop("_json_plans", None)  # and its JSON plans (protoattr._json.api)
            self.__dict__.pop("_text_plans", None)  # and its text plans (protoattr._text)
            for cls, codec in list(self._codecs.items()):
                if isinstance(cls, type) and (issubclass(cls, base) or issubclass(base, cls)):
                    self._reset(codec)
            for cls, codec in list(self._det_codecs.items()):  # deterministic encoders too
                if issubclass(cls, base) or issubclass(base, cls):
                    self._reset(codec)

    def _reset(self, codec: Codec) -> None:
        """Send a codec back to its lazy state (its hierarchy changed)."""
        codec.source = None
        codec.generated = None
        if not codec.deterministic:
            self._python.pop(codec.cls, None)
            self._deferred.pop(codec.cls, None)
        codec._info = None
        codec.encode = codec._lazy_encode
        codec.decode = codec._lazy_decode
        codec.merge = codec._lazy_merge
        if self._native is not None:
            self._native.reset(codec.cls)

    # -- hierarchies ------------------------------------------------------------

    def _children_of(self, cls: type) -> list[tuple[int, type]]:
        found = declared_subtypes(cls)
        found.update(self._subtypes.get(cls, {}))
        if found:
            own = {f.tag: f.name for f in self._own_fields(cls)}
            for tag, sub in found.items():
                if tag in own:
                    raise ContractError(
                        f"{sub.__qualname__}: subtype tag {tag} collides with field "
                        f"{cls.__qualname__}.{own[tag]}"
                    )
        return sorted(found.items())

    def _parent_of(self, cls: type) -> tuple[type, int] | None:
        base = contract_base(cls)
        while base is not None:
            for tag, sub in declared_subtypes(base).items():
                if sub is cls:
                    return base, tag
            for tag, sub in self._subtypes.get(base, {}).items():
                if sub is cls:
                    return base, tag
            base = contract_base(base)
        return None

    def _chain(self, cls: type) -> list[type]:
        """``cls`` and its contract bases up to the root of its hierarchy."""
        chain = [cls]
        link = self._parent_of(cls)
        while link is not None:
            chain.append(link[0])
            link = self._parent_of(link[0])
        return chain

    def _own_fields(self, cls: type) -> list[FieldInfo]:
        """The fields of one level of a hierarchy: ``cls``'s own, not its bases'."""
        fields = self.info(cls).fields
        bases = self._chain(cls)[1:]
        if not bases:
            return fields
        inherited = {f.name for base in bases for f in self._own_fields(base)}
        return [f for f in fields if f.name not in inherited]

    def compile(self) -> None:
        """Generate and compile every added contract and everything it reaches, now (and
        on the native backend every nested plan an earlier first call left for later).

        The cyclic garbage collector is paused meanwhile (and resumed as it was): what
        ``compile()`` builds (plans, generated codecs) lives as long as the model, so each
        collection its allocations trigger walks every object of the process and frees
        nothing (about a tenth of the instructions of ``compile()`` for 200 contracts)."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            self._compile_all()
        finally:
            if enabled:
                gc.enable()

    def _compile_all(self) -> None:
        with self._lock:
            for cls in self._added:  # top-level lists of each contract: nothing left for later
                self._list_codec(list[cls])  # type: ignore[valid-type]
            pending = list(self._added)
            if self._native is not None:  # nested plans a first call left for their first use
                pending.extend(self._native.waiting())
            seen: set[type] = set()
            while pending:
                cls = pending.pop()
                if cls in seen:
                    continue
                seen.add(cls)
                codec = self._codec(cls)
                self._install(codec)
                # iter_message_types, without a property call per field
                pending.extend(
                    [
                        f.value.py_type
                        for f in codec.info.fields
                        if f.value.kind is _MESSAGE and f.value.py_type
                    ]
                )
                pending.extend(sub for _, sub in self._children_of(cls))
                link = self._parent_of(cls)
                if link is not None:
                    pending.append(link[0])

    def _codec(self, cls: type) -> Codec:
        codec = self._codecs.get(cls)
        if codec is None:
            with self._lock:
                codec = self._codecs.get(cls)
                if codec is None:
                    codec = self._codecs[cls] = Codec(self, cls)
        return codec

    def _det_codec(self, cls: type) -> Codec:
        """The codec that writes map entries in key order (its decoder is never used)."""
        codec = self._det_codecs.get(cls)
        if codec is None:
            with self._lock:
                codec = self._det_codecs.get(cls)
                if codec is None:
                    codec = self._det_codecs[cls] = Codec(self, cls, deterministic=True)
        return codec

    def _install(self, codec: Codec) -> None:
        """Install ``codec``'s functions unless done already (thread-safe).

        On a native model, a contract the engine runs gets its plan now and its
        generated Python codec only when something first needs it: an input the
        engine hands over, ``source()``, ``write_module()``.  Generating and
        compiling Python is most of what ``compile()`` would otherwise cost.
        """
        if codec.deterministic:
            return self._install_deterministic(codec)
        if codec.compiled:
            return
        with self._lock:
            if codec.compiled:  # another thread won the race
                return
            codec._info = self.info(codec.cls)
            native = self._native
            if native is not None:
                later = _Later(self, codec)
                if native.installed(codec, later.encode, later.decode):
                    codec._source_fn = later.source
                    self._deferred[codec.cls] = None
                    return
            generated, encode, decode, merge = self._python_codec(codec)
            codec.merge = merge
            codec.encode = encode
            codec.decode = decode
            codec.source = generated.source  # last: "compiled" means fully installed

    def _python_merge(self, codec: Codec) -> Callable[..., Any]:
        """``codec``'s generated Python merge (a deterministic codec decodes and merges
        as the ordinary one does)."""
        if codec.deterministic:
            self._install(codec)
            return self._det_python[codec.cls][3]
        return self._python_codec(codec)[3]

    def _python_codec(self, codec: Codec) -> _Generated:
        """``codec``'s generated Python source and functions, made on first call."""
        with self._lock:
            made = self._python.get(codec.cls)
            if made is None:
                made = _generate(codec.info, self._generator_context())
                self._python[codec.cls] = made
                self._deferred.pop(codec.cls, None)
                codec.generated = made[0]
            return made

    def _generate_deferred(self) -> None:
        """Make every Python codec deferred so far (``write_module`` writes them all)."""
        with self._lock:
            for cls in list(self._deferred):
                self._python_codec(self._codecs[cls])

    def _install_deterministic(self, codec: Codec) -> None:
        """The encoder that sorts map entries: always the generated Python one (a separate
        method, so that nothing installed after ordinary codecs replaces it)."""
        if codec.compiled:
            return
        with self._lock:
            if codec.compiled:
                return
            info = self.info(codec.cls)
            made = _generate(info, self._generator_context(deterministic=True))
            self._det_python[codec.cls] = made
            generated, encode, decode, merge = made
            codec.merge = merge
            codec._info = info
            codec.generated = generated
            codec.encode = encode
            codec.decode = decode
            codec.source = generated.source

    def add_surrogate(
        self,
        foreign: type,
        contract: type,
        to_surrogate: Callable[[Any], Any],
        from_surrogate: Callable[[Any], Any],
    ) -> None:
        """Let instances of ``foreign`` (a class you do not own) travel as ``contract``.

        ``to_surrogate(foreign_obj)`` returns a ``contract`` instance and
        ``from_surrogate(contract_obj)`` the foreign object back (protobuf-net's
        ``SetSurrogate``).  Surrogates are process-wide, like contracts: add
        them before declaring contracts whose fields use ``foreign``.
        """
        add_surrogate(foreign, contract, to_surrogate, from_surrogate)

    def _surrogate_codec(self, cls: type) -> Codec | None:
        sur = surrogate_for(cls)
        if sur is None:
            return None
        inner = self._compiled_codec(sur.contract)
        codec = Codec(self, cls)
        to, back = sur.to_surrogate, sur.from_surrogate
        codec.encode = lambda obj: inner.encode(to(obj))

        def decode(buf: bytes, pos: int, end: int, depth: int, base: Any) -> Any:
            value = inner.decode(buf, pos, end, depth, None)
            try:
                return back(value)
            except DecodeError:
                raise
            except (ValueError, ArithmeticError) as exc:
                raise DecodeError(f"{cls.__qualname__}: {exc}", pos) from None

        codec.decode = decode
        codec.source = f"# {cls.__qualname__} travels as {sur.contract.__qualname__}\n" + (
            inner.source or ""
        )
        with self._lock:
            self._codecs[cls] = codec
        return codec

    def _compiled_codec(self, cls: type) -> Codec:
        codec = self._codecs.get(cls)
        if codec is None or not codec.compiled:
            if not isinstance(cls, type):
                raise ContractError(f"{cls!r} is not a contract class")
            sur = self._surrogate_codec(cls)
            if sur is not None:
                return sur
            codec = self._codec(cls)
            try:
                self._install(codec)
            except ContractError:
                with self._lock:
                    self._codecs.pop(cls, None)
                raise
        return codec

    def source(self, cls: type) -> str:
        """The generated Python source of ``cls``'s codec (compiling it if needed)."""
        codec = self._compiled_codec(self._list_wrapper(cls) if _is_list_type(cls) else cls)
        assert codec.source is not None
        return codec.source

    # -- top-level lists ------------------------------------------------------

    def _list_codec(self, list_type: Any) -> Any:
        """Encode/decode a top-level ``list[T]`` as repeated field 1 (protobuf-net's form)."""
        codec = self._lists.get(list_type)
        if codec is None:
            (item,) = typing.get_args(list_type)
            if is_contract(item) or surrogate_for(item) is not None:
                # lists of messages need no class of their own: loop over T's codec
                codec = _MessageList(self._codec(item), self.max_depth)
                if self._native is not None:  # the engine's loop, this one behind it
                    codec = self._native.message_list(item, codec)
            else:
                wrapper = self._compiled_codec(self._list_wrapper(list_type))
                codec = _WrappedList(wrapper)
            with self._lock:
                self._lists[list_type] = codec
        return codec

    def _list_wrapper(self, list_type: Any) -> type:
        """A contract with ``items: list[T] = field(1)``: how a top-level list travels."""
        wrapper = self._list_wrappers.get(list_type)
        if wrapper is None:
            with self._lock:
                wrapper = self._list_wrappers.get(list_type)
                if wrapper is None:
                    import dataclasses  # (only for a top-level list: rare)

                    (item,) = typing.get_args(list_type)
                    name = f"ListOf{getattr(item, '__name__', 'Items')}"
                    made = dataclasses.make_dataclass(
                        name,
                        [("items", list[item], field(1, default_factory=list))],  # type: ignore[valid-type]
                    )
                    made.__module__ = __name__
                    wrapper = proto_contract(preserve_unknown=False)(made)
                    self._list_wrappers[list_type] = wrapper
        return wrapper

    # -- operations ----------------------------------------------------------

    def serialize(self, obj: Any, *, type: Any = None, deterministic: bool = False) -> bytes:
        """Encode ``obj`` (or a list with ``type=list[T]``) to bytes.

        ``deterministic=True`` writes map entries sorted by key, the bytes upb's
        ``SerializeToString(deterministic=True)`` writes (for hashing, signing, caching).
        """
        codec: Any
        if type is not None and _is_list_type(type):
            if deterministic:
                codec = self._deterministic_codec(obj, type)
            else:
                codec = self._list_codec(type)
        else:
            if type is not None and not (_is_class(type) and isinstance(obj, type)):
                raise _wrong_type(obj, type)
            if deterministic:
                codec = self._deterministic_codec(obj, None)
            else:
                codec = self._codecs.get(obj.__class__)  # a lazy codec compiles on first call
                if codec is None:
                    if isinstance(obj, (list, tuple)):
                        raise _bare_list(obj)
                    codec = self._compiled_codec(obj.__class__)
        try:
            return codec.encode(obj)  # type: ignore[no-any-return]
        except EncodeError as exc:
            if type is not None and _is_list_type(type):  # name the item, not the wrapper
                raise self._explain(obj, exc, type) from None
            raise self._with_path(obj, exc) from None
        except ContractError:  # a lazy codec may find its contract bad
            raise
        except _ENCODE_FAILURES as exc:
            raise self._explain(obj, exc, type) from None

    def _deterministic_codec(self, obj: Any, type: Any) -> Any:
        """The encoder that writes map entries in upb's deterministic order."""
        if type is not None:  # a list type
            (item,) = typing.get_args(type)
            if is_contract(item):
                return _MessageList(self._det_ready(item), self.max_depth)
            if surrogate_for(item) is not None:
                return _MessageList(self._det_surrogate(item), self.max_depth)
            return self._list_codec(type)  # scalars: no maps, nothing to order
        if surrogate_for(obj.__class__) is not None:
            return self._det_surrogate(obj.__class__)
        if isinstance(obj, (list, tuple)) and not is_contract(obj.__class__):
            raise _bare_list(obj)
        return self._det_ready(obj.__class__)

    def _det_ready(self, cls: type) -> Codec:
        if not is_contract(cls):
            self._compiled_codec(cls)  # the clear error for a class that is not a contract
        codec = self._det_codec(cls)
        self._install(codec)
        return codec

    def _det_surrogate(self, cls: type) -> Any:
        sur = surrogate_for(cls)
        assert sur is not None
        inner, to = self._det_ready(sur.contract), sur.to_surrogate
        return _Converted(lambda obj: inner.encode(to(obj)))

    @overload
    def deserialize(self, cls: type[T], data: Buffer) -> T: ...
    @overload
    def deserialize(self, cls: Any, data: Buffer) -> Any: ...
    def deserialize(self, cls: Any, data: Buffer) -> Any:
        """Decode ``data`` as ``cls`` (or ``list[T]``, a repeated field 1)."""
        codec = self._codecs.get(cls)  # a lazy codec compiles on first call
        if codec is None or self.max_messages is not None:
            return self._deserialize_slow(cls, data)
        buf = data if data.__class__ is bytes else _buffer(data)
        try:
            return codec.decode(buf, 0, len(buf), 0, None)
        except RecursionError:
            raise too_deep_for_python(self.max_depth) from None

    def _deserialize_slow(self, cls: Any, data: Buffer) -> Any:
        """First use of ``cls``, a top-level ``list[T]``, or a model with ``max_messages``."""
        buf = data if data.__class__ is bytes else _buffer(data)
        codec = self._list_codec(cls) if _is_list_type(cls) else self._compiled_codec(cls)
        return self._decode(codec, buf, None)

    def _decode(self, codec: Any, buf: bytes, base: Any) -> Any:
        """Run a top-level decode: the message budget set, Python's recursion limit caught."""
        previous = BUDGET.left  # a decode may run inside another (a surrogate's converter)
        if self.max_messages is not None:
            BUDGET.left = self.max_messages
        try:
            return codec.decode(buf, 0, len(buf), 0, base)
        except RecursionError:
            raise too_deep_for_python(self.max_depth) from None
        finally:
            BUDGET.left = previous

    def serialize_to(
        self, stream: IO[bytes], obj: Any, *, type: Any = None, deterministic: bool = False
    ) -> None:
        """Write ``obj``'s encoding to a binary stream (nothing is written on error)."""
        stream.write(self.serialize(obj, type=type, deterministic=deterministic))

    def deserialize_from(self, cls: type[T], stream: IO[bytes]) -> T:
        """Read a binary stream to its end and decode it as ``cls``."""
        return self.deserialize(cls, stream.read())

    def merge(self, obj: T, data: Buffer) -> T:
        """Merge ``data`` into ``obj`` with protobuf semantics and return the result.

        Scalars in ``data`` replace, repeated fields append, maps update and
        nested messages merge recursively.  Mutable objects are updated in
        place and returned; frozen ones cannot be, so a new object is returned.
        """
        buf = data if data.__class__ is bytes else _buffer(data)
        codec = self._compiled_codec(obj.__class__)
        merged = self._decode(codec, buf, obj)
        if codec.info.frozen or merged.__class__ is not obj.__class__:
            return merged  # type: ignore[no-any-return]
        chain = self._chain(obj.__class__)
        for level in chain:  # every level's fields, and its unknown fields wherever kept
            for f in self._own_fields(level):
                setattr(obj, f.name, getattr(merged, f.name))
            key = unknown_key(level, chain[-1])
            set_unknown(obj, key, get_unknown(merged, key) or b"")
        return obj

    def deep_clone(self, obj: T) -> T:
        """A copy of ``obj`` made by encoding and decoding it."""
        return self.deserialize(obj.__class__, self.serialize(obj))

    def measure(self, obj: Any, *, type: Any = None) -> int:
        """The encoded size of ``obj`` in bytes."""
        return len(self.serialize(obj, type=type))

    # -- errors ----------------------------------------------------------------

    def _with_path(self, obj: Any, exc: EncodeError) -> EncodeError:
        """``exc`` (which names the innermost field, ``V.n``) with the path from ``obj`` to
        it (``Outer.items[2].n``); the walk runs only once encoding has failed."""
        from .explain import find_problem

        problem = find_problem(self, obj)
        where, sep, detail = str(exc).partition(": ")
        path = (problem or "").partition(": ")[0]
        if not sep or not path or path == where:
            return exc
        if path.rsplit(".", 1)[-1] != where.rsplit(".", 1)[-1]:
            return EncodeError(problem)  # the walk found the field the encoder could not name
        return EncodeError(f"{path}: {detail}")  # the encoder's words, the walk's path

    def _explain(self, obj: Any, exc: BaseException, list_type: Any = None) -> EncodeError:
        """Find which field made encoding fail; errors are rare, so this walks slowly."""
        from .explain import check_item, find_problem

        if list_type is not None and _is_list_type(list_type):  # a top-level list: its items
            (item_type,) = typing.get_args(list_type)
            name = f"list[{getattr(item_type, '__qualname__', item_type)}]"
            if isinstance(obj, _NOT_LISTS):
                return EncodeError(f"{name}: expected a list, got {type(obj).__name__} {obj!r:.60}")
            try:
                items = list(obj)
            except TypeError:
                return EncodeError(f"{name}: expected a list, got {type(obj).__name__} {obj!r:.60}")
            wrapper = self._list_wrapper(list_type)
            vt = self.info(wrapper).fields[0].value
            problems = (check_item(self, vt, x, f"{name}[{i}]") for i, x in enumerate(items))
            problem = next((p for p in problems if p), None)
            if problem is None:
                return exc if isinstance(exc, EncodeError) else EncodeError(f"{name}: {exc}")
            return EncodeError(problem)
        problem = find_problem(self, obj)
        if problem is None:
            problem = f"{obj.__class__.__qualname__}: {exc}"
        return EncodeError(problem)

    def info(self, cls: type) -> ContractInfo:
        """The resolved contract of ``cls`` (fields in tag order), at this model's
        compatibility level."""
        info = resolve(cls, final=True)
        if self.compatibility_level is None and not self.include_date_time_kind:
            return info
        seen = self._leveled.get(cls)
        if seen is None or seen[0] is not info:
            leveled = with_level(info, self.compatibility_level, self.include_date_time_kind)
            seen = self._leveled[cls] = (info, leveled)
        return seen[1]

    # -- full names --------------------------------------------------------------

    def full_name(self, cls: type) -> str:
        """The protobuf full name of contract or enum ``cls`` (``package.Name``; a class
        nested in a contract is named inside it: ``package.Order.Line``)."""
        import enum

        from .._core import names as _names

        if not is_contract(cls) and not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
            raise ContractError(
                f"{getattr(cls, '__qualname__', cls)!r} is not a contract: decorate it with "
                "@proto_contract"
            )
        return _names.full_name_of(cls)

    def find(self, full_name: str) -> type | None:
        """The contract class whose full name is ``full_name`` (``None`` when none is).

        Classes this model has seen come first; two other classes answering to
        the name are a :class:`ContractError` (give one a ``package=`` or ``name=``).
        """
        from .._core import names as _names

        if full_name.startswith("google.protobuf."):
            from .._core import wkt as _wkt  # noqa: F401  (the well-known types load on first use)
        found = [c for c in _names.lookup(full_name) if is_contract(c)]
        if len(found) > 1:
            mine = [c for c in found if c in self._codecs or c in self._added]
            found = mine if mine else found
        if len(found) > 1:
            names = ", ".join(f"{c.__module__}.{c.__qualname__}" for c in found)
            raise ContractError(
                f"{len(found)} contracts are named {full_name!r} ({names}): give them "
                "packages (proto_contract(package=...)) or distinct name=s"
            )
        return found[0] if found else None

    def find_extension(self, full_name: str) -> Extension[Any, Any] | None:
        """The extension declared under ``full_name`` (``pa.extension(..., name=...)``),
        or ``None``: how JSON and text format read ``[full.name]`` keys."""
        from .._core import extensions as _ext

        found = _ext.by_name(full_name)
        return found  # type: ignore[return-value]

    def extensions_of(self, cls: type) -> list[Extension[Any, Any]]:
        """The extensions declared for contract ``cls``, in number order."""
        from .._core import extensions as _ext

        return _ext.of(cls)  # type: ignore[return-value]


class _Later:
    """Stand-ins for a codec's generated Python functions that generate them on first
    call: what the engine hands over to when it declines an input, and the source when
    asked (one object rather than three closures: every planned contract has one)."""

    __slots__ = ("codec", "model")

    def __init__(self, model: CodecModel, codec: Codec) -> None:
        self.model = model
        self.codec = codec

    def encode(self, *args: Any) -> bytes:
        return self.model._python_codec(self.codec)[1](*args)

    def decode(self, *args: Any) -> Any:
        return self.model._python_codec(self.codec)[2](*args)

    def source(self) -> str:
        return self.model._python_codec(self.codec)[0].source


class _MessageList:
    """A top-level ``list[T]`` of contracts: field 1, one length-delimited item each."""

    __slots__ = ("item", "max_depth")

    def __init__(self, item: Codec, max_depth: int) -> None:
        self.item = item
        self.max_depth = max_depth

    def encode(self, items: Any) -> bytes:
        if isinstance(items, _NOT_LISTS):  # iterable, but no list: refused, as for fields
            raise TypeError("not a list")
        encode = self.item.encode
        lengths = prefix_table(b"\x0a")
        out = []
        for obj in items:
            b = encode(obj)
            n = len(b)
            out.append(lengths[n] if n < 128 else b"\x0a" + encode_varint(n))
            out.append(b)
        return b"".join(out)

    def decode(self, buf: bytes, pos: int, end: int, depth: int, base: Any) -> list[Any]:
        return decode_message_list(self.item, buf, pos, end, self.max_depth)


class _WrappedList:
    """A top-level ``list[T]`` of scalars, through a generated ``items`` wrapper contract."""

    __slots__ = ("wrapper",)

    def __init__(self, wrapper: Codec) -> None:
        self.wrapper = wrapper

    def encode(self, items: Any) -> bytes:
        if isinstance(items, _NOT_LISTS):  # iterable, but no list: refused, as for fields
            raise TypeError("not a list")
        return self.wrapper.encode(_Items(items))

    def decode(self, buf: bytes, pos: int, end: int, depth: int, base: Any) -> list[Any]:
        return self.wrapper.decode(buf, pos, end, depth, None).items  # type: ignore[no-any-return]


class _Converted:
    """An encoder that converts first (a surrogate at the top level)."""

    __slots__ = ("encode",)

    def __init__(self, encode: Callable[[Any], bytes]) -> None:
        self.encode = encode


class _Items:
    """Stands in for the wrapper object when encoding a top-level list."""

    __slots__ = ("items",)

    def __init__(self, items: Any) -> None:
        self.items = items


def _buffer(data: Any) -> bytes:
    """``data`` as ``bytes``; text is refused by name (``bytes("08 01")`` would say only
    "string argument without an encoding")."""
    if isinstance(data, str):
        raise TypeError(
            f"protobuf data is bytes (bytes, bytearray or memoryview), not str {data[:20]!r}: "
            "to decode hex text pass bytes.fromhex(text); to read a file open it with 'rb'"
        )
    return bytes(data)


def _is_list_type(tp: Any) -> bool:
    return typing.get_origin(tp) is list


def default() -> CodecModel:
    """The default model (``protoattr.default_model``), for features given ``model=None``."""
    model: CodecModel = registry.default()
    return model
