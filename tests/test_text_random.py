"""Text format over random contracts and mutated texts, against ``text_format``.

Random contracts (:mod:`tests.test_random_contracts`' schemas, classes and values):
``to_text`` equals ``MessageToString`` under several options, and ``from_text`` reads
Google's text into the same message.  Mutated texts (characters and tokens deleted,
repeated, swapped or replaced in the conformance messages' texts): ``from_text``
accepts exactly what ``Parse`` accepts, into the same message, and refuses the rest at
the same line and column.
"""

from __future__ import annotations

import re

from google.protobuf import text_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
from fuzz import alltypes, targets
from tests.test_random_contracts import build_classes, compile_twin, schemas, values_for
from tests.test_text import check_parse, parse_both

SETTINGS = settings(
    derandomize=True,
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
OPTIONS = [
    {},
    {"as_one_line": True, "use_short_repeated_primitives": True},
    {"print_unknown_fields": True, "pointy_brackets": True},
]


@given(st.data())
@SETTINGS
def test_random_contracts_text_matches_text_format(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    twin = compile_twin(schema)
    for spec in schema:
        cls = classes[spec.index]
        message_cls = getattr(twin, f"M{spec.index}")
        obj = data.draw(values_for(schema, spec.index, classes), label=cls.__name__)
        pb = message_cls.FromString(pa.serialize(obj))
        for options in OPTIONS:
            assert pa.to_text(obj, **options) == text_format.MessageToString(pb, **options)
        theirs = text_format.MessageToString(pb)
        check_parse(cls, message_cls, theirs)


_PIECES = re.compile(r"\s+|[A-Za-z_][\w+-]*|[-+.\d][\w.+-]*|\"(?:[^\"\\\n]|\\.)*\"?|.", re.S)
_INSERTS = [
    "{", "}", "<", ">", "[", "]", ":", ",", ";", "#", "\n", '"', "'", "\\", "-", "0x", "1e5", "nan",
    "-inf", "optional_int32: 1", "oneof_uint32: 2", "optional_nested_message {", "\\x", "\\u00",
    "repeated_int32: [", "map_int32_int32 {", "Data {", "FOO", "99999999999", "é",
]  # fmt: skip
_TEXTS: dict[int, list[str]] = {}


def _texts(version: int) -> list[str]:
    found = _TEXTS.get(version)
    if found is None:
        google = targets._google(version)
        found = []
        for data in targets.alltypes_seeds(version):
            message = google.FromString(data)
            found.append(text_format.MessageToString(message))
            found.append(text_format.MessageToString(message, as_one_line=True))
        _TEXTS[version] = found
    return found


@st.composite
def mutated(draw: st.DrawFn, version: int) -> str:
    text = draw(st.sampled_from(_texts(version)))
    pieces = _PIECES.findall(text)
    for _ in range(draw(st.integers(1, 3))):
        if not pieces:
            break
        i = draw(st.integers(0, len(pieces) - 1))
        action = draw(st.sampled_from(["delete", "repeat", "swap", "insert", "char"]))
        if action == "delete":
            del pieces[i]
        elif action == "repeat":
            pieces.insert(i, pieces[i])
        elif action == "swap" and i + 1 < len(pieces):
            pieces[i], pieces[i + 1] = pieces[i + 1], pieces[i]
        elif action == "insert":
            pieces.insert(i, draw(st.sampled_from(_INSERTS)))
        elif pieces[i]:
            k = draw(st.integers(0, len(pieces[i]) - 1))
            ch = draw(st.sampled_from(list('0a_.-"\\{} \n9xZ')))
            pieces[i] = pieces[i][:k] + ch + pieces[i][k + 1 :]
    return "".join(pieces)


_TIME = ("optional_timestamp", "optional_duration", "repeated_timestamp", "repeated_duration")


def _check_mutated(version: int, text: str) -> None:
    cls = getattr(alltypes, f"TestAllTypesProto{version}")
    google = targets._google(version)
    theirs, their_error, ours, our_error = parse_both(cls, google, text)
    if "\\?" in text:  # protoattr reads the spec's "\?" (see test_text), text_format does not
        return
    timed = any(name in text for name in _TIME)
    # protoattr's datetimes: microseconds, years 1..9999 (a documented limit)
    refused_by_decode = our_error is not None and not re.match(r"\d+:\d+ : ", our_error)
    if their_error is None and timed and refused_by_decode:
        return
    if their_error is None and our_error is None and any(name in text for name in _TIME):
        for name in _TIME:
            theirs.ClearField(name)
        mine = google.FromString(pa.serialize(ours))
        for name in _TIME:
            mine.ClearField(name)
        assert mine == theirs, text
        return
    check_parse(cls, google, text)


@given(mutated(3))
@SETTINGS
def test_mutated_proto3_texts_parse_as_text_format(text: str) -> None:
    _check_mutated(3, text)


@given(mutated(2))
@SETTINGS
def test_mutated_proto2_texts_parse_as_text_format(text: str) -> None:
    _check_mutated(2, text)


_TOKEN_PIECES = list("ab_1.-+\"'\\# \t\n\r\x0b\x0c\x1c\u2028\u00a0é{}<>[]:;,xf0")
_TOKEN_PIECES += ["optional_int32", '"a#b"', "# c\n", "1e5", "0x1F"]


@given(st.lists(st.sampled_from(_TOKEN_PIECES), max_size=25).map("".join))
@settings(derandomize=True, max_examples=60, deadline=None)
def test_the_tokens_and_their_places_are_text_formats(text: str) -> None:
    from protoattr._text.tokens import Tokens

    theirs = text_format.Tokenizer(text.split("\n"))
    expected = []
    while not theirs.AtEnd():
        expected.append((theirs.token, theirs._line, theirs._column))
        theirs.NextToken()
    ours = Tokens(text)
    assert list(zip(ours.text, ours.rows, ours.cols, strict=True)) == expected
    if expected:
        assert ours.eof == (theirs._line, theirs._column)
