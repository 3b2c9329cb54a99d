"""The ``protoattr`` command line.

::

    protoattr schema MODULE[:CLASS] [--syntax proto2|proto3|editions] [--package NAME] [-o FILE]
                     [--out-dir DIR]
    protoattr gen FILE.proto [FILE.proto ...] [-o OUT.py] [-I PATH ...]
    protoattr decode MODULE:CLASS [FILE] [--json]
    protoattr decode-raw [FILE]
    protoattr encode MODULE:CLASS [FILE]          (JSON in, protobuf bytes out)
    protoattr compile MODULE -o FILE
    protoattr --version

``MODULE`` is an importable module name (the current directory is on the
path) or a path to a ``.py`` file.  Exit status: 0 on success, 1 when the
work fails (a module that does not import, a class that is not a contract,
malformed input), 2 for a command line that does not parse.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import datetime
import decimal
import enum
import importlib
import importlib.util
import json
import os
import sys
import types
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from . import __version__
from ._contract import ContractInfo, FieldInfo, Label, ValueType, is_contract
from ._errors import ProtoError
from ._types import Kind

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
    p.add_argument("--json", action="store_true", help="print JSON instead of the repr")
    p.set_defaults(run=_decode)

    p = sub.add_parser("decode-raw", help="print any protobuf bytes without a schema")
    p.add_argument("file", nargs="?", metavar="FILE", help="the bytes (default: stdin)")
    p.set_defaults(run=_decode_raw)

    p = sub.add_parser("encode", help="read JSON, write the contract's protobuf bytes")
    p.add_argument("target", metavar="MODULE:CLASS")
    p.add_argument("file", nargs="?", metavar="FILE", help="the JSON (default: stdin)")
    p.set_defaults(run=_encode)

    p = sub.add_parser("compile", help="write a module of ahead-of-time compiled codecs")
    p.add_argument("module", metavar="MODULE")
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    p.set_defaults(run=_compile)
    return parser


# -- commands ------------------------------------------------------------------------------


def _schema(args: argparse.Namespace) -> int:
    from ._model import default_model
    from ._schema import schema

    module, cls = _target(args.target, need_class=False, services=True)
    classes = [cls] if cls is not None else _contracts_of(module) + _services_of(module)
    if not classes:
        raise CliError(f"module {module.__name__} declares no contracts")
    if args.out_dir is not None:
        from ._schema import schema_files

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
    from ._gen import generate

    for f in args.files:
        if not args.proto_path and not Path(f).exists():
            raise CliError(f"{f}: no such file")
    command = "protoattr gen " + " ".join(
        [*args.files, *(f"-I {p}" for p in args.proto_path)]
        + ([f"-o {args.output}"] if args.output else [])
    )
    text = generate(args.files, args.proto_path, command=command)
    _write_text(args.output, text)
    return 0


def _decode(args: argparse.Namespace) -> int:
    from ._model import default_model

    _, cls = _target(args.target, need_class=True)
    assert cls is not None
    obj: Any = default_model.deserialize(cls, _read_bytes(args.file))
    if args.json:
        print(json.dumps(to_json(obj), indent=2, ensure_ascii=False))
    else:
        print(repr(obj))
    return 0


def _decode_raw(args: argparse.Namespace) -> int:
    from ._raw import decode_raw

    sys.stdout.write(decode_raw(_read_bytes(args.file)))
    sys.stdout.flush()
    return 0


def _encode(args: argparse.Namespace) -> int:
    from ._model import default_model

    _, cls = _target(args.target, need_class=True)
    assert cls is not None
    raw = _read_bytes(args.file)
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CliError(f"the input is not JSON: {exc}") from None
    obj = from_json(cls, data)
    out = default_model.serialize(obj)
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


def _compile(args: argparse.Namespace) -> int:
    from ._model import default_model

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


# -- JSON --------------------------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """``value`` as JSON data: contracts as objects of their attributes (like
    ``dataclasses.asdict``), bytes as base64, datetimes and dates in ISO 8601,
    durations as protobuf's ``"1.5s"``, enums by name, Decimal and UUID as strings."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):  # by name, unless it has none (a combination of flags)
        return value.name if value.name in type(value).__members__ else value.value
    if isinstance(value, float) and (value != value or value in (_INF, -_INF)):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return _duration_text(value)
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, dict):
        return {_key_text(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    names = _attribute_names(type(value))
    if names is not None:
        doc = {name: to_json(getattr(value, name)) for name in names}
        if is_contract(type(value)):
            from ._model import default_model

            if default_model._parent_of(type(value)) is not None:  # which subtype it is
                doc = {"@type": default_model.info(type(value)).name, **doc}
        return doc
    raise CliError(f"cannot write a {type(value).__qualname__} as JSON")


_INF = float("inf")


def _attribute_names(cls: type) -> list[str] | None:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    if attrs.has(cls):
        return [a.name for a in attrs.fields(cls)]
    if is_contract(cls):
        return [f.name for f in _all_fields(cls)]
    return None


def _key_text(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def _duration_text(value: datetime.timedelta) -> str:
    micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
    sign = "-" if micros < 0 else ""
    seconds, frac = divmod(abs(micros), 1_000_000)
    if not frac:
        return f"{sign}{seconds}s"
    if frac % 1000 == 0:
        return f"{sign}{seconds}.{frac // 1000:03d}s"
    return f"{sign}{seconds}.{frac:06d}s"


def _all_fields(cls: type) -> list[FieldInfo]:
    """The fields of ``cls`` and of the bases whose messages it travels in."""
    from ._model import default_model

    return [f for level in default_model._chain(cls) for f in default_model._own_fields(level)]


def from_json(cls: type, data: Any, where: str = "") -> Any:
    """Build a ``cls`` from JSON data written the way :func:`to_json` writes it."""
    where = where or cls.__qualname__
    if not isinstance(data, dict):
        raise CliError(f"{where}: expected a JSON object, got {type(data).__name__}")
    from ._model import default_model

    if "@type" in data:
        data = dict(data)
        cls = _subtype_named(cls, data.pop("@type"), where)
    info: ContractInfo = default_model.info(cls)
    fields = {f.name: f for f in _all_fields(cls)}
    values: dict[str, Any] = {}
    for name, raw in data.items():
        f = fields.get(name)
        if f is None:
            raise CliError(f"{where}: {cls.__qualname__} has no field {name!r}")
        values[name] = _field_from_json(f, raw, f"{where}.{name}")
    params = {attr: (init, kw) for attr, init, kw in info.init_params}
    try:
        if info.construct == "init":
            kwargs = {params[n][0]: v for n, v in values.items() if n in params}
            obj = cls(**kwargs)
            for n, v in values.items():
                if n not in params:
                    object.__setattr__(obj, n, v)
            return obj
        obj = cls()
        for n, v in values.items():
            setattr(obj, n, v)
        return obj
    except (TypeError, ValueError) as exc:
        raise CliError(f"{where}: {exc}") from None


def _subtype_named(cls: type, name: Any, where: str) -> type:
    """``cls`` or the subtype of ``cls`` whose contract is named ``name``."""
    from ._model import default_model

    pending = [cls]
    while pending:
        candidate = pending.pop()
        if default_model.info(candidate).name == name:
            return candidate
        pending += [sub for _, sub in default_model._children_of(candidate)]
    raise CliError(f"{where}: {name!r} is not {cls.__qualname__} or one of its subtypes")


def _field_from_json(f: FieldInfo, raw: Any, where: str) -> Any:
    if raw is None:
        return None
    if f.label is Label.REPEATED:
        if not isinstance(raw, list):
            raise CliError(f"{where}: expected a JSON array")
        items = [_value_from_json(f.value, x, f"{where}[{i}]") for i, x in enumerate(raw)]
        return f.container(items)
    if f.label is Label.MAP:
        assert f.key is not None
        if not isinstance(raw, dict):
            raise CliError(f"{where}: expected a JSON object")
        return {
            _map_key(f.key, k, where): _value_from_json(f.value, v, f"{where}[{k!r}]")
            for k, v in raw.items()
        }
    return _value_from_json(f.value, raw, where)


def _map_key(vt: ValueType, key: str, where: str) -> Any:
    if vt.domain is not None:  # UUID, date...: written with str()
        return _value_from_json(vt, key, where)
    if vt.kind is Kind.BOOL:
        if key not in ("true", "false"):
            raise CliError(f"{where}: map key {key!r} is not true or false")
        return key == "true"
    if vt.kind is Kind.STRING:
        return _value_from_json(vt, key, where)
    try:
        return int(key)
    except ValueError:
        raise CliError(f"{where}: map key {key!r} is not an integer") from None


def _value_from_json(vt: ValueType, raw: Any, where: str) -> Any:
    try:
        return _convert(vt, raw, where)
    except (ValueError, TypeError, KeyError) as exc:
        raise CliError(f"{where}: {raw!r} does not fit {vt.describe()} ({exc})") from None


def _convert(vt: ValueType, raw: Any, where: str) -> Any:
    domain = vt.domain
    if domain is decimal.Decimal:
        return decimal.Decimal(str(raw))
    if domain is uuid.UUID:
        return uuid.UUID(str(raw))
    if domain is datetime.date:
        return datetime.date.fromisoformat(raw)
    if domain is bytearray:
        return bytearray(base64.b64decode(raw, validate=True))
    kind = vt.kind
    if kind is Kind.MESSAGE:
        assert vt.py_type is not None
        obj = from_json(vt.py_type, raw, where)
        if domain is not None and vt.decode_with is not None:
            return vt.decode_with(obj)
        return obj
    if kind is Kind.ENUM:
        assert vt.py_type is not None
        members: Any = vt.py_type
        if isinstance(raw, str):
            return members[raw]
        if isinstance(raw, int) and not isinstance(raw, bool):
            try:
                return members(raw)
            except ValueError:
                return raw  # an unknown number travels as a plain int
        raise TypeError("expected an enum name or number")
    if kind is Kind.BYTES:
        return base64.b64decode(raw, validate=True)
    if kind is Kind.TIMESTAMP:
        value = datetime.datetime.fromisoformat(str(raw).replace("Z", "+00:00"))
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    if kind is Kind.DURATION:
        text = str(raw)
        if not text.endswith("s"):
            raise ValueError('a duration is written like "1.5s"')
        micros = decimal.Decimal(text[:-1]).scaleb(6).to_integral_value()
        return datetime.timedelta(microseconds=int(micros))
    if kind in (Kind.FLOAT, Kind.DOUBLE):
        if isinstance(raw, str):
            return float(raw)  # "NaN", "Infinity", "-Infinity"
        if isinstance(raw, bool):
            raise TypeError("expected a number")
        return float(raw)
    if kind is Kind.BOOL:
        if not isinstance(raw, bool):
            raise TypeError("expected true or false")
        return raw
    if kind is Kind.STRING:
        if not isinstance(raw, str):
            raise TypeError("expected a string")
        return raw
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise TypeError("expected an integer")
    return int(raw)
