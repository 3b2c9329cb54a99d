"""gRPC services declared in plain Python: ``@service`` and ``@rpc`` (no grpcio needed).

A service is a class - usually a ``typing.Protocol`` - whose public methods
are its RPCs, typed with contracts::

    @pa.service("shop.v1.Catalog")
    class Catalog(Protocol):
        def get_product(self, request: GetProduct) -> Product: ...
        def list_products(self, request: ListProducts) -> Iterator[Product]: ...   # server stream
        def upload(self, requests: Iterator[Product]) -> Summary: ...             # client stream
        def chat(self, requests: Iterator[Note]) -> Iterator[Note]: ...           # bidirectional

The shape of each RPC is read from its annotations: an iterator (``Iterator``,
``Iterable``, ``Generator`` or their async twins) as the request parameter
makes it client streaming, as the return type server streaming.  A second
parameter annotated :class:`CallContext` gives the call's metadata, deadline
and peer (on a server) or carries options and receives the response metadata
(on a client), as protobuf-net.Grpc's ``CallContext`` does.  Method names
become PascalCase gRPC names (``get_product`` -> ``GetProduct``) unless
``@rpc(name=...)`` says otherwise; ``@service(..., naming="protobuf-net")`` also drops
a trailing ``Async`` and maps methods without a request or ``-> None`` to
``google.protobuf.Empty``, as protobuf-net.Grpc does for .NET code-first services, and
:func:`dotnet_service_name` gives the service name such a .NET service has by default.

This module only declares; the grpcio glue (servers, clients, status codes)
is :mod:`protoattr.grpc`, and ``.proto`` export is :mod:`protoattr._schema.proto`.
Everything is validated when the class is decorated (a forward reference to
a class defined later, when first used), and errors name ``Class.method``.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import re
import sys
import threading
import time
import typing
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from ._core.contract import is_contract
from ._core.errors import ContractError

__all__ = [
    "CallContext",
    "MethodInfo",
    "ServiceInfo",
    "dotnet_service_name",
    "grpc_method_name",
    "is_service",
    "rpc",
    "service",
    "service_info",
]

C = TypeVar("C", bound=type)
F = TypeVar("F", bound=Callable[..., Any])

_SERVICE_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*")
_METHOD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RPC_OPTIONS = "__protoattr_rpc__"
_STREAMS = {
    collections.abc.Iterator,
    collections.abc.Iterable,
    collections.abc.Generator,
    collections.abc.AsyncIterator,
    collections.abc.AsyncIterable,
    collections.abc.AsyncGenerator,
}

Metadata = Sequence[tuple[str, "str | bytes"]]


@dataclasses.dataclass(frozen=True)
class MethodInfo:
    """One RPC of a service, resolved."""

    attr: str  # the Python method name
    name: str  # the gRPC method name (PascalCase)
    request: type
    response: type
    client_streaming: bool
    server_streaming: bool
    takes_context: bool  # the declaration has a CallContext parameter
    owner: str  # "Class.method", for messages
    #: False for a method declared without a request (it takes google.protobuf.Empty)
    takes_request: bool = True
    #: False for a unary method declared ``-> None`` (it returns google.protobuf.Empty)
    returns_value: bool = True

    @property
    def shape(self) -> str:
        """``"unary_unary"``, ``"unary_stream"``, ``"stream_unary"`` or ``"stream_stream"``."""
        head = "stream" if self.client_streaming else "unary"
        tail = "stream" if self.server_streaming else "unary"
        return f"{head}_{tail}"


@dataclasses.dataclass(frozen=True)
class ServiceInfo:
    """A service, resolved: its full name and RPCs in declaration order."""

    cls: type
    full_name: str  # "shop.v1.Catalog"
    methods: tuple[MethodInfo, ...]

    @property
    def package(self) -> str:
        return self.full_name.rpartition(".")[0]

    @property
    def name(self) -> str:
        return self.full_name.rpartition(".")[2]

    def method(self, attr: str) -> MethodInfo:
        for m in self.methods:
            if m.attr == attr:
                return m
        raise KeyError(attr)


_DECLARED: weakref.WeakKeyDictionary[type, str] = weakref.WeakKeyDictionary()
#: services declared with naming="protobuf-net"
_PROTOBUF_NET: weakref.WeakSet[type] = weakref.WeakSet()
NAMINGS = ("grpc", "protobuf-net")
_RESOLVED: weakref.WeakKeyDictionary[type, ServiceInfo] = weakref.WeakKeyDictionary()
_LOCALS: weakref.WeakKeyDictionary[type, dict[str, Any]] = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()


def service(full_name: str, *, naming: str = "grpc") -> Callable[[C], C]:
    """Declare the class a gRPC service named ``full_name`` (``"package.Service"``).

    The class is returned unchanged; its public methods are the service's RPCs.
    ``naming`` is how method names become gRPC names: ``"grpc"`` PascalCases them
    (``get_product`` -> ``GetProduct``); ``"protobuf-net"`` also drops a trailing
    ``Async`` (``get_product_async`` -> ``GetProduct``), as protobuf-net.Grpc names the
    operations of a .NET code-first service, and takes a method declared without a
    request, or ``-> None``, as protobuf-net.Grpc takes a no-argument or ``void``
    operation: ``google.protobuf.Empty`` on the wire.  ``@rpc(name=...)`` wins over both
    namings, as ``[Operation("Name")]`` does.
    """
    if not isinstance(full_name, str) or not _SERVICE_NAME.fullmatch(full_name):
        raise ContractError(
            f"@service needs a full service name such as 'shop.v1.Catalog', not {full_name!r}"
        )
    if naming not in NAMINGS:
        raise ContractError(f"@service(naming={naming!r}): naming is 'grpc' or 'protobuf-net'")

    def decorate(cls: C) -> C:
        if not isinstance(cls, type):
            raise ContractError(f"@service({full_name!r}) decorates classes, not {cls!r}")
        frame = sys._getframe(1)
        if frame.f_code.co_name != "<module>":
            _LOCALS[cls] = dict(frame.f_locals)
        with _LOCK:
            _DECLARED[cls] = full_name
            if naming == "protobuf-net":
                _PROTOBUF_NET.add(cls)
            else:
                _PROTOBUF_NET.discard(cls)
            _RESOLVED.pop(cls, None)
        try:
            _resolve(cls, final=False)
        except _Unresolved:
            pass  # a forward reference: resolved on first use
        except ContractError:
            with _LOCK:
                del _DECLARED[cls]
            raise
        return cls

    return decorate


def rpc(name: str | None = None) -> Callable[[F], F]:
    """Options for one RPC: ``@rpc(name="GetProduct")`` sets its gRPC method name."""
    if name is not None and not _METHOD_NAME.fullmatch(name):
        raise ContractError(f"@rpc(name={name!r}): not a valid gRPC method name")

    def decorate(fn: F) -> F:
        setattr(fn, _RPC_OPTIONS, {"name": name})
        return fn

    return decorate


def is_service(cls: Any) -> bool:
    """True for classes decorated with :func:`service`."""
    return isinstance(cls, type) and cls in _DECLARED


def service_info(cls: type) -> ServiceInfo:
    """The resolved :class:`ServiceInfo` of a class decorated with :func:`service`."""
    if not is_service(cls):
        raise ContractError(
            f"{getattr(cls, '__qualname__', cls)!r} is not a service: decorate it with "
            "@protoattr.service('package.Name')"
        )
    return _resolve(cls, final=True)


def grpc_method_name(attr: str, naming: str = "grpc") -> str:
    """``get_product`` -> ``GetProduct`` (the gRPC convention for method names); with
    ``naming="protobuf-net"`` a trailing ``Async`` goes too (``GetProductAsync`` and
    ``get_product_async`` -> ``GetProduct``), as protobuf-net.Grpc's ServiceBinder does."""
    name = "".join(part[:1].upper() + part[1:] for part in attr.split("_") if part)
    if naming == "protobuf-net" and name.endswith("Async") and len(name) > 5:
        name = name[:-5]
    return name


