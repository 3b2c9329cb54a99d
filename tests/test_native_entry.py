"""The native model's entry points: ``serialize``/``deserialize``/``measure`` in C.

A native model's three methods are shadowed by C callables that run a plan
straight from the call; every other case goes to the Python method.  These
tests pin that the shortcut is taken where it should be, gives the Python
method's results and errors, and steps aside everywhere else.
"""

from __future__ import annotations

import gc
import inspect
from dataclasses import dataclass
from typing import Any

import pytest

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract

pytestmark = pytest.mark.skipif(not native.available(), reason="C engine not built")


@proto_contract
@dataclass
class Pet:
    name: str = field(1)
    legs: pa.int32 = field(2)
    tags: list[str] = field(3, default_factory=list)


@proto_contract
@dataclass
class Owner:
    pets: list[Pet] = field(1, default_factory=list)


def _is_entry(fn: Any) -> bool:
    return type(fn).__name__ == "Entry"


def _plan(model: pa.TypeModel, cls: type) -> Any:
    assert model._native is not None
    return model._native.plans[cls]


def test_a_native_model_enters_in_c_and_a_python_one_does_not() -> None:
    nat = pa.TypeModel(backend="native")
    assert all(_is_entry(getattr(nat, n)) for n in ("serialize", "deserialize", "measure"))
    py = pa.TypeModel(backend="python")
    assert not any(_is_entry(getattr(py, n)) for n in ("serialize", "deserialize", "measure"))
    budget = pa.TypeModel(backend="native", max_messages=10)  # the engine counts too
    assert _is_entry(budget.deserialize)
    # help() and inspect see the Python method's documentation and signature
    assert nat.serialize.__doc__ == pa.TypeModel.serialize.__doc__
    assert inspect.signature(nat.serialize) == inspect.signature(py.serialize)
    assert nat.deserialize.__name__ == "deserialize"
    assert nat.serialize.__self__ is nat and pa.serialize.__self__ is pa.default_model
    assert nat.measure.__func__ is pa.TypeModel.measure


def test_the_entry_points_run_the_plan_and_give_the_python_results() -> None:
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    pet = Pet("Rex", 4, ["good", "dog"])
    data = py.serialize(pet)
    assert data == b"\n\x03Rex\x10\x04\x1a\x04good\x1a\x03dog"
    assert nat.serialize(pet) == data  # first call: compiles through the Python method
    assert nat.serialize(pet) == data  # then straight from C
    assert nat.measure(pet) == len(data) == py.measure(pet)
    assert nat.deserialize(Pet, data) == pet
    assert nat.deserialize(Pet, bytearray(data)) == pet  # not bytes: the Python method
    assert nat.deserialize(Pet, memoryview(data)) == pet
    pets = [pet, Pet("Tom", 3)]
    as_list = py.serialize(pets, type=list[Pet])
    assert nat.serialize(pets, type=list[Pet]) == as_list
    assert nat.serialize(pets, type=list[Pet]) == as_list
    assert nat.measure(pets, type=list[Pet]) == len(as_list)
    assert nat.deserialize(list[Pet], as_list) == pets
    assert nat.deserialize(list[Pet], as_list) == pets
    assert nat.serialize(Pet("Rex", 4), deterministic=True) == py.serialize(Pet("Rex", 4))
    assert _plan(nat, Pet).fallbacks == 0


def test_errors_through_the_entry_points_are_the_python_methods() -> None:
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    nat.serialize(Pet("warm", 1))  # compiled: later calls start in C

    def same(call: Any) -> None:
        with pytest.raises(Exception) as want:
            call(py)
        with pytest.raises(Exception) as got:
            call(nat)
        assert (type(got.value), str(got.value)) == (type(want.value), str(want.value))

    same(lambda m: m.serialize(Pet("x", 1 << 40)))  # out of range
    same(lambda m: m.serialize(Pet("x", "four")))  # type: ignore[arg-type]
    same(lambda m: m.measure(Pet(b"bytes", 1)))  # type: ignore[arg-type]
    same(lambda m: m.serialize([Pet("x", 1)]))  # a bare list
    same(lambda m: m.serialize(Pet("x", 1), type=Owner))  # not an Owner
    same(lambda m: m.serialize([Pet("x", 1), 5], type=list[Pet]))  # names the item
    same(lambda m: m.serialize(object()))  # not a contract
    same(lambda m: m.deserialize(Pet, b"\n\x05ab"))  # truncated, with its offset
    same(lambda m: m.deserialize(list[Pet], b"\n\x02\x10"))
    same(lambda m: m.deserialize([], b""))  # unhashable "class"
    same(lambda m: m.serialize())
    same(lambda m: m.deserialize(Pet))
    same(lambda m: m.serialize(Pet("x", 1), typ=list[Pet]))  # unknown keyword
    assert _plan(nat, Pet).fallbacks > 0  # the errors went through the Python codec


