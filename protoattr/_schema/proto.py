"""Export contracts as ``.proto`` text: proto2, proto3 or edition 2023.

:func:`schema` declares a contract and everything it reaches (the contracts
and enums its fields use, its subtypes and its bases) so that protoc accepts
the file and the code Google generates from it reads and writes the same
bytes as protoattr.  Where a syntax cannot say what a contract means (a
non-zero default in proto3, a required field, a group, a closed enum), the
export refuses with a :class:`ContractError` that names the field and the
syntax that can.

How protoattr's field semantics map to each syntax:

=====================  ==================  ====================  ================================
protoattr              proto2              proto3                editions (2023)
=====================  ==================  ====================  ================================
``T`` (zero default)   ``optional T``      ``T``                 ``T [field_presence = IMPLICIT]``
``T = d`` (non-zero)   ``[default = d]``   error                 ``T [default = d]``
``Optional[T]``        ``optional T``      ``optional T``        ``T`` (explicit by default)
``required=True``      ``required T``      error                 ``[LEGACY_REQUIRED]``
``group=True``         ``group``           error                 ``[DELIMITED]``
``packed`` (default)   ``[packed = true]``  packed by default     packed by default
``packed=False``       expanded            ``[packed = false]``  ``[EXPANDED]``
closed enum            every enum          error                 ``enum_type = CLOSED``
=====================  ==================  ====================  ================================

A non-Optional scalar whose default is its type's zero (or, for Decimal,
UUID and date, the domain zero) has implicit presence; proto2 has none, so
there it is ``optional`` and absent reads as the same zero.  Editions fields
of closed enums cannot be implicit and are explicit instead.

Enums: values are listed with the zero member first (proto3 and open
editions enums require it, and for proto2 it makes the implicit default -
the first value - the same as protoattr's).  An open enum without a zero
member, and any ``IntFlag`` (whose zero is "no flags"), gets a synthetic
``<ENUM_NAME>_UNSPECIFIED = 0`` (the Google style guide's name; protobuf-net
emits ``ZERO``, which collides between two enums of one package).  Enum
values share their package's scope; each keeps its Python name (so it depends
on its enum only), and two enums of one schema sharing a value name are
refused.  proto2 enums are always closed: an open protoattr enum exported as
proto2 keeps unknown numbers in the field where Google's runtime moves them to
the unknown fields; the bytes of known values are the same.

Inheritance is exported the way protobuf-net does it: the base message gets
``oneof subtype { Circle Circle = 10; }`` and each subtype is a message with
its own fields only.  A hierarchy travels as its root's message, so a field
typed with any class of it is declared with the root's type, and so is the
top-level message: decode ``serialize(circle)`` as ``Shape``.  protoattr writes
the subtype's field before the base's own, Google in field-number order: the
values agree, and the bytes too when subtype tags are below the base's fields.

Names are the contracts' (``proto_contract(name=...)``), the enums' class
names and the fields' ``proto_name`` (``field(name=...)``); a proto2 group
takes its field's name, capitalized, and a reference to a top-level message
that such a group name hides is written fully qualified.
"""

from __future__ import annotations

import datetime
import enum
import math
import re
import struct
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._core.contract import ContractInfo, FieldInfo, Label, ValueType
from .._core.errors import ContractError
from .._core.names import is_dotted_name, nested_classes, nested_in, scoped_name
from .._core.types import BCL_KINDS, INT_RANGES, PACKABLE, Kind
from .._core.wire import MAX_FIELD_NUMBER
from .._core.wkt import WELL_KNOWN_CLASSES, WELL_KNOWN_FILES
from . import extensions as _schemaext

if TYPE_CHECKING:
    from .._model.codecs import CodecModel
    from .._service import ServiceInfo

__all__ = ["SYNTAXES", "schema", "schema_files"]

SYNTAXES = ("proto2", "proto3", "editions")

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WELL_KNOWN = {
    Kind.TIMESTAMP: "google/protobuf/timestamp.proto",
    Kind.DURATION: "google/protobuf/duration.proto",
    # protobuf-net's own forms, as its GetProto imports them
    Kind.BCL_DATETIME: "protobuf-net/bcl.proto",
    Kind.BCL_TIMESPAN: "protobuf-net/bcl.proto",
    Kind.BCL_DECIMAL: "protobuf-net/bcl.proto",
    Kind.BCL_GUID: "protobuf-net/bcl.proto",
}
_INDENT = "  "


