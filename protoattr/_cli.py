"""The ``protoattr`` command line.

::

    protoattr schema MODULE[:CLASS] [--syntax proto2|proto3|editions] [--package NAME] [-o FILE]
                     [--out-dir DIR]
    protoattr gen FILE.proto [FILE.proto ...] [-o OUT.py | --out-dir DIR] [-I PATH ...]
                  [--time exact|datetime]
    protoattr decode MODULE:CLASS [FILE] [--json] [--delimited [STYLE]]
                                          (--json: protobuf's canonical JSON)
    protoattr decode-raw [FILE] [--delimited [STYLE]]
    protoattr encode MODULE:CLASS [FILE]          (canonical JSON in, protobuf bytes out)
    protoattr compile MODULE -o FILE
    protoattr --version

``MODULE`` is an importable module name (the current directory is on the
path) or a path to a ``.py`` file.  Exit status: 0 on success, 1 when the
work fails (a module that does not import, a class that is not a contract,
malformed input), 2 for a command line that does not parse.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._core.contract import is_contract
from ._core.errors import ProtoError
from ._version import __version__

__all__ = ["main"]


class CliError(Exception):
    """An expected failure: printed as ``protoattr: error: ...``, exit status 1."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a usage error (2) or --help (0), printed by argparse
        return exc.code if isinstance(exc.code, int) else 2
    try:
        result: int = args.run(args)
        return result
    except (CliError, ProtoError) as exc:
        print(f"protoattr: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `protoattr decode-raw big.bin | head`
        sys.stderr.close()
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="protoattr",
        description="protobuf schemas, code generation and decoding for protoattr contracts",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("schema", help="print the .proto schema of contracts")
    p.add_argument("target", metavar="MODULE[:CLASS]", help="a module, or one contract in it")
    p.add_argument("--syntax", choices=("proto2", "proto3", "editions"), default="proto3")
    p.add_argument("--package", help="the package statement of the schema")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write one .proto per package under DIR (contracts of several packages)",
    )
    p.set_defaults(run=_schema)

    p = sub.add_parser("gen", help="generate contract classes from .proto files (runs protoc)")
    p.add_argument("files", nargs="+", metavar="FILE.proto")
    p.add_argument("-o", "--output", metavar="OUT.py", help="write to OUT.py instead of stdout")
    p.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write one module per .proto file under DIR, as protoc's --python_out lays them "
        "out (shop/v1/order.proto -> DIR/shop/v1/order_pa.py), importing each other",
    )
    p.add_argument(
        "--time",
        choices=("exact", "datetime"),
        default="exact",
        help="Timestamp/Duration fields as pa.Timestamp/pa.Duration (exact, the default) or "
        "as datetime/timedelta (microseconds, years 1..9999)",
    )
    p.add_argument(
        "-I",
        "--proto-path",
        action="append",
        default=[],
        metavar="PATH",
        help="where imports are looked up (repeatable; default: each file's directory)",
    )
    p.set_defaults(run=_gen)

    p = sub.add_parser("decode", help="decode protobuf bytes as a contract and print it")
    p.add_argument("target", metavar="MODULE:CLASS")
    p.add_argument("file", nargs="?", metavar="FILE", help="the bytes (default: stdin)")
    p.add_argument(
        "--json", action="store_true", help="print canonical proto3 JSON instead of the repr"
    )
    _delimited_option(p)
    p.set_defaults(run=_decode)

    p = sub.add_parser("decode-raw", help="print any protobuf bytes without a schema")
    p.add_argument("file", nargs="?", metavar="FILE", help="the bytes (default: stdin)")
    _delimited_option(p)
    p.set_defaults(run=_decode_raw)

    p = sub.add_parser(
        "encode", help="read canonical proto3 JSON, write the contract's protobuf bytes"
    )
    p.add_argument("target", metavar="MODULE:CLASS")
    p.add_argument("file", nargs="?", metavar="FILE", help="the JSON (default: stdin)")
    p.set_defaults(run=_encode)

    p = sub.add_parser("compile", help="write a module of ahead-of-time compiled codecs")
    p.add_argument("module", metavar="MODULE")
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    p.set_defaults(run=_compile)
    return parser


