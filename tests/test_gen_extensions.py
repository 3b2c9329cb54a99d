"""``protoattr gen`` turns ``extend`` blocks into ``pa.extension`` handles.

The generated module passes ruff and its handles read and write what upb's
``msg.Extensions[...]`` does for the same schema (singular with defaults, repeated
packed and not, enums, messages, groups, an extension declared inside a message);
custom options (extensions of descriptor.proto's ``*Options``) are read from
protoc's descriptors decoded with the descriptor messages generated beside them.
"""

from __future__ import annotations

from pathlib import Path

import protoattr as pa
from protoattr._schema.gen import descriptor_set
from tests.protoc import compile_proto
from tests.test_gen import gen_proto

PROTO = """
syntax = "proto2";
package genext.v1;
import "google/protobuf/descriptor.proto";

message Options { optional string name = 1; extensions 100 to 199, 1000 to max; }
message Sub {
  optional int32 x = 1;
  extend Options { optional Sub sub = 120; }
}
enum Color { RED = 0; BLUE = 1; }
extend Options {
  optional int32 priority = 100 [default = 5];
  repeated string tags = 101;
  repeated int32 nums = 102 [packed = true];
  repeated sint64 loose = 105;
  optional Color color = 103 [default = BLUE];
  optional group G = 104 { optional int32 x = 1; }
}
extend google.protobuf.FieldOptions { optional string unit = 50000; }
extend google.protobuf.MessageOptions { repeated int32 levels = 50001; }
message Measured {
  option (levels) = 1;
  option (levels) = 2;
  optional double width = 1 [(unit) = "cm"];
}
"""


def test_generated_extensions_match_upb(tmp_path: Path) -> None:
    mod = gen_proto(PROTO, tmp_path, "genext")
    source = (tmp_path / "genext.py").read_text()
    assert "@pa.proto_contract(extensions=[(100, 199), (1000, 536870911)])" in source
    assert (
        'priority = pa.extension(Options, 100, pa.int32, name="genext.v1.priority", default=5)'
        in source
    )
    assert 'unit = pa.extension(FieldOptions, 50000, str, name="genext.v1.unit")' in source
    pb = compile_proto(PROTO.replace("genext.v1", "genext_pb.v1"), "genext_pb")
    assert mod.priority.get(mod.Options()) == 5 and mod.color.get(mod.Options()) == mod.Color.BLUE
    ours = mod.Options(name="n")
    theirs = pb.Options(name="n")
    for ext, desc, value, upb_value in [
        (mod.nums, pb.nums, [1, 2], [1, 2]),
        (mod.priority, pb.priority, 7, 7),
        (mod.tags, pb.tags, ["a", "b"], ["a", "b"]),
        (mod.loose, pb.loose, [-1], [-1]),
        (mod.color, pb.color, mod.Color.RED, 0),
        (mod.g, pb.g, mod.G(x=3), pb.G(x=3)),
        (mod.sub, pb.Sub.sub, mod.Sub(x=4), pb.Sub(x=4)),
    ]:
        ext.set(ours, value)
        if isinstance(upb_value, list):
            theirs.Extensions[desc].extend(upb_value)
        elif hasattr(upb_value, "SerializeToString"):
            theirs.Extensions[desc].CopyFrom(upb_value)
        else:
            theirs.Extensions[desc] = upb_value
    assert pa.serialize(ours) == theirs.SerializeToString()
    back = pa.deserialize(mod.Options, theirs.SerializeToString())
    assert (mod.g.get(back), mod.sub.get(back), mod.loose.get(back)) == (
        mod.G(x=3), mod.Sub(x=4), [-1]
    )  # fmt: skip


def test_custom_options_are_read_from_protocs_descriptors(tmp_path: Path) -> None:
    path = tmp_path / "custom.proto"
    path.write_text(PROTO.replace("genext.v1", "genext.custom"))
    types = pa.load_schema(str(path), include=[str(tmp_path)])
    fds = pa.deserialize(types["google.protobuf.FileDescriptorSet"], descriptor_set([path]))
    (fd,) = [f for f in fds.file if f.name == "custom.proto"]
    (measured,) = [m for m in fd.message_type if m.name == "Measured"]
    unit = pa.default_model.find_extension("genext.custom.unit")
    levels = pa.default_model.find_extension("genext.custom.levels")
    assert unit is not None and levels is not None
    assert unit.get(measured.field[0].options) == "cm"
    assert levels.get(measured.options) == [1, 2]
    assert pa.to_dict(measured.field[0].options) == {"[genext.custom.unit]": "cm"}


def test_message_set_extensions_are_named_not_declared(tmp_path: Path) -> None:
    path = tmp_path / "mset.proto"
    path.write_text(
        'syntax = "proto2";\npackage genext.mset;\n'
        "message Set { option message_set_wire_format = true; extensions 4 to max; }\n"
        "message Item { optional int32 x = 1; extend Set { optional Item item = 5; } }\n"
    )
    types = pa.load_schema(str(path), include=[str(tmp_path)])
    assert "genext.mset.Set" in types
    assert pa.default_model.find_extension("genext.mset.Item.item") is None


EDITIONS = """
edition = "2023";
package genext.ed;
message Host { int32 a = 1; extensions 10 to 20; }
extend Host {
  repeated int32 nums = 10;
  repeated int32 loose = 11 [features.repeated_field_encoding = EXPANDED];
  Host sub = 12 [features.message_encoding = DELIMITED];
}
"""


def test_editions_features_of_extensions(tmp_path: Path) -> None:
    path = tmp_path / "ed.proto"
    path.write_text(EDITIONS)
    host = pa.load_schema(str(path), include=[str(tmp_path)])["genext.ed.Host"]
    pb = compile_proto(EDITIONS.replace("genext.ed", "genext_pb.ed"), "genext_ed")
    ours, theirs = host(a=1), pb.Host(a=1)
    for name, value in [("nums", [1, 2]), ("loose", [3]), ("sub", host(a=2))]:
        ext = pa.default_model.find_extension(f"genext.ed.{name}")
        assert ext is not None
        ext.set(ours, value)
    theirs.Extensions[pb.nums].extend([1, 2])  # packed: editions' default
    theirs.Extensions[pb.loose].extend([3])
    theirs.Extensions[pb.sub].a = 2  # delimited: a group on the wire
    assert pa.serialize(ours) == theirs.SerializeToString()
