"""gRPC server reflection for protoattr services, from the descriptors protoattr exports.

Reflection clients (``grpcurl``, Postman, ``grpc_reflection``'s
``ProtoReflectionDescriptorDatabase``) ask the server which services it has
and for the ``FileDescriptorProto`` of each symbol.  :func:`enable_reflection`
answers from ``model.descriptor_set(services)`` - no ``.proto`` file, no
protoc - through ``grpcio-reflection``'s own servicer.
"""

from __future__ import annotations

from typing import Any

import grpc
import grpc.aio

from .._service import service_info
from .._typemodel import TypeModel, default_model

__all__ = ["descriptor_pool", "enable_reflection"]


def descriptor_pool(*services: type, model: TypeModel | None = None) -> Any:
    """A fresh ``google.protobuf.descriptor_pool.DescriptorPool`` declaring ``services``.

    ``services`` (and/or contracts) are exported together with
    ``model.descriptor_set``: one file per package, each importing those it uses.
    """
    from google.protobuf import descriptor_pb2
    from google.protobuf import descriptor_pool as pools

    model = default_model if model is None else model
    pool = pools.DescriptorPool()
    for fd in descriptor_pb2.FileDescriptorSet.FromString(model.descriptor_set(services)).file:
        pool.Add(fd)
    return pool


def enable_reflection(
    server: grpc.Server | grpc.aio.Server, *services: type, model: TypeModel | None = None
) -> None:
    """Serve gRPC server reflection for ``services`` (and reflection itself) on ``server``.

    Needs ``grpcio-reflection`` (in ``protoattr[grpc]``).  Call it beside
    :func:`add_service`, before ``server.start()``.
    """
    from grpc_reflection.v1alpha import reflection

    names = [service_info(s).full_name for s in services if _is_service(s)]
    pool = descriptor_pool(*services, model=model)
    reflection.enable_server_reflection([*names, reflection.SERVICE_NAME], server, pool=pool)


def _is_service(cls: type) -> bool:
    from .._service import is_service

    return is_service(cls)
