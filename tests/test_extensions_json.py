"""Extensions in JSON: ``"[full.name]"`` keys, equal to ``json_format`` both ways.

Random extensions of every kind (:mod:`tests.ext_schema`) are set on an object; its
bytes parsed by upb must print with ``json_format`` exactly what ``pa.to_json``
prints, with every option set; upb's JSON reads back here to the bytes upb's
``json_format.Parse`` makes of it.  Then the keys ``json_format`` refuses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests.ext_schema import EXTENSIONS, PKG, Base, Color, named, pb

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"indent": None},
    {"preserving_proto_field_name": True, "use_integers_for_enums": True},
    {"always_print_fields_with_no_presence": True, "indent": 0},
]


def _check(obj: Base) -> None:
    theirs = pb.Base.FromString(pa.serialize(obj))
    for options in OPTION_SETS:
        assert pa.to_json(obj, **options) == json_format.MessageToJson(theirs, **options), options
        dict_options = {k: v for k, v in options.items() if k != "indent"}
        assert pa.to_dict(obj, **dict_options) == json_format.MessageToDict(theirs, **dict_options)
    text = json_format.MessageToJson(theirs)
    expected = json_format.Parse(text, pb.Base()).SerializeToString()
    assert pa.serialize(pa.from_json(Base, text)) == expected


@settings(derandomize=True, max_examples=25)
@given(st.data())
def test_random_extensions_print_and_parse_as_json_format(data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(range(len(EXTENSIONS))), max_size=5, unique=True))
    obj = Base(
        id=data.draw(st.none() | st.integers(-3, 3)), tail=data.draw(st.none() | st.just("t"))
    )
    for i in chosen:
        ext, _, values, _ = EXTENSIONS[i]
        value = data.draw(values)
        if isinstance(value, float) and value != value:
            continue
        ext.set(obj, value)
    _check(obj)


def test_keys_go_among_the_fields_by_number() -> None:
    obj = Base(id=1, tail="end")
    named("e_int32").set(obj, 5)
    named("p_color").set(obj, [Color.BLUE])
    named("e_int64").set(obj, 2**40)
    got = json.loads(pa.to_json(obj))
    assert list(got) == ["id", f"[{PKG}.e_int32]", f"[{PKG}.e_int64]", f"[{PKG}.p_color]", "tail"]
    assert got[f"[{PKG}.e_int64]"] == str(2**40)
    _check(obj)


@proto_contract(package="jsonext", extensions=[(10, 20)])
@dataclass
class Opt:
    a: pa.int32 = field(1, default=0)


@proto_contract(package="jsonext", extensions=[(10, 20)])
@dataclass
class Other:
    a: pa.int32 = field(1, default=0)


level = pa.extension(Opt, 10, pa.int32, name="jsonext.level")
other_level = pa.extension(Other, 10, pa.int32, name="jsonext.other_level")


def test_reading_keys() -> None:
    got = pa.from_json(Opt, '{"[jsonext.level]": 7, "a": 1}')
    assert (got, level.get(got)) == (Opt(1), 7)
    assert pa.serialize(got) == b"\x08\x01\x50\x07"
    assert not level.has(pa.from_json(Opt, '{"[jsonext.level]": null}'))
    assert pa.from_json(Opt, '{"[jsonext.nope]": 1}', ignore_unknown_fields=True) == Opt()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"[jsonext.nope]": 1}',
            r'Opt\["\[jsonext.nope\]"\]: no extension \'jsonext.nope\' is declared',
        ),
        ('{"[jsonext.other_level]": 1}', r"'jsonext.other_level' extends Other, not Opt"),
        ('{"[jsonext.level]": "x"}', r'Opt\["\[jsonext.level\]"\]: '),
        ('{"[jsonext.level]": 1, "[jsonext.level]": 2}', r"given twice"),
        ('{"[ jsonext.level]": 1}', r"no extension ' jsonext.level'"),
    ],
)
def test_refused_keys(text: str, message: str) -> None:
    with pytest.raises(pa.DecodeError, match=message):
        pa.from_json(Opt, text)


def test_wrong_extendee_is_refused_even_when_ignoring_unknown_fields() -> None:
    with pytest.raises(pa.DecodeError, match="extends Other, not Opt"):
        pa.from_json(Opt, '{"[jsonext.other_level]": 1}', ignore_unknown_fields=True)


def test_declared_later_is_printed() -> None:
    """A writer built before an extension is declared prints it once it is."""
    o = Opt(2)
    assert pa.to_json(o, indent=None) == '{"a": 2}'
    late = pa.extension(Opt, 11, str, name="jsonext.late")
    late.set(o, "x")
    assert pa.to_json(o, indent=None) == '{"a": 2, "[jsonext.late]": "x"}'
