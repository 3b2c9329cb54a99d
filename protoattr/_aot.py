"""Ahead-of-time codecs: write a model's generated code as an importable module.

The Python analogue of protobuf-net's ``Compile(path)``.  :func:`write_module`
writes every compiled codec of a model as a real function in a ``.py`` file;
importing the file installs the codecs into the model without reflecting over
classes or generating code.

The module's bytecode is written with it (``__pycache__/NAME.cpython-XY.pyc``,
hash-checked, so a copy with new timestamps keeps it valid): the first import
then unmarshals code instead of compiling megabytes of generated source, even
where nothing ever writes a ``.pyc`` (``PYTHONDONTWRITEBYTECODE=1``, common in
containers) or the directory is read-only at run time.  A service run by another
Python version than the one that wrote the module needs ``python -m compileall``
on it at image build time instead.

Each codec's generated functions refer to helpers, classes, enum tables,
defaults and other codecs by name.  At write time each of those values gets a
*recipe*: a short expression that rebuilds it at import (``_ref("pkg.mod",
"Task")``, ``_codec(...)``, ``Decimal('0')``).  Recipes are checked when written
(evaluated and compared), so a module that imports is a module that works.

A fingerprint of each class's declaration (field names, annotations, protobuf
options, defaults) is stored beside its codec; installing over a class whose
declaration changed since is refused with a :class:`ContractError`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import enum
import functools
import hashlib
import importlib
import inspect
import py_compile
import struct
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ._core.contract import declared_options, is_contract
from ._core.convert import surrogate_for
from ._core.errors import ContractError
from ._model import codecs as _codecs
from ._model.codecs import Codec
from ._version import __version__

if TYPE_CHECKING:
    from ._model.codecs import CodecModel

__all__ = ["fingerprint", "write_module"]


# -- what the written module calls ------------------------------------------------


def ref(module: str, qualname: str) -> Any:
    """The object ``qualname`` of ``module`` (imports the module)."""
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def struct_method(fmt: str, name: str) -> Any:
    return getattr(struct.Struct(fmt), name)


def field_default(cls: type, name: str, which: str) -> Any:
    """A field's ``default`` or ``default_factory``, read off the class."""
    if dataclasses.is_dataclass(cls):
        return getattr(cls.__dataclass_fields__[name], which)
    a = attrs.fields_dict(cls)[name]
    return a.default.factory if which == "default_factory" else a.default  # type: ignore[union-attr]


def surrogate(foreign: type, which: str) -> Any:
    sur = surrogate_for(foreign)
    if sur is None:
        raise ContractError(f"{foreign.__qualname__} has no surrogate registered")
    return getattr(sur, which)


class Installer:
    """Installs the codecs of a written module into a model."""

    def __init__(self, model: CodecModel | None, module: str) -> None:
        self.model = _codecs.default() if model is None else model
        self.module = module

    def codec(self, cls: type) -> Codec:
        return self.model._codec(cls)

    def add(
        self,
        cls: type,
        expected: str,
        factory: Callable[..., tuple[Any, Any]],
        namespace: Callable[[], dict[str, Any]],
    ) -> None:
        actual = fingerprint(cls)
        if actual != expected:
            raise ContractError(
                f"{self.module}: {cls.__module__}.{cls.__qualname__} changed since this "
                "module was written (fingerprint mismatch); regenerate it with "
                "`python -m protoattr compile` or model.write_module()"
            )
        codec = self.model._codec(cls)
        if codec.compiled:
            return
        encode, decode = factory(**namespace())
        codec.encode = encode
        codec.decode = decode
        codec._source = None
        codec._source_fn = functools.partial(_factory_source, factory)


def _factory_source(factory: Callable[..., Any]) -> str:
    """A codec's generated source, read back from the written module: the body of
    its factory without the ``def`` and ``return`` lines, dedented."""
    lines = inspect.getsource(factory).splitlines()[1:-1]
    return "\n".join(line[4:] for line in lines) + "\n"


# -- fingerprints ---------------------------------------------------------------


def _stable(value: Any) -> str:
    """A description of a default that is the same in every process."""
    if isinstance(value, (int, float, str, bytes, bool, type(None), decimal.Decimal, uuid.UUID)):
        return repr(value)
    if isinstance(value, (datetime.date, datetime.timedelta, enum.Enum)):
        return repr(value)
    if callable(value):
        return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', '?')}"
    return type(value).__qualname__


