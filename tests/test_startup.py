"""``import protoattr`` imports only what a binary round trip needs (issue 20: start-up).

attrs, uuid (which imports platform), decimal, datetime, pathlib and the service
declarations are imported when a program uses them: a program with an attrs class, a
UUID, a Decimal or a datetime has imported their modules already (the engine loads
datetime's C API when it sets up a plan holding one), and ``pa.service``/``pa.UUIDBytes``
load on first use.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

LAZY = (
    "attrs",
    "attr",
    "uuid",
    "platform",
    "decimal",
    "datetime",
    "_datetime",
    "bisect",
    "pathlib",
    "protoattr._service",
    "google.protobuf",
    # length-prefixed streams and extensions load on first use of their names
    "protoattr._stream",
    "protoattr._model.extensions",
    "protoattr._core.extensions",
)
#: the Python code generator: a model on the native backend makes its Python codecs only
#: when something asks for them (the engine hands an input over, source(), write_module())
LAZY_ON_NATIVE = ("protoattr._python.codegen", "protoattr._python.compiler")


def _modules_after(code: str) -> set[str]:
    """The modules ``code`` imported (not those the interpreter's start-up had, such as an
    editable install's finder importing pathlib)."""
    script = (
        f"import sys\nbefore = set(sys.modules)\n{code}\nprint(' '.join(set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_import_protoattr_leaves_the_unneeded_modules_unimported() -> None:
    loaded = _modules_after(
        "import dataclasses, protoattr as pa\n"
        "@pa.proto_contract\n@dataclasses.dataclass\nclass P:\n    x: int = pa.field(1)\n"
        "assert pa.deserialize(P, pa.serialize(P(5))) == P(5)"
    )
    assert not [m for m in LAZY if m in loaded]
    import protoattr as pa  # the child runs the same backend (PROTOATTR_BACKEND)

    if pa.default_model._native is not None:
        assert not [m for m in LAZY_ON_NATIVE if m in loaded]


def test_the_lazy_names_still_work() -> None:
    loaded = _modules_after(
        "import attrs, uuid, protoattr as pa\n"
        "from typing import Annotated\n"
        "@pa.proto_contract\n@attrs.define\nclass A:\n"
        "    u: Annotated[pa.UUIDBytes, pa.member(1)] = uuid.UUID(int=1)\n"
        "assert pa.deserialize(A, pa.serialize(A())) == A()\n"
        "assert pa.service and pa.rpc and pa.CallContext\n"
        "from protoattr import PrefixStyle, extension\n"
        "assert pa.deserialize_items and pa.serialize_with_length_prefix and pa.Extension"
    )
    assert {"protoattr._service", "protoattr._stream", "protoattr._model.extensions"} <= loaded


def test_plain_fields_share_their_options_and_others_keep_theirs() -> None:
    """field(tag) with no other option shares one (frozen) ProtoMember per tag; any option
    makes a member of its own."""
    import dataclasses

    import protoattr as pa
    from protoattr._core.fields import METADATA_KEY

    def member(f: object) -> object:
        assert isinstance(f, dataclasses.Field)
        return f.metadata[METADATA_KEY]

    assert member(pa.field(3)) is member(pa.field(3, default=0)) is pa.member(3)
    assert member(pa.field(3, oneof="o")).oneof == "o"  # type: ignore[attr-defined]
    assert member(pa.field(3, name="x")) is not member(pa.field(3))
    assert member(pa.field(3, metadata={"k": 1})) is member(pa.field(3))
    assert pa.field(3, metadata={"k": 1}).metadata["k"] == 1
    assert member(pa.field(True)) is not member(pa.field(1))  # a bool is no tag: refused later
    # a plain field(tag) shares its metadata (read-only) and is the Field the long way makes
    shared, long_way = pa.field(4, default=0), pa.field(4, default=0, metadata={})
    assert shared.metadata is not long_way.metadata and shared.metadata == long_way.metadata
    assert (shared.default, shared.default_factory) == (long_way.default, long_way.default_factory)
    made = pa.field(4, default_factory=list)
    assert made.default_factory is list and made.default is dataclasses.MISSING
    assert pa.field(4).default is dataclasses.MISSING is pa.field(4).default_factory
    with pytest.raises(TypeError):
        shared.metadata[METADATA_KEY] = None  # type: ignore[index]
    with pytest.raises(ValueError, match="both default and default_factory"):
        pa.field(4, default=0, default_factory=list)


#: what ``import protoattr`` alone leaves unimported besides LAZY: ``dataclasses`` (and the
#: ``inspect``, ``ast``, ``dis`` and ``tokenize`` it imports) is for programs with dataclasses,
#: which import it themselves; ``threading``'s locks are ``_thread``'s
def test_datetimes_work_when_their_module_is_imported_after_protoattr() -> None:
    loaded = _modules_after(
        "import sys, dataclasses, protoattr as pa\n"
        "assert 'datetime' not in sys.modules\n"
        "from datetime import date, datetime, timedelta, timezone\n"
        "EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)\n"
        "@pa.proto_contract\n@dataclasses.dataclass\nclass T:\n"
        "    at: datetime = pa.field(1, default=EPOCH)\n"
        "    took: timedelta = pa.field(2, default=timedelta(0))\n"
        "    day: date = pa.field(3, default=date(1, 1, 1))\n"
        "    net: pa.bcl.DateTime = pa.field(4, default=datetime.min)\n"
        "    ticks: pa.bcl.TimeSpanTicks = pa.field(5, default=timedelta(0))\n"
        "t = T(EPOCH + timedelta(days=9, microseconds=7), timedelta(seconds=-3), date(2024, 2, 29),"
        " datetime(2001, 2, 3, 4, 5, 6), timedelta(hours=5))\n"
        "assert pa.deserialize(T, pa.serialize(t)) == t\n"
        "assert pa.deserialize(T, pa.serialize(T())) == T()\n"
        "native = pa.default_model._native\n"
        "assert native is None or native.explain(T) == 'native', native.explain(T)\n"
        "assert pa.from_json(T, pa.to_json(t)) == t"
    )
    assert "datetime" in loaded


NOT_AT_IMPORT = ("dataclasses", "inspect", "ast", "dis", "tokenize", "threading")


def test_import_protoattr_imports_neither_dataclasses_nor_threading() -> None:
    loaded = _modules_after("import protoattr")
    assert not [m for m in (*LAZY, *NOT_AT_IMPORT) if m in loaded]


def test_contracts_of_attrs_classes_need_no_dataclasses() -> None:
    loaded = _modules_after(
        "import sys, attrs\n"
        "had = 'dataclasses' in sys.modules\n"
        "import protoattr as pa\n"
        "from typing import Annotated, Optional\n"
        "@pa.proto_contract\n@attrs.define\nclass Leaf:\n"
        "    n: Annotated[int, pa.member(1)] = 0\n"
        "@pa.proto_contract\n@attrs.define\nclass A:\n"
        "    x: Annotated[str, pa.member(1)] = ''\n"
        "    leaf: Annotated[Optional[Leaf], pa.member(2)] = None\n"
        "a = A('x', Leaf(3))\n"
        "assert pa.deserialize(A, pa.serialize(a)) == a\n"
        "assert had or 'dataclasses' not in sys.modules, 'imported dataclasses'"
    )
    assert "protoattr._core.contract" in loaded


def test_the_contract_records_behave_as_dataclasses_of_the_same_fields() -> None:
    """ValueType, FieldInfo, ContractOptions, ContractInfo and ProtoMember were dataclasses:
    == over every field, hash for the frozen ones only, the same repr, replace()."""
    import dataclasses

    from protoattr._core.contract import ContractInfo, ContractOptions, FieldInfo, ValueType
    from protoattr._core.fields import ProtoMember
    from protoattr._core.record import FrozenError
    from protoattr._core.types import Kind

    for cls, frozen in (
        (ValueType, True),
        (ProtoMember, True),
        (FieldInfo, False),
        (ContractOptions, False),
        (ContractInfo, False),
    ):
        twin = dataclasses.make_dataclass(
            cls.__name__, list(cls._fields), frozen=frozen
        )  # a dataclass of the same fields, in the same order
        values = [f"v{i}" for i in range(len(cls._fields))]
        record = object.__new__(cls)
        for name, value in zip(cls._fields, values, strict=True):
            object.__setattr__(record, name, value)
        assert repr(record) == repr(twin(*values)).replace(twin.__qualname__, cls.__qualname__)
        same = record.replace()
        assert same == record and same is not record and not same.__ne__(record)
        changed = record.replace(**{cls._fields[-1]: "other"})
        assert changed != record and getattr(changed, cls._fields[-1]) == "other"
        assert getattr(record, cls._fields[-1]) == values[-1]  # the original is unchanged
        assert record != values and record.__eq__(values) is NotImplemented
        with pytest.raises(TypeError, match="no field 'nope'"):
            record.replace(nope=1)
        if frozen:
            assert hash(same) == hash(record) == hash(twin(*values))
            with pytest.raises(FrozenError):
                record.__setattr__(cls._fields[0], 1)
            with pytest.raises(AttributeError):
                del record.__dict__  # no instance dict either
        else:
            assert cls.__hash__ is None
            setattr(record, cls._fields[0], 1)
            assert getattr(record, cls._fields[0]) == 1
            with pytest.raises(AttributeError):
                record.surprise = 1  # type: ignore[attr-defined]  # slots: no stray attributes

    # the constructors' defaults are the dataclasses' were
    assert ValueType(Kind.INT32) == ValueType(
        Kind.INT32, None, False, None, None, None, None, False
    )
    assert ProtoMember(3) == ProtoMember(3, False, None, False, None, None, None)
    assert ContractOptions().preserve_unknown is True and ContractOptions().reserved == ()
    info = ContractInfo(int, ContractOptions(), [], "init", False)
    assert (
        info.init_params == []
        and info.init_params
        is not ContractInfo(int, ContractOptions(), [], "init", False).init_params
    )
