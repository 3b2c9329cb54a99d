"""``gen --out-dir`` on real schemas nobody here wrote (issue 18, problem 2).

* Google's own ``descriptor.proto``, generated as ``google/protobuf/descriptor_pa.py``,
  reads protoc's ``FileDescriptorSet`` of every ``google/protobuf/*.proto`` grpcio-tools
  ships (with and without source info) and writes it back; its JSON is ``json_format``'s.
* Every ``.proto`` file of ``googleapis-common-protos`` generates into one tree whose
  modules import each other, pass ruff, and import.
"""

from __future__ import annotations

import importlib
import itertools
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor, descriptor_pb2, json_format
from google.protobuf.message import Message

import protoattr as pa
from protoattr._schema.gen import generate_files, well_known_include

WKT = well_known_include()
assert WKT is not None
_trees = itertools.count()


def write_tree(files: dict[str, str], root: Path) -> str:
    """Write generated modules under ``root/<package>`` and put ``root`` on the path: the
    tree is imported as the package ``<package>`` (its modules import each other
    relatively)."""
    package = f"gentree{next(_trees)}"
    for name, source in files.items():
        path = root / package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    sys.path.insert(0, str(root))
    return package


def _googleapis_root() -> Path:
    api = pytest.importorskip("google.api")
    return Path(next(iter(api.__path__))).parent.parent


def _googleapis_protos() -> list[str]:
    root = _googleapis_root()
    return sorted(
        p.relative_to(root).as_posix()
        for p in (root / "google").rglob("*.proto")
        if not p.relative_to(root).as_posix().startswith("google/protobuf/")
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path, str]:
    """One tree for every googleapis-common-protos file and descriptor.proto, generated
    in one run (their Google names are claimed once per process)."""
    root = tmp_path_factory.mktemp("gentree")
    protos = ["google/protobuf/descriptor.proto", *_googleapis_protos()]
    files = generate_files(protos, [str(_googleapis_root()), str(WKT)])
    return files, root, write_tree(files, root)


@pytest.fixture(scope="module")
def descriptor_pa(tree: tuple[dict[str, str], Path, str]) -> Any:
    return importlib.import_module(f"{tree[2]}.google.protobuf.descriptor_pa")


def test_google_files_keep_their_package(descriptor_pa: Any) -> None:
    packed = pa.Any.pack(descriptor_pa.FileDescriptorSet())
    assert packed.type_url == "type.googleapis.com/google.protobuf.FileDescriptorSet"
    assert pa.default_model.full_name(descriptor_pa.FieldDescriptorProto.Type) == (
        "google.protobuf.FieldDescriptorProto.Type"
    )


def _protoc_set(source_info: bool, tmp_path: Path) -> bytes:
    from grpc_tools import protoc  # type: ignore[import-untyped]

    found = (WKT / "google/protobuf").rglob("*.proto")
    files = sorted(p.relative_to(WKT).as_posix() for p in found)
    assert "google/protobuf/descriptor.proto" in files and len(files) > 10
    out = tmp_path / "set.pb"
    args = ["protoc", f"--proto_path={WKT}", f"--descriptor_set_out={out}"]
    args += ["--include_source_info"] if source_info else []
    assert protoc.main([*args, *files]) == 0
    return out.read_bytes()


def _without_set_defaults(message: Message) -> Message:
    """``message`` with every scalar that is set to its non-zero ``[default]`` cleared
    (``cc_enable_arenas = true``): what the relay compared before generated contracts
    kept presence there (issue 18, problem 5); the byte-exact test below needs none."""
    for fd, value in message.ListFields():
        if fd.type == descriptor.FieldDescriptor.TYPE_MESSAGE:
            items = value if fd.is_repeated else [value]
            for item in items:
                _without_set_defaults(item)
        elif not fd.is_repeated and fd.has_default_value and value == fd.default_value and value:
            message.ClearField(fd.name)
    return message


@pytest.mark.parametrize("source_info", [False, True], ids=["plain", "source_info"])
def test_protocs_descriptor_sets_relay_modulo_default_presence(
    descriptor_pa: Any, source_info: bool, tmp_path: Path
) -> None:
    data = _protoc_set(source_info, tmp_path)
    ours = pa.deserialize(descriptor_pa.FileDescriptorSet, data)
    again = descriptor_pb2.FileDescriptorSet.FromString(pa.serialize(ours))
    theirs = descriptor_pb2.FileDescriptorSet.FromString(data)
    assert _without_set_defaults(again) == _without_set_defaults(theirs)
    reference = _without_set_defaults(descriptor_pb2.FileDescriptorSet.FromString(data))
    assert _without_set_defaults(again).SerializeToString() == reference.SerializeToString()
    # JSON: ours reads back into upb as the same message, and prints as json_format does
    read = json_format.ParseDict(pa.to_dict(ours), descriptor_pb2.FileDescriptorSet())
    assert json_format.MessageToDict(_without_set_defaults(read)) == json_format.MessageToDict(
        reference
    )


