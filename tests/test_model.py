"""The TypeModel: compile(), thread-safe first use, recursion, source/linecache,
top-level lists, merge/deep_clone/measure, and independent models."""

from __future__ import annotations

import gc
import linecache
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
import protoattr._native
import protoattr._python.codegen
from protoattr import field, proto_contract
from protoattr._native.plan import NativeBackend, unsupported
from tests import contracts as c
from tests.contracts import UTC, assert_same, canonical, to_pb

SETTINGS = settings(derandomize=True)


def count_codecs(monkeypatch: pytest.MonkeyPatch, hook: Callable[[type], None]) -> None:
    """Call ``hook(cls)`` for each codec a model makes: a generated Python codec, or a
    native plan (on a native model, the Python codec behind a plan is made only when
    something first needs it)."""
    real_source = protoattr._python.codegen.codec_source
    real_installed = NativeBackend.installed

    def source(info: Any, *args: Any, **kwargs: Any) -> Any:
        hook(info.cls)
        return real_source(info, *args, **kwargs)

    def installed(self: NativeBackend, codec: Any, encode: Any, decode: Any) -> bool:
        if unsupported(self.model, codec.info) is None:
            hook(codec.cls)
        return real_installed(self, codec, encode, decode)

    monkeypatch.setattr(protoattr._python.codegen, "codec_source", source)
    monkeypatch.setattr(NativeBackend, "installed", installed)


@pytest.fixture
def codegen_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[type]]:
    """Count the classes protoattr makes codecs for while the test runs."""
    calls: list[type] = []
    count_codecs(monkeypatch, calls.append)
    yield calls


def forbid_codegen(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(cls: type) -> None:
        raise AssertionError(f"a codec was made after compile(): {cls.__qualname__}")

    count_codecs(monkeypatch, fail)


TASK = c.Task(
    id=1,
    created_at=datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC),
    created_by="Steve Jobs",
    priority=c.TaskPriority.HIGH,
    content="Invent new iPhone",
)
TASK2 = c.Task(2, datetime(2024, 1, 1, tzinfo=UTC), "Steve Ballmer", c.TaskPriority.LOW, "Skype")

# ------------------------------------------------------------- compile()


def test_compile_leaves_nothing_to_generate(monkeypatch: pytest.MonkeyPatch) -> None:
    model = pa.TypeModel()
    model.add(c.Scalars)  # reaches Inner
    model.add(c.Task)
    model.add(c.Forest)  # reaches Tree, which reaches Forest again
    model.add(c.Maps)
    model.compile()
    forbid_codegen(monkeypatch)
    for obj in (
        c.Scalars(inner=c.Inner(1, "x")),
        TASK,
        c.Forest("f", [c.Tree("t", c.Forest("g", [c.Tree("u")]))]),
        c.Maps(i32={1: "a"}),
    ):
        data = model.serialize(obj)
        assert model.deserialize(type(obj), data) == obj
    assert model.deserialize(c.Inner, model.serialize(c.Inner(3))) == c.Inner(3)
    assert model.deserialize(c.Tree, model.serialize(c.Tree("t"))) == c.Tree("t")
    if model.backend == "python":
        assert "def " in model.source(c.Tree)


def test_a_native_model_makes_python_codecs_only_when_needed(
    codegen_calls: list[type],
) -> None:
    """compile() builds plans; the generated Python behind a plan waits for a need:
    source(), an input the engine hands over, write_module()."""
    if not protoattr._native.available():
        pytest.skip("the C engine is not built")
    model = pa.TypeModel(backend="native")
    model.add(c.Forest)
    model.compile()
    assert sorted(cls.__name__ for cls in codegen_calls) == ["Forest", "Tree"]  # the plans
    del codegen_calls[:]
    forest = c.Forest("f", [c.Tree("t")])
    assert model.deserialize(c.Forest, model.serialize(forest)) == forest
    assert codegen_calls == []
    assert "def decode_" in model.source(c.Tree) and codegen_calls == [c.Tree]
    assert "def decode_" in model.source(c.Tree) and codegen_calls == [c.Tree]  # once
    with pytest.raises(pa.DecodeError, match="Forest"):  # handed over: Forest's codec made
        model.deserialize(c.Forest, b"\x0a\x05ab")
    assert codegen_calls == [c.Tree, c.Forest]


def test_compile_generates_each_reachable_class_once(codegen_calls: list[type]) -> None:
    model = pa.TypeModel()
    model.add(c.Forest)
    model.add(c.Tree)
    model.compile()
    model.compile()
    assert sorted(cls.__name__ for cls in codegen_calls) == ["Forest", "Tree"]