def dotnet_service_name(namespace: str, type_name: str, *, interface: bool = True) -> str:
    """The gRPC service name protobuf-net.Grpc gives a .NET code-first service contract
    without a ``[Service("...")]`` name: ``Namespace.TypeName`` with the leading ``I`` of an
    interface's name dropped (``ICalculator`` -> ``Calculator``; .NET drops any leading
    ``I`` of an interface).  ``type_name`` is the type's own name (``Type.Name``: a nested
    type's is its inner name alone).

    >>> dotnet_service_name("MyCompany.Services", "ICalculator")
    'MyCompany.Services.Calculator'

    A generic contract (``IRepo<Order>`` is ``Namespace.Repo_Order``) or one with a
    ``[Service("...")]`` name: give ``@service`` the name itself."""
    if not namespace:
        raise ValueError("dotnet_service_name needs the contract's namespace")
    if interface and type_name.startswith("I"):
        type_name = type_name[1:]
    return f"{namespace}.{type_name}"


class _Unresolved(Exception):
    pass


def _resolve(cls: type, *, final: bool) -> ServiceInfo:
    info = _RESOLVED.get(cls)
    if info is not None:
        return info
    with _LOCK:
        info = _RESOLVED.get(cls)
        if info is None:
            info = _RESOLVED[cls] = _build(cls, _DECLARED[cls], final)
        return info


