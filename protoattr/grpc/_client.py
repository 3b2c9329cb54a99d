"""A typed client for a declared service over a ``grpc.Channel`` or ``grpc.aio.Channel``.

``client(Catalog, channel)`` returns an object with one method per RPC, named
as the declaration names them, so a type checker sees the declaration's
types (``client(Catalog, channel)`` *is* a ``Catalog``).  Each method takes
the request (or an iterable / async iterable of requests), an optional
:class:`~protoattr.CallContext`, and grpcio's call options as keywords
(``timeout``, ``metadata``, ``wait_for_ready``, ``compression``,
``credentials``).  Over a sync channel unary responses come back as objects
and streams as :class:`ResponseStream`; over an aio channel unary methods
are coroutines and streams :class:`AsyncResponseStream`.  A failed call
raises :class:`ServiceError` with the status.  ``aio_client(Catalog, channel)``
is the same over an aio channel, typed as :class:`AsyncClient` (the mypy
plugin in :mod:`protoattr.mypy` gives its methods their async types).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

import grpc
import grpc.aio

from .._service import CallContext, Metadata, MethodInfo, _pairs, service_info
from .._typemodel import TypeModel, default_model
from ._errors import ServiceError

__all__ = ["AsyncClient", "AsyncResponseStream", "ResponseStream", "aio_client", "client"]

S = TypeVar("S")
T = TypeVar("T")


def client(
    service: Callable[..., S],
    channel: grpc.Channel | grpc.aio.Channel,
    *,
    model: TypeModel | None = None,
    timeout: float | None = None,
    metadata: Metadata | None = None,
) -> S:
    """A client of ``service`` over ``channel``; ``timeout``/``metadata`` apply to every call.

    Typed as the service itself, so a type checker checks requests and
    responses against the declaration.  (``service`` is annotated as a
    callable rather than ``type[S]`` because mypy refuses a Protocol class for
    ``type[S]``.)  Over a ``grpc.aio`` channel it works as :func:`aio_client`
    does, but is still typed as the sync declaration: call :func:`aio_client`
    there, whose type says the methods are coroutines.
    """
    result: S = _build("client", service, channel, model, timeout, metadata)
    return result  # it has every method the declaration has


def aio_client(
    service: Callable[..., S],
    channel: grpc.aio.Channel,
    *,
    model: TypeModel | None = None,
    timeout: float | None = None,
    metadata: Metadata | None = None,
) -> AsyncClient[S]:
    """A client of ``service`` over a ``grpc.aio`` channel: unary methods are coroutines,
    streamed responses :class:`AsyncResponseStream`.

    Its own type, :class:`AsyncClient` of the declaration, because no annotation
    turns a declaration's methods into coroutines: with protoattr's mypy plugin
    (``plugins = ["protoattr.mypy"]``) mypy sees each method's async form;
    without it the methods are ``Any``.
    """
    if not isinstance(channel, grpc.aio.Channel):
        raise TypeError(
            f"aio_client() takes a grpc.aio.Channel, not {type(channel).__qualname__}: "
            "use client() for a grpc.Channel"
        )
    result: AsyncClient[S] = _build("aio_client", service, channel, model, timeout, metadata)
    return result


def _build(
    caller: str,
    service: Callable[..., Any],
    channel: grpc.Channel | grpc.aio.Channel,
    model: TypeModel | None,
    timeout: float | None,
    metadata: Metadata | None,
) -> Any:
    """The client object: one attribute per RPC, on a class named for the service (an
    :class:`AsyncClient` over aio, whichever function made it)."""
    if not isinstance(service, type):
        raise TypeError(
            f"{caller}() takes a class decorated with @protoattr.service, not {service!r}"
        )
    info = service_info(service)
    model = default_model if model is None else model
    aio = isinstance(channel, grpc.aio.Channel)
    defaults = _Defaults(timeout, _pairs(metadata))
    methods = {}
    for m in info.methods:
        path = f"/{info.full_name}/{m.name}"
        make = getattr(channel, m.shape)
        try:
            multicallable = make(path, _registered_method=True)
        except TypeError:  # grpcio before 1.63 has no registered methods
            multicallable = make(path)
        methods[m.attr] = _voids(m, _method(m, multicallable, model, defaults, aio), aio)
    base = AsyncClient if aio else _Client
    stub = type(f"{info.cls.__name__}Client", (base,), {})()
    stub.__dict__.update(methods)
    stub._service = info.full_name
    stub._channel = channel
    return stub


def _call_options(
    request: Any,
    context: CallContext | None = None,
    *,
    timeout: float | None = None,
    metadata: Metadata | Mapping[str, str | bytes] | None = None,
    wait_for_ready: bool | None = None,
    compression: grpc.Compression | None = None,
    credentials: grpc.CallCredentials | None = None,
) -> None:
    """The parameters of every client method, as the mypy plugin gives them (the RPC's
    request type replaces ``Any``): the keywords are grpcio's call options, which
    :func:`_options` merges with the context's and the client's."""


class _Client:
    _service: str
    _channel: Any

    def __repr__(self) -> str:
        return f"<{type(self).__name__} for {self._service}>"


class AsyncClient(_Client, Generic[S]):
    """What :func:`aio_client` returns: a client of the service ``S`` over ``grpc.aio``.

    Each RPC of ``S`` is an attribute, called as the declaration says but
    awaited (``await c.get_order(req)``), or iterated with ``async for`` for a
    streamed response.  mypy checks those calls with protoattr's plugin; to
    other checkers the methods are ``Any``.
    """

    def __getattr__(self, name: str) -> Any:
        service = self.__dict__.get("_service", "the service")  # no recursion before it is set
        raise AttributeError(f"{service} has no RPC {name!r}")


class _Defaults:
    def __init__(self, timeout: float | None, metadata: tuple[tuple[str, str | bytes], ...]):
        self.timeout = timeout
        self.metadata = metadata


def _options(
    defaults: _Defaults, context: CallContext | None, overrides: dict[str, Any]
) -> dict[str, Any]:
    """grpcio's call keywords: the call's own, then the context's, then the client's."""
    options: dict[str, Any] = {}
    metadata = list(defaults.metadata)
    if defaults.timeout is not None:
        options["timeout"] = defaults.timeout
    if context is not None:
        for key, value in context._options().items():
            if key == "metadata":
                metadata += value or ()
            elif value is not None:
                options[key] = value
    for key, value in overrides.items():
        if key == "metadata":
            metadata += _pairs(value)
        elif value is not None:
            options[key] = value
    if metadata:
        options["metadata"] = tuple(metadata)
    return options


def _own(context: CallContext | None) -> CallContext | None:
    """The caller's context, or None for none (``CallContext.NONE`` receives nothing)."""
    if context is None or context is CallContext.NONE:
        return None
    if not isinstance(context, CallContext):
        raise TypeError(f"the second argument of a call is a CallContext, not {context!r}")
    return context


