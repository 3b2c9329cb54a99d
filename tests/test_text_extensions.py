"""Extensions in text format: ``[full.name]`` fields, printed and parsed as ``text_format``
does, for every kind of :mod:`tests.ext_schema` (singular, repeated, packed, messages,
groups), against upb's ``msg.Extensions[...]``."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
from tests.ext_schema import EXTENSIONS, PKG, Base, pb, set_upb
from tests.test_text import check_parse, check_print

SETTINGS = settings(
    derandomize=True,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def extended(draw: st.DrawFn) -> tuple[Any, Any]:
    """A upb ``Base`` with a few extensions set, and its bytes read by protoattr."""
    msg = pb.Base(id=draw(st.none() | st.integers(-5, 5)))
    chosen = draw(st.lists(st.sampled_from(EXTENSIONS), max_size=5, unique_by=lambda e: id(e[0])))
    for _ext, desc, values, msg_cls in chosen:
        set_upb(msg, desc, draw(values), msg_cls)
    if draw(st.booleans()):
        msg.tail = "t"
    return pa.deserialize(Base, msg.SerializeToString()), msg


@given(extended())
@SETTINGS
def test_extensions_print_and_parse_as_text_format(pair: tuple[Any, Any]) -> None:
    obj, _msg = pair
    text = check_print(obj, pb.Base)
    check_parse(Base, pb.Base, text)
    check_parse(Base, pb.Base, pa.to_text(obj, as_one_line=True, pointy_brackets=True))


def test_every_extension_kind_at_once() -> None:
    msg = pb.Base(id=1, tail="x")
    for _ext, desc, values, msg_cls in EXTENSIONS:
        set_upb(msg, desc, _sample(values), msg_cls)
    obj = pa.deserialize(Base, msg.SerializeToString())
    text = check_print(obj, pb.Base)
    assert f"[{PKG}.e_int32]: " in text
    check_parse(Base, pb.Base, text)


def _sample(values: st.SearchStrategy[Any]) -> Any:
    found: list[Any] = []

    @given(values)
    @settings(max_examples=1, derandomize=True, database=None)
    def take(v: Any) -> None:
        found.append(v)

    take()
    return found[-1]


def test_extension_errors_are_text_formats() -> None:
    for text in [
        f"[{PKG}.e_int32]: 1 [{PKG}.e_int32]: 2",
        f"[{PKG}.r_int32]: [1, 2] [{PKG}.r_int32]: 3",
        f"[{PKG}.e_sub] {{ x: 1 }} [{PKG}.e_sub] {{ }}",
        f"[{PKG}.g] {{ x: 1 }}",
        f"[{PKG}.nope]: 1",
        "[other.thing]: 1",
        f"[{PKG}.e_color]: 7",
        f"[{PKG}.e_color]: BLUE",
        f"[{PKG}.e_int32: 1",
        f"[{PKG}.]: 1",
    ]:
        check_parse(Base, pb.Base, text)
    obj = pa.from_text(Base, f"id: 1 [{PKG}.nope]: 5", allow_unknown_extension=True)
    assert obj.id == 1
