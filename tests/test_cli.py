"""The ``protoattr`` command line: schema, gen, decode, decode-raw, encode, compile.

Commands run in-process through ``main(argv)`` (stdin and stdout swapped for
bytes buffers); ``decode-raw`` is compared with the real ``protoc --decode_raw``
on the same bytes, and one run goes through ``python -m protoattr``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import protoattr as pa
from protoattr._cli import main
from protoattr._raw import decode_raw
from tests import contracts as c
from tests import schema_models as m
from tests.protoc import compile_proto

ROOT = Path(__file__).resolve().parent.parent


class Run:
    """One ``main(argv)`` call: exit status, stdout bytes, stderr text."""

    def __init__(self, status: int, out: bytes, err: str) -> None:
        self.status, self.out, self.err = status, out, err

    @property
    def text(self) -> str:
        return self.out.decode("utf-8")


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch) -> Any:
    def call(*argv: str, stdin: bytes = b"") -> Run:
        out, err = io.BytesIO(), io.StringIO()
        stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        monkeypatch.setattr(sys, "stdout", stdout)
        monkeypatch.setattr(sys, "stderr", err)
        status = main(list(argv))
        stdout.flush()
        return Run(status, out.getvalue(), err.getvalue())

    return call


# --------------------------------------------------------------------- schema


def test_schema_of_a_class(run: Any) -> None:
    r = run("schema", "tests.schema_models:Legacy", "--syntax", "proto2", "--package", "p")
    assert r.status == 0, r.err
    assert r.text.startswith('syntax = "proto2";')
    assert "package p;" in r.text and "required string key = 1;" in r.text
    compile_proto(r.text, "cli_legacy")


def test_schema_of_a_module_declares_all_its_contracts(run: Any, tmp_path: Path) -> None:
    out = tmp_path / "all.proto"
    r = run("schema", "tests.schema_models", "--syntax", "editions", "-o", str(out))
    assert r.status == 0, r.err
    text = out.read_text()
    for name in ("Everything", "Legacy", "Canvas", "Vehicle", "Basket", "Stamp", "Square"):
        assert f"message {name} {{" in text
    compile_proto(text, "cli_all")


def test_schema_refusal_is_an_error_without_traceback(run: Any) -> None:
    r = run("schema", "tests.schema_models:Legacy")
    assert r.status == 1
    assert r.err.startswith("protoattr: error: Legacy.key: proto3 has no required fields")
    assert "Traceback" not in r.err


# --------------------------------------------------------------------- gen


def test_gen_writes_a_module(run: Any, tmp_path: Path) -> None:
    proto = tmp_path / "book.proto"
    proto.write_text('edition = "2023";\nmessage Book { string isbn = 1; int32 pages = 4; }\n')
    out = tmp_path / "book_models.py"
    r = run("gen", str(proto), "-o", str(out))
    assert r.status == 0, r.err
    text = out.read_text()
    assert "class Book:" in text and "    isbn: str | None = pa.field(1, default=None)" in text
    assert f"#   protoattr gen {proto} -o {out}\n" in text


def test_gen_with_an_include_path(run: Any) -> None:
    from protoattr._schema.gen import well_known_include

    r = run("gen", "google/protobuf/duration.proto", "-I", str(well_known_include()))
    assert r.status == 0, r.err
    assert "class Duration:" in r.text


def test_gen_of_a_missing_file(run: Any, tmp_path: Path) -> None:
    r = run("gen", str(tmp_path / "nope.proto"))
    assert (r.status, r.err) == (1, f"protoattr: error: {tmp_path / 'nope.proto'}: no such file\n")


# --------------------------------------------------------------------- decode / encode

SAMPLE = m.EVERYTHING[1]


def test_decode_prints_the_repr(run: Any, tmp_path: Path) -> None:
    data = tmp_path / "e.bin"
    data.write_bytes(pa.serialize(SAMPLE))
    r = run("decode", "tests.schema_models:Everything", str(data))
    assert r.status == 0, r.err
    assert r.text == repr(SAMPLE) + "\n"


def test_decode_json_and_encode_round_trip(run: Any) -> None:
    for obj in [SAMPLE, m.LEGACY[1], m.FIGURES[1], *m.VEHICLES]:
        cls = type(obj) if not isinstance(obj, m.Vehicle) else m.Vehicle
        target = f"tests.schema_models:{cls.__name__}"
        data = pa.serialize(obj)
        r = run("decode", target, "--json", stdin=data)
        assert r.status == 0, r.err
        encoded = run("encode", target, stdin=r.out)
        assert encoded.status == 0, encoded.err
        assert encoded.out == data, r.text


def test_json_form(run: Any) -> None:
    # --json prints protobuf's canonical JSON, exactly what pa.to_json writes
    r = run("decode", "tests.schema_models:Everything", "--json", stdin=pa.serialize(SAMPLE))
    assert r.text == pa.to_json(SAMPLE, ensure_ascii=False) + "\n"
    doc = json.loads(r.out)
    assert doc["data"] == "AAH/"  # base64
    assert doc["stamp"]["when"] == "2024-02-29T12:00:01.000500Z"
    assert doc["stamp"]["took"] == "-1.500s"
    assert doc["hue"] == "NEGATIVE" and doc["hues"] == ["RED", "HUE_NONE", "NEGATIVE"]
    assert doc["u64"] == str(2**64 - 1) and doc["byId"] == {"1": {"x": -1, "y": 2**31 - 1}}
    assert doc["flags"] == {"true": "eWVz"} and doc["price"] == "-12.50"
    assert doc["maybeI"] == 0 and "byNum" not in doc
    r = run("decode", "tests.schema_models:Canvas", "--json", stdin=pa.serialize(m.FIGURES[1]))
    figures = json.loads(r.out)["figures"]
    # a subtype is the field named after its message, as the exported schema declares it
    assert [next((k for k in f if k[0].isupper()), None) for f in figures] == [
        None, "Round", "Rect", "Rect",
    ]  # fmt: skip


def test_encode_reads_json_formats_output(run: Any) -> None:
    from google.protobuf import json_format

    pb = c.task_pb().Task(id=3, created_by="me", priority=2, tags=["a"])
    pb.created_at.FromJsonString("2024-01-01T00:00:00.5Z")
    r = run("encode", "tests.contracts:Task", stdin=json_format.MessageToJson(pb).encode())
    assert r.status == 0, r.err
    assert r.out == pb.SerializeToString()


def test_decode_malformed_input_names_the_offset(run: Any) -> None:
    r = run("decode", "tests.schema_models:Point", stdin=b"\x08\x01\x10")
    assert r.status == 1
    assert r.err.startswith("protoattr: error: ") and "byte offset" in r.err
    assert "Traceback" not in r.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["decode", "no_such_module:X"], "no module named 'no_such_module'"),
        (["decode", "tests.schema_models:Nope"], "module tests.schema_models has no class 'Nope'"),
        (["decode", "tests.schema_models:UTC"], "is not a contract"),
        (["decode", "tests.schema_models"], "name the class as MODULE:CLASS"),
        (["decode", "tests.schema_models:Point", "/no/such/file"], "/no/such/file"),
        (["encode", "tests.schema_models:Point"], "malformed JSON"),
        (["schema", "json"], "module json declares no contracts"),
    ],
)
def test_errors(run: Any, argv: list[str], message: str) -> None:
    r = run(*argv, stdin=b"{")
    assert r.status == 1
    assert r.err.startswith("protoattr: error: ") and message in r.err, r.err


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ('{"x": "a"}', 'Point.x: "a" is not an integer'),
        ('{"z": 1}', "Point has no field 'z'"),
        ("[1]", "expected a JSON object"),
        ('{"x": 4294967296}', "Point.x: 4294967296 is out of range for sint32"),
    ],
)
def test_encode_errors(run: Any, doc: str, message: str) -> None:
    r = run("encode", "tests.schema_models:Point", stdin=doc.encode())
    assert r.status == 1 and message in r.err, r.err


def test_usage_errors_exit_2(run: Any) -> None:
    assert run().status == 2
    assert run("bogus").status == 2
    assert run("schema", "x", "--syntax", "proto4").status == 2
    assert run("--help").status == 0


# --------------------------------------------------------------------- decode-raw vs protoc


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _nested(levels: int, inner: bytes = b"\x08\x01") -> bytes:
    for _ in range(levels):
        inner = b"\x0a" + _varint(len(inner)) + inner
    return inner


RAW_CASES = [
    b"\x08\x96\x01\x12\x07testing\x1a\x03\x08\x96\x01",  # the encoding guide's examples
    b"\x0d\x96\x00\x00\x00\x11\x01\x02\x03\x04\x05\x06\x07\x08",  # fixed32, fixed64
    b"\x0b\x08\x01\x13\x10\x02\x14\x0c",  # groups, nested
    b"\x12\x00\x12\x01\x0c\x12\x02\x0c\x00\x12\x03\x0b\x08\x01",  # strings that are not messages
    b"\x12\x0a\xc3\xa9\x27\x22\x5c\x0a\x0d\x09\x7f\x00",  # escapes
    b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
    b"\xf8\xff\xff\xff\x0f\x01\x88\x80\x80\x80\x10\x02",  # the largest field; a 5-byte tag
    _nested(9),
    _nested(10),
    _nested(12),
    _nested(8, b"\x0b\x0b\x08\x01\x0c\x0c"),
    pa.serialize(SAMPLE),
    pa.serialize(m.LEGACY[1]),
    pa.serialize(m.FIGURES[1]),
    b"",
    b"\x0c",  # malformed: protoc and protoattr both refuse
    b"\x08",
    b"\x0f",
]


def _protoc_decode_raw(data: bytes) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "--decode_raw"],
        input=data,
        capture_output=True,
    )
    return done.returncode, done.stdout.decode("utf-8")


@pytest.mark.parametrize("data", RAW_CASES, ids=lambda d: d[:12].hex() or "empty")
def test_decode_raw_matches_protoc(run: Any, data: bytes) -> None:
    status, expected = _protoc_decode_raw(data)
    r = run("decode-raw", stdin=data)
    assert r.status == status, r.err
    if status == 0:
        assert r.text == expected
    else:
        assert r.err.startswith("protoattr: error: ") and "byte offset" in r.err


def test_decode_raw_format() -> None:
    assert decode_raw(b"\x08\x96\x01\x12\x07testing\x1a\x03\x08\x96\x01") == (
        '1: 150\n2: "testing"\n3 {\n  1: 150\n}\n'
    )
    assert decode_raw(b"\x0d\x96\x00\x00\x00") == "1: 0x00000096\n"
    assert decode_raw(b"\x09" + bytes(8)) == "1: 0x0000000000000000\n"
    assert decode_raw(b"\x0b\x08\x01\x0c") == "1 {\n  1: 1\n}\n"


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "protoattr", "decode-raw"],
        input=b"\x08\x96\x01",
        capture_output=True,
        cwd=ROOT,
    )
    assert (done.returncode, done.stdout) == (0, b"1: 150\n")


# --------------------------------------------------------------------- compile


def test_compile_writes_a_module(tmp_path: Path) -> None:
    """In a fresh process: write_module compiles every contract the process declared."""
    out = tmp_path / "aot_models.py"
    done = subprocess.run(
        [sys.executable, "-m", "protoattr", "compile", "tests.schema_models", "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert out.exists() and "Traceback" not in done.stderr


def test_compile_of_a_missing_module(run: Any, tmp_path: Path) -> None:
    r = run("compile", "no_such_module", "-o", str(tmp_path / "x.py"))
    assert r.status == 1 and "no module named 'no_such_module'" in r.err


MODELS = """
from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass

