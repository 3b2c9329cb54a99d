"""``protoattr gen`` turns ``.proto`` services into ``@pa.service`` Protocols that serve."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2

import protoattr as pa
from protoattr._schema.gen import GenError
from protoattr._schema.gen import descriptor_set as protoc_descriptor_set
from protoattr._service import service_info
from tests.test_gen import gen_proto

SHOP = """\
syntax = "proto3";
package gen.shop.v1;
import "google/protobuf/timestamp.proto";

// A product.
message Product { int32 id = 1; string name = 2; google.protobuf.Timestamp added = 3; }
message GetProductRequest { int32 id = 1; }
message Empty {}
message RestockingInstructionsForOneWarehouse { string sku = 1; }

// The catalog of the shop.
service Catalog {
  // Looks one up.
  rpc GetProduct(GetProductRequest) returns (Product);
  rpc ListProducts(Empty) returns (stream Product);
  rpc Upload(stream Product) returns (Empty);
  rpc Sync(stream Product) returns (stream Product);
  rpc GetHTTPStatus(Empty) returns (Empty);
  rpc Restock(stream RestockingInstructionsForOneWarehouse) returns (stream Empty);
}
"""

SERVICE_BLOCK = '''\
@pa.service("gen.shop.v1.Catalog")
class Catalog(Protocol):
    """The catalog of the shop."""

    # Looks one up.
    def get_product(
        self, request: GetProductRequest, context: pa.CallContext = pa.CallContext.NONE
    ) -> Product: ...

    def list_products(
        self, request: Empty, context: pa.CallContext = pa.CallContext.NONE
    ) -> Iterator[Product]: ...

    def upload(
        self, requests: Iterator[Product], context: pa.CallContext = pa.CallContext.NONE
    ) -> Empty: ...

    def sync(
        self, requests: Iterator[Product], context: pa.CallContext = pa.CallContext.NONE
    ) -> Iterator[Product]: ...

    @pa.rpc(name="GetHTTPStatus")
    def get_http_status(
        self, request: Empty, context: pa.CallContext = pa.CallContext.NONE
    ) -> Empty: ...

    def restock(
        self,
        requests: Iterator[RestockingInstructionsForOneWarehouse],
        context: pa.CallContext = pa.CallContext.NONE,
    ) -> Iterator[Empty]: ...
'''


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return gen_proto(SHOP, tmp_path_factory.mktemp("shop"), "shop")


def test_a_service_becomes_a_protocol(shop: Any) -> None:
    source = Path(shop.__file__).read_text(encoding="utf-8")
    assert source.endswith("\n\n\n" + SERVICE_BLOCK)
    assert "from typing import Protocol" in source
    info = service_info(shop.Catalog)
    assert [(m.attr, m.name, m.shape) for m in info.methods] == [
        ("get_product", "GetProduct", "unary_unary"),
        ("list_products", "ListProducts", "unary_stream"),
        ("upload", "Upload", "stream_unary"),
        ("sync", "Sync", "stream_stream"),
        ("get_http_status", "GetHTTPStatus", "unary_unary"),
        ("restock", "Restock", "stream_stream"),
    ]


def test_the_generated_service_exports_the_same_service(shop: Any, tmp_path: Path) -> None:
    (tmp_path / "a.proto").write_text(SHOP, encoding="utf-8")
    (tmp_path / "b.proto").write_text(pa.default_model.schema(shop.Catalog), encoding="utf-8")

    def service(name: str) -> descriptor_pb2.ServiceDescriptorProto:
        files = descriptor_pb2.FileDescriptorSet.FromString(
            protoc_descriptor_set([tmp_path / name], [str(tmp_path)])
        )
        (fd,) = [f for f in files.file if f.name == name]
        svc = fd.service[0]
        svc.ClearField("options")
        return svc

    assert service("a.proto") == service("b.proto")


def test_the_generated_service_serves_and_is_called(shop: Any) -> None:
    import protoattr.grpc as pg

    class Catalog(shop.Catalog):  # type: ignore[misc,name-defined]
        def get_product(self, request: Any, context: Any = None) -> Any:
            return shop.Product(id=request.id, name="bolt")

        def list_products(self, request: Any, context: Any = None) -> Any:
            yield from (shop.Product(id=n) for n in range(3))

        def upload(self, requests: Any, context: Any = None) -> Any:
            list(requests)
            return shop.Empty()

        def sync(self, requests: Any, context: Any = None) -> Any:
            yield from requests

        def get_http_status(self, request: Any, context: Any = None) -> Any:
            return shop.Empty()

        def restock(self, requests: Any, context: Any = None) -> Any:
            yield from (shop.Empty() for _ in requests)

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    pg.add_service(server, shop.Catalog, Catalog())
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            client = pg.client(shop.Catalog, channel, timeout=5)
            assert client.get_product(shop.GetProductRequest(id=4)).name == "bolt"
            assert [p.id for p in client.list_products(shop.Empty())] == [0, 1, 2]
            assert [p.id for p in client.sync(iter([shop.Product(id=9)]))] == [9]
            assert client.get_http_status(shop.Empty()) == shop.Empty()
    finally:
        server.stop(None)


def test_a_well_known_type_without_a_contract_as_a_request_is_refused(tmp_path: Path) -> None:
    text = (
        'syntax = "proto3";\nimport "google/protobuf/struct.proto";\n'
        "message R {}\nservice Doc { rpc Get(R) returns (google.protobuf.Struct); }\n"
    )
    with pytest.raises(GenError, match=r"service Doc, rpc Get: google\.protobuf\.Struct"):
        gen_proto(text, tmp_path, "doc")


def test_a_timestamp_as_a_response_is_pa_timestamp(tmp_path: Path) -> None:
    text = (
        'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\n'
        "message R {}\nservice Clock { rpc Now(R) returns (google.protobuf.Timestamp); }\n"
    )
    g = gen_proto(text, tmp_path, "clock")
    assert service_info(g.Clock).methods[0].response is pa.Timestamp