def _delimited_option(p: argparse.ArgumentParser) -> None:
    from ._cli_frames import STYLES

    p.add_argument(
        "--delimited",
        nargs="?",
        const="base128",
        choices=STYLES,
        metavar="STYLE",
        help="the input is a stream of length-prefixed messages (writeDelimitedTo, "
        "pa.serialize_items): STYLE base128 (default), fixed32 or fixed32-be",
    )


# -- commands ------------------------------------------------------------------------------


def _schema(args: argparse.Namespace) -> int:
    from ._schema.proto import schema
    from ._typemodel import default_model

    module, cls = _target(args.target, need_class=False, services=True)
    classes = [cls] if cls is not None else _contracts_of(module) + _services_of(module)
    if not classes:
        raise CliError(f"module {module.__name__} declares no contracts")
    if args.out_dir is not None:
        from ._schema.proto import schema_files

        files = schema_files(default_model, classes, syntax=args.syntax, package=args.package)
        for name, text in files.items():
            path = Path(args.out_dir) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(path)
        return 0
    text = schema(default_model, classes, syntax=args.syntax, package=args.package)
    _write_text(args.output, text)
    return 0


def _gen(args: argparse.Namespace) -> int:
    from ._schema.gen import generate, generate_files

    if args.out_dir is not None and args.output is not None:
        raise CliError("give -o (one module) or --out-dir (one module per file), not both")
    for f in args.files:
        if not args.proto_path and not Path(f).exists():
            raise CliError(f"{f}: no such file")
    if args.out_dir is not None:
        for name, source in generate_files(args.files, args.proto_path, time=args.time).items():
            path = Path(args.out_dir) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source, encoding="utf-8")
            print(path)
        return 0
    command = "protoattr gen " + " ".join(
        [*args.files, *(f"-I {p}" for p in args.proto_path)]
        + ([f"-o {args.output}"] if args.output else [])
    )
    if args.time != "exact":
        command += f" --time {args.time}"
    text = generate(args.files, args.proto_path, command=command, time=args.time)
    _write_text(args.output, text)
    return 0


def _decode(args: argparse.Namespace) -> int:
    from ._typemodel import default_model

    _, cls = _target(args.target, need_class=True)
    assert cls is not None
    data = _read_bytes(args.file)
    if args.delimited is None:
        obj: Any = _plain(lambda: default_model.deserialize(cls, data), data)
        if args.json:  # protobuf's canonical JSON mapping (see docs/json.md)
            print(default_model.to_json(obj, ensure_ascii=False))
        else:
            print(repr(obj))
        return 0
    for i, body in _frames(data, args.delimited):  # one line per message (JSON Lines)
        obj = _framed(i, default_model.deserialize, cls, body)
        if args.json:
            print(default_model.to_json(obj, ensure_ascii=False, indent=None))
        else:
            print(repr(obj))
    return 0


def _decode_raw(args: argparse.Namespace) -> int:
    from ._raw import decode_raw

    data = _read_bytes(args.file)
    if args.delimited is None:
        sys.stdout.write(_plain(lambda: decode_raw(data), data))
    else:
        for i, body in _frames(data, args.delimited):
            text = _framed(i, decode_raw, body)
            sys.stdout.write(
                f"# message {i}\n{text}" + ("\n" if text and not text.endswith("\n") else "")
            )
    sys.stdout.flush()
    return 0


def _plain(decode: Any, data: bytes) -> Any:
    """``decode()``; if it fails on what is a length-prefixed stream, the error says so."""
    from ._cli_frames import looks_delimited

    try:
        return decode()
    except ProtoError as exc:
        if looks_delimited(data):
            raise CliError(
                f"{exc} (the input looks like a stream of length-prefixed messages: "
                "try --delimited)"
            ) from None
        raise


