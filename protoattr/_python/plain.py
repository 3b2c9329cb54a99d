"""When building a contract's object is plain attribute assignment, and so when a
decode may merge into an object it built itself.

Shared by both backends (the engine's plans and the generated Python codecs), so
that they agree on which objects are built without user code and which merges go
in place: the same objects and the same errors either way.
"""

from __future__ import annotations

import operator

from .._core.contract import MISSING, ContractInfo, FieldInfo, Label
from .._core.facts import contract_fact
from .._core.types import Kind

__all__ = ["init_assigns", "merges_in_place", "takes_merge_in_place"]


@contract_fact
def init_assigns(info: ContractInfo) -> tuple[int, ...] | None:
    """The fields, in the order their class's ``__init__`` assigns them, when that
    ``__init__`` is the one ``@dataclass`` generated and does nothing else; else None.
    Worked out once per contract (:func:`contract_fact`: 10-16 µs each, mostly
    ``dataclasses.fields`` and the checks below), not once per model.

    Such an ``__init__`` is ``self.a = a; self.b = b; ...`` over the dataclass fields in
    definition order (every argument is given: the decoder passes every field), so
    ``object.__new__(cls)`` and the same assignments through the generic setattr build
    the identical object (same ``__dict__``, same order) without a Python frame: about
    half the cost of a record on decode.  Anything else ``__init__`` could do -- a
    ``__post_init__``, an ``InitVar``, an ``init=False`` field set from its default, a
    frozen class, a hand-written ``__init__``, a custom ``__new__``/``__setattr__`` or
    metaclass ``__call__`` -- keeps the call of the class.
    """
    cls = info.cls
    params = cls.__dict__.get("__dataclass_params__")
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if params is None or not params.init or params.frozen or info.validated or code is None:
        return None
    if code.co_filename != "<string>" or getattr(init, "__qualname__", None) != (
        f"{cls.__qualname__}.__init__"
    ):
        return None  # not the generated one
    if (
        hasattr(cls, "__post_init__")
        or cls.__new__ is not object.__new__  # type: ignore[comparison-overlap]
        or cls.__setattr__ is not object.__setattr__  # type: ignore[comparison-overlap]
        or type(cls).__call__ is not type.__call__
    ):
        return None
    import dataclasses  # cls is a dataclass: dataclasses is imported already

    declared = dataclasses.fields(cls)  # definition order, ClassVars and InitVars left out
    # (builtins over the fields, no comprehension: this runs for each contract planned)
    names = list(map(_NAME, filter(_INIT, declared)))
    arguments = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
    if len(names) != len(declared) or sorted(arguments) != sorted(names):
        return None  # an InitVar, or a field __init__ sets by itself
    fields = info.fields
    field_names = list(map(_NAME, fields))
    if len(fields) != len(names) or field_names != list(map(_INIT_NAME, fields)):
        return None  # a dataclass field the contract leaves out (its default: __init__'s)
    index = dict(zip(field_names, range(len(fields)), strict=True))
    try:
        return tuple(map(index.__getitem__, names))
    except KeyError:
        return None  # a dataclass field the contract leaves out (its default: __init__'s)


_NAME = operator.attrgetter("name")
_INIT = operator.attrgetter("init")
_INIT_NAME = operator.attrgetter("init_name")


def merges_in_place(info: ContractInfo, flat: bool) -> bool:
    """Whether a message of ``info``'s class that a decode built may take the fields of
    a later occurrence straight into its attributes (protobuf's merge, in place).

    It may when nothing could tell it from building a new object from its values and
    the new ones: the class is ``flat`` (no hierarchy), built by ``object.__new__`` and
    plain attributes (no user code runs), and no field converts its list to another
    container (the engine's ``plan->in_place``)."""
    if not flat or (info.construct == "init" and init_assigns(info) is None):
        return False
    return not any(f.label is Label.REPEATED and f.container is not list for f in info.fields)


def takes_merge_in_place(f: FieldInfo) -> bool:
    """Whether a value of field ``f`` a decode built may be merged into in place (its
    class permitting, :func:`merges_in_place`): a singular, length-delimited message
    without conversion whose value can never be a default the contract gives (a
    default value or factory may be shared: those merge by copying)."""
    vt = f.value
    return (
        vt.kind is Kind.MESSAGE
        and f.label not in (Label.REPEATED, Label.MAP)
        and not f.group
        and vt.encode_with is None
        and vt.decode_with is None
        and f.default_factory is None
        and (f.default is MISSING or f.default is None)
    )
