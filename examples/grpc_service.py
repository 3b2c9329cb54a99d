"""A shop's catalog as a gRPC service: declared in Python, served and called on loopback.

No ``.proto`` file and no generated code: the service is a ``Protocol`` of
typed methods over contracts.  The script

1. serves an implementation on ``grpc.server()`` at 127.0.0.1 (an ephemeral
   port), with the standard health service (``grpcio-health-checking``) and
   server reflection, so ``grpcurl -plaintext 127.0.0.1:PORT list`` would work;
2. checks health, calls all four kinds of RPC with protoattr's typed client,
   shows a status code and a deadline;
3. prints the ``.proto`` another language would generate its stubs from,
   and stops the server.

Run: ``python examples/grpc_service.py``  (needs ``pip install 'protoattr[grpc]'``)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

import protoattr as pa
import protoattr.grpc as pg
from protoattr import field, proto_contract


@proto_contract
@dataclass
class ProductQuery:
    id: pa.int32 = field(1, default=0)
    delay: float = field(2, default=0.0)  # seconds the server takes (to show a deadline)


@proto_contract
@dataclass
class Product:
    id: pa.int32 = field(1, default=0)
    name: str = field(2, default="")
    price_cents: pa.int64 = field(3, default=0)


@proto_contract
@dataclass
class Stock:
    products: pa.int32 = field(1, default=0)
    value_cents: pa.int64 = field(2, default=0)


@pa.service("shop.v1.Catalog")
class Catalog(Protocol):
    def get_product(
        self, request: ProductQuery, context: pa.CallContext = pa.CallContext.NONE
    ) -> Product: ...

    def list_products(self, request: ProductQuery) -> Iterator[Product]: ...

    def add_products(self, requests: Iterator[Product]) -> Stock: ...

    def reprice(self, requests: Iterator[Product]) -> Iterator[Product]: ...


PRODUCTS = {1: Product(1, "bolt", 25), 2: Product(2, "nut", 10), 3: Product(3, "gear", 990)}


class CatalogService(Catalog):
    def get_product(
        self, request: ProductQuery, context: pa.CallContext = pa.CallContext.NONE
    ) -> Product:
        time.sleep(request.delay)
        product = PRODUCTS.get(request.id)
        if product is None:
            raise pg.ServiceError(grpc.StatusCode.NOT_FOUND, f"no product {request.id}")
        context.set_trailing_metadata([("x-served-by", "example")])
        return product

    def list_products(self, request: ProductQuery) -> Iterator[Product]:
        yield from PRODUCTS.values()

    def add_products(self, requests: Iterator[Product]) -> Stock:
        added = list(requests)
        return Stock(len(added), sum(p.price_cents for p in added))

    def reprice(self, requests: Iterator[Product]) -> Iterator[Product]:
        for product in requests:
            yield Product(product.id, product.name, product.price_cents * 11 // 10)


def main() -> None:
    server = grpc.server(ThreadPoolExecutor(max_workers=4))
    pg.add_service(server, Catalog, CatalogService())
    checks = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checks, server)
    checks.set("shop.v1.Catalog", health_pb2.HealthCheckResponse.SERVING)
    pg.enable_reflection(server, Catalog)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            status = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="shop.v1.Catalog"), timeout=5
            )
            print("health:", health_pb2.HealthCheckResponse.ServingStatus.Name(status.status))

            catalog = pg.client(Catalog, channel, timeout=5)
            context = pa.CallContext()
            print("unary:", catalog.get_product(ProductQuery(id=1), context))
            print("  trailing metadata:", context.trailing_metadata)
            print("server stream:", [p.name for p in catalog.list_products(ProductQuery())])
            print("client stream:", catalog.add_products(iter(PRODUCTS.values())))
            repriced = catalog.reprice(iter(PRODUCTS.values()))
            print("bidi:", [p.price_cents for p in repriced])
            try:
                catalog.get_product(ProductQuery(id=99))
            except pg.ServiceError as error:
                print("error:", error.code().name, error.details())
            try:
                catalog.get_product(ProductQuery(id=1, delay=0.5), pa.CallContext(timeout=0.05))
            except pg.ServiceError as error:
                print("deadline:", error.code().name)
    finally:
        server.stop(None)
    print()
    print(pa.default_model.schema(Catalog), end="")


if __name__ == "__main__":
    main()
