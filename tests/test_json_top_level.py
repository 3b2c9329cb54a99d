"""Top-level lists and plain values in JSON (issue 22.6).

A list of contracts is a JSON array; ``type=list[T]`` checks it and ``from_json(list[T])``
reads it back.  A plain ``dict`` is not silently printed as a ``Struct`` (whose numbers
are doubles): it needs ``type=pa.Struct``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import pytest
from google.protobuf import json_format, struct_pb2

import protoattr as pa
from protoattr import field, proto_contract


@proto_contract
@dataclass
class A:
    x: pa.int32 = field(1, default=0)
    name: str = field(2, default="")


def test_a_list_of_contracts_is_a_json_array() -> None:
    items = [A(1, "a"), A()]
    assert pa.to_dict(items) == [{"x": 1, "name": "a"}, {}]
    assert pa.to_json(items, type=list[A], indent=None) == '[{"x": 1, "name": "a"}, {}]'
    assert pa.from_json(list[A], pa.to_json(items)) == items
    assert pa.from_dict(list[A], []) == [] and pa.to_json([], indent=None) == "[]"
    assert pa.from_json(tuple[A, ...], "[{}]") == (A(),)
    assert (
        pa.to_json([datetime(2020, 1, 1, tzinfo=timezone.utc)]) == '[\n  "2020-01-01T00:00:00Z"\n]'
    )


def test_bad_lists_name_the_index() -> None:
    with pytest.raises(pa.EncodeError, match=r"^list\[A\]\[1\]\.x: "):
        pa.to_json([A(1), A("s")])  # type: ignore[arg-type]
    with pytest.raises(pa.EncodeError, match=r"^list\[A\]\[1\]: expected A, got str"):
        pa.to_json([A(1), "x"], type=list[A])
    with pytest.raises(pa.EncodeError, match=r"^list\[1\]: int 3 is not a contract"):
        pa.to_json([A(1), 3])
    with pytest.raises(pa.DecodeError, match=r'^list\[A\]\[1\]\.x: "q" is not an integer'):
        pa.from_json(list[A], '[{"x": 1}, {"x": "q"}]')
    with pytest.raises(pa.DecodeError, match=r"^list\[A\]: expected a JSON array, got an object"):
        pa.from_json(list[A], "{}")


def test_a_plain_dict_is_not_silently_a_struct() -> None:
    with pytest.raises(pa.EncodeError, match=r"a dict is not a message: .* type=pa\.Struct"):
        pa.to_json({"a": 1})
    struct = struct_pb2.Struct()
    struct.update({"a": 1})
    assert pa.to_dict({"a": 1}, type=pa.Struct) == json_format.MessageToDict(struct)
    assert pa.from_json(pa.Struct, '{"a": 1}') == {"a": 1.0}
    assert pa.to_dict([1, "x"], type=pa.ListValue) == [1.0, "x"]
    assert pa.to_dict(3, type=pa.JsonValue) == 3.0


@proto_contract
@dataclass
class Holder:
    items: list[A] = field(1, default_factory=list)
    by_key: dict[str, A] = field(2, default_factory=dict)
    one: A = field(3, default_factory=A)
    nums: list[pa.int32] = field(4, default_factory=list)


@pytest.mark.parametrize(
    ("obj", "path"),
    [
        (Holder(items=[A(), A("x")]), r"Holder\.items\[1\]\.x"),  # type: ignore[arg-type]
        (Holder(by_key={"k": A("x")}), r"Holder\.by_key\['k'\]\.x"),  # type: ignore[arg-type]
        (Holder(one=A("x")), r"Holder\.one\.x"),  # type: ignore[arg-type]
        (Holder(nums=[1, "a"]), r"Holder\.nums\[1\]"),  # type: ignore[list-item]
    ],
    ids=["list", "map", "message", "scalars"],
)
def test_json_and_binary_encode_errors_name_the_same_path(obj: Holder, path: str) -> None:
    with pytest.raises(pa.EncodeError, match=f"^{path}: "):
        pa.to_json(obj)
    with pytest.raises(pa.EncodeError, match=f"^{path}: "):
        pa.serialize(obj)