def _fill(context: CallContext | None, call: Any) -> None:
    """Copy what the server sent into the caller's context (sync calls)."""
    if context is None or call is None:
        return
    context.initial_metadata = _pairs(call.initial_metadata() or ())
    context.trailing_metadata = _pairs(call.trailing_metadata() or ())
    context.code = call.code()
    context.details = call.details()


def _failed(context: CallContext | None, error: grpc.RpcError) -> ServiceError:
    failure = ServiceError._from_call(error)
    if context is not None:
        context.initial_metadata = failure.initial_metadata()
        context.trailing_metadata = failure.trailing_metadata()
        context.code = failure.code()
        context.details = failure.details()
    return failure


def _voids(m: MethodInfo, call: Callable[..., Any], aio: bool) -> Callable[..., Any]:
    """A method declared without a request, or ``-> None``, as its declaration reads:
    the Empty request is sent for it, the Empty response becomes None."""
    if m.takes_request and m.returns_value:
        return call
    empty = m.request

    def args(a: tuple[Any, ...]) -> tuple[Any, ...]:
        return a if m.takes_request else (empty(), *a)

    if aio and not m.server_streaming:

        async def aio_void(*a: Any, **kw: Any) -> Any:
            out = await call(*args(a), **kw)
            return out if m.returns_value else None

        aio_void.__name__ = m.attr
        return aio_void

    def void(*a: Any, **kw: Any) -> Any:
        out = call(*args(a), **kw)
        return out if m.returns_value else None

    void.__name__ = m.attr
    return void


