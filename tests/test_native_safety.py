"""Regression tests for the C engine's safety review (issue 12, "Never crash, never leak").

Each test pins one finding of the review of protoattr/_native/src: what the
engine did before the fix is in the test's docstring.
"""

from __future__ import annotations

import sys
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from tests.test_native import Holder, Leaf

needs_engine = pytest.mark.skipif(not native.available(), reason="C engine not built")

BACKENDS = ["python", pytest.param("native", marks=needs_engine)]


@proto_contract
@dataclass
class Trips:
    """``__post_init__`` raises KeyboardInterrupt on its first call only (a Ctrl-C
    that arrives while the object is built)."""

    name: str = field(1, default="")

    armed: ClassVar[list[bool]] = [True]

    def __post_init__(self) -> None:
        if self.armed[0]:
            self.armed[0] = False
            raise KeyboardInterrupt


class FlakyLeaf(Leaf):
    """A Leaf whose ``n`` raises KeyboardInterrupt the first time it is read."""

    armed: ClassVar[list[bool]] = [True]

    @property  # type: ignore[override]
    def n(self) -> int:
        if self.armed[0]:
            self.armed[0] = False
            raise KeyboardInterrupt
        return self._n

    @n.setter
    def n(self, value: int) -> None:
        self._n = value


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_keyboard_interrupt_while_decoding_is_not_swallowed(backend: str) -> None:
    """The engine used to clear any exception and run the Python codec again, which
    built the object a second time and returned it: the Ctrl-C was lost."""
    model = pa.TypeModel(backend=backend)
    data = b"\x0a\x01x"  # Trips("x")
    Trips.armed[0] = True
    with pytest.raises(KeyboardInterrupt):
        model.deserialize(Trips, data)
    assert model.deserialize(Trips, data) == Trips("x")  # disarmed: decodes
    Trips.armed[0] = True
    with pytest.raises(KeyboardInterrupt):
        model.deserialize(list[Trips], b"\x0a\x03" + data)  # the engine's list loop
    assert model.deserialize(list[Trips], b"\x0a\x03" + data) == [Trips("x")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_keyboard_interrupt_while_encoding_is_not_swallowed(backend: str) -> None:
    """Same on encode: the attribute read raised, the engine fell back, the Python
    codec read the attribute again and returned bytes."""
    model = pa.TypeModel(backend=backend)
    want = pa.TypeModel(backend="python").serialize(Holder(Leaf("x", 3)))
    FlakyLeaf.armed[0] = False
    obj = Holder(FlakyLeaf("x", 3))
    assert model.serialize(obj) == want
    FlakyLeaf.armed[0] = True
    with pytest.raises(KeyboardInterrupt):
        model.serialize(obj)
    FlakyLeaf.armed[0] = True
    with pytest.raises(KeyboardInterrupt):
        model.serialize([FlakyLeaf("x", 3)], type=list[Leaf])
    assert model.serialize(obj) == want


def _int_field(i: int, number: int) -> tuple[Any, ...]:
    """A plan's field spec (plan.py's layout): an int64 ``f{i}`` written always."""
    from protoattr._core.contract import ValueType
    from protoattr._core.types import Kind
    from protoattr._core.wire import tag_bytes
    from protoattr._native.plan import ABSENT_VALUE, ENC_ALWAYS, INIT_NULL, KINDS, conversion

    no_conversion = conversion(ValueType(Kind.INT64))
    value = (KINDS[Kind.INT64], None, False, None, False, False, None, None, 0, *no_conversion)
    return (f"f{i}", number, 0, False, value, None, tag_bytes(number, 0), tag_bytes(number, 2),
            ENC_ALWAYS, None, INIT_NULL, None, ABSENT_VALUE, 0, None, 0)  # fmt: skip


class Bare:
    pass


def _setup(plan: Any, fields: tuple[Any, ...]) -> None:
    ctor = (True, object.__new__, (), 0, None, tuple(range(len(fields))))
    plan.setup(Bare, fields, ctor, None, False, 100, lambda obj: b"", lambda *a: Bare())


@needs_engine
def test_a_plan_is_set_up_once() -> None:
    """setup() on a plan already set up released its fields and nested plans, which a
    call running the plan (setup reached from one of its callbacks) still reads."""
    engine = native.engine()
    assert engine is not None
    plan = engine.Plan()
    _setup(plan, (_int_field(0, 1),))
    with pytest.raises(RuntimeError, match="set up already"):
        _setup(plan, (_int_field(0, 2),))
    obj = plan.decode(b"\x08\x05", 0, 2, 0, None)  # still the first setup's plan
    assert type(obj) is Bare and obj.f0 == 5
    assert plan.fallbacks == 0


@needs_engine
def test_a_plan_with_more_fields_than_its_index_is_refused() -> None:
    """The number -> field index of numbers 1..32 is an int16: a field at index 32768
    or more wrapped around (to a negative index, or to another field's)."""
    engine = native.engine()
    assert engine is not None
    fields = (*(_int_field(i, 100 + i) for i in range(2**15)), _int_field(2**15, 1))
    with pytest.raises(ValueError, match="more fields than the engine indexes"):
        _setup(engine.Plan(), fields)
    plan = engine.Plan()
    _setup(plan, fields[2:])  # 32,767 fields: indexed, number 1 at index 32,766
    assert getattr(plan.decode(b"\x08\x05", 0, 2, 0, None), f"f{2**15}") == 5
    assert plan.fallbacks == 0


# ------------------------------------------------------------ the fuzzers' corpus


def _fuzz_targets() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "fuzz" / "native" / "targets.py"
    spec = importlib.util.spec_from_file_location("protoattr_native_fuzz_targets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _outcome(model: pa.TypeModel, cls: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "ok", model.deserialize(cls, data)
    except pa.DecodeError as exc:
        return "DecodeError", str(exc)


def _json_outcome(model: pa.TypeModel, cls: Any, data: bytes, ignore: bool) -> tuple[str, str]:
    try:
        return "ok", repr(model.from_json(cls, data, ignore_unknown_fields=ignore))
    except pa.DecodeError as exc:
        return "DecodeError", str(exc)


@needs_engine
def test_the_native_fuzz_corpus_decodes_as_the_python_codec_does() -> None:
    """Every committed input of fuzz/native/corpus (the seeds and the small inputs
    that reached new engine code under clang's coverage) gives the same object or the
    same DecodeError natively and in Python, and the same bytes when re-encoded."""
    from pathlib import Path

    targets = _fuzz_targets()
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    corpus = Path(targets.__file__).parent / "corpus"
    seen = 0
    for name, cls in targets.TARGETS.items():
        kind = cls if typing.get_origin(cls) is list else None  # (3.10: list[T] is a type)
        for path in sorted((corpus / name).iterdir()):
            data = path.read_bytes()
            if name in targets.JSON_TARGETS:  # JSON texts: the C reader against the reference
                for ignore in (False, True):
                    got, want = (
                        _json_outcome(nat, cls, data, ignore),
                        _json_outcome(py, cls, data, ignore),
                    )
                    assert got == want, (path.name, got, want)
                seen += 1
                continue
            got, want = _outcome(nat, cls, data), _outcome(py, cls, data)
            assert got[0] == want[0], (path.name, got, want)
            if got[0] == "ok":
                assert nat.serialize(got[1], type=kind) == py.serialize(want[1], type=kind)
            else:
                assert got[1] == want[1], path.name
            seen += 1
    assert seen > 200


# ------------------------------------------------------------ the memcheck report


def test_the_memcheck_report_blames_the_engine_only() -> None:
    """tests/leak/memcheck.sh fails on reports with an engine frame (where the error
    happened or where the memory came from) and on any invalid write; CPython's own
    reports are counted, not fatal."""
    from tests.leak.memcheck import findings

    log = "\n".join(
        [
            "==1== Memcheck, a memory error detector",
            "==1== ",
            "==1== Use of uninitialised value of size 8",
            "==1==    at 0x1: visit_decref (gcmodule.c:452)",
            "==1==  Uninitialised value was created by a heap allocation",
            "==1==    at 0x2: malloc (vg_replace_malloc.c:381)",
            "==1== ",
            "==1== Invalid read of size 1",
            "==1==    at 0x3: read_varint (wire.h:40)",
            "==1==    by 0x4: decode_message (decode.c:554)",
            "==1== ",
            "==1== Conditional jump or move depends on uninitialised value(s)",
            "==1==    at 0x5: PyObject_RichCompare (object.c:700)",
            "==1==  Uninitialised value was created by a stack allocation",
            "==1==    at 0x6: build (decode.c:460)",
            "==1== ",
            "==1== Invalid write of size 8",
            "==1==    at 0x7: list_ass_item (listobject.c:1)",
            "==1== ",
            "==1== 16 bytes in 1 blocks are definitely lost in loss record 3 of 9",
            "==1==    at 0x8: malloc (vg_replace_malloc.c:381)",
            "==1==    by 0x9: PyMem_Malloc (obmalloc.c:1)",
            "==1==    by 0xA: buf_grow (buffer.c:17)",
            "==1== ",
            "==1== 32 bytes in 1 blocks are definitely lost in loss record 4 of 9",
            "==1==    at 0xB: malloc (vg_replace_malloc.c:381)",
            "==1==    by 0xC: _PyObject_New (object.c:1)",
            "==1== ",
        ]
    )
    bad, seen = findings(log, ["buffer.c", "decode.c", "wire.h"])
    assert [b.splitlines()[0] for b in bad] == [
        "Invalid read of size 1",
        "Conditional jump or move depends on uninitialised value(s)",
        "Invalid write of size 8",
        "16 bytes in 1 blocks are definitely lost in loss record 3 of 9",
    ]
    assert seen == {
        "uninitialised value": 2,
        "invalid read": 1,
        "invalid write": 1,
        "definitely lost": 2,
    }


# ------------------------------------------------------------ small thread stacks

#: the tests that run a thread with a small C stack (in a subprocess: a crash is a crash)
small_stack = pytest.mark.skipif(
    not sys.platform.startswith("linux") or sys.version_info < (3, 11),
    reason="stack bounds are Linux's; on CPython 3.10 every Python call uses the C stack, "
    "so the Python codec the engine hands over to crashes in such a thread too (3.11 "
    "stopped that)",
)


def _run_source(source: str) -> str:
    """What ``python -c source`` prints, run from the repository; it must exit 0."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", source], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


_SMALL_STACK = """
import sys, threading
sys.setrecursionlimit(5000)
import protoattr as pa
from tests.test_native import Chain

def nest(depth):
    data = b""
    for _ in range(depth):
        n = len(data)
        data = b"\\x0a" + (bytes([n]) if n < 128 else bytes([n & 0x7F | 0x80, n >> 7])) + data
    return data

native = pa.TypeModel(backend="native", max_depth=5000)
python = pa.TypeModel(backend="python", max_depth=5000)
deep = python.deserialize(Chain, nest(400))  # built on the main thread's stack
out = []

def run():
    for depth in (30, 400):
        try:
            out.append(type(native.deserialize(Chain, nest(depth))).__name__)
        except pa.DecodeError as exc:
            out.append("DecodeError: " + str(exc)[:40])
    try:
        out.append(native.serialize(deep) == python.serialize(deep))
    except pa.EncodeError as exc:
        out.append("EncodeError: " + str(exc)[:40])

threading.stack_size(64 * 1024)
t = threading.Thread(target=run)
t.start()
t.join()
print(out)
"""


@needs_engine
@small_stack
def test_deep_nesting_in_a_thread_with_a_small_stack_is_an_error_not_a_crash() -> None:
    """The engine recursed ~1 KiB of C stack per level: in a thread with a 64 KiB
    stack, 400 levels (the Python codec decodes them there) crashed the process."""
    stdout = _run_source(_SMALL_STACK)
    assert eval(stdout) == [
        "Chain",  # 30 levels: natively
        "DecodeError: messages nested deeper than Python's rec",
        "EncodeError: Chain: protoattr: the thread's C stack i",
    ]


_GROUPS_SMALL_STACK = """
import sys, threading
import protoattr as pa
from tests.test_native import Leaf

data = b"\\x0a\\x01x" + b"\\x1b" * 900 + b"\\x1c" * 900  # unknown groups, nested 900 deep
native = pa.TypeModel(backend="native", max_depth=5000)
out = []

def run():
    try:
        out.append(native.deserialize(Leaf, data))
    except pa.DecodeError as exc:
        out.append("DecodeError")

threading.stack_size(64 * 1024)
t = threading.Thread(target=run)
t.start()
t.join()
print(out == [Leaf("x", 0)] or out)
"""


@needs_engine
@small_stack
def test_deep_unknown_groups_in_a_thread_with_a_small_stack_do_not_crash() -> None:
    """groups.c skips nested unknown groups recursively without going through
    decode_message (whose stack check it missed): 900 levels crashed a 64 KiB thread."""
    stdout = _run_source(_GROUPS_SMALL_STACK)
    # the result (the Python codec finishes where the engine stops), or Python's own
    # "nested deeper than the recursion limit allows": either way, no crash
    assert stdout.strip() in ("True", "['DecodeError']")
