"""``gen``, step two: the Python source of one module, from indexed declarations.

How protobuf declarations become Python is described in :mod:`protoattr._schema.gen`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import descriptor as d
from . import gen_extensions as _genext
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
from .gen_services import ServiceWriter
from .gen_text import (
    IMMUTABLE,
    WIDTH,
    Field,
    bytes_literal,
    commented,
    doc_escape,
    docstring_lines,
    enum_member,
    field_lines,
    float_literal,
    reserved_option,
    safe_name,
    str_literal,
    unescape,
    wrap_call,
)
from .gen_types import (
    BODY_NAMES,
    MODULE_NAMES,
    NULLABLE,
    PACKABLE,
    SCALARS,
    TIMES,
    WELL_KNOWN,
    ZEROS,
    T,
)

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
    if t.full_name in WELL_KNOWN:
        return ""
    if layout is None and (package == "google.protobuf" or package.startswith("google.protobuf.")):
        return ""
    return package


class Writer(ServiceWriter):
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
        self.well_known = WELL_KNOWN | TIMES[time]
        self.index = index
        self.targets = targets
        self.command = command
        self.layout = layout
        self.imports: set[str] = set()  # the files whose modules this one imports
        self.services: list[tuple[d.FileDescriptorProto, int, d.ServiceDescriptorProto]] = []
        self.extensions: list[_genext.Declared] = []  # the requested files' extend fields
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
        self.extensions = _genext.declared(self)
        pending += _genext.types_used(self, self.extensions)
        while pending:
            t = pending.pop(0)
            if t.full_name in self.chosen or t.is_map_entry:
                continue
            if t.full_name in WELL_KNOWN and t.file.name not in self.targets:
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
        first_is_code = not blocks and bool(self.extensions)  # after imports: one blank line
        if self.extensions:
            blocks.append(_genext.render(self, self.extensions))
        blocks += [self._service(fd, i, svc) for fd, i, svc in services]
        if not blocks:
            return self._header().rstrip("\n") + "\n"
        header = self._header()
        if first_is_code:
            header = header.rstrip("\n") + "\n\n"
        return header + "\n\n\n".join(blocks) + "\n"

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
            name = safe_name(base, MODULE_NAMES, builtin=True)
            while name in taken:
                name += "_"
            taken[name] = t.full_name
            t.py_name = name
            self._name_children(t)

    def _name_children(self, t: Type) -> None:
        """Nested classes: ``Order.Line``, each a safe name inside its parent's body."""
        taken = set(BODY_NAMES)
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

    # -- names of other modules' classes ----------------------------------------------

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
        ranges = _genext.ranges_option(m)
        if ranges:
            options.append(f"extensions={ranges}")
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
            proto_name, BODY_NAMES | nested | {o.py_name for o in self.chosen.values()}
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
        is_message = ftype in (T.TYPE_MESSAGE, T.TYPE_GROUP)
        group = ftype == T.TYPE_GROUP or (
            is_message and t.syntax == "editions" and features.message_encoding == DELIMITED
        )
        if label == d.FieldLabel.LABEL_REPEATED:
            annotation = f"list[{value}]"
            options.append("default_factory=list")
            packed = self._packed(t, f, features)
            if ftype in PACKABLE and not packed:
                options.append("packed=False")
        else:
            presence = self._presence(t, f, features, is_message)
            default = self._default(f, ref, t)
            if value in NULLABLE:  # a wrapper or a JSON value: None is absent already
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
                annotation = f"{value} | None"  # presence kept: set-to-default is written
                if default.startswith(_LAZY):  # an enum not visible here yet: its number
                    assert ref is not None and ref.enum is not None
                    default = str(
                        next(v.number for v in ref.enum.value if v.name == f.default_value)
                    )
                options += ["default=None", f"wire_default={default}"]
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
        if ftype in SCALARS:
            return SCALARS[ftype]
        if not f.type_name:
            raise GenError(f"field {f.name} has neither a scalar type nor a type name")
        ref = self.chosen.get(f.type_name)
        known = self.well_known
        if ref is None and f.type_name in known and ftype in (T.TYPE_MESSAGE, T.TYPE_ENUM):
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
        if f.type == T.TYPE_ENUM:
            assert ref is not None and ref.enum is not None
            if not ref.enum.value:
                return "0"
            zero = [v for v in ref.enum.value if v.number == 0]
            return self._enum_member_name(ref, None, (zero or ref.enum.value)[0].name, where)
        return ZEROS.get(f.type or 0, "None")

    def _default(
        self, f: d.FieldDescriptorProto, ref: Type | None, where: Type | None = None
    ) -> str | None:
        """The declared ``[default = ...]`` as Python source, or None."""
        text = f.default_value
        if text is None:
            return None
        ftype = f.type
        if ftype == T.TYPE_ENUM:
            assert ref is not None
            return self._enum_member_name(ref, None, text, where)
        if ftype == T.TYPE_BOOL:
            return "True" if text == "true" else "False"
        if ftype == T.TYPE_STRING:
            return str_literal(text)
        if ftype == T.TYPE_BYTES:
            return bytes_literal(unescape(text))
        if ftype in (T.TYPE_DOUBLE, T.TYPE_FLOAT):
            return float_literal(text)
        if ftype in SCALARS:
            return str(int(text, 0))
        return None

    def _is_natural(
        self, f: d.FieldDescriptorProto, ref: Type | None, default: str, where: Type | None
    ) -> bool:
        """Whether an explicit default is what an absent field reads as anyway (zero or,
        for enums, the first value): then ``T | None`` keeps presence at no cost."""
        if f.type == T.TYPE_ENUM:
            assert ref is not None and ref.enum is not None
            first = ref.enum.value[0].name if ref.enum.value else None
            return first is not None and default == self._enum_member_name(ref, None, first, where)
        if f.type in (T.TYPE_DOUBLE, T.TYPE_FLOAT):
            return default == "0.0"
        return default == self._zero(f, ref, where)
