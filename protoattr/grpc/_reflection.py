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

from .._core.errors import ContractError
from .._service import service_info
from .._typemodel import TypeModel, default_model

__all__ = ["descriptor_pool", "enable_reflection"]


def descriptor_pool(
    *services: type, model: TypeModel | None = None, syntax: str | None = None
) -> Any:
    """A fresh ``google.protobuf.descriptor_pool.DescriptorPool`` declaring ``services``.

    ``services`` (and/or contracts) are exported together with
    ``model.descriptor_set``: one file per package, each importing those it uses.
    ``syntax`` (``"proto2"``, ``"proto3"``, ``"editions"``) is the files'; by
    default the first of proto3, proto2 and editions that can say every contract
    (proto2 for one with ``wire_default=`` or ``required`` fields).
    """
    from google.protobuf import descriptor_pb2
    from google.protobuf import descriptor_pool as pools

    model = default_model if model is None else model
    pool = pools.DescriptorPool()
    for fd in descriptor_pb2.FileDescriptorSet.FromString(
        _descriptor_set(model, services, syntax)
    ).file:
        pool.Add(fd)
    return pool


def enable_reflection(
    server: grpc.Server | grpc.aio.Server,
    *services: type,
    model: TypeModel | None = None,
    syntax: str | None = None,
) -> None:
    """Serve gRPC server reflection for ``services`` (and reflection itself) on ``server``.

    Needs ``grpcio-reflection`` (in ``protoattr[grpc]``).  Call it beside
    :func:`add_service`, before ``server.start()``.  ``syntax`` as for
    :func:`descriptor_pool`.
    """
    from grpc_reflection.v1alpha import reflection

    names = [service_info(s).full_name for s in services if _is_service(s)]
    pool = descriptor_pool(*services, model=model, syntax=syntax)
    reflection.enable_server_reflection([*names, reflection.SERVICE_NAME], server, pool=pool)


def _descriptor_set(model: TypeModel, roots: tuple[type, ...], syntax: str | None) -> bytes:
    """``model.descriptor_set(roots)`` in ``syntax``, or in the first syntax that can say
    the contracts (reflection must answer for whatever a server was declared with)."""
    if syntax is not None:
        return model.descriptor_set(roots, syntax=syntax)
    first: ContractError | None = None
    for candidate in ("proto3", "proto2", "editions"):
        try:
            return model.descriptor_set(roots, syntax=candidate)
        except ContractError as exc:
            first = first or exc
    assert first is not None
    raise first


def _is_service(cls: type) -> bool:
    from .._service import is_service

    return is_service(cls)
