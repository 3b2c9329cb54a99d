"""A cyclic object graph fails to encode at once, with the path, on both backends.

The engine recursed to its depth bound, failed, and handed each level to the Python
codec, which called the engine again for the next level down: about depth^2 message
encodes before the EncodeError.  Nesting past the bound is now final for the plans
(no Python codec re-runs a level); the model's serialize then names the field."""

from __future__ import annotations

import re
from typing import Any

import pytest

import protoattr as pa
from fuzz import families as F
from protoattr import EncodeError
from protoattr._native import engine


def _cycles() -> dict[str, tuple[Any, str]]:
    left = F.Tree("a")
    left.left = left
    listed = F.Tree("b")
    listed.children = [F.Tree("x"), listed]
    mapped = F.Tree("c")
    mapped.forest = {"k": mapped}
    dog = F.Dog("d")
    dog.friends = [dog]
    return {
        "left": (left, "cycle at Tree.left"),
        "list": (listed, "cycle at Tree.children[1]"),
        "map": (mapped, "cycle at Tree.forest['k']"),
        "hierarchy": (F.Zoo([dog]), "cycle at Zoo.animals[0].friends[0]"),  # from the root
    }


@pytest.mark.parametrize("backend", ["native", "python"])
@pytest.mark.parametrize("shape", ["left", "list", "map", "hierarchy"])
def test_a_cycle_is_an_encode_error_naming_the_path(backend: str, shape: str) -> None:
    if backend == "native" and engine() is None:
        pytest.skip("the C engine is not built")
    model = pa.TypeModel(backend=backend)
    obj, where = _cycles()[shape]
    plans = model._native.plans if model._native is not None else {}
    model.serialize(type(obj)())  # compiled: the plans exist
    before = sum(p.fallbacks for p in plans.values())
    pattern = "^" + re.escape(where) + ": the object refers back"
    with pytest.raises(EncodeError, match=pattern):
        model.serialize(obj)
    with pytest.raises(EncodeError, match=pattern):
        model.serialize(obj, deterministic=True)
    # at most the top-level call runs Python (to name the path): no level-by-level re-run
    assert sum(p.fallbacks for p in plans.values()) - before <= 2