def _build(cls: type, full_name: str, final: bool) -> ServiceInfo:
    methods: list[MethodInfo] = []
    names: dict[str, str] = {}
    naming = "protobuf-net" if cls in _PROTOBUF_NET else "grpc"
    for attr, fn in _rpc_functions(cls):
        where = f"{cls.__qualname__}.{attr}"
        method = _method(cls, attr, fn, where, final, naming)
        other = names.get(method.name)
        if other is not None:
            raise ContractError(
                f"{where}: the gRPC method name {method.name!r} is also {cls.__qualname__}."
                f"{other}'s: give one of them another name with @rpc(name=...)"
            )
        names[method.name] = attr
        methods.append(method)
    if not methods:
        raise ContractError(f"{cls.__qualname__}: a service needs at least one public method")
    return ServiceInfo(cls, full_name, tuple(methods))


def _rpc_functions(cls: type) -> list[tuple[str, Callable[..., Any]]]:
    """Public functions of ``cls`` and its bases (not ``object``/``Protocol``), in order."""
    seen: dict[str, Callable[..., Any]] = {}
    for klass in reversed(cls.__mro__):
        if klass is object or klass.__module__ in ("typing", "typing_extensions", "abc"):
            continue
        for attr, value in vars(klass).items():
            if attr.startswith("_"):
                continue
            if isinstance(value, (staticmethod, classmethod)):
                raise ContractError(
                    f"{cls.__qualname__}.{attr}: an RPC is an instance method, not a "
                    f"{type(value).__name__}"
                )
            if inspect.isfunction(value):
                seen[attr] = value
    return list(seen.items())


def _hints(cls: type, fn: Callable[..., Any], where: str, final: bool) -> dict[str, Any]:
    globalns = getattr(fn, "__globals__", {})
    localns = {**_LOCALS.get(cls, {}), cls.__name__: cls, "CallContext": CallContext}
    try:
        return typing.get_type_hints(fn, globalns=globalns, localns=localns)
    except NameError as exc:
        if final:
            raise ContractError(
                f"{where}: cannot resolve annotation ({exc}); define the referenced class "
                "at module level before first use"
            ) from None
        raise _Unresolved(str(exc)) from None


def _method(
    cls: type, attr: str, fn: Callable[..., Any], where: str, final: bool, naming: str = "grpc"
) -> MethodInfo:
    options = getattr(fn, _RPC_OPTIONS, {})
    name = options.get("name") or grpc_method_name(attr, naming)
    params = list(inspect.signature(fn).parameters.values())
    if not params or params[0].name != "self":
        raise ContractError(f"{where}: an RPC is an instance method whose first parameter is self")
    params = params[1:]
    hints = _hints(cls, fn, where, final)
    dotnet = naming == "protobuf-net"
    if dotnet and (not params or (len(params) == 1 and _is_context(hints.get(params[0].name)))):
        # protobuf-net.Grpc's no-argument operation: google.protobuf.Empty on the wire
        return _without_request(attr, name, params, hints, where)
    if not params:
        raise ContractError(f"{where}: an RPC takes a request (a contract or an iterator of one)")
    if len(params) > 2 or any(
        p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY) for p in params
    ):
        raise ContractError(
            f"{where}: an RPC takes the request and optionally a CallContext, nothing else"
        )
    request_param = params[0]
    if request_param.name not in hints:
        raise ContractError(f"{where}: annotate the request parameter {request_param.name!r}")
    takes_context = False
    if len(params) == 2:
        ctx = params[1]
        annotation = hints.get(ctx.name)
        if annotation is not None and not _is_context(annotation):
            raise ContractError(
                f"{where}: the second parameter {ctx.name!r} must be a CallContext, not "
                f"{_describe(annotation)}"
            )
        takes_context = True
    if "return" not in hints:
        raise ContractError(f"{where}: annotate the response type (-> a contract or an iterator)")
    request, client_streaming = _message_type(hints[request_param.name], where, "request")
    if dotnet:  # a void operation returns google.protobuf.Empty
        response, server_streaming, returns_value = _response_type(hints["return"], where)
    else:
        response, server_streaming = _message_type(hints["return"], where, "response")
        returns_value = True
    return MethodInfo(
        attr, name, request, response, client_streaming, server_streaming, takes_context, where,
        returns_value=returns_value,
    )  # fmt: skip