import protoattr as pa


class Perm(enum.IntFlag):
    R = 4
    W = 2


@pa.proto_contract
@dataclass
class Grant:
    perms: Perm = pa.field(1, default=Perm(0))
    owners: dict[uuid.UUID, pa.int32] = pa.field(2, default_factory=dict)
"""


def test_module_given_as_a_path(run: Any, tmp_path: Path) -> None:
    path = tmp_path / "json.py"  # a name taken by another module: loaded under another
    path.write_text(MODELS)
    owner = "12345678-1234-5678-1234-567812345678"
    r = run("encode", f"{path}:Grant", stdin=f'{{"perms": 6, "owners": {{"{owner}": 3}}}}'.encode())
    assert r.status == 0, r.err
    decoded = run("decode", f"{path}:Grant", "--json", stdin=r.out)
    assert json.loads(decoded.out) == {"perms": 6, "owners": {owner: 3}}
    named = run("decode", f"{path}:Grant", "--json", stdin=b"\x08\x04")
    assert json.loads(named.out)["perms"] == "R"
    assert json.loads("[1]") == [1]  # the json module is still the json module


# -------------------------------------------------------------------- version


def test_version(run: Any) -> None:
    """``protoattr --version`` prints the version the distribution was installed as."""
    import importlib.metadata

    r = run("--version")
    assert r.status == 0, r.err
    assert r.text == f"protoattr {pa.__version__}\n"
    assert pa.__version__ == importlib.metadata.version("protoattr")


# ------------------------------------------- length-prefixed streams (issue 22.7)


def _stream_file(tmp_path: Path, style: pa.PrefixStyle = pa.PrefixStyle.BASE128) -> Path:
    from tests.cli_stream_models import Reading

    buf = io.BytesIO()
    pa.serialize_items(buf, [Reading(1, "a"), Reading(2, "bb"), Reading()], style=style)
    path = tmp_path / "readings.bin"
    path.write_bytes(buf.getvalue())
    return path


def test_decode_reads_a_length_prefixed_stream(run: Any, tmp_path: Path) -> None:
    path = _stream_file(tmp_path)
    target = "tests.cli_stream_models:Reading"
    r = run("decode", target, str(path), "--delimited")
    assert r.status == 0, r.err
    assert r.text.splitlines() == [
        "Reading(n=1, s='a')",
        "Reading(n=2, s='bb')",
        "Reading(n=0, s='')",
    ]
    r = run("decode", target, str(path), "--delimited", "--json")  # JSON Lines
    assert r.text.splitlines() == ['{"n": 1, "s": "a"}', '{"n": 2, "s": "bb"}', "{}"]
    fixed = _stream_file(tmp_path, pa.PrefixStyle.FIXED32)
    r = run("decode", target, str(fixed), "--delimited", "fixed32")
    assert r.status == 0 and len(r.text.splitlines()) == 3, r.err


def test_a_stream_given_to_a_plain_decode_gets_a_hint(run: Any, tmp_path: Path) -> None:
    path = _stream_file(tmp_path)
    r = run("decode", "tests.cli_stream_models:Reading", str(path))
    assert r.status == 1
    assert "looks like a stream of length-prefixed messages: try --delimited" in r.err
    r = run("decode-raw", str(path))
    assert r.status == 1 and "try --delimited" in r.err


def test_decode_raw_reads_a_length_prefixed_stream(run: Any, tmp_path: Path) -> None:
    path = _stream_file(tmp_path)
    r = run("decode-raw", str(path), "--delimited")
    assert r.status == 0, r.err
    assert r.text == '# message 0\n1: 1\n2: "a"\n# message 1\n1: 2\n2: "bb"\n# message 2\n'
    r = run("decode-raw", str(path), "--delimited", "fixed32")
    assert r.status == 1 and "--delimited fixed32: message length" in r.err