def fingerprint(cls: type) -> str:
    """A hash of ``cls``'s declaration: what its codec was generated from."""
    parts = [cls.__module__, cls.__qualname__, repr(declared_options(cls))]
    parts += [f"base:{b.__module__}.{b.__qualname__}" for b in cls.__mro__[1:] if is_contract(b)]
    if dataclasses.is_dataclass(cls):
        for f in dataclasses.fields(cls):
            parts += [
                f.name,
                repr(f.type),
                repr(f.metadata.get("protoattr")),
                _stable(f.default),
                _stable(f.default_factory),
                str(f.init),
            ]
    elif attrs.has(cls):
        for a in attrs.fields(cls):
            parts += [a.name, repr(a.type), _stable(a.default), str(a.init)]
    else:
        parts += [f"{k}:{v!r}" for k, v in getattr(cls, "__annotations__", {}).items()]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]


# -- recipes ----------------------------------------------------------------------

_HEADER_NAMES: dict[str, Any] = {
    "datetime": datetime,
    "Decimal": decimal.Decimal,
    "UUID": uuid.UUID,
    "_ref": ref,
    "_struct": struct_method,
    "_field_default": field_default,
    "_surrogate": surrogate,
    "bytearray": bytearray,
    "frozenset": frozenset,
    "float": float,
}


def _ref_expr(obj: Any) -> str | None:
    """``_ref(module, qualname)`` if that finds ``obj`` again."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        return None
    try:
        if ref(module, qualname) is obj:
            return f"_ref({module!r}, {qualname!r})"
    except (ImportError, AttributeError):
        return None
    return None


def _class_expr(cls: type) -> str:
    expr = _ref_expr(cls)
    if expr is None:
        raise ContractError(
            f"{cls.__qualname__} cannot be imported by name from {cls.__module__}, so an "
            "ahead-of-time module cannot refer to it: define it at module level"
        )
    return expr


class _Recipes:
    """Finds an expression that rebuilds each namespace value of a generated codec."""

    def __init__(self, model: CodecModel, cls: type) -> None:
        self.model = model
        self.cls = cls

    def __call__(self, name: str, value: Any) -> str:
        if isinstance(value, Codec):
            return f"_codec({_class_expr(value.cls)})"
        if isinstance(value, type):
            return _class_expr(value)
        if isinstance(value, dict) and value and all(isinstance(k, type) for k in value):
            items = ", ".join(f"{_class_expr(k)}: _codec({_class_expr(k)})" for k in value)
            return "{" + items + "}"
        if isinstance(value, dict) and value:
            members = list(value.values())
            enum_cls = type(members[0])
            if isinstance(members[0], enum.Enum) and value == {m.value: m for m in enum_cls}:
                return f"{{m.value: m for m in {_class_expr(enum_cls)}}}"
        known = _known_objects().get(id(value))
        if known is not None:
            return known
        self_obj = getattr(value, "__self__", None)
        if isinstance(self_obj, struct.Struct):
            return f"_struct({self_obj.format!r}, {value.__name__!r})"
        if isinstance(value, enum.Enum):
            return f"{_class_expr(type(value))}({value.value!r})"
        found = self._by_eval(value)
        if found is not None:
            return found
        if callable(value):
            expr = _ref_expr(value)
            if expr is not None:
                return expr
            for foreign, sur in self._surrogates():
                for which in ("to_surrogate", "from_surrogate"):
                    if getattr(sur, which) is value:
                        return f"_surrogate({_class_expr(foreign)}, {which!r})"
        for owner in self._owners():
            for field_name, which, candidate in _declared_defaults(owner):
                if candidate is value:
                    return f"_field_default({_class_expr(owner)}, {field_name!r}, {which!r})"
        raise ContractError(
            f"{self.cls.__qualname__}: cannot write {name} = {value!r} into an "
            "ahead-of-time module (give it a default that repr() can rebuild)"
        )

    def _by_eval(self, value: Any) -> str | None:
        if callable(value) and not isinstance(value, type):
            return None
        text = repr(value)
        try:
            again = eval(text, dict(_HEADER_NAMES))
        except Exception:
            return None
        if type(again) is type(value) and (again == value or repr(again) == text):
            return text
        return None

    def _owners(self) -> list[type]:
        return [c for c in self.cls.__mro__ if is_contract(c)]

    def _surrogates(self) -> list[tuple[type, Any]]:
        from ._core.convert import _SURROGATES

        return list(_SURROGATES.items())


def _known_objects() -> dict[int, str]:
    """Objects the generated code uses that have no importable name of their own."""
    from ._core import contract as _contract
    from ._core import wire as _wire
    from ._python import runtime as _runtime

    table = "_ref('protoattr._core.wire', 'prefix_table')"
    tables = {id(t): f"{table}({p!r})" for p, t in _wire.PREFIX_TABLES.items()}
    return tables | {
        id(_contract.MISSING): "_ref('protoattr._core.contract', 'MISSING')",
        id(_runtime.NOT_LISTS): "_ref('protoattr._python.runtime', 'NOT_LISTS')",
        id(_runtime.BUDGET): "_ref('protoattr._python.runtime', 'BUDGET')",
        id(object.__setattr__): "object.__setattr__",
        id(object.__new__): "object.__new__",
    }


def _declared_defaults(cls: type) -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    if dataclasses.is_dataclass(cls):
        for f in dataclasses.fields(cls):
            out += [(f.name, "default", f.default), (f.name, "default_factory", f.default_factory)]
    elif attrs.has(cls):
        for a in attrs.fields(cls):
            default = a.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                out.append((a.name, "default_factory", default.factory))
            else:
                out.append((a.name, "default", default))
    return out


# -- writing ----------------------------------------------------------------------


def _verify(model: CodecModel, cls: type, namespace: dict[str, Any], exprs: dict[str, str]) -> None:
    """Evaluate every recipe now and check it rebuilds its value."""
    scope = dict(_HEADER_NAMES, _codec=model._codec)
    for name, expr in exprs.items():
        value = namespace[name]
        again = eval(expr, scope)
        same = again is value or (type(again) is type(value) and again == value)
        if isinstance(getattr(value, "__self__", None), struct.Struct):  # a fresh Struct's method
            made, wanted = again.__self__, value.__self__
            same = (made.format, again.__name__) == (wanted.format, value.__name__)
        if not same:
            raise ContractError(
                f"{cls.__qualname__}: {name} = {value!r} would be rebuilt as {again!r} by an "
                "ahead-of-time module"
            )


def write_module(model: CodecModel, path: str | Path) -> Path:
    """Write every compiled codec of ``model`` into ``path`` (see the module docstring)."""
    default_model = _codecs.default()
    model.compile()
    path = Path(path)
    chunks: list[str] = []
    adds: list[str] = []
    codecs = [c for c in list(model._codecs.values()) if getattr(c, "generated", None)]
    for i, codec in enumerate(sorted(codecs, key=lambda c: (c.cls.__module__, c.cls.__qualname__))):
        generated = codec.generated
        assert generated is not None
        recipes = _Recipes(model, codec.cls)
        names = sorted(generated.namespace)
        params = ", ".join(names)
        body = "\n".join("    " + line if line else "" for line in generated.source.splitlines())
        chunks.append(
            f"def _factory_{i}({params}):\n{body}\n"
            f"    return encode_{generated.stem}, decode_{generated.stem}\n"
        )
        exprs = {n: recipes(n, generated.namespace[n]) for n in names}
        _verify(model, codec.cls, generated.namespace, exprs)
        namespace = ", ".join(f"{n}={exprs[n]}" for n in names)
        adds.append(
            f"    _i.add(\n"
            f"        {_class_expr(codec.cls)},\n"
            f"        {fingerprint(codec.cls)!r},\n"
            f"        _factory_{i},\n"
            f"        lambda: dict({namespace}),\n"
            f"    )"
        )
    into = " into protoattr.default_model" if model is default_model else ""
    header = f'''"""protoattr {__version__} codecs, written ahead of time by model.write_module.

