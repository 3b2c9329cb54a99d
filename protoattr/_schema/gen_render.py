"""``gen``, step two: the Python source of one module, from indexed declarations.

How protobuf declarations become Python is described in :mod:`protoattr._schema.gen`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import descriptor as d
from .gen_descriptors import (
    CLOSED,
    DELIMITED,
    EXPANDED,
    IMPLICIT,
    REQUIRED,
    Features,
    GenError,
    Index,
    Type,
)
from .gen_layout import Layout
from .gen_text import (
    IMMUTABLE,
    WIDTH,
    Field,
    bytes_literal,
    comment_lines,
    commented,
    doc_escape,
    docstring_lines,
    enum_member,
    field_lines,
    float_literal,
    reserved_option,
    safe_name,
    snake,
    str_literal,
    unescape,
    wrap_call,
)

_T = d.FieldType
_SCALARS: dict[int, str] = {
    _T.TYPE_DOUBLE: "float",
    _T.TYPE_FLOAT: "pa.float32",
    _T.TYPE_INT64: "int",
    _T.TYPE_UINT64: "pa.uint64",
    _T.TYPE_INT32: "pa.int32",
    _T.TYPE_FIXED64: "pa.fixed64",
    _T.TYPE_FIXED32: "pa.fixed32",
    _T.TYPE_BOOL: "bool",
    _T.TYPE_STRING: "str",
    _T.TYPE_BYTES: "bytes",
    _T.TYPE_UINT32: "pa.uint32",
    _T.TYPE_SFIXED32: "pa.sfixed32",
    _T.TYPE_SFIXED64: "pa.sfixed64",
    _T.TYPE_SINT32: "pa.sint32",
    _T.TYPE_SINT64: "pa.sint64",
}
_PACKABLE = set(_SCALARS) - {_T.TYPE_STRING, _T.TYPE_BYTES} | {_T.TYPE_ENUM}
_ZEROS: dict[int, str] = {t: "0" for t in _SCALARS} | {
    _T.TYPE_DOUBLE: "0.0",
    _T.TYPE_FLOAT: "0.0",
    _T.TYPE_BOOL: "False",
    _T.TYPE_STRING: '""',
    _T.TYPE_BYTES: 'b""',
}
_WRAPPER_NAMES = (
    "DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value",
    "BoolValue", "StringValue", "BytesValue",
)  # fmt: skip
#: well-known types and what fields of them are declared as (never generated again).
#: Timestamp and Duration are exact by default (``TIMES``: how ``time=`` changes that).
_WELL_KNOWN = {
    ".google.protobuf.Timestamp": "pa.Timestamp",
    ".google.protobuf.Duration": "pa.Duration",
    ".google.protobuf.Any": "pa.Any",
    ".google.protobuf.Struct": "pa.Struct",
    ".google.protobuf.Value": "pa.JsonValue",
    ".google.protobuf.ListValue": "pa.ListValue",
    ".google.protobuf.NullValue": "pa.NullValue",
    ".google.protobuf.FieldMask": "pa.FieldMask",
    ".google.protobuf.Empty": "pa.Empty",
    **{f".google.protobuf.{name}": f"pa.wrappers.{name}" for name in _WRAPPER_NAMES},
    # protobuf-net's bcl.proto (protoattr ships it: protobuf-net/bcl.proto)
    **{f".bcl.{name}": f"pa.bcl.{name}" for name in ("DateTime", "TimeSpan", "Decimal", "Guid")},
    ".bcl.DateTime.DateTimeKind": "pa.bcl.DateTimeKind",
    ".bcl.DateTime.TimeSpanScale": "pa.bcl.TimeSpanScale",
    ".bcl.TimeSpan.TimeSpanScale": "pa.bcl.TimeSpanScale",
}
#: ``time=``: ``"exact"`` keeps every value a Timestamp or Duration can hold (a relay must
#: not corrupt nanoseconds by default); ``"datetime"`` gives ``datetime``/``timedelta``
TIMES = {
    "exact": {},
    "datetime": {
        ".google.protobuf.Timestamp": "datetime",
        ".google.protobuf.Duration": "timedelta",
    },
}
#: well-known types protoattr has a contract class for: what an RPC of them sends
_RPC_WELL_KNOWN = {
    f".google.protobuf.{name}": f"pa.{name}"
    for name in ("Empty", "Any", "Timestamp", "Duration", "FieldMask")
}
#: annotations that already mean "None when absent"
_NULLABLE = {f"pa.wrappers.{name}" for name in _WRAPPER_NAMES} | {"pa.JsonValue"}
# Names the generated module defines or imports, which classes and fields must not take,
# and the names of ``typing`` a class must not shadow where users import both.
_MODULE_NAMES = {"annotations", "dataclass", "datetime", "enum", "pa", "timedelta"} | {
    "Any", "Annotated", "Callable", "ClassVar", "Dict", "Final", "Generic", "List", "Literal",
    "Optional", "Protocol", "Sequence", "Set", "Tuple", "Type", "TypeVar", "Union",
}  # fmt: skip
_BODY_NAMES = {"pa", "float"}  # names a class body uses at run time
_LAZY = "\0lazy:"  # marks an enum default a class body cannot name yet (see _enum_member_name)

# -- writing Python ------------------------------------------------------------------------


def generate_source(
    fds: d.FileDescriptorSet, targets: Iterable[str], *, command: str = "", time: str = "exact"
) -> str:
    """Python source for the types declared in the files named ``targets`` (and what they use):
    one module that declares them all.  ``time``: see :data:`TIMES`."""
    return Writer(Index(fds), list(targets), command, time=time).run()


def generate_modules(
    fds: d.FileDescriptorSet, targets: Iterable[str], *, command: str = "", time: str = "exact"
) -> dict[str, str]:
    """One module per file for ``targets`` and the files they import: ``{path: source}``,
    laid out by :class:`~protoattr._schema.gen_layout.Layout`."""
    index = Index(fds)
    layout = Layout(index, targets)
    writers = [Writer(index, [name], command, layout, time=time) for name in layout.files]
    for w in writers:  # every module names its classes before any refers to another's
        w.prepare()
    return {layout.path(w.targets[0]): w.render() for w in writers}


def _claimable(t: Type, layout: Layout | None) -> str:
    """The package a generated contract declares: its file's, with two exceptions.

    A packaged full name is claimed once per process.  The types protoattr declares
    itself (``google.protobuf.Timestamp``...) are never claimed again: a generated
    copy of their own file stays unpackaged.  And in one self-contained module
    (``-o``), which copies what it uses from Google's files, those copies stay
    unpackaged too, so that two such modules can live side by side; with one module
    per file (``--out-dir``) each Google file has one module, and its real names.
    """
    package = t.file.package or ""
    if t.full_name in _WELL_KNOWN:
        return ""
    if layout is None and (package == "google.protobuf" or package.startswith("google.protobuf.")):
        return ""
    return package


class Writer:
    """The source of one module: the types of ``targets`` and, without a ``layout``, all
    they use; with one, this file's types only, importing other files' modules."""

    def __init__(
        self,
        index: Index,
        targets: list[str],
        command: str,
        layout: Layout | None = None,
        *,
        time: str = "exact",
    ) -> None:
        if time not in TIMES:
            raise GenError(f"time must be one of {', '.join(map(repr, TIMES))}, not {time!r}")
        self.well_known = _WELL_KNOWN | TIMES[time]
        self.index = index
        self.targets = targets
        self.command = command
        self.layout = layout
        self.imports: set[str] = set()  # the files whose modules this one imports
        self.services: list[tuple[d.FileDescriptorProto, int, d.ServiceDescriptorProto]] = []
        self.chosen: dict[str, Type] = {}
        self.uses: set[str] = set()  # "enum", "datetime", "timedelta"
        self.mutable_defaults = False  # a field whose type ruff does not know is immutable
        self.package = ""  # the requested files' package: the module's __protobuf_package__
        self.done: set[str] = set()  # the top-level classes written so far

    def run(self) -> str:
        self.prepare()
        return self.render()

    def prepare(self) -> None:
        """Choose the types this module declares and name their classes."""
        for name in self.targets:
            if name not in self.index.files:
                raise GenError(f"{name} is not in protoc's output")
        # The requested files' types, then whatever they use from elsewhere.
        pending = [t for t in self.index.types.values() if t.file.name in self.targets]
        self.services = [
            (fd, i, s)
            for fd in (self.index.files[name] for name in self.targets)
            for i, s in enumerate(fd.service)
        ]
        pending += self._service_types(self.services)
        while pending:
            t = pending.pop(0)
            if t.full_name in self.chosen or t.is_map_entry:
                continue
            if t.full_name in _WELL_KNOWN and t.file.name not in self.targets:
                continue
            if self.layout is not None and t.file.name not in self.targets:
                continue  # another file's module declares it
            self.chosen[t.full_name] = t
            if t.parent is not None:  # a nested class needs the class around it
                pending.append(t.parent)
            if t.message is not None:
                for f in t.message.field:
                    ref = self._ref_type(f)
                    if ref is not None:
                        pending.append(ref)
        self._name_types()

    def render(self) -> str:
        services = self.services
        top = [t for t in self.chosen.values() if t.parent is None]
        enums = [t for t in top if t.enum is not None]
        messages = [t for t in top if t.message is not None]
        blocks = [self._enum(t) for t in enums]
        for t in messages:
            blocks.append(self._message(t))
            self.done.add(t.full_name)
        blocks += [self._service(fd, i, svc) for fd, i, svc in services]
        if not blocks:
            return self._header().rstrip("\n") + "\n"
        return self._header() + "\n\n\n".join(blocks) + "\n"

    def _ref_type(self, f: d.FieldDescriptorProto) -> Type | None:
        if not f.type_name:
            return None
        t = self.index.types.get(f.type_name)
        if t is None:
            raise GenError(f"field {f.name}: type {f.type_name} is not in protoc's output")
        if t.is_map_entry and t.message is not None:  # the key and value types count
            for entry_field in t.message.field:
                ref = self._ref_type(entry_field)
                if ref is not None:
                    return ref
            return None
        return t

    def _name_types(self) -> None:
        taken: dict[str, str] = {}
        first_package = ""
        for t in self.chosen.values():
            if t.file.name in self.targets:
                first_package = t.file.package or ""
                break
        self.package = first_package
        if self.layout is None and first_package.split(".")[:2] == ["google", "protobuf"]:
            self.package = ""  # copies of Google's types: see _claimable
        top = [t for t in self.chosen.values() if t.parent is None]
        for t in top:
            base = t.name
            if (t.file.package or "") != first_package and base in {
                o.name for o in top if o is not t
            }:
                base = "".join(p.title() for p in (t.file.package or "").split(".")) + "_" + base
            name = safe_name(base, _MODULE_NAMES, builtin=True)
            while name in taken:
                name += "_"
            taken[name] = t.full_name
            t.py_name = name
            self._name_children(t)

    def _name_children(self, t: Type) -> None:
        """Nested classes: ``Order.Line``, each a safe name inside its parent's body."""
        taken = set(_BODY_NAMES)
        for child in t.children:
            if child.full_name not in self.chosen:
                continue
            short = safe_name(child.name, taken)
            taken.add(short)
            child.py_name = f"{t.py_name}.{short}"
            self._name_children(child)

    @staticmethod
    def _short(t: Type) -> str:
        """The class name ``t`` is declared with (the last part of its Python path)."""
        return t.py_name.rpartition(".")[2]

    # -- header ------------------------------------------------------------------------

    def _header(self) -> str:
        sources = ", ".join(self.targets)
        lines = [f"# Generated by protoattr from {sources}: do not edit."]
        if self.command:
            lines.append(f"#   {self.command}")
        if self.mutable_defaults:
            lines += [
                "# protoattr.field() returns a dataclasses.Field, which RUF009 cannot know.",
                "# ruff: noqa: RUF009",
            ]
        lines += [
            f'"""Contracts for {doc_escape(sources)}."""',
            "",
            "from __future__ import annotations",
            "",
        ]
        std = []
        if "enum" in self.uses:
            std.append("import enum")
        if "Iterator" in self.uses:
            std.append("from collections.abc import Iterator")
        if "dataclass" in self.uses:
            std.append("from dataclasses import dataclass")
        times = sorted(self.uses & {"datetime", "timedelta"})
        if times:
            std.append(f"from datetime import {', '.join(times)}")
        if "Protocol" in self.uses:
            std.append("from typing import Protocol")
        if std:
            lines += [*std, ""]
        if "pa" in self.uses:
            lines += ["import protoattr as pa", ""]
        if self.layout is not None and self.imports:
            layout, here = self.layout, self.targets[0]
            for name in sorted(self.imports, key=lambda n: layout.module_parts(n)):
                lines += layout.import_lines(here, name)
            lines.append("")
        if self.package and "dataclass" in self.uses:  # the messages' full names
            lines += [f"__protobuf_package__ = {str_literal(self.package)}", ""]
        return "\n".join(lines) + "\n\n"

    # -- services ------------------------------------------------------------------------

    def _service_types(
        self, services: list[tuple[d.FileDescriptorProto, int, d.ServiceDescriptorProto]]
    ) -> list[Type]:
        """The request and response messages of the requested files' services."""
        found: list[Type] = []
        for _, _, svc in services:
            for m in svc.method:
                for type_name in (m.input_type, m.output_type):
                    t = self.index.types.get(type_name or "")
                    if t is None or t.message is None:
                        raise GenError(
                            f"service {svc.name}, rpc {m.name}: {type_name} is not a message "
                            "in protoc's output"
                        )
                    if t.full_name in _RPC_WELL_KNOWN and t.file.name not in self.targets:
                        continue  # protoattr's own contract: pa.Empty, pa.Timestamp...
                    if t.full_name in _WELL_KNOWN and t.file.name not in self.targets:
                        raise GenError(
                            f"service {svc.name}, rpc {m.name}: {t.full_name.lstrip('.')} "
                            "cannot be a request or response (protoattr maps it to a Python "
                            "value, not a contract); wrap it in a message"
                        )
                    found.append(t)
        return found

    def _rpc_type(self, type_name: str | None) -> str:
        """The contract an RPC sends or returns (a well-known one: protoattr's own)."""
        t = self.index.types[type_name or ""]
        if t.full_name not in self.chosen and t.full_name in _RPC_WELL_KNOWN:
            self.uses.add("pa")
            return _RPC_WELL_KNOWN[t.full_name]
        return self._py_ref(t)

    def _py_ref(self, t: Type) -> str:
        """How this module names the class of ``t``: its own, another module's (imported),
        or protoattr's (a well-known enum: ``pa.NullValue``)."""
        if t.full_name in self.chosen:
            return t.py_name
        if t.full_name in self.well_known:
            self.uses.add("pa")
            return self.well_known[t.full_name]
        if self.layout is None:
            raise GenError(f"type {t.full_name} was not generated")
        file_name = t.file.name or ""
        self.imports.add(file_name)
        return f"{self.layout.alias(file_name)}.{t.py_name}"

    def _service(self, fd: d.FileDescriptorProto, index: int, svc: d.ServiceDescriptorProto) -> str:
        """A ``@pa.service`` Protocol: implement it to serve, ``pa.grpc.client`` it to call."""
        from .._service import grpc_method_name

        self.uses |= {"pa", "Protocol"}
        full = f"{fd.package}.{svc.name}" if fd.package else str(svc.name)
        taken = {t.py_name for t in self.chosen.values()}
        name = safe_name(svc.name or f"Service{index}", taken, builtin=True)
        comments = {
            tuple(loc.path): loc
            for loc in (fd.source_code_info.location if fd.source_code_info else [])
        }
        lines = [f"@pa.service({str_literal(full)})", f"class {name}(Protocol):"]
        doc = docstring_lines(comments.get((6, index)), "    ")
        lines += doc
        attrs: set[str] = set()
        for j, m in enumerate(svc.method):
            if j or doc:
                lines.append("")
            lines += comment_lines(comments.get((6, index, 2, j)), "    ")
            rpc_name = m.name or f"Method{j}"
            attr = safe_name(snake(rpc_name), attrs | {"self"})
            attrs.add(attr)
            if grpc_method_name(attr) != rpc_name:
                lines.append(f"    @pa.rpc(name={str_literal(rpc_name)})")
            request, response = self._rpc_type(m.input_type), self._rpc_type(m.output_type)
            if m.client_streaming:
                self.uses.add("Iterator")
                request, param = f"Iterator[{request}]", "requests"
            else:
                param = "request"
            if m.server_streaming:
                self.uses.add("Iterator")
                response = f"Iterator[{response}]"
            params = f"self, {param}: {request}, context: pa.CallContext = pa.CallContext.NONE"
            signature = f"    def {attr}({params}) -> {response}: ..."
            if len(signature) > 88:  # wrapped the way ruff format wraps it
                if len(params) + 8 <= 88:
                    signature = f"    def {attr}(\n        {params}\n    ) -> {response}: ..."
                else:
                    each = "".join(f"        {p.strip()},\n" for p in params.split(", "))
                    signature = f"    def {attr}(\n{each}    ) -> {response}: ..."
            lines.append(signature)
        return "\n".join(lines)

    # -- enums ---------------------------------------------------------------------------

    def _enum(self, t: Type, pad: str = "") -> str:
        assert t.enum is not None
        self.uses.add("enum")
        inner = pad + "    "
        lines: list[str] = []
        if t.features.enum_type == CLOSED:
            self.uses.add("pa")
            lines.append(f"{pad}@pa.closed_enum")
        lines.append(f"{pad}class {self._short(t)}(enum.IntEnum):")
        doc = docstring_lines(t.comments.get(tuple(t.path)), inner)
        lines += doc
        if doc:
            lines.append("")
        if self._short(t) != t.name:
            lines.append(f"{inner}# protobuf name: {t.full_name.lstrip('.')}")
        for i, v in enumerate(t.enum.value):
            loc = t.comments.get((*t.path, 2, i))
            name = enum_member(v.name or f"VALUE_{i}")
            lines += commented([f"{inner}{name} = {v.number or 0}"], loc, inner)
        return "\n".join(lines)

    def _enum_member_name(
        self, t: Type, number: int | None, name: str | None = None, where: Type | None = None
    ) -> str:
        """A member of enum ``t`` as an expression valid in the body of class ``where``:
        relative to it when ``t`` is declared inside it (the nested classes come first),
        by module name when ``t`` is top-level, else ``LAZY`` + the full path (a class
        body cannot see the classes around it: the caller defers it with a lambda)."""
        assert t.enum is not None
        path = self._py_ref(t)
        if t.full_name not in self.chosen:  # imported, or protoattr's: always visible
            pass
        elif where is not None and path.startswith(where.py_name + "."):
            path = path[len(where.py_name) + 1 :]
        elif t.parent is not None and t.outermost.full_name not in self.done:
            path = _LAZY + path
        for v in t.enum.value:
            if (name is not None and v.name == name) or (name is None and v.number == number):
                return f"{path}.{enum_member(v.name or '')}"
        raise GenError(f"enum {t.full_name} has no value {name or number}")

    # -- messages ------------------------------------------------------------------------

    def _message(self, t: Type, pad: str = "") -> str:
        m = t.message
        assert m is not None
        self.uses |= {"pa", "dataclass"}
        inner = pad + "    "
        fields = [self._field(t, i, f, inner) for i, f in enumerate(m.field)]
        seen: set[str] = set()
        for f in fields:  # keep attribute names unique after renaming
            renamed = f.name in seen
            while f.name in seen:
                f.name += "_"
            seen.add(f.name)
            if (
                renamed
                and f.name != f.proto_name
                and not any(o.startswith("name=") for o in f.options)
            ):
                f.options.append(f"name={str_literal(f.proto_name)}")
        options: list[str] = []
        reserved = reserved_option(m)
        if reserved:
            options.append(f"reserved={reserved}")
        if self._short(t) != t.name:
            options.append(f"name={str_literal(t.name)}")
        package = _claimable(t, self.layout)
        if t.parent is None and package != self.package:  # another package's, or none
            options.append(f"package={str_literal(package)}")
        deco = f"@pa.proto_contract({', '.join(options)})" if options else "@pa.proto_contract"
        kw_only = any(f.needs_value for f in fields)
        lines = wrap_call(deco, pad) if len(pad + deco) > WIDTH else [pad + deco]
        lines.append(f"{pad}@dataclass(kw_only=True)" if kw_only else f"{pad}@dataclass")
        lines.append(f"{pad}class {self._short(t)}:")
        doc = docstring_lines(t.comments.get(tuple(t.path)), inner)
        lines += doc
        nested = [
            self._enum(c, inner) if c.enum is not None else self._message(c, inner)
            for c in t.children
            if c.full_name in self.chosen and not c.is_map_entry
        ]
        for block in nested:
            if lines[-1] != f"{pad}class {self._short(t)}:":
                lines.append("")
            lines.append(block)
        if (doc or nested) and fields:
            lines.append("")
        for f in fields:
            lines += commented(field_lines(f, inner), f.loc, inner)
            if set(re.findall(r"[\w.]+", f.annotation)) - IMMUTABLE:
                self.mutable_defaults = True
        if not doc and not fields and not nested:
            lines.append(f"{inner}pass")
        return "\n".join(lines)

    def _field(self, t: Type, i: int, f: d.FieldDescriptorProto, pad: str = "    ") -> Field:
        m = t.message
        assert m is not None
        proto_name = f.name or f"field_{i}"
        number = f.number or 0
        loc = t.comments.get((*t.path, 2, i))
        comment: list[str] = []  # rendered with the field, from loc
        features = t.features
        oneof: str | None = None
        if f.oneof_index is not None and not f.proto3_optional:
            decl = m.oneof_decl[f.oneof_index]
            oneof = decl.name
            if t.syntax == "editions" and decl.options is not None:
                features = features.merged(decl.options.features)
        if t.syntax == "editions" and f.options is not None:
            features = features.merged(f.options.features)
        label = f.label or d.FieldLabel.LABEL_OPTIONAL
        ftype = f.type
        ref = self.index.types.get(f.type_name) if f.type_name else None
        options: list[str] = [str(number)]
        nested = {self._short(c) for c in t.children if c.full_name in self.chosen}
        name = safe_name(
            proto_name, _BODY_NAMES | nested | {o.py_name for o in self.chosen.values()}
        )
        needs_value = False

        if ref is not None and ref.is_map_entry and label == d.FieldLabel.LABEL_REPEATED:
            assert ref.message is not None
            entry = {ef.number: ef for ef in ref.message.field}
            key, value = self._value_type(entry[1]), self._value_type(entry[2])
            annotation = f"dict[{key}, {value}]"
            options.append("default_factory=dict")
            options = self._named(options, name, proto_name)
            return Field(name, proto_name, number, annotation, options, comment, loc=loc)

        value = self._value_type(f)
        is_message = ftype in (_T.TYPE_MESSAGE, _T.TYPE_GROUP)
        group = ftype == _T.TYPE_GROUP or (
            is_message and t.syntax == "editions" and features.message_encoding == DELIMITED
        )
        if label == d.FieldLabel.LABEL_REPEATED:
            annotation = f"list[{value}]"
            options.append("default_factory=list")
            packed = self._packed(t, f, features)
            if ftype in _PACKABLE and not packed:
                options.append("packed=False")
        else:
            presence = self._presence(t, f, features, is_message)
            default = self._default(f, ref, t)
            if value in _NULLABLE:  # a wrapper or a JSON value: None is absent already
                annotation = value
                options += ["default=None"] + ([f"oneof={str_literal(oneof)}"] if oneof else [])
            elif oneof is not None:
                annotation = f"{value} | None"
                options += ["default=None", f"oneof={str_literal(oneof)}"]
            elif presence == "required":
                annotation = value
                options.append("required=True")
                if default is not None:
                    options.append(f"default={default}")
                needs_value = default is None
            elif presence == "implicit":
                annotation = value
                options.append(f"default={self._zero(f, ref, t)}")
            elif default is not None and not self._is_natural(f, ref, default, t):
                annotation = value
                options.append(f"default={default}")
            else:
                annotation = f"{value} | None"
                options.append("default=None")
        if group:
            options.append("group=True")
        # an enum nested elsewhere is not visible in this class body: read it when used
        options = [
            o.replace(f"default={_LAZY}", "default_factory=lambda: ") if _LAZY in o else o
            for o in options
        ]
        options = self._named(options, name, proto_name)
        return Field(
            name, proto_name, number, annotation, options, comment, oneof, needs_value, loc
        )

    @staticmethod
    def _named(options: list[str], name: str, proto_name: str) -> list[str]:
        if name != proto_name:
            options.append(f"name={str_literal(proto_name)}")
        return options

    def _value_type(self, f: d.FieldDescriptorProto) -> str:
        ftype = f.type
        if ftype in _SCALARS:
            return _SCALARS[ftype]
        if not f.type_name:
            raise GenError(f"field {f.name} has neither a scalar type nor a type name")
        ref = self.chosen.get(f.type_name)
        known = self.well_known
        if ref is None and f.type_name in known and ftype in (_T.TYPE_MESSAGE, _T.TYPE_ENUM):
            py = known[f.type_name]
            self.uses.add("pa" if py.startswith("pa.") else py)
            return py
        if ref is None:
            other = self.index.types.get(f.type_name)
            if other is None or self.layout is None:
                raise GenError(f"field {f.name}: type {f.type_name} was not generated")
            return self._py_ref(other)
        return ref.py_name

    def _packed(self, t: Type, f: d.FieldDescriptorProto, features: Features) -> bool:
        packed = f.options.packed if f.options is not None else None
        if t.syntax == "proto2":
            return bool(packed)
        if t.syntax == "proto3":
            return packed is not False
        return features.encoding != EXPANDED

    def _presence(
        self, t: Type, f: d.FieldDescriptorProto, features: Features, is_message: bool
    ) -> str:
        if t.syntax == "proto2":
            return "required" if f.label == d.FieldLabel.LABEL_REQUIRED else "explicit"
        if t.syntax == "proto3":
            if f.proto3_optional or is_message or f.oneof_index is not None:
                return "explicit"
            return "implicit"
        if features.presence == REQUIRED:
            return "required"
        if features.presence == IMPLICIT and not is_message and f.oneof_index is None:
            return "implicit"
        return "explicit"

    def _zero(self, f: d.FieldDescriptorProto, ref: Type | None, where: Type | None = None) -> str:
        if f.type == _T.TYPE_ENUM:
            assert ref is not None and ref.enum is not None
            if not ref.enum.value:
                return "0"
            zero = [v for v in ref.enum.value if v.number == 0]
            return self._enum_member_name(ref, None, (zero or ref.enum.value)[0].name, where)
        return _ZEROS.get(f.type or 0, "None")

    def _default(
        self, f: d.FieldDescriptorProto, ref: Type | None, where: Type | None = None
    ) -> str | None:
        """The declared ``[default = ...]`` as Python source, or None."""
        text = f.default_value
        if text is None:
            return None
        ftype = f.type
        if ftype == _T.TYPE_ENUM:
            assert ref is not None
            return self._enum_member_name(ref, None, text, where)
        if ftype == _T.TYPE_BOOL:
            return "True" if text == "true" else "False"
        if ftype == _T.TYPE_STRING:
            return str_literal(text)
        if ftype == _T.TYPE_BYTES:
            return bytes_literal(unescape(text))
        if ftype in (_T.TYPE_DOUBLE, _T.TYPE_FLOAT):
            return float_literal(text)
        if ftype in _SCALARS:
            return str(int(text, 0))
        return None

    def _is_natural(
        self, f: d.FieldDescriptorProto, ref: Type | None, default: str, where: Type | None
    ) -> bool:
        """Whether an explicit default is what an absent field reads as anyway (zero or,
        for enums, the first value): then ``T | None`` keeps presence at no cost."""
        if f.type == _T.TYPE_ENUM:
            assert ref is not None and ref.enum is not None
            first = ref.enum.value[0].name if ref.enum.value else None
            return first is not None and default == self._enum_member_name(ref, None, first, where)
        if f.type in (_T.TYPE_DOUBLE, _T.TYPE_FLOAT):
            return default == "0.0"
        return default == self._zero(f, ref, where)
