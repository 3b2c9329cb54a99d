"""A bounded gRPC load test: protoattr's service stack against Google's generated one.

The same service - ``Orders``, declared once with ``@pa.service`` and exported
with ``model.schema`` for ``grpc_tools.protoc`` - is run two ways, each in a
server process of its own on 127.0.0.1 (an ephemeral port):

* ``protoattr``: a ``@pa.service`` implementation over dataclasses, called with
  ``protoattr.grpc.client``;
* ``google``: a servicer over the generated ``*_pb2`` messages (upb), called
  with the generated stub;
* ``bytes``: the baseline, grpcio alone - the server answers every call with
  the same prebuilt bytes and the client decodes nothing - so the gap
  between it and the others is what the codecs and their glue cost.

Both use grpcio's sync server (a thread pool as wide as the number of
clients) and channel, so the difference is the codec and the glue.  For each,
``--clients`` threads share one channel and make ``--calls`` unary calls in
all (``Get``: an order of ``--lines`` line items); then ``--streams``
server-streaming calls of ``--items`` orders each, checked to arrive complete
and in order.  Rounds rotate the order of the stacks (``--rounds``); the table
shows the median round.

Run: ``python benchmarks/grpc_load.py`` (about 20 s; ``--quick``: a few seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

if __package__ in (None, ""):  # run as a script: make protoattr importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grpc

import protoattr as pa
import protoattr.grpc as pg
from protoattr import field, proto_contract


@proto_contract
@dataclass
class OrderQuery:
    id: int = field(1, default=0)
    lines: pa.int32 = field(2, default=0)  # line items in each order
    count: pa.int32 = field(3, default=0)  # orders in a stream


@proto_contract
@dataclass
class Line:
    sku: str = field(1, default="")
    quantity: pa.int32 = field(2, default=0)
    price_cents: int = field(3, default=0)


@proto_contract
@dataclass
class Order:
    id: int = field(1, default=0)
    customer: str = field(2, default="")
    lines: list[Line] = field(3, default_factory=list)
    note: str = field(4, default="")


@pa.service("bench.v1.Orders")
class Orders(Protocol):
    def get(self, request: OrderQuery) -> Order: ...

    def list_orders(self, request: OrderQuery) -> Iterator[Order]: ...


def make_order(order_id: int, lines: int) -> Order:
    return Order(
        order_id,
        f"customer-{order_id % 977}",
        [Line(f"SKU-{order_id % 100:03}-{n}", n + 1, 199 * (n + 1)) for n in range(lines)],
        "leave at the door",
    )


class OrdersService(Orders):
    def get(self, request: OrderQuery) -> Order:
        return make_order(request.id, request.lines)

    def list_orders(self, request: OrderQuery) -> Iterator[Order]:
        for n in range(request.count):
            yield make_order(n, request.lines)


# -- Google's side -------------------------------------------------------------------


def generate(out_dir: str) -> None:
    from importlib.resources import files

    from grpc_tools import protoc

    (Path(out_dir) / "orders.proto").write_text(pa.default_model.schema(Orders))
    wkt = str(files("grpc_tools") / "_proto")
    args = ["protoc", f"-I{out_dir}", f"-I{wkt}", f"--python_out={out_dir}"]
    if protoc.main([*args, f"--grpc_python_out={out_dir}", "orders.proto"]) != 0:
        raise RuntimeError("protoc failed on the exported orders.proto")


def load_generated(out_dir: str) -> tuple[ModuleType, ModuleType]:
    import importlib

    sys.path.insert(0, out_dir)
    try:
        return importlib.import_module("orders_pb2"), importlib.import_module("orders_pb2_grpc")
    finally:
        sys.path.remove(out_dir)


def google_servicer(pb2: ModuleType, pb2_grpc: ModuleType) -> Any:
    def order(order_id: int, lines: int) -> Any:
        return pb2.Order(
            id=order_id,
            customer=f"customer-{order_id % 977}",
            lines=[
                pb2.Line(
                    sku=f"SKU-{order_id % 100:03}-{n}", quantity=n + 1, price_cents=199 * (n + 1)
                )
                for n in range(lines)
            ],
            note="leave at the door",
        )

    class Servicer(pb2_grpc.OrdersServicer):  # type: ignore[misc,name-defined]
        def Get(self, request: Any, context: Any) -> Any:
            return order(request.id, request.lines)

        def ListOrders(self, request: Any, context: Any) -> Any:
            for n in range(request.count):
                yield order(n, request.lines)

    return Servicer()


def raw_handler(lines: int) -> Any:
    """The transport alone: a fixed order's bytes for any call, no codec on either side."""
    answer = pa.serialize(make_order(1, lines))

    def stream(raw: bytes, context: Any) -> Iterator[bytes]:
        count = pa.deserialize(OrderQuery, raw).count  # a few bytes: how many to send
        for _ in range(count):
            yield answer

    return grpc.method_handlers_generic_handler(
        "bench.v1.Orders",
        {
            "Get": grpc.unary_unary_rpc_method_handler(lambda raw, context: answer),
            "ListOrders": grpc.unary_stream_rpc_method_handler(stream),
        },
    )


