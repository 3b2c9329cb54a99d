"""``ServiceError``: a gRPC status as a Python exception, on both sides of a call."""

from __future__ import annotations

from typing import Any

import grpc

from .._service import Metadata, _pairs

__all__ = ["ServiceError"]


class ServiceError(grpc.RpcError):  # type: ignore[misc]
    """A call that ended with a status other than OK.

    Raise it in a handler to answer with ``code`` and ``details`` (and
    ``trailing_metadata``); a client raises it when a call fails, with the
    status the server (or grpcio, for deadlines, cancellation, size limits)
    gave.  It derives from ``grpc.RpcError``, so code that catches grpcio's
    errors catches it too.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        details: str = "",
        *,
        trailing_metadata: Metadata | None = None,
        initial_metadata: Metadata | None = None,
    ) -> None:
        if not isinstance(code, grpc.StatusCode):
            raise TypeError(f"ServiceError needs a grpc.StatusCode, not {code!r}")
        if code is grpc.StatusCode.OK:
            raise ValueError("ServiceError is for failed calls; StatusCode.OK is not one")
        super().__init__(f"{code.name}: {details}" if details else code.name)
        self._code = code
        self._details = details
        self._trailing = _pairs(trailing_metadata)
        self._initial = _pairs(initial_metadata)

    # the method names of grpc.Call / grpc.aio.AioRpcError, so either can be handled alike
    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return self._trailing

    def initial_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return self._initial

    def __repr__(self) -> str:
        return f"ServiceError({self._code}, {self._details!r})"

    def __reduce__(self) -> Any:
        return (_rebuild, (self._code.name, self._details, self._trailing, self._initial))

    @classmethod
    def _from_call(cls, error: Any) -> ServiceError:
        """The ServiceError for a grpcio ``RpcError`` (a sync call or an ``AioRpcError``)."""
        code = error.code() if callable(getattr(error, "code", None)) else None
        if not isinstance(code, grpc.StatusCode) or code is grpc.StatusCode.OK:
            code = grpc.StatusCode.UNKNOWN
        details = error.details() if callable(getattr(error, "details", None)) else None
        return cls(
            code,
            details or "",
            trailing_metadata=_metadata_of(error, "trailing_metadata"),
            initial_metadata=_metadata_of(error, "initial_metadata"),
        )


def _metadata_of(error: Any, name: str) -> tuple[tuple[str, str | bytes], ...]:
    method = getattr(error, name, None)
    if not callable(method):
        return ()
    try:
        return _pairs(method() or ())
    except Exception:  # a call object that was never started has no metadata
        return ()


def _rebuild(code: str, details: str, trailing: Any, initial: Any) -> ServiceError:
    return ServiceError(
        grpc.StatusCode[code], details, trailing_metadata=trailing, initial_metadata=initial
    )
