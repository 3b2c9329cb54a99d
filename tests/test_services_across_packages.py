"""A service whose messages live in other packages (issue 18, problem 4): exported as one
file per package (``schema_files``, ``protoattr schema --out-dir``, ``descriptor_set``),
each equal to protoc's descriptor of the exported text, loadable into a fresh pool and
served by reflection."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

import protoattr as pa
from protoattr._schema.gen import descriptor_set as protoc_descriptor_set
from tests.xpkg_service import FindThings, Thing, ThingList, Things

FILES = ["xpkg/api/v1.proto", "xpkg/common/v1.proto", "xpkg/query/v1.proto"]


def _protocs(
    tmp_path: Path, files: dict[str, str]
) -> dict[str, descriptor_pb2.FileDescriptorProto]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    data = protoc_descriptor_set([tmp_path / name for name in files], [str(tmp_path)])
    out = {}
    for fd in descriptor_pb2.FileDescriptorSet.FromString(data).file:
        fd.ClearField("source_code_info")
        out[fd.name] = fd
    return out


def test_schema_files_export_the_service(tmp_path: Path) -> None:
    files = pa.default_model.schema_files(Things)
    assert sorted(files) == FILES
    api = files["xpkg/api/v1.proto"]
    assert 'import "xpkg/common/v1.proto";' in api and 'import "xpkg/query/v1.proto";' in api
    assert "rpc Find(.xpkg.query.v1.FindThings) returns (.xpkg.common.v1.ThingList);" in api
    assert "rpc Forget(.xpkg.common.v1.Thing) returns (google.protobuf.Empty);" in api
    _protocs(tmp_path, files)  # protoc accepts them together


def test_descriptor_set_is_protocs_file_for_file(tmp_path: Path) -> None:
    theirs = _protocs(tmp_path, pa.default_model.schema_files(Things))
    ours = descriptor_pb2.FileDescriptorSet.FromString(pa.default_model.descriptor_set(Things))
    names = [fd.name for fd in ours.file]
    assert names[:2] == ["google/protobuf/empty.proto", "google/protobuf/timestamp.proto"]
    assert sorted(names[2:]) == FILES
    assert names.index("xpkg/api/v1.proto") == len(names) - 1  # after what it imports
    for fd in ours.file:
        assert json_format.MessageToDict(fd) == json_format.MessageToDict(theirs[fd.name])
        assert fd == theirs[fd.name]


def test_it_loads_into_a_fresh_pool_and_reads_our_bytes() -> None:
    pool = descriptor_pool.DescriptorPool()
    for fd in descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(Things)
    ).file:
        pool.Add(fd)
    method = pool.FindServiceByName("xpkg.api.v1.Things").methods_by_name["Find"]
    assert method.input_type.full_name == "xpkg.query.v1.FindThings"
    cls = message_factory.GetMessageClass(method.output_type)
    things = ThingList(things=[Thing(name="bolt", kind=Thing.Kind.BOLT)])
    assert cls.FromString(pa.serialize(things)).things[0].kind == 1


def test_reflection_answers_with_protocs_descriptors(tmp_path: Path) -> None:
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
        ProtoReflectionDescriptorDatabase,
    )

    import protoattr.grpc as pg

    theirs = _protocs(tmp_path, pa.default_model.schema_files(Things))

    class Impl:
        def find(self, request: FindThings, context: Any = None) -> ThingList:
            return ThingList(things=[Thing(name=request.prefix + "x")])

        def forget(self, request: Thing, context: Any = None) -> pa.Empty:
            return pa.Empty()

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    pg.add_service(server, Things, Impl())
    pg.enable_reflection(server, Things)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            assert pg.client(Things, channel, timeout=5).find(FindThings(prefix="a")) == ThingList(
                things=[Thing(name="ax")]
            )
            db = ProtoReflectionDescriptorDatabase(channel)
            assert set(db.get_services()) >= {"xpkg.api.v1.Things"}
            api = db.FindFileContainingSymbol("xpkg.api.v1.Things")
            assert api == theirs["xpkg/api/v1.proto"]
            for name in FILES:
                assert db.FindFileByName(name) == theirs[name]
            pool = descriptor_pool.DescriptorPool(db)
            kind = pool.FindEnumTypeByName("xpkg.common.v1.Thing.Kind")
            assert kind.values_by_name["BOLT"].number == 1
            assert pool.FindServiceByName("xpkg.api.v1.Things").methods_by_name["Forget"]
    finally:
        server.stop(None)


def test_the_command_line_exports_it_with_out_dir(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "protoattr", "schema", "tests.xpkg_service:Things"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1 and "one file per package" in result.stderr  # one file: no
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "protoattr",
            "schema",
            "tests.xpkg_service:Things",
            "--out-dir",
            str(tmp_path),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    written = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.proto")}
    assert written == set(FILES)
    assert (tmp_path / "xpkg/api/v1.proto").read_text() == pa.default_model.schema_files(Things)[
        "xpkg/api/v1.proto"
    ]