def schema(
    model: CodecModel,
    cls: type | Iterable[type],
    *,
    syntax: str = "proto3",
    package: str | None = None,
) -> str:
    """The ``.proto`` text declaring ``cls`` (a contract, or several) and all it reaches.

    ``cls`` may also be (or include) a service declared with ``@protoattr.service``:
    its ``service`` block is exported with the messages its RPCs use, in the
    service's package.  ``syntax`` is ``"proto2"``, ``"proto3"`` or ``"editions"``
    (edition 2023); ``package`` becomes the file's ``package`` statement.
    """
    roots = _export_roots(cls, syntax, package, "schema() needs at least one contract class")
    from .services import split_services

    roots, services, package = split_services(model, roots, package)
    exporter = _Exporter(model, syntax, package)
    exporter.services = services
    return exporter.run(roots)


def schema_files(
    model: CodecModel,
    cls: type | Iterable[type],
    *,
    syntax: str = "proto3",
    package: str | None = None,
) -> dict[str, str]:
    """One ``.proto`` file per package for ``cls`` and all it reaches: ``{path: text}``.

    A package ``a.b.v1`` is the file ``a/b/v1.proto``; contracts without a package
    are in ``package``'s file or, without it, in the file of the first contract that
    reaches them (``schema.proto`` when none has a package).  Files
    import each other and refer to other packages' types by full name, so protoc
    accepts them together (with the files' directory on its include path).
    Packages that refer to each other both ways are a :class:`ContractError`:
    ``.proto`` imports cannot be circular.
    """
    roots = _export_roots(cls, syntax, package, "schema_files() needs at least one contract class")
    from .services import split_services

    roots, services, _ = split_services(model, roots, package, one_package=False)
    exporter = _Exporter(model, syntax, package)
    exporter.services = services
    return exporter.run_files(roots)


def _export_roots(
    cls: type | Iterable[type], syntax: str, package: str | None, none_given: str
) -> list[type]:
    """The root classes of an export, after the checks every exporter makes of its
    arguments (``none_given`` is the message when ``cls`` holds no class)."""
    if syntax not in SYNTAXES:
        raise ValueError(f"syntax must be one of {', '.join(map(repr, SYNTAXES))}, not {syntax!r}")
    if package is not None and not is_dotted_name(package):
        raise ValueError(f"package {package!r} is not a dotted protobuf identifier")
    roots = [cls] if isinstance(cls, type) else list(cls)
    if not roots:
        raise ValueError(none_given)
    return roots


def file_of(package: str | None) -> str:
    """The path schema_files gives a package's file."""
    return "/".join(package.split(".")) + ".proto" if package else "schema.proto"


class _Message:
    """One contract, as the exporter sees it."""

    def __init__(self, cls: type, info: ContractInfo, fields: list[FieldInfo]) -> None:
        self.cls = cls
        self.info = info
        self.fields = fields
        self.children: list[tuple[int, type]] = []
        self.as_message = False  # reached as a message (not only as a proto2 group)