def _frames(data: bytes, style: str) -> Any:
    """``(index, bytes)`` of each message of a length-prefixed stream."""
    from ._cli_frames import frames

    try:
        for i, (_, body) in enumerate(frames(data, style)):
            yield i, body
    except ProtoError as exc:
        raise CliError(f"--delimited {style}: {exc}") from None


def _framed(index: int, decode: Any, *args: Any) -> Any:
    """``decode(*args)`` for message ``index`` of a stream, its errors saying which."""
    try:
        return decode(*args)
    except ProtoError as exc:
        raise CliError(f"message {index} of the stream: {exc}") from None


def _encode(args: argparse.Namespace) -> int:
    from ._typemodel import default_model

    _, cls = _target(args.target, need_class=True)
    assert cls is not None
    obj: Any = default_model.from_json(cls, _read_bytes(args.file))  # the canonical JSON mapping
    out = default_model.serialize(obj)
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


def _compile(args: argparse.Namespace) -> int:
    from ._typemodel import default_model

    _import(args.module)
    write = getattr(default_model, "write_module", None)
    if write is None:
        raise CliError("this version of protoattr cannot compile ahead of time (no write_module)")
    path = write(args.output)
    print(f"wrote {path}", file=sys.stderr)
    return 0


# -- modules and classes ---------------------------------------------------------------------


def _target(
    text: str, *, need_class: bool, services: bool = False
) -> tuple[types.ModuleType, type | None]:
    module_name, sep, class_name = text.rpartition(":")
    if not sep or (len(module_name) == 1 and os.name == "nt"):  # "C:\\x.py" has no class
        module_name, class_name = text, ""
    if need_class and not class_name:
        raise CliError(f"{text!r}: name the class as MODULE:CLASS")
    module = _import(module_name)
    if not class_name:
        return module, None
    obj: Any = module
    for part in class_name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise CliError(f"module {module.__name__} has no class {class_name!r}") from None
    if services and _is_service(obj):
        return module, obj
    if not is_contract(obj):
        raise CliError(
            f"{module.__name__}:{class_name} is not a contract (decorate it with @proto_contract)"
        )
    return module, obj


def _import(name: str) -> types.ModuleType:
    """Import a module by name (the current directory on the path) or from a ``.py`` path."""
    if name.endswith(".py") or os.sep in name or "/" in name:
        path = Path(name)
        if not path.is_file():
            raise CliError(f"{name}: no such file")
        module_name = path.stem
        loaded = sys.modules.get(module_name)
        if loaded is not None:
            if Path(getattr(loaded, "__file__", "") or "").resolve() == path.resolve():
                return loaded
            module_name = f"_protoattr_cli_{module_name}"  # do not shadow another module
        folder = str(path.resolve().parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)  # its sibling modules import as they would as a script
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise CliError(f"{name}: cannot be imported")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[module_name]
            raise CliError(f"importing {name} failed: {type(exc).__name__}: {exc}") from None
        return module
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise CliError(f"no module named {name!r}") from None
        raise CliError(f"importing {name} failed: {exc}") from None
    except Exception as exc:
        raise CliError(f"importing {name} failed: {type(exc).__name__}: {exc}") from None


def _contracts_of(module: types.ModuleType) -> list[type]:
    """The contracts a module declares (not those it imports), in declaration order."""
    return [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and obj.__module__ == module.__name__ and is_contract(obj)
    ]


def _services_of(module: types.ModuleType) -> list[type]:
    """The gRPC services (``@protoattr.service``) a module declares, in declaration order."""
    return [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and obj.__module__ == module.__name__ and _is_service(obj)
    ]


def _is_service(obj: Any) -> bool:
    from ._service import is_service

    return is_service(obj)


# -- input and output --------------------------------------------------------------------------


def _read_bytes(file: str | None) -> bytes:
    if file is None or file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as exc:
        raise CliError(f"{file}: {exc.strerror}") from None


def _write_text(output: str | None, text: str) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{output}: {exc.strerror}") from None