Importing this module installs them{into};
``install(model)`` installs them into another model.  Do not edit: regenerate
it (``python -m protoattr compile MODULE -o FILE``) when the contracts change.
"""
# ruff: noqa
# fmt: off
import datetime
from decimal import Decimal
from uuid import UUID

from protoattr._aot import Installer as _Installer
from protoattr._aot import field_default as _field_default
from protoattr._aot import ref as _ref
from protoattr._aot import struct_method as _struct
from protoattr._aot import surrogate as _surrogate

'''
    footer = (
        "\n\ndef install(model=None):\n"
        "    _i = _Installer(model, __name__)\n"
        "    _codec = _i.codec\n" + "\n".join(adds) + "\n"
    )
    if model is default_model:
        footer += "\n\ninstall()\n"
    path.write_text(header + "\n\n".join(chunks) + footer)
    _write_bytecode(path)
    return path


def _write_bytecode(path: Path) -> None:
    """Write ``path``'s ``.pyc`` where its import will look (see the module docstring).

    Checked by a hash of the source, not its mtime: deploying the pair (a
    ``COPY`` into an image, a checkout) keeps it valid, and an edited source
    is still recompiled.  A directory that cannot take a ``__pycache__`` only
    costs the speed-up, as for any module Python cannot cache.
    """
    with contextlib.suppress(OSError):
        py_compile.compile(
            str(path), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
        )