# -- the server process --------------------------------------------------------------


def serve(kind: str, out_dir: str, workers: int, lines: int) -> None:
    server = grpc.server(ThreadPoolExecutor(max_workers=workers))
    if kind == "protoattr":
        pg.add_service(server, Orders, OrdersService())
    elif kind == "bytes":
        server.add_generic_rpc_handlers((raw_handler(lines),))
    else:
        pb2, pb2_grpc = load_generated(out_dir)
        pb2_grpc.add_OrdersServicer_to_server(google_servicer(pb2, pb2_grpc), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    try:
        sys.stdin.read()  # until the parent closes our stdin
    finally:
        server.stop(None)


# -- the clients ---------------------------------------------------------------------


@dataclass
class Round:
    kind: str
    calls_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    stream_items_per_s: float


def run_round(kind: str, address: str, args: argparse.Namespace, out_dir: str) -> Round:
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        if kind == "protoattr":
            client = pg.client(Orders, channel, timeout=10)

            def call(i: int) -> int:
                return client.get(OrderQuery(id=i, lines=args.lines)).id

            def stream() -> list[int]:
                items = client.list_orders(OrderQuery(lines=args.lines, count=args.items))
                return [o.id for o in items]
        elif kind == "bytes":  # the baseline: bytes both ways, nothing decoded
            get = channel.unary_unary("/bench.v1.Orders/Get", _registered_method=True)
            listing = channel.unary_stream("/bench.v1.Orders/ListOrders", _registered_method=True)
            query_bytes = pa.serialize(OrderQuery(lines=args.lines, count=args.items))

            def call(i: int) -> int:
                return i if get(b"\x08\x01", timeout=10) else -1

            def stream() -> list[int]:  # counts only: the bytes are all the same order
                return [n for n, _ in enumerate(listing(query_bytes, timeout=10))]
        else:
            pb2, pb2_grpc = load_generated(out_dir)
            stub = pb2_grpc.OrdersStub(channel)

            def call(i: int) -> int:
                return int(stub.Get(pb2.OrderQuery(id=i, lines=args.lines), timeout=10).id)

            def stream() -> list[int]:
                query = pb2.OrderQuery(lines=args.lines, count=args.items)
                return [o.id for o in stub.ListOrders(query, timeout=10)]

        for i in range(50):  # warm up: connections, codecs
            assert call(i) == i
        latencies: list[float] = []
        lock = threading.Lock()
        per_client = args.calls // args.clients

        def worker(offset: int) -> None:
            mine = []
            for i in range(offset, offset + per_client):
                start = time.perf_counter()
                if call(i) != i:
                    raise AssertionError(f"{kind}: call {i} answered another order")
                mine.append(time.perf_counter() - start)
            with lock:
                latencies.extend(mine)

        threads = [
            threading.Thread(target=worker, args=(c * per_client,)) for c in range(args.clients)
        ]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        assert len(latencies) == per_client * args.clients

        expected = list(range(args.items))
        stream_start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=min(args.clients, args.streams)) as pool:
            results = list(pool.map(lambda _: stream(), range(args.streams)))
        stream_elapsed = time.perf_counter() - stream_start
        for got in results:
            if got != expected:
                raise AssertionError(f"{kind}: a stream lost or reordered orders")
    cuts = statistics.quantiles(latencies, n=100)
    return Round(
        kind,
        len(latencies) / elapsed,
        cuts[49] * 1e3,
        cuts[89] * 1e3,
        cuts[98] * 1e3,
        args.streams * args.items / stream_elapsed,
    )