def _method(
    m: MethodInfo, multicallable: Any, model: TypeModel, defaults: _Defaults, aio: bool
) -> Callable[..., Any]:
    serialize = model.serialize
    deserialize = model.deserialize
    request_type, response_type = m.request, m.response

    def encode(request: Any) -> bytes:
        if not isinstance(request, request_type):
            raise TypeError(
                f"{m.owner} takes {request_type.__qualname__} requests, "
                f"not {type(request).__qualname__}"
            )
        return serialize(request)

    def decode(raw: bytes) -> Any:
        return deserialize(response_type, raw)

    def encode_all(requests: Iterable[Any]) -> Iterator[bytes]:
        for request in requests:
            yield encode(request)

    async def aencode_all(requests: Any) -> AsyncIterator[bytes]:
        async for request in requests:
            yield encode(request)

    def outgoing(requests: Any) -> Any:
        if m.client_streaming:
            return aencode_all(requests) if hasattr(requests, "__aiter__") else encode_all(requests)
        return encode(requests)

    if not aio:
        if m.server_streaming:

            def sync_stream(request: Any, context: CallContext | None = None, **kw: Any) -> Any:
                context = _own(context)
                call = multicallable(outgoing(request), **_options(defaults, context, kw))
                return ResponseStream(call, decode, context)

            sync_stream.__name__ = m.attr
            return sync_stream

        def sync_unary(request: Any, context: CallContext | None = None, **kw: Any) -> Any:
            context = _own(context)
            options = _options(defaults, context, kw)
            data = outgoing(request)
            try:
                if context is None:
                    raw = multicallable(data, **options)
                else:
                    raw, call = multicallable.with_call(data, **options)
                    _fill(context, call)
            except grpc.RpcError as exc:
                raise _failed(context, exc) from None
            return decode(raw)

        sync_unary.__name__ = m.attr
        return sync_unary

    if m.server_streaming:

        def aio_stream(request: Any, context: CallContext | None = None, **kw: Any) -> Any:
            context = _own(context)
            call = multicallable(outgoing(request), **_options(defaults, context, kw))
            return AsyncResponseStream(call, decode, context)

        aio_stream.__name__ = m.attr
        return aio_stream

    async def aio_unary(request: Any, context: CallContext | None = None, **kw: Any) -> Any:
        context = _own(context)
        call = multicallable(outgoing(request), **_options(defaults, context, kw))
        try:
            raw = await call
        except grpc.RpcError as exc:
            raise _failed(context, exc) from None
        if context is not None:
            await _afill(context, call)
        return decode(raw)

    aio_unary.__name__ = m.attr
    return aio_unary


async def _afill(context: CallContext, call: Any) -> None:
    context.initial_metadata = _pairs(await call.initial_metadata() or ())
    context.trailing_metadata = _pairs(await call.trailing_metadata() or ())
    context.code = await call.code()
    context.details = await call.details()


class ResponseStream(Generic[T]):
    """The responses of a server-streaming or bidirectional call (sync).

    Iterate it; ``cancel()`` (or leaving a ``with`` block) cancels the call, and
    the server sees the cancellation.  A failed call raises :class:`ServiceError`
    from the iteration.
    """

    def __init__(self, call: Any, decode: Callable[[bytes], T], context: CallContext | None):
        self._call = call
        self._decode = decode
        self._context = context

    def __iter__(self) -> ResponseStream[T]:
        return self

    def __next__(self) -> T:
        try:
            raw = next(self._call)
        except StopIteration:
            _fill(self._context, self._call)
            raise
        except grpc.RpcError as exc:
            raise _failed(self._context, exc) from None
        return self._decode(raw)

    def cancel(self) -> bool:
        """Cancel the call (True if it was still running)."""
        return bool(self._call.cancel())

    def __enter__(self) -> ResponseStream[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()

    def initial_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return _pairs(self._call.initial_metadata() or ())

    def trailing_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return _pairs(self._call.trailing_metadata() or ())

    def code(self) -> grpc.StatusCode:
        return self._call.code()


class AsyncResponseStream(Generic[T]):
    """The responses of a server-streaming or bidirectional call over ``grpc.aio``."""

    def __init__(self, call: Any, decode: Callable[[bytes], T], context: CallContext | None):
        self._call = call
        self._decode = decode
        self._context = context

    def __aiter__(self) -> AsyncResponseStream[T]:
        return self

    async def __anext__(self) -> T:
        try:
            raw = await self._call.read()
        except grpc.RpcError as exc:
            raise _failed(self._context, exc) from None
        if raw is grpc.aio.EOF:
            if self._context is not None:
                await _afill(self._context, self._call)
            raise StopAsyncIteration
        return self._decode(raw)

    def cancel(self) -> bool:
        """Cancel the call (True if it was still running)."""
        return bool(self._call.cancel())

    async def __aenter__(self) -> AsyncResponseStream[T]:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.cancel()

    async def initial_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return _pairs(await self._call.initial_metadata() or ())

    async def trailing_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return _pairs(await self._call.trailing_metadata() or ())

    async def code(self) -> grpc.StatusCode:
        return await self._call.code()