@pytest.mark.parametrize("enabled", [True, False])
def test_compile_pauses_the_collector_and_leaves_it_as_it_was(
    enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = pa.TypeModel._compile_all

    def spy(self: pa.TypeModel) -> None:
        seen.append(gc.isenabled())
        real(self)

    monkeypatch.setattr(pa.TypeModel, "_compile_all", spy)
    model = pa.TypeModel()
    model.add(c.Forest)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        model.compile()
        assert seen == [False] and gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_compile_resumes_the_collector_when_it_fails() -> None:
    @dataclass
    class Clash:
        a: int = field(1, default=0)
        b: int = field(1, default=0)

    model = pa.TypeModel()
    model.add(c.Forest)
    model.add(Clash)  # (add() checks nothing: compile() meets the clash)
    assert gc.isenabled()
    with pytest.raises(pa.ContractError):
        model.compile()
    assert gc.isenabled()


def test_lazy_model_generates_on_first_use_only(codegen_calls: list[type]) -> None:
    model = pa.TypeModel()
    for _ in range(3):
        model.deserialize(c.Book, model.serialize(c.Book("i", "t", "a", 1)))
    assert codegen_calls == [c.Book]


# ----------------------------------------------------------- threads


def race(model: pa.TypeModel, monkeypatch: pytest.MonkeyPatch, work: Any, n: int = 8) -> list[type]:
    """Run ``work(i)`` in ``n`` threads released together; return the classes generated."""
    calls: list[type] = []
    lock = threading.Lock()

    def slow(cls: type) -> None:
        with lock:
            calls.append(cls)
        threading.Event().wait(0.02)  # widen the race window

    count_codecs(monkeypatch, slow)
    barrier = threading.Barrier(n)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return calls


@pytest.mark.parametrize("round_", range(3))
def test_threads_racing_on_first_use_get_one_codec(
    monkeypatch: pytest.MonkeyPatch, round_: int
) -> None:
    model = pa.TypeModel()
    objs = [c.Forest("f", [c.Tree("t", c.Forest(str(i), [c.Tree()]))]) for i in range(8)]
    encoded = [pa.default_model.serialize(obj) for obj in objs]
    results: list[Any] = [None] * 8

    def work(i: int) -> None:
        if i % 2:  # half decode first, half encode first
            results[i] = model.deserialize(c.Forest, encoded[i])
        else:
            results[i] = model.deserialize(c.Forest, model.serialize(objs[i]))

    calls = race(model, monkeypatch, work)
    assert results == objs
    assert sorted(cls.__name__ for cls in calls) == ["Forest", "Tree"]


def test_threads_racing_on_a_class_and_what_it_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    model = pa.TypeModel()
    encoded: list[bytes] = []
    obj = c.Scalars(inner=c.Inner(1), ts=datetime(2020, 1, 1))

    def work(i: int) -> None:
        if i % 2:
            model.deserialize(c.Inner, model.serialize(c.Inner(i)))
        data = model.serialize(obj)
        assert model.deserialize(c.Scalars, data) == c.Scalars(
            inner=c.Inner(1), ts=datetime(2020, 1, 1, tzinfo=UTC)
        )
        encoded.append(data)

    calls = race(model, monkeypatch, work)
    assert len(encoded) == 8 and len(set(encoded)) == 1
    assert sorted(cls.__name__ for cls in calls) == ["Inner", "Scalars"]


def test_threads_racing_on_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    model = pa.TypeModel()
    model.add(c.Repeats)
    model.add(c.Task)

    def work(i: int) -> None:
        if i % 2:
            model.compile()
        else:
            assert model.deserialize(c.Task, model.serialize(TASK)) == TASK

    calls = race(model, monkeypatch, work)
    assert sorted(cls.__name__ for cls in calls) == ["Inner", "Repeats", "Task"]


# --------------------------------------------------------- recursion


def test_self_referential_contract_round_trips_and_interops() -> None:
    pb = c.recursive_pb()
    tree = c.Node(1, [c.Node(2, [c.Node(3), c.Node(-4)]), c.Node(), c.Node(5, [c.Node(6)])])
    data = pa.serialize(tree)
    google = to_pb(tree, pb.Node)
    assert data == google.SerializeToString()
    assert pa.deserialize(c.Node, google.SerializeToString()) == tree
    assert pa.deserialize(c.Node, data) == tree


@pytest.mark.parametrize(
    "forest",
    [
        c.Forest(
            "root",
            [
                c.Tree("a", c.Forest("inner", [c.Tree("b"), c.Tree("c", c.Forest())])),
                c.Tree("d", c.Forest("deep", [c.Tree("e", c.Forest("deeper"))])),
            ],
        ),
        # recursion through a map value
        c.Forest("m", [c.Tree("d", sizes={"x": c.Tree("e", c.Forest("deep", [c.Tree("f")]))})]),
    ],
    ids=["lists", "map-values"],
)
def test_mutually_recursive_contracts_round_trip_and_interop(forest: c.Forest) -> None:
    pb = c.recursive_pb()
    data = pa.serialize(forest)
    google = to_pb(forest, pb.Forest)
    assert canonical(pb.Forest.FromString(data)) == canonical(google)
    assert pa.deserialize(c.Forest, google.SerializeToString()) == forest
    assert pa.deserialize(c.Forest, data) == forest


def test_optional_self_reference_chain() -> None:
    obj = c.chain(50)
    data = pa.serialize(obj)
    assert data == to_pb(obj, c.recursive_pb().Chain).SerializeToString()
    assert pa.deserialize(c.Chain, data) == obj


_VALUES = st.integers(-(2**31), 2**31 - 1)
NODES = st.recursive(
    st.builds(c.Node, value=_VALUES),
    lambda children: st.builds(c.Node, value=_VALUES, children=st.lists(children, max_size=3)),
    max_leaves=12,
)


@SETTINGS
@given(NODES)
def test_recursive_values_interop(node: c.Node) -> None:
    pb = c.recursive_pb().Node
    data = pa.serialize(node)
    assert data == to_pb(node, pb).SerializeToString()
    assert pa.deserialize(c.Node, data) == node


def test_a_contract_declared_inside_a_function_can_refer_to_itself() -> None:
    @proto_contract
    @dataclass
    class Branch:
        leaves: list[pa.int32] = field(1, default_factory=list)
        twin: Branch | None = field(2, default=None)
        more: list[Branch] = field(3, default_factory=list)

    obj = Branch([1], Branch([2]), [Branch(), Branch([3])])
    assert pa.deserialize(Branch, pa.serialize(obj)) == obj


# ------------------------------------------------- source and linecache


def test_source_is_the_generated_codec() -> None:
    source = pa.default_model.source(c.Task)
    assert isinstance(source, str)
    assert "def " in source and "Task" in source
    compile(source, "<check>", "exec")  # it is Python
    assert pa.TypeModel().source(c.Task) == source


class Boom(str):
    """A str whose encode() fails inside generated code."""

    def encode(self, *args: Any, **kwargs: Any) -> bytes:  # type: ignore[override]
        raise RuntimeError("boom")


def _generated_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    return [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith("<")]


def test_traceback_from_an_encoder_shows_generated_lines() -> None:
    task = c.Task(1, datetime(2020, 1, 1), Boom("x"), c.TaskPriority.LOW)
    source_lines = [line.strip() for line in pa.default_model.source(c.Task).splitlines()]
    try:
        pa.serialize(task)
    except RuntimeError as exc:
        linecache.checkcache()  # the registered source must survive this
        formatted = traceback.format_exc()
        frames = _generated_frames(exc)
    else:  # pragma: no cover
        pytest.fail("no exception")
    assert frames, formatted
    frame = frames[-1]
    assert frame.line, f"no source line for {frame.filename}:{frame.lineno}\n{formatted}"
    assert frame.line.strip() in source_lines
    assert "encode()" in frame.line
    assert frame.line.strip() in formatted
    assert linecache.getline(frame.filename, frame.lineno or 0).strip() == frame.line.strip()


def test_traceback_from_a_decoder_shows_generated_lines() -> None:
    source_lines = [line.strip() for line in pa.default_model.source(c.Task).splitlines()]
    try:
        pa.deserialize(c.Task, b"\x1a\x05ab")
    except pa.DecodeError as exc:
        linecache.checkcache()
        formatted = traceback.format_exc()
        frames = _generated_frames(exc)
    else:  # pragma: no cover
        pytest.fail("no exception")
    assert frames, formatted
    assert all(f.line and f.line.strip() in source_lines for f in frames), formatted


def test_source_of_a_top_level_list_type() -> None:
    assert "def " in pa.default_model.source(list[c.Task])


# ------------------------------------------------------- top-level lists


def test_top_level_list_matches_repeated_field_one() -> None:
    pb = c.task_pb()
    tasks = [TASK, TASK2]
    data = pa.serialize(tasks, type=list[c.Task])
    google = pb.TaskList(tasks=[to_pb(t, pb.Task) for t in tasks])
    assert data == google.SerializeToString()
    back = pa.deserialize(list[c.Task], google.SerializeToString())
    assert isinstance(back, list)
    assert back == tasks


def test_top_level_empty_list() -> None:
    assert pa.serialize([], type=list[c.Task]) == b""
    assert pa.deserialize(list[c.Task], b"") == []


@SETTINGS
@given(
    st.lists(
        st.builds(
            c.Task,
            id=st.integers(-(2**31), 2**31 - 1),
            created_at=st.datetimes(timezones=st.just(UTC)),
            created_by=st.text(st.characters(codec="utf-8"), max_size=5),
            priority=st.sampled_from(c.TaskPriority),
        ),
        max_size=4,
    )
)
def test_top_level_lists_interop(tasks: list[c.Task]) -> None:
    pb = c.task_pb()
    data = pa.serialize(tasks, type=list[c.Task])
    assert data == pb.TaskList(tasks=[to_pb(t, pb.Task) for t in tasks]).SerializeToString()
    assert pa.deserialize(list[c.Task], data) == tasks
    assert pa.measure(tasks, type=list[c.Task]) == len(data)


def test_top_level_list_of_books_and_streams() -> None:
    import io

    books = [c.Book("1", "A", "X", 10), c.Book("2", "B", "Y", 20)]
    stream = io.BytesIO()
    pa.serialize_to(stream, books, type=list[c.Book])
    stream.seek(0)
    assert pa.deserialize_from(list[c.Book], stream) == books  # type: ignore[arg-type]


# ------------------------------------------------ merge, deep_clone, measure


def test_merge_follows_protobuf_semantics() -> None:
    pb = c.kinds_pb()
    base = c.Repeats(i32=[1], text=["a"], inner=[c.Inner(1)])
    data = pa.serialize(c.Repeats(i32=[2, 3], text=["b"], inner=[c.Inner(2)]))
    merged = pa.merge(base, data)
    assert merged is base  # mutable objects are updated in place
    assert merged == c.Repeats(i32=[1, 2, 3], text=["a", "b"], inner=[c.Inner(1), c.Inner(2)])
    google = to_pb(c.Repeats(i32=[1], text=["a"], inner=[c.Inner(1)]), pb.Repeats)
    google.MergeFromString(data)
    assert canonical(google) == canonical(to_pb(merged, pb.Repeats))


@pytest.mark.parametrize(
    ("base", "update"),
    [
        (c.Scalars(i32=1, text="a"), c.Scalars(i64=2)),  # absent scalars keep their value
        (c.Scalars(i32=1, text="a"), c.Scalars(i32=5, text="b")),  # present ones replace
        (c.Scalars(inner=c.Inner(1, "a")), c.Scalars(inner=c.Inner(s="b"))),  # merge nested
        (c.Scalars(inner=c.Inner(1, "a")), c.Scalars(inner=c.Inner())),
        (c.Scalars(), c.Scalars(inner=c.Inner(7))),
        (c.Scalars(inner=c.Inner(7)), c.Scalars()),
        (c.Scalars(ts=datetime(2020, 1, 1, tzinfo=UTC)), c.Scalars(dur=timedelta(1))),
        (c.Scalars(color=c.Color.RED), c.Scalars(color=99)),
    ],
    ids=repr,
)
def test_merge_scalars_and_messages_like_google(base: c.Scalars, update: c.Scalars) -> None:
    pb = c.kinds_pb().Scalars
    data = pa.serialize(update)
    google = to_pb(base, pb)
    google.MergeFromString(data)
    merged = pa.merge(base, data)
    assert merged is base
    assert canonical(to_pb(merged, pb)) == canonical(google)


def test_merge_maps_update_and_replace_message_values() -> None:
    pb = c.kinds_pb().Maps
    base = c.Maps(i32={1: "a", 2: "b"}, text={"k": c.Inner(1, "x"), "j": c.Inner(2)})
    data = pa.serialize(c.Maps(i32={2: "B", 3: "C"}, text={"k": c.Inner(s="y")}))
    google = to_pb(base, pb)
    google.MergeFromString(data)
    merged = pa.merge(base, data)
    assert merged.i32 == {1: "a", 2: "B", 3: "C"}
    assert merged.text == {"k": c.Inner(0, "y"), "j": c.Inner(2)}  # map values replace
    assert canonical(to_pb(merged, pb)) == canonical(google)


def test_merge_into_a_frozen_object_returns_a_new_one() -> None:
    @proto_contract
    @dataclass(frozen=True)
    class Frozen:
        a: pa.int32 = field(1, default=0)
        tags: tuple[str, ...] = field(2, default=())

    base = Frozen(1, ("x",))
    merged = pa.merge(base, pa.serialize(Frozen(tags=("y",))))
    assert merged == Frozen(1, ("x", "y"))
    assert base == Frozen(1, ("x",))


def test_merge_with_empty_data_changes_nothing() -> None:
    base = c.Scalars(i32=5, inner=c.Inner(1))
    for data in (b"", bytearray(), memoryview(b"")):
        assert pa.merge(base, data) == c.Scalars(i32=5, inner=c.Inner(1))


def test_timestamp_fields_merge_like_messages() -> None:
    # google.protobuf.Timestamp is a message: a second occurrence merges field by
    # field, so nanos absent from the second survive from the first (as in upb)
    first = c.Scalars(ts=datetime(2020, 1, 1, 0, 0, 0, 500000, tzinfo=UTC))
    second = c.Scalars(ts=datetime(2021, 1, 1, tzinfo=UTC))
    data = pa.serialize(first) + pa.serialize(second)
    google = c.kinds_pb().Scalars.FromString(data)
    assert (google.ts.seconds, google.ts.nanos) == (1609459200, 500000000)
    assert pa.deserialize(c.Scalars, data).ts == google.ts.ToDatetime(tzinfo=UTC)
    assert pa.merge(pa.deep_clone(first), pa.serialize(second)).ts == google.ts.ToDatetime(
        tzinfo=UTC
    )


def test_concatenation_is_merge() -> None:
    first = c.Scalars(i32=1, text="a", inner=c.Inner(1), ts=datetime(2020, 1, 1, tzinfo=UTC))
    second = c.Scalars(i64=2, text="b", inner=c.Inner(s="x"))
    concatenated = pa.deserialize(c.Scalars, pa.serialize(first) + pa.serialize(second))
    merged = pa.merge(pa.deep_clone(first), pa.serialize(second))
    assert concatenated == merged
    google = c.kinds_pb().Scalars.FromString(pa.serialize(first) + pa.serialize(second))
    assert canonical(google) == canonical(to_pb(concatenated, c.kinds_pb().Scalars))


def test_deep_clone() -> None:
    obj = c.Forest("f", [c.Tree("t", c.Forest("g", [c.Tree("u")]))])
    clone = pa.deep_clone(obj)
    assert clone == obj
    assert clone is not obj
    assert clone.trees is not obj.trees
    assert clone.trees[0] is not obj.trees[0]
    assert clone.trees[0].subforest is not obj.trees[0].subforest
    clone.trees[0].label = "changed"
    assert obj.trees[0].label == "t"


def test_deep_clone_keeps_nan_and_unknown_enums() -> None:
    obj = c.Scalars(db=float("nan"), color=12345)
    clone = pa.deep_clone(obj)
    assert_same(clone, obj)


@pytest.mark.parametrize(
    "obj",
    [c.Scalars(), c.Scalars(i32=-1), TASK, c.Node(1, [c.Node(2)]), c.Maps(i32={1: "x" * 300})],
    ids=repr,
)
def test_measure_is_the_encoded_size(obj: Any) -> None:
    assert pa.measure(obj) == len(pa.serialize(obj))
    assert pa.TypeModel().measure(obj) == len(pa.serialize(obj))


# ------------------------------------------------------ independent models


def test_models_are_independent(codegen_calls: list[type]) -> None:
    shallow = pa.TypeModel(max_depth=3)
    deep = pa.TypeModel()
    data = pa.serialize(c.chain(10))
    assert deep.deserialize(c.Chain, data) == c.chain(10)
    with pytest.raises(pa.DecodeError):
        shallow.deserialize(c.Chain, data)
    # each model made its own codec; a native shallow model also made its Python codec
    # when its engine handed the too-deep input over
    assert codegen_calls.count(c.Chain) == (3 if shallow.backend == "native" else 2)
    assert shallow.deserialize(c.Chain, pa.serialize(c.chain(3))) == c.chain(3)
    assert pa.default_model.deserialize(c.Chain, data) == c.chain(10)


def test_compiling_one_model_does_not_compile_another(codegen_calls: list[type]) -> None:
    first = pa.TypeModel()
    first.add(c.Book)
    first.compile()
    second = pa.TypeModel()
    second.serialize(c.Book("x"))
    assert codegen_calls == [c.Book, c.Book]


def test_max_depth_must_be_positive() -> None:
    with pytest.raises(ValueError):
        pa.TypeModel(max_depth=0)


def test_default_model_is_what_the_shortcuts_use() -> None:
    assert pa.serialize(TASK) == pa.default_model.serialize(TASK)
    assert pa.deserialize(c.Task, pa.serialize(TASK)) == TASK
    assert pa.default_model.max_depth == 100