def _response_type(annotation: Any, where: str) -> tuple[type, bool, bool]:
    """``(the contract, streamed?, a value?)``: ``-> None`` is a unary ``Empty`` response,
    as protobuf-net.Grpc maps a ``void`` operation."""
    if annotation is None or annotation is type(None):
        from ._core.wkt import Empty

        return Empty, False, False
    response, streamed = _message_type(annotation, where, "response")
    return response, streamed, True


def _without_request(
    attr: str, name: str, params: list[inspect.Parameter], hints: dict[str, Any], where: str
) -> MethodInfo:
    """A method declared without a request: it takes ``google.protobuf.Empty``."""
    from ._core.wkt import Empty

    if "return" not in hints:
        raise ContractError(f"{where}: annotate the response type (-> a contract or an iterator)")
    response, server_streaming, returns_value = _response_type(hints["return"], where)
    return MethodInfo(
        attr, name, Empty, response, False, server_streaming, bool(params), where,
        takes_request=False, returns_value=returns_value,
    )  # fmt: skip


def _is_context(annotation: Any) -> bool:
    if annotation is CallContext:
        return True
    args = typing.get_args(annotation)
    return (
        bool(args)
        and all(a is CallContext or a is type(None) for a in args)
        and (CallContext in args)
    )


def _message_type(annotation: Any, where: str, what: str) -> tuple[type, bool]:
    """``(the contract, streamed?)`` of a request or response annotation."""
    streamed = False
    origin = typing.get_origin(annotation)
    if origin in _STREAMS:
        args = typing.get_args(annotation)
        if not args:
            raise ContractError(
                f"{where}: say what the {what} stream carries ({origin.__name__}[T])"
            )
        annotation, streamed = args[0], True
    elif annotation in _STREAMS:
        raise ContractError(f"{where}: say what the {what} stream carries (Iterator[T])")
    if not is_contract(annotation):
        raise ContractError(
            f"{where}: the {what} type {_describe(annotation)} is not a contract "
            "(decorate it with @proto_contract)"
        )
    return annotation, streamed


def _describe(annotation: Any) -> str:
    if isinstance(annotation, type):
        return annotation.__qualname__
    return repr(annotation)


# -- the call context ----------------------------------------------------------


