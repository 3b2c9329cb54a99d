"""gRPC for protoattr services, on grpcio (``pip install 'protoattr[grpc]'``).

Declare a service with :func:`protoattr.service`, then:

* :func:`add_service` serves an implementation on ``grpc.server()`` or
  ``grpc.aio.server()``;
* :func:`client` calls one over a ``grpc.Channel`` (:func:`aio_client` over a
  ``grpc.aio.Channel``, typed as an :class:`AsyncClient`);
* :class:`ServiceError` is a status (``grpc.StatusCode`` and details) raised by
  handlers and seen by clients;
* :func:`enable_reflection` answers gRPC server reflection from the
  descriptors protoattr exports (``model.descriptor_set(...)``).

See the Services page of the docs.
"""

from __future__ import annotations

try:
    import grpc as _grpc  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess
    raise ImportError("protoattr.grpc needs grpcio: pip install 'protoattr[grpc]'") from exc

from .._service import CallContext
from ._client import AsyncClient, AsyncResponseStream, ResponseStream, aio_client, client
from ._errors import ServiceError
from ._reflection import descriptor_pool, enable_reflection
from ._server import add_service

__all__ = [
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
]
