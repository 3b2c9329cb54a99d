"""Services in exported schemas: ``service`` blocks, and the full names of contracts.

A schema is one ``.proto`` file, hence one package.  A service's full name
(``shop.v1.Catalog``) fixes its package - the gRPC path ``/shop.v1.Catalog/...``
depends on it - so a schema that exports services is in their package, and
the messages its RPCs use are declared beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._core.wkt import WELL_KNOWN_CLASSES, WELL_KNOWN_FILES
from .._service import ServiceInfo, is_service, service_info

if TYPE_CHECKING:
    from .._model.codecs import CodecModel
    from .proto import _Exporter

__all__ = ["contract_package", "full_name", "render_services", "split_services"]

_INDENT = "  "


def contract_package(model: CodecModel, cls: type, default: str | None) -> str | None:
    """The protobuf package of contract ``cls``, exported in a file of package ``default``.

    A contract's own package (``@proto_contract(package=...)`` or its module's
    ``__protobuf_package__``) wins; a contract without one is exported in the
    file's package.  Every export (schema text, descriptors, reflection) asks here.
    """
    return model.info(cls).package or default


def full_name(model: CodecModel, cls: type, default_package: str | None) -> str:
    """The full protobuf name of contract ``cls`` (``shop.v1.Product``, ``shop.v1.Order.Line``
    for a nested one), without a dot."""
    name = model.info(cls).scoped_name
    package = contract_package(model, cls, default_package)
    return f"{package}.{name}" if package else name


def split_services(
    model: CodecModel, roots: Sequence[type], package: str | None, *, one_package: bool = True
) -> tuple[list[type], list[ServiceInfo], str | None]:
    """``(the contracts to export, the services, the file's package)``.

    The contracts are the given ones plus every request and response type.  With
    ``one_package`` (one file) every service must be in the file's package;
    without it (one file per package) services of several packages are fine.
    """
    contracts: list[type] = []
    services: list[ServiceInfo] = []
    for root in roots:
        if is_service(root):
            info = service_info(root)
            if package is None:
                package = info.package or None
            if one_package and (info.package or None) != package:
                raise ValueError(
                    f"{root.__qualname__} is the service {info.full_name}, which cannot be "
                    f"declared in a file of package {package or '(none)'}: export services of "
                    "one package per schema"
                )
            if any(s.full_name == info.full_name for s in services):
                raise ValueError(f"two services are named {info.full_name} in this schema")
            services.append(info)
            for m in info.methods:
                contracts += [m.request, m.response]
        else:
            contracts.append(root)
    return contracts, services, package


def render_services(exporter: _Exporter, services: list[ServiceInfo]) -> str:
    """The ``service`` blocks (empty when there are none), after the exported messages."""
    if not services:
        return ""
    lines: list[str] = []
    for info in services:
        exporter._name(
            info.name, info.cls, "service", (info.package or None) if exporter.home else None
        )
        lines += ["", f"service {info.name} {{"]
        for m in info.methods:
            request = message_name(exporter, m.request)
            response = message_name(exporter, m.response)
            stream_in = "stream " if m.client_streaming else ""
            stream_out = "stream " if m.server_streaming else ""
            lines.append(
                f"{_INDENT}rpc {m.name}({stream_in}{request}) returns ({stream_out}{response});"
            )
        lines.append("}")
    return "\n".join(lines) + "\n"


def message_name(exporter: _Exporter, cls: type) -> str:
    """The message a request or response travels as: its hierarchy root's (a well-known
    type by its full name, a contract of another file by its full name)."""
    if cls in WELL_KNOWN_CLASSES:
        name = WELL_KNOWN_CLASSES[cls]
        exporter.file_imports.add(WELL_KNOWN_FILES[name])
        return f".{name}" if (exporter.package or "").split(".")[0] == "google" else name
    root = exporter._root(cls)
    return exporter._declared_ref(root, exporter.model.info(root).scoped_name, frozenset())