def start_server(
    kind: str, out_dir: str, workers: int, lines: int
) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve",
            kind,
            "--pb2-dir",
            out_dir,
            "--workers",
            str(workers),
            "--lines",
            str(lines),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    assert process.stdout is not None
    port = process.stdout.readline().strip()
    if not port.isdigit():
        process.kill()
        raise RuntimeError(f"the {kind} server did not start")
    return process, f"127.0.0.1:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=8000)
    parser.add_argument("--lines", type=int, default=10)
    parser.add_argument("--streams", type=int, default=16)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1/10 of the calls, one round")
    parser.add_argument("--json", help="write the rounds to this file")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--pb2-dir", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=8, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.pb2_dir, args.workers, args.lines)
        return
    if args.quick:
        args.calls, args.items, args.rounds = args.calls // 10, args.items // 10, 1
    with tempfile.TemporaryDirectory(prefix="protoattr-grpc-bench-") as out_dir:
        generate(out_dir)
        kinds = ["protoattr", "google", "bytes"]
        rounds: dict[str, list[Round]] = {kind: [] for kind in kinds}
        for r in range(args.rounds):
            for kind in kinds[r % 3 :] + kinds[: r % 3]:  # rotate who goes first
                process, address = start_server(kind, out_dir, args.clients, args.lines)
                try:
                    rounds[kind].append(run_round(kind, address, args, out_dir))
                finally:
                    assert process.stdin is not None
                    process.stdin.close()
                    process.wait(timeout=30)
    import platform

    import google.protobuf

    print(
        f"{args.clients} clients, {args.calls} unary calls (an order of {args.lines} lines), "
        f"{args.streams} streams of {args.items} orders; median of {args.rounds} round(s)"
    )
    print(
        f"Python {platform.python_version()}, grpcio {grpc.__version__}, "
        f"protobuf {google.protobuf.__version__} ({_upb()}), protoattr backend "
        f"{pa.default_model.backend if hasattr(pa.default_model, 'backend') else 'python'}"
    )
    print()
    print("| stack | calls/s | p50 ms | p90 ms | p99 ms | stream orders/s |")
    print("|---|---:|---:|---:|---:|---:|")
    medians = {}
    for kind, found in rounds.items():
        best = sorted(found, key=lambda r: r.calls_per_s)[len(found) // 2]
        medians[kind] = best
        print(
            f"| {kind} | {best.calls_per_s:,.0f} | {best.p50_ms:.2f} | {best.p90_ms:.2f} | "
            f"{best.p99_ms:.2f} | {best.stream_items_per_s:,.0f} |"
        )
    print()
    print(
        f"streams verified: {args.rounds * args.streams} per stack, every order in order "
        "(bytes: counted)"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({k: [r.__dict__ for r in v] for k, v in rounds.items()}, indent=2)
        )


def _upb() -> str:
    from google.protobuf.internal import api_implementation

    return str(api_implementation.Type())


if __name__ == "__main__":
    main()