def test_a_subclass_overriding_a_method_keeps_it() -> None:
    class Counting(pa.TypeModel):
        calls = 0

        def serialize(self, obj: Any, **kw: Any) -> bytes:
            Counting.calls += 1
            return super().serialize(obj, **kw)

    model = Counting(backend="native")
    assert not _is_entry(model.serialize)
    assert _is_entry(model.deserialize)
    data = model.serialize(Pet("a", 1))
    assert Counting.calls == 1
    assert model.deserialize(Pet, data) == Pet("a", 1)


def test_a_later_message_budget_changes_nothing_natively() -> None:
    model = pa.TypeModel(backend="native")  # as before the entry points: the plans run
    data = model.serialize(Owner([Pet("a", 1), Pet("b", 2)]))
    model.max_messages = 2
    assert model.deserialize(Owner, data) == Owner([Pet("a", 1), Pet("b", 2)])


def test_a_large_decode_leaves_the_collector_as_it_found_it() -> None:
    model = pa.TypeModel(backend="native")
    big = Owner([Pet(f"pet{i}", i % 7, ["t"]) for i in range(2000)])
    data = model.serialize(big)
    assert len(data) > 4096
    assert gc.isenabled()
    assert model.deserialize(Owner, data) == big
    assert gc.isenabled()
    gc.disable()
    try:
        assert model.deserialize(Owner, data) == big
        assert not gc.isenabled()  # not turned on by a decode that found it off
    finally:
        gc.enable()
    bad = data[:-1]  # a failing large decode resumes the collector too
    with pytest.raises(pa.DecodeError):
        model.deserialize(Owner, bad)
    assert gc.isenabled()


@proto_contract
@dataclass
class Reversed:
    c: str = field(3)
    b: pa.int32 = field(2)
    a: str = field(1)


def test_encode_reads_fields_whatever_the_dict_order() -> None:
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    pet = Pet("Rex", 4, ["a"])
    reordered = Pet("Rex", 4, ["a"])
    del reordered.name
    reordered.name = "Rex"  # now last in the dict: the in-order walk stops at field 1
    extra = Pet("Rex", 4, ["a"])
    extra.__dict__ = {"zz": 1, **vars(extra)}  # another entry first
    for obj in (pet, reordered, extra, Reversed("c", 2, "a")):
        assert nat.serialize(obj) == py.serialize(obj) == nat.serialize(obj)
    assert nat.serialize(Reversed("c", 2, "a")) == b"\n\x01a\x10\x02\x1a\x01c"


def test_the_entry_points_follow_a_codec_replaced_after_use() -> None:
    model = pa.TypeModel(backend="native")
    pet = Pet("Rex", 4)
    data = model.serialize(pet)
    assert model.serialize(pet) == data and model.deserialize(Pet, data) == pet
    codec = model._codecs[Pet]
    plan_encode, plan_decode = codec.encode, codec.decode
    codec.encode = lambda obj: b"python"  # not a plan any more: the Python method runs it
    codec.decode = lambda *args: "python"
    try:
        assert model.serialize(pet) == b"python"
        assert model.deserialize(Pet, data) == "python"
    finally:
        codec.encode, codec.decode = plan_encode, plan_decode
    assert model.serialize(pet) == data
    _plan(model, Pet).invalidate()  # an invalidated plan: the Python codec behind it
    assert model.serialize(pet) == data and model.deserialize(Pet, data) == pet
    assert _plan(model, Pet).fallbacks == 2