@pytest.mark.parametrize("source_info", [False, True], ids=["plain", "source_info"])
def test_protocs_descriptor_sets_relay_byte_exactly(
    descriptor_pa: Any, source_info: bool, tmp_path: Path
) -> None:
    data = _protoc_set(source_info, tmp_path)
    ours = pa.deserialize(descriptor_pa.FileDescriptorSet, data)
    theirs = descriptor_pb2.FileDescriptorSet.FromString(data)
    assert pa.to_dict(ours) == json_format.MessageToDict(theirs)
    assert pa.serialize(ours) == data


# -- googleapis-common-protos ---------------------------------------------------------------


def test_all_of_googleapis_common_protos_generate_and_import(
    tree: tuple[dict[str, str], Path, str],
) -> None:
    files, root, package = tree
    protos = _googleapis_protos()
    assert len(protos) > 50
    assert {f"{p[:-6]}_pa.py" for p in protos} <= set(files)
    assert "google/protobuf/descriptor_pa.py" in files  # imported by the annotations
    assert "google/protobuf/timestamp_pa.py" not in files  # protoattr's own
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if Path(ruff).exists():
        common = ["--isolated", "--line-length", "100", "--target-version", "py310"]
        lint = subprocess.run(
            [ruff, "check", *common, "--select", "E,F,W,I,UP,B,SIM,RUF", str(root)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert lint.returncode == 0, lint.stdout[-3000:]
        fmt = subprocess.run(
            [ruff, "format", "--isolated", "--check", str(root)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert fmt.returncode == 0, fmt.stdout[-3000:]
    modules = {}
    for name in files:
        modules[name] = importlib.import_module(f"{package}." + name[:-3].replace("/", "."))
    status = modules["google/rpc/status_pa.py"].Status
    assert pa.default_model.full_name(status) == "google.rpc.Status"
    operations = modules["google/longrunning/operations_proto_pa.py"]
    assert pa.default_model.full_name(operations.Operation) == "google.longrunning.Operation"
    op = operations.Operation(name="op", error=status(code=5, message="gone"))
    assert pa.deserialize(operations.Operation, pa.serialize(op)) == op


def test_googleapis_contracts_export_back_as_protoc_reads_them(
    tree: tuple[dict[str, str], Path, str], tmp_path: Path
) -> None:
    """gen, then export: the generated contracts (nested messages and enums, oneofs,
    services' messages, several packages) declare schema files protoc accepts, and
    descriptor_set is protoc's descriptor of them, file for file."""
    from protoattr._core.contract import is_contract
    from protoattr._schema.gen import descriptor_set as protoc_descriptor_set

    files, _, package = tree
    classes = []
    for name in files:
        if name.startswith("google/protobuf/"):
            continue
        module = importlib.import_module(f"{package}." + name[:-3].replace("/", "."))
        classes += [
            v
            for v in vars(module).values()
            if isinstance(v, type) and is_contract(v) and v.__module__ == module.__name__
        ]
    exported = pa.default_model.schema_files(classes)
    for name, text in exported.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    data = protoc_descriptor_set([tmp_path / name for name in exported], [str(tmp_path)])
    theirs = {fd.name: fd for fd in descriptor_pb2.FileDescriptorSet.FromString(data).file}
    ours = descriptor_pb2.FileDescriptorSet.FromString(pa.default_model.descriptor_set(classes))
    assert len(ours.file) > len(exported)  # the well-known files they import come too
    for fd in ours.file:
        theirs[fd.name].ClearField("source_code_info")
        assert fd == theirs[fd.name], fd.name


def test_descriptor_contracts_export_back_as_protoc_reads_them(
    descriptor_pa: Any, tmp_path: Path
) -> None:
    """descriptor.proto's generated contracts (proto2: nested enums, defaults, required,
    reserved ranges) export as proto2 text whose protoc descriptor is descriptor_set's."""
    from protoattr._core.contract import is_contract
    from protoattr._schema.gen import descriptor_set as protoc_descriptor_set

    classes = [
        v
        for v in vars(descriptor_pa).values()
        if isinstance(v, type) and is_contract(v) and v.__module__ == descriptor_pa.__name__
    ]
    text = pa.default_model.schema(classes, syntax="proto2")
    (tmp_path / "d.proto").write_text(text, encoding="utf-8")
    data = protoc_descriptor_set([tmp_path / "d.proto"], [str(tmp_path)])
    (theirs,) = [f for f in descriptor_pb2.FileDescriptorSet.FromString(data).file]
    theirs.ClearField("source_code_info")
    (ours,) = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(classes, syntax="proto2", name="d.proto")
    ).file
    theirs.ClearField("syntax")  # protoc leaves it out for proto2; we write it
    ours.ClearField("syntax")
    assert ours == theirs
    assert [m.name for m in ours.message_type] == [m.name for m in theirs.message_type]
