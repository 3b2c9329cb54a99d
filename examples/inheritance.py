"""Inheritance: a class hierarchy on the wire, protobuf-net's ``ProtoInclude`` way.

``Shape`` has two subtypes, ``Circle`` (tag 10) and ``Square`` (tag 11), and
``Square`` has one of its own, ``Cube`` (tag 5).  A subtype's own fields travel
as a message in its ``subtype_tag`` field of the base, written first.

What it shows:

* the bytes of each class, annotated;
* a ``Drawing`` whose ``list[Shape]`` holds every kind, decoding each back to
  its own class;
* ``model.add_subtype``: the same relationship declared on a model, for
  classes you do not want to decorate;
* if Google's ``protobuf`` and ``grpcio-tools`` are installed: the equivalent
  ``.proto`` (a ``oneof subtype`` of messages) compiled with protoc, and
  Google's runtime reading protoattr's bytes and writing the same bytes back.

Run: ``python examples/inheritance.py``  (about a second)
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import protoattr as pa
from protoattr import field, proto_contract


@proto_contract
@dataclass
class Shape:
    name: str = field(1, default="")


@proto_contract(subtype_tag=10)
@dataclass
class Circle(Shape):
    radius: float = field(1, default=0.0)


@proto_contract(subtype_tag=11)
@dataclass
class Square(Shape):
    side: float = field(1, default=0.0)


@proto_contract(subtype_tag=5)
@dataclass
class Cube(Square):
    depth: float = field(1, default=0.0)


@proto_contract
@dataclass
class Drawing:
    shapes: list[Shape] = field(1, default_factory=list)


SHAPES_PROTO = """\
syntax = "proto3";
package example;

message Shape {
  string name = 1;
  oneof subtype {
    Circle circle = 10;
    Square square = 11;
  }
}
message Circle { double radius = 1; }
message Square {
  double side = 1;
  oneof subtype { Cube cube = 5; }
}
message Cube { double depth = 1; }
message Drawing { repeated Shape shapes = 1; }
"""


def show(obj: object) -> bytes:
    data = pa.serialize(obj)
    print(f"  {obj!s:42} {len(data):3} bytes  {data.hex(' ')}")
    return data


def google_module() -> Any | None:
    """``shapes_pb2`` compiled from SHAPES_PROTO, or None without protobuf/grpcio-tools."""
    try:
        from grpc_tools import protoc  # type: ignore[import-untyped]
    except ImportError:
        return None
    tmp = Path(tempfile.mkdtemp(prefix="protoattr-example-"))
    (tmp / "shapes.proto").write_text(SHAPES_PROTO)
    if protoc.main(["protoc", f"-I{tmp}", f"--python_out={tmp}", str(tmp / "shapes.proto")]):
        raise RuntimeError("protoc failed")
    spec = importlib.util.spec_from_file_location("shapes_pb2", tmp / "shapes_pb2.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["shapes_pb2"] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    print("Each class on the wire:")
    show(Shape("plain"))
    circle = show(Circle("c", 2.0))
    print("    = 52 09 [Circle level: 09 <radius 2.0>] 0a 01 'c' [Shape's name]")
    show(Square("s", 1.5))
    show(Cube("k", 1.0, 3.0))

    print("\nDecoding as the base gives the most derived class:")
    print(f"  pa.deserialize(Shape, <Circle bytes>) -> {pa.deserialize(Shape, circle)!r}")
    drawing = Drawing([Shape("plain"), Circle("c", 2.0), Square("s", 1.5), Cube("k", 1.0, 3.0)])
    data = pa.serialize(drawing)
    back = pa.deserialize(Drawing, data)
    assert back == drawing
    kinds = ", ".join(type(s).__name__ for s in back.shapes)
    print(f"  a Drawing of {len(data)} bytes decodes to: {kinds}")

    print("\nThe same hierarchy on a model, without subtype_tag (model.add_subtype):")

    @proto_contract
    @dataclass
    class Vehicle:
        wheels: pa.int32 = field(1, default=0)

    @proto_contract
    @dataclass
    class Car(Vehicle):
        seats: pa.int32 = field(2, default=0)

    model = pa.TypeModel()
    model.add_subtype(Vehicle, 10, Car)
    as_subtype = model.serialize(Car(wheels=4, seats=5))
    flat = pa.serialize(Car(wheels=4, seats=5))
    print(f"  with add_subtype(Vehicle, 10, Car): {as_subtype.hex(' ')}")
    print(f"  default model (Car is flat):        {flat.hex(' ')}")
    assert model.deserialize(Vehicle, as_subtype) == Car(4, 5)

    pb = google_module()
    if pb is None:
        print("\n(Google's protobuf and grpcio-tools are not installed: interop check skipped)")
        return
    print("\nGoogle's runtime, from the equivalent .proto (a oneof of subtype messages):")
    msg = pb.Drawing.FromString(data)
    for shape in msg.shapes:
        which = shape.WhichOneof("subtype")
        inner = getattr(shape, which).WhichOneof("subtype") if which == "square" else None
        print(f"  Shape name={shape.name!r:8} subtype={which}{' -> ' + inner if inner else ''}")
    google_bytes = msg.SerializeToString()
    assert pa.deserialize(Drawing, google_bytes) == drawing
    assert pb.Drawing.FromString(google_bytes) == msg
    circle_pb = pb.Shape.FromString(circle).SerializeToString()
    print(f"  Google writes the Circle as {circle_pb.hex(' ')}")
    print("  (name first: Google writes fields in tag order, protobuf-net and protoattr the")
    print("  subtype first; every runtime reads both orders: protoattr decodes Google's")
    print("  bytes of the whole Drawing back to the same four shapes)")


if __name__ == "__main__":
    main()
