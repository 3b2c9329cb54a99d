"""The well-known files ``descriptor_set`` adds are protoc's, byte for byte, and the
default pool of Google's runtime takes them beside its own copies."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf import descriptor_pb2, descriptor_pool

import protoattr as pa
from protoattr._schema import wkt_files
from protoattr._schema.gen import descriptor_set, well_known_include


def test_the_embedded_files_are_protocs() -> None:
    wkt = well_known_include()
    assert wkt is not None
    paths = sorted(wkt_files.FILES)
    data = descriptor_set([wkt / p for p in paths], [str(wkt)])
    theirs = {}
    for fd in descriptor_pb2.FileDescriptorSet.FromString(data).file:
        fd.ClearField("source_code_info")
        theirs[fd.name] = fd.SerializeToString()
    assert sorted(theirs) == paths
    for path in paths:
        assert wkt_files.file_bytes(path) == theirs[path], path


def test_descriptor_sets_carry_them_and_the_default_pool_accepts_them() -> None:
    @pa.proto_contract(package="wktfiles.v1")
    @dataclass
    class Stamped:
        at: pa.Timestamp | None = pa.field(1, default=None)
        took: pa.Duration | None = pa.field(2, default=None)
        extra: pa.Any | None = pa.field(3, default=None)
        doc: pa.Struct = pa.field(4, default_factory=dict)
        mask: pa.FieldMask | None = pa.field(5, default=None)

    files = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(Stamped)
    ).file
    google = [fd for fd in files if fd.name.startswith("google/")]
    assert {fd.name for fd in google} == {
        "google/protobuf/any.proto",
        "google/protobuf/duration.proto",
        "google/protobuf/field_mask.proto",
        "google/protobuf/struct.proto",
        "google/protobuf/timestamp.proto",
    }
    for fd in google:  # Add is idempotent for a file equal to the one it has
        descriptor_pool.Default().Add(fd)
        mine = descriptor_pb2.FileDescriptorProto()
        descriptor_pool.Default().FindFileByName(fd.name).CopyToProto(mine)
        assert mine == fd