class _Exporter:
    def __init__(self, model: CodecModel, syntax: str, package: str | None) -> None:
        self.model = model
        self.syntax = syntax
        self.package = package
        self.home: dict[type, str | None] = {}  # each message's and enum's package
        self.file_imports: set[str] = set()  # other packages' files the rendered file uses
        self.messages: dict[type, _Message] = {}
        self.enums: dict[type, None] = {}
        self.imports: set[str] = set()
        self.names: dict[str, object] = {}  # top-level proto name -> class
        self.full_names: dict[str, object] = {}  # the same by full name (packages differ)
        self.enum_values: dict[type, list[tuple[str, int]]] = {}
        self.closed: set[type] = set()  # closed enums
        self.map_values: set[type] = set()  # enums that are map values: protoc wants a 0 first
        self.services: list[ServiceInfo] = []  # the services this schema declares

    # -- discovery ------------------------------------------------------------

    def run(self, roots: list[type]) -> str:
        self.discover(roots)
        return self._render()

    def discover(self, roots: list[type]) -> None:
        """Find every contract and enum ``roots`` reach; check their names.

        A well-known type among the roots is refused (import its file instead) unless
        a service's RPC uses it: then its file is imported (``google.protobuf.Empty``).
        """
        rpc_types = {
            t for info in self.services for m in info.methods for t in (m.request, m.response)
        }
        for root in roots:
            if root in WELL_KNOWN_CLASSES and root in rpc_types:
                continue
            if not isinstance(root, type):
                raise ContractError(f"schema() takes contract classes, not {root!r}")
            if root in WELL_KNOWN_CLASSES:
                name = WELL_KNOWN_CLASSES[root]
                raise ContractError(
                    f"{name} is declared by {WELL_KNOWN_FILES[name]}: import that file instead"
                )
            self.model.info(root)  # a clear error for a class that is not a contract
        pending: list[tuple[type, bool]] = [(root, True) for root in roots]
        while pending:
            cls, as_message = pending.pop(0)
            if cls in WELL_KNOWN_CLASSES:  # imported, never declared again
                self.imports.add(WELL_KNOWN_FILES[WELL_KNOWN_CLASSES[cls]])
                continue
            message = self.messages.get(cls)
            if message is None:
                info = self.model.info(cls)
                message = _Message(cls, info, self.model._own_fields(cls))
                message.children = self.model._children_of(cls)
                self.messages[cls] = message
                self._name(info.scoped_name, cls, "message", info.package)
                parent = self._parent(cls)
                if parent is not None:  # a nested message needs the one around it
                    pending.append((parent, True))
                for inner in nested_classes(cls):  # and its declaration holds its nested ones
                    if not issubclass(inner, enum.Enum):
                        pending.append((inner, True))
                    elif inner not in self.enums:
                        self.enums[inner] = None
                        self._name(scoped_name(inner), inner, "enum")
                for f in message.fields:
                    for vt in (f.key, f.value):
                        if vt is None:
                            continue
                        if vt.py_type in WELL_KNOWN_CLASSES:  # NullValue, Struct, wrappers...
                            self.imports.add(WELL_KNOWN_FILES[WELL_KNOWN_CLASSES[vt.py_type]])
                        elif vt.kind is Kind.ENUM and vt.py_type is not None:
                            if vt.py_type not in self.enums:
                                self.enums[vt.py_type] = None
                                self._name(scoped_name(vt.py_type), vt.py_type, "enum")
                                parent = self._parent(vt.py_type)
                                if parent is not None:
                                    pending.append((parent, True))
                            if vt.closed:
                                self.closed.add(vt.py_type)
                            if f.label is Label.MAP and vt is f.value:
                                self.map_values.add(vt.py_type)
                        elif vt.kind in _WELL_KNOWN:
                            self.imports.add(_WELL_KNOWN[vt.kind])
                        elif vt.kind is Kind.MESSAGE and vt.py_type is not None:
                            inline = f.group and self.syntax == "proto2"
                            pending.append((vt.py_type, not inline))
                            if inline:  # the group's body is its hierarchy root's
                                pending.append((self._root(vt.py_type), False))
                pending.extend((sub, True) for _, sub in message.children)
                link = self.model._parent_of(cls)
                if link is not None:
                    pending.append((link[0], True))
            if as_message:
                message.as_message = True
        _schemaext.discover(self)  # and what the extensions of these messages use
        for enum_cls in self.enums:
            self.enum_values[enum_cls] = self._enum_values(enum_cls)
        self._scope_enum_values()

    def run_files(self, roots: list[type]) -> dict[str, str]:
        self.discover(roots)
        files: dict[str, str] = {}
        uses: dict[str, set[str]] = {}
        for pkg in self.assign_homes():
            self.package = pkg
            self.file_imports = set()
            files[file_of(pkg)] = self._render()
            uses[file_of(pkg)] = set(self.file_imports)
        self.check_acyclic(uses)
        return files

    def assign_homes(self) -> list[str | None]:
        """Give every message and enum the package of the file that declares it; the
        packages, in the order they were reached (services' packages included)."""
        default = self.package
        if default is None and self.services:  # unpackaged contracts join the services
            default = self.services[0].package or None
        for cls, message in self.messages.items():  # in the order they were reached
            if message.info.package is not None or default is not None:
                self.home[cls] = message.info.package or default
            else:  # no package: it joins the first contract that reaches it
                self.home[cls] = next(
                    (self.home[c] for c in self.home if cls in self._reaches(c)), None
                )
        for enum_cls in self.enums:  # an enum lives with the first message that uses it
            self.home[enum_cls] = next(
                (
                    self.home[m.cls]
                    for m in self.messages.values()
                    if any(vt is not None and vt.py_type is enum_cls
                           for f in m.fields for vt in (f.key, f.value))
                ),
                default,
            )  # fmt: skip
        for cls in [*self.messages, *self.enums]:  # a nested type lives where its outermost does
            outer = cls
            while (parent := self._parent(outer)) is not None:
                outer = parent
            self.home[cls] = self.home[outer]
        packages = [self.home[c] for c in self.messages if self.messages[c].as_message]
        packages += [s.package or None for s in self.services]
        return list(dict.fromkeys(packages))

    @staticmethod
    def check_acyclic(uses: dict[str, set[str]]) -> None:
        """Refuse files that import each other (``uses``: file -> the files it imports)."""
        for a, imported in uses.items():
            for b in imported:
                if a in uses.get(b, set()):
                    raise ContractError(
                        f"the packages of {a} and {b} refer to each other, which .proto "
                        "imports cannot: move the contracts that do into one package"
                    )

    def _reaches(self, cls: type) -> set[type]:
        """The contracts ``cls``'s declaration names: field types, subtypes, its base."""
        message = self.messages[cls]
        found = {self._root(vt.py_type) for f in message.fields for vt in (f.key, f.value)
                 if vt is not None and vt.is_message and vt.py_type is not None}  # fmt: skip
        found.update(sub for _, sub in message.children)
        link = self.model._parent_of(cls)
        if link is not None:
            found.add(link[0])
        return found

    def _choose_package(self) -> None:
        """One file has one package: the contracts' (``package=``), else the argument's.

        Contracts without a package join the file's; contracts of two packages, or of
        another package than the argument names, cannot share one file.
        """
        packages: dict[str, type] = {}
        for message in self.messages.values():
            if message.info.package is not None:
                packages.setdefault(message.info.package, message.cls)
        if self.package is not None:
            packages.setdefault(self.package, type(None))
        if len(packages) > 1:
            found = ", ".join(
                f"{p!r} ({'the package argument' if c is type(None) else _qual(c)})"
                for p, c in packages.items()
            )
            raise ContractError(
                f"these contracts belong to different packages, which one .proto file cannot "
                f"declare: {found}; export them with schema_files(), one file per package"
            )
        if packages:
            self.package = next(iter(packages))

    def _parent(self, cls: type) -> type | None:
        """The contract a nested message or enum is declared in: the class whose body
        declares it, or the one a dotted ``name=`` (``"Order.Line"``) names."""
        parent = nested_in(cls)
        if parent is not None:
            return parent
        if isinstance(cls, type) and issubclass(cls, enum.Enum):
            return None
        info = self.model.info(cls)
        scope, dot, _ = info.scoped_name.rpartition(".")
        if not dot:
            return None
        outer = f"{info.package}.{scope}" if info.package else scope
        found = self.model.find(outer)
        if found is None:
            raise ContractError(
                f"{_qual(cls)} is named {info.full_name!r}, which nests it in {outer!r}, but no "
                f"contract is named {outer!r}: declare it, or name {_qual(cls)} without a dot"
            )
        return found

    def _children(self, owner: type) -> tuple[list[_Message], list[type]]:
        """The messages and enums of this schema declared inside ``owner``."""
        messages = [
            m
            for m in self.messages.values()
            if m.as_message and m.cls is not owner and self._parent(m.cls) is owner
        ]
        enums = [e for e in self.enums if self._parent(e) is owner]
        return messages, enums

    def _name(self, name: str, owner: object, what: str, package: str | None = None) -> None:
        if not all(_IDENT.fullmatch(part) for part in name.split(".")):
            raise ContractError(f"{_qual(owner)}: {name!r} is not a valid protobuf {what} name")
        key = f"{package}.{name}" if package else name  # two packages may share a name
        other = self.full_names.get(key)
        if other is not None and other is not owner:
            raise ContractError(
                f"{_qual(owner)} and {_qual(other)} are both named {name!r} in this schema: "
                "give one of them another name (proto_contract(name=...))"
            )
        self.full_names[key] = owner
        self.names[name] = owner

    # -- enums ----------------------------------------------------------------

    def _enum_values(self, enum_cls: type) -> list[tuple[str, int]]:
        seen: set[int] = set()
        values: list[tuple[str, int]] = []
        members: dict[str, Any] = dict(enum_cls.__members__)  # type: ignore[attr-defined]
        for name, member in members.items():
            number = int(member.value)
            if number in seen:
                continue  # an alias: protobuf would need allow_alias, and the wire is the same
            seen.add(number)
            values.append((name, number))
        zero = [v for v in values if v[1] == 0]
        rest = [v for v in values if v[1] != 0]
        closed = enum_cls in self.closed
        flag = issubclass(enum_cls, enum.Flag)  # its zero is "no flags", a value of its own
        as_map_value = enum_cls in self.map_values  # protoc: "must define 0 as the first value"
        if not zero and (flag or as_map_value or (self.syntax != "proto2" and not closed)):
            base = _upper_snake(enum_cls.__name__)
            name = f"{base}_UNSPECIFIED"
            taken = {n for n, _ in values}
            while name in taken:
                name += "_"
            zero = [(name, 0)]
        return zero + rest

    def _scope_enum_values(self) -> None:
        """Enum values share their package's scope (C++ rules).  Each value keeps its
        Python name, so that it depends on its enum only (not on which other enums the
        schema reaches) and JSON names match; a clash is refused, as protoc would."""
        scopes: dict[type | None, dict[str, type]] = {}
        for enum_cls, values in self.enum_values.items():
            parent = self._parent(enum_cls)
            taken = scopes.setdefault(parent, {})
            for name, _ in values:
                other = taken.setdefault(name, enum_cls)
                if other is not enum_cls or (parent is None and name in self.names):
                    also = _qual(other) if other is not enum_cls else f"message {name}"
                    prefix = _upper_snake(enum_cls.__name__) + "_"
                    raise ContractError(
                        f"{_qual(enum_cls)}: the enum value name {name!r} is also used by "
                        f"{also} in this schema, and enum values share their package's "
                        "scope: rename one (Google's style guide prefixes every value with "
                        f"its enum's name, e.g. {prefix}{name})"
                    )

    def _enum_name(self, enum_cls: type, value: Any) -> str:
        number = int(getattr(value, "value", value))
        for name, n in self.enum_values[enum_cls]:
            if n == number:
                return name
        raise ContractError(f"{_qual(enum_cls)} has no member with the value {number}")

    def _enum_value_ref(self, enum_cls: type, value: Any) -> str:
        """A default's enum value as a reference: values are scoped where their enum is."""
        return self._enum_name(enum_cls, value)

    # -- rendering ------------------------------------------------------------

    def _here(self, cls: type) -> bool:
        """Whether ``cls`` is declared in the file being rendered (always, for one file)."""
        return not self.home or self.home.get(cls) == self.package

    def _render(self) -> str:
        if not self.home:  # one file: its package comes from the contracts
            self._choose_package()
        body: list[str] = []
        for message in self.messages.values():
            if message.as_message and self._here(message.cls) and self._parent(message.cls) is None:
                body += self._message(message, 0, frozenset(), frozenset())
                body.append("")
        for enum_cls in self.enums:
            if self._here(enum_cls) and self._parent(enum_cls) is None:
                body += self._enum(enum_cls)
                body.append("")
        body += _schemaext.extend_blocks(self)
        services = [
            s for s in self.services if not self.home or (s.package or None) == self.package
        ]
        if services:
            from .services import render_services

            body.append(render_services(self, services).strip("\n"))
        out: list[str] = []
        if self.syntax == "editions":
            out.append('edition = "2023";')
        else:
            out.append(f'syntax = "{self.syntax}";')
        out.append("")
        if self.package:
            out += [f"package {self.package};", ""]
        imports = self._imports() | self.file_imports
        if imports:
            out += [f'import "{path}";' for path in sorted(imports)]
            out.append("")
        return "\n".join(out + body).rstrip("\n") + "\n"

    def _imports(self) -> set[str]:
        """The well-known files the rendered file's fields use."""
        if not self.home:
            return self.imports
        found: set[str] = set()
        for message in self.messages.values():
            if not self._here(message.cls):
                continue
            for f in message.fields:
                for vt in (f.key, f.value):
                    if vt is None:
                        continue
                    if vt.py_type in WELL_KNOWN_CLASSES:
                        found.add(WELL_KNOWN_FILES[WELL_KNOWN_CLASSES[vt.py_type]])
                    elif vt.kind in _WELL_KNOWN:
                        found.add(_WELL_KNOWN[vt.kind])
        return found

    def _enum(self, enum_cls: type, depth: int = 0) -> list[str]:
        pad = _INDENT * depth
        lines = [f"{pad}enum {enum_cls.__name__} {{"]
        if self.syntax == "editions" and enum_cls in self.closed:
            lines.append(f"{pad}{_INDENT}option features.enum_type = CLOSED;")
        for name, number in self.enum_values[enum_cls]:
            lines.append(f"{pad}{_INDENT}{name} = {number};")
        lines.append(f"{pad}}}")
        return lines

    def _message(
        self,
        message: _Message,
        depth: int,
        inside: frozenset[type],
        shadow: frozenset[str],
        group: str | None = None,
    ) -> list[str]:
        """The declaration of ``message`` (a proto2 group's body when ``group`` is given).

        ``inside`` are the contracts whose group bodies enclose this one; ``shadow``
        the names of group types declared in enclosing scopes, which hide top-level
        messages of the same name (references to those are fully qualified).
        """
        if message.cls in inside:
            raise ContractError(
                f"{_qual(message.cls)} contains itself as a group, which proto2 cannot declare: "
                "export with syntax='editions'"
            )
        inside = inside | {message.cls}
        pad = _INDENT * (depth + 1)
        decl = message.info.scoped_name.rpartition(".")[2]
        lines: list[str] = [] if group else [f"{_INDENT * depth}message {decl} {{"]
        lines += self._reserved(message, pad)
        lines += _schemaext.range_lines(self, message, pad)
        if not group:  # nested declarations first, as protoc lists them before map entries
            nested, nested_enums = self._children(message.cls)
            for inner in nested:
                lines += self._message(inner, depth + 1, inside, shadow)
            for enum_cls in nested_enums:
                lines += self._enum(enum_cls, depth + 1)
        used = {f.proto_name for f in message.fields} | {f.oneof for f in message.fields if f.oneof}
        if self.syntax == "proto2":
            shadow = shadow | {_group_name(f) for f in message.fields if f.group}
        seen: set[str] = set()
        for f in message.fields:
            if f.proto_name in seen:
                raise ContractError(f"{f.where}: another field is also named {f.proto_name!r}")
            if not _IDENT.fullmatch(f.proto_name):
                raise ContractError(f"{f.where}: {f.proto_name!r} is not a valid field name")
            if f.oneof is not None and not _IDENT.fullmatch(f.oneof):
                raise ContractError(f"{f.where}: {f.oneof!r} is not a valid oneof name")
            seen.add(f.proto_name)
        if message.children:
            oneof = "subtype"
            while oneof in used:
                oneof += "_"
            lines.append(f"{pad}oneof {oneof} {{")
            for tag, sub in message.children:
                name = self.model.info(sub).scoped_name
                ref = self._declared_ref(sub, name, shadow)
                name = name.rpartition(".")[2]
                lines.append(f"{pad}{_INDENT}{ref} {name} = {tag};")
            lines.append(f"{pad}}}")
        done: set[str] = set()
        for f in message.fields:
            if f.oneof is None:
                lines += self._field(f, depth + 1, inside, shadow)
            elif f.oneof not in done:
                done.add(f.oneof)
                lines.append(f"{pad}oneof {f.oneof} {{")
                for member in (m for m in message.fields if m.oneof == f.oneof):
                    lines += self._field(member, depth + 2, inside, shadow)
                lines.append(f"{pad}}}")
        if not group:
            lines.append(f"{_INDENT * depth}}}")
        return lines

    def _reserved(self, message: _Message, pad: str) -> list[str]:
        numbers: list[str] = []
        names: list[str] = []
        for r in message.info.options.reserved:
            if isinstance(r, str):
                if not _IDENT.fullmatch(r):
                    raise ContractError(
                        f"{_qual(message.cls)}: reserved name {r!r} is not an identifier"
                    )
                # editions write reserved names as identifiers, proto2/proto3 as strings
                names.append(r if self.syntax == "editions" else _quote(r.encode()))
            elif isinstance(r, range):
                if r.step == 1:
                    if len(r):
                        last = "max" if r[-1] >= MAX_FIELD_NUMBER else str(r[-1])
                        numbers.append(str(r.start) if r.start == r[-1] else f"{r.start} to {last}")
                else:
                    numbers += [str(n) for n in r]
            else:
                numbers.append(str(r))
        lines = []
        if numbers:
            lines.append(f"{pad}reserved {', '.join(numbers)};")
        if names:
            lines.append(f"{pad}reserved {', '.join(names)};")
        return lines

    def _field(
        self, f: FieldInfo, depth: int, inside: frozenset[type], shadow: frozenset[str]
    ) -> list[str]:
        pad = _INDENT * depth
        syntax = self.syntax
        options: list[str] = []
        label = ""
        in_oneof = f.oneof is not None
        if syntax == "proto3" and f.value.py_type in self.closed:
            raise ContractError(
                f"{f.where}: {_qual(f.value.py_type)} is a closed enum, which proto3 cannot "
                "declare: export with syntax='proto2' or 'editions'"
            )

        if f.label is Label.MAP:
            assert f.key is not None
            key, value = self._type(f.key, shadow), self._type(f.value, shadow)
            return [f"{pad}map<{key}, {value}> {f.proto_name} = {f.tag};"]

        if f.group and syntax == "proto3":
            raise ContractError(
                f"{f.where}: proto3 has no groups: export with syntax='proto2' or 'editions'"
            )
        if f.required and syntax == "proto3":
            raise ContractError(
                f"{f.where}: proto3 has no required fields: export with syntax='proto2' or "
                "'editions'"
            )

        if f.label is Label.REPEATED:
            label = "repeated"
            if f.value.kind in PACKABLE:
                if syntax == "proto2" and f.packed:
                    options.append("packed = true")
                elif syntax == "proto3" and not f.packed:
                    options.append("packed = false")
                elif syntax == "editions" and not f.packed:
                    options.append("features.repeated_field_encoding = EXPANDED")
        else:
            presence, default = self._presence(f)
            if f.required:
                if syntax == "proto2":
                    label = "required"
                else:
                    options.append("features.field_presence = LEGACY_REQUIRED")
            elif presence == "implicit":
                if syntax == "proto2" and not in_oneof:
                    label = "optional"
                elif syntax == "editions":
                    options.append("features.field_presence = IMPLICIT")
            elif not in_oneof and (
                syntax == "proto2" or (syntax == "proto3" and not _message_like(f.value))
            ):
                label = "optional"  # explicit presence
            if default is not None:
                options.append(f"default = {default}")

        if f.group and syntax == "proto2":
            return self._group(f, label, options, depth, inside, shadow)
        if f.group:
            options.append("features.message_encoding = DELIMITED")
        head = f"{label} " if label else ""
        tail = f" [{', '.join(options)}]" if options else ""
        return [f"{pad}{head}{self._type(f.value, shadow)} {f.proto_name} = {f.tag}{tail};"]

    def _group(
        self,
        f: FieldInfo,
        label: str,
        options: list[str],
        depth: int,
        inside: frozenset[type],
        shadow: frozenset[str],
    ) -> list[str]:
        """A proto2 group: the field's name is its type's name, lower-cased."""
        pad = _INDENT * depth
        name = _group_name(f)
        if not name[:1].isupper():
            raise ContractError(
                f"{f.where}: a proto2 group's name must start with a letter; export with "
                "syntax='editions'"
            )
        assert f.value.py_type is not None
        message = self.messages[self._root(f.value.py_type)]
        tail = f" [{', '.join(options)}]" if options else ""
        head = f"{label} " if label else ""
        lines = [f"{pad}{head}group {name} = {f.tag}{tail} {{"]
        lines += self._message(message, depth, inside, shadow, group=name)
        lines.append(f"{pad}}}")
        return lines

    def _presence(self, f: FieldInfo) -> tuple[str, str | None]:
        """``("implicit" | "explicit", the [default = ...] text or None)`` of a singular field.

        protoattr writes a non-Optional scalar unless it equals its default, and
        reads a missing one as that default: where the default is the type's
        zero that is implicit presence; otherwise it needs a declared default.
        """
        vt = f.value
        default = declared_default(f)
        if f.label is Label.OPTIONAL or f.required or _message_like(vt):
            presence = "explicit"
            if default is None or _message_like(vt):
                return presence, None
        else:
            presence = "implicit"
        if vt.kind is Kind.ENUM and vt.closed:
            presence = "explicit"  # closed enums cannot have implicit presence
        wire = _wire_value(vt, default)
        if wire is None or (vt.domain is not None and default == vt.zero):
            return presence, None  # Decimal(0), the nil UUID...: absent, as zero is
        if self.syntax == "proto3":
            if self._is_zero(vt, wire, first_value=False):
                return presence, None
            raise ContractError(
                f"{f.where}: proto3 cannot declare the default {default!r} (absent fields read "
                "as zero there): export with syntax='proto2' or 'editions'"
            )
        if self.syntax == "editions" and presence == "implicit":
            if self._is_zero(vt, wire, first_value=False):
                return presence, None
        elif self._is_zero(vt, wire, first_value=True):  # proto2 fields are all explicit
            return presence, None
        return "explicit", self._default_text(vt, wire)

    def _is_zero(self, vt: ValueType, wire: Any, *, first_value: bool) -> bool:
        """Whether ``wire`` is what an absent field reads as without ``[default]``."""
        kind = vt.kind
        if kind is Kind.ENUM:
            if first_value and vt.py_type is not None and self.syntax != "proto3":
                return int(wire) == self.enum_values[vt.py_type][0][1]
            return int(wire) == 0
        if kind in (Kind.FLOAT, Kind.DOUBLE):
            return struct.pack("<d", float(wire)) == struct.pack("<d", 0.0)
        if kind is Kind.BOOL:
            return wire is False or wire == 0
        if kind in INT_RANGES:
            return int(wire) == 0
        if kind in (Kind.STRING, Kind.BYTES):
            return len(wire) == 0
        return False

    def _default_text(self, vt: ValueType, wire: Any) -> str:
        kind = vt.kind
        if kind is Kind.ENUM:
            assert vt.py_type is not None
            return self._enum_name(vt.py_type, wire)
        if kind is Kind.BOOL:
            return "true" if wire else "false"
        if kind in (Kind.FLOAT, Kind.DOUBLE):
            x = float(wire)
            if math.isnan(x):
                return "nan"
            if math.isinf(x):
                return "inf" if x > 0 else "-inf"
            return repr(x)
        if kind is Kind.STRING:
            return _quote(str(wire).encode("utf-8"))
        if kind is Kind.BYTES:
            return _quote(bytes(wire))
        return str(int(wire))

    def _type(self, vt: ValueType, shadow: frozenset[str]) -> str:
        kind = vt.kind
        if vt.py_type in WELL_KNOWN_CLASSES:
            name = WELL_KNOWN_CLASSES[vt.py_type]
            # a package of the user's own under "google" would hide the real one
            return f".{name}" if (self.package or "").split(".")[0] == "google" else name
        if kind in (Kind.MESSAGE, Kind.ENUM):
            assert vt.py_type is not None
            if kind is Kind.MESSAGE:
                # a hierarchy travels as its root's message, whichever class the field names
                root = self._root(vt.py_type)
                return self._declared_ref(root, self.model.info(root).scoped_name, shadow)
            return self._declared_ref(vt.py_type, scoped_name(vt.py_type), shadow)
        if kind in BCL_KINDS:
            return f".{kind.value}"  # as protobuf-net's GetProto names them
        return str(kind.value)

    def _root(self, cls: type) -> type:
        """The root of ``cls``'s hierarchy (``cls`` itself outside one)."""
        return self.model._chain(cls)[-1]

    def _declared_ref(self, cls: type, name: str, shadow: frozenset[str]) -> str:
        """A reference to ``cls``, by full name (and imported) when another file has it."""
        if self._here(cls):
            return self._ref(name, shadow)
        package = self.home.get(cls)
        self.file_imports.add(file_of(package))
        return f".{package}.{name}" if package else f".{name}"

    def _ref(self, name: str, shadow: frozenset[str]) -> str:
        """A reference to ``name`` (scoped in this file's package), qualified where a group
        type hides it; a nested type is always qualified (a nearer scope could hide it)."""
        if name not in shadow and "." not in name:
            return name
        return f".{self.package}.{name}" if self.package else f".{name}"