class CallContext:
    """What one call knows beyond its messages (protobuf-net.Grpc's ``CallContext``).

    On a **client**, create one to pass options - ``CallContext(timeout=2.0,
    metadata=[("user", "ada")])`` - and read the server's ``initial_metadata``,
    ``trailing_metadata``, ``code`` and ``details`` from it after the call.

    On a **server**, a handler that declares a ``CallContext`` parameter gets
    one for the call: the client's ``metadata``, ``peer``, ``time_remaining()``
    and ``cancelled``; it can ``set_trailing_metadata(...)``, and
    ``set_code``/``set_details`` for a successful response (raise
    ``protoattr.grpc.ServiceError`` to fail the call).

    ``CallContext.NONE`` is the default to declare the parameter with
    (``context: pa.CallContext = pa.CallContext.NONE``, protobuf-net.Grpc's
    ``CallContext context = default``): clients may then leave it out, and a
    server always passes a real one.  It holds nothing and cannot be changed.
    """

    NONE: ClassVar[CallContext]

    def __init__(
        self,
        *,
        timeout: float | None = None,
        metadata: Metadata | Mapping[str, str | bytes] | None = None,
        wait_for_ready: bool | None = None,
        compression: Any = None,
    ) -> None:
        self.timeout = timeout
        self.metadata: tuple[tuple[str, str | bytes], ...] = _pairs(metadata)
        self.wait_for_ready = wait_for_ready
        self.compression = compression
        #: after a client call: what the server sent
        self.initial_metadata: tuple[tuple[str, str | bytes], ...] = ()
        self.trailing_metadata: tuple[tuple[str, str | bytes], ...] = ()
        self.code: Any = None  # a grpc.StatusCode after the call
        self.details: str | None = None
        self._server: Any = None  # the grpc ServicerContext on a server
        self._deadline: float | None = None
        self._cancelled = False  # set by protoattr.grpc when grpc.aio cancels the handler

    @classmethod
    def _for_server(cls, servicer_context: Any) -> CallContext:
        ctx = cls()
        ctx._server = servicer_context
        ctx.metadata = tuple((k, v) for k, v in servicer_context.invocation_metadata() or ())
        remaining = servicer_context.time_remaining()
        if remaining is not None:
            ctx._deadline = time.monotonic() + remaining
        return ctx

    def metadata_value(self, key: str) -> str | bytes | None:
        """The last value of metadata ``key`` (keys are lower case on the wire), or None."""
        key = key.lower()
        found: str | bytes | None = None
        for k, v in self.metadata:
            if k == key:
                found = v
        return found

    @property
    def peer(self) -> str | None:
        """The client's address (``"ipv4:127.0.0.1:50312"``) on a server; None on a client."""
        return None if self._server is None else str(self._server.peer())

    def time_remaining(self) -> float | None:
        """Seconds until the call's deadline (None: no deadline)."""
        if self._server is not None:
            remaining = self._server.time_remaining()
            return None if remaining is None else float(remaining)
        if self._deadline is None:
            return self.timeout
        return max(0.0, self._deadline - time.monotonic())

    @property
    def cancelled(self) -> bool:
        """True once the client cancelled the call or its deadline passed (server side)."""
        server = self._server
        if server is None:
            return False
        if self._cancelled:
            return True
        if hasattr(server, "cancelled"):  # grpc.aio
            return bool(server.cancelled())
        return not server.is_active()

    def add_callback(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` when the call ends: completed, cancelled or past its deadline.

        The way for a handler to learn that its client went away while it was
        blocked in a ``yield`` of a server stream.  Server side only.
        """
        server = self._server
        if server is None:
            raise RuntimeError("add_callback() is for handlers, on a server")
        if hasattr(server, "add_done_callback"):  # grpc.aio
            server.add_done_callback(lambda _: callback())
        else:
            server.add_callback(callback)

    def set_trailing_metadata(self, metadata: Metadata | Mapping[str, str | bytes]) -> None:
        """Trailing metadata the server sends with the status."""
        pairs = _pairs(metadata)
        if self._server is None:
            raise RuntimeError("set_trailing_metadata() is for handlers, on a server")
        self._server.set_trailing_metadata(pairs)

    def set_code(self, code: Any) -> None:
        """The status code of a response (to fail a call, raise ServiceError)."""
        if self._server is None:
            raise RuntimeError("set_code() is for handlers, on a server")
        self._server.set_code(code)

    def set_details(self, details: str) -> None:
        if self._server is None:
            raise RuntimeError("set_details() is for handlers, on a server")
        self._server.set_details(details)

    def _options(self) -> dict[str, Any]:
        """The keyword arguments of a grpcio call."""
        return {
            "timeout": self.timeout,
            "metadata": self.metadata or None,
            "wait_for_ready": self.wait_for_ready,
            "compression": self.compression,
        }

    def __repr__(self) -> str:
        side = "server" if self._server is not None else "client"
        return f"<CallContext ({side}) metadata={list(self.metadata)!r}>"


class _NoCallContext(CallContext):
    """``CallContext.NONE``: no options, nothing to receive into."""

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "_frozen", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_frozen", False):
            raise AttributeError(
                "CallContext.NONE cannot be changed: pass a CallContext() of your own"
            )
        super().__setattr__(name, value)

    def __repr__(self) -> str:
        return "CallContext.NONE"


def _pairs(
    metadata: Metadata | Mapping[str, str | bytes] | None,
) -> tuple[tuple[str, str | bytes], ...]:
    if metadata is None:
        return ()
    if isinstance(metadata, Mapping):
        return tuple((str(k), v) for k, v in metadata.items())
    return tuple((str(k), v) for k, v in metadata)


CallContext.NONE = _NoCallContext()