def _message_like(vt: ValueType) -> bool:
    """Messages, Timestamp and Duration: presence is always explicit."""
    return vt.kind in (Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION) or vt.kind in BCL_KINDS


def _wire_value(vt: ValueType, default: Any) -> Any:
    """The default as the wire kind holds it (Decimal -> str, date -> days...)."""
    if default is None:
        return None
    if vt.domain is not None and vt.encode_with is not None:
        try:
            return vt.encode_with(default)
        except (TypeError, ValueError):
            return None
    if vt.domain is not None:
        return default
    if isinstance(default, (datetime.datetime, datetime.timedelta)):
        return None
    return default


def _quote(data: bytes) -> str:
    """A protobuf string literal: printable ASCII as itself, the rest as octal escapes."""
    out = ['"']
    for b in data:
        if b in (0x22, 0x5C):
            out.append("\\" + chr(b))
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\{b:03o}")
    out.append('"')
    return "".join(out)


def _group_name(f: FieldInfo) -> str:
    return f.proto_name[:1].upper() + f.proto_name[1:]


def _upper_snake(name: str) -> str:
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return snake.upper()


def _qual(owner: object) -> str:
    return str(getattr(owner, "__qualname__", repr(owner)))


def declared_default(f: FieldInfo) -> Any:
    """The default a schema declares for ``f``: what an absent field reads as on the
    wire (an explicit-presence field's ``wire_default``, else the codec's default)."""
    if f.wire_default is not None:
        return f.wire_default
    return f.default_factory() if f.default_factory is not None else f.default
