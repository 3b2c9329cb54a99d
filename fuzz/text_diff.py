"""Differential fuzzing of the text format against ``text_format`` (upb).

One input is a text for the conformance messages (``TestAllTypesProto3`` and
``TestAllTypesProto2`` twins).  What must agree, for each of the two:

* ``pa.from_text`` accepts exactly what ``text_format.Parse`` accepts, refusing
  the rest with a ``DecodeError`` at the same line and column where ``Parse``
  names one (and nothing but a ``DecodeError``, on either backend);
* what both accept is the same message, and ``pa.to_text`` of protoattr's object
  (with unknown fields) is ``MessageToString`` of upb's.

Tolerated, as documented in docs/text-format.md: ``datetime`` fields refuse
timestamps a ``datetime`` cannot hold and keep microseconds; ``\\?`` is ``?``.
"""

from __future__ import annotations

import random
import re
import warnings
from typing import Any

from google.protobuf import text_format

import protoattr as pa

from . import alltypes

_TIME = ("optional_timestamp", "optional_duration", "repeated_timestamp", "repeated_duration")
_PLACE = re.compile(r"\d+:\d+ : ")
_PIECES = re.compile(r"\s+|[A-Za-z_][\w+-]*|[-+.\d][\w.+-]*|\"(?:[^\"\\\n]|\\.)*\"?|.", re.S)
_INSERTS = [
    "{", "}", "<", ">", "[", "]", ":", ",", ";", "#", "\n", '"', "'", "\\", "-", "0x", "1e5", "nan",
    "-inf", "optional_int32: 1", "oneof_uint32: 2", "optional_nested_message {", "\\x", "\\u00",
    "repeated_int32: [", "map_int32_int32 {", "Data {", "FOO", "99999999999", "é", "017", "1_0",
]  # fmt: skip


class Finding(AssertionError):
    """protoattr and text_format disagree."""


def _google(version: int) -> Any:
    from .targets import _google as google

    return google(version)


def models() -> list[pa.TypeModel]:
    from .targets import make_model

    return [make_model()]


def seeds() -> list[bytes]:
    """Texts upb prints for the conformance messages' samples, in two layouts."""
    from .targets import alltypes_seeds

    out: list[bytes] = []
    for version in (3, 2):
        google = _google(version)
        for data in alltypes_seeds(version):
            message = google.FromString(data)
            out.append(text_format.MessageToString(message).encode())
            out.append(text_format.MessageToString(message, as_one_line=True).encode())
    return out


def mutate(rng: random.Random, text: str, pool: list[str]) -> str:
    """Pieces (tokens, spaces) deleted, repeated, swapped, replaced or spliced in."""
    pieces = _PIECES.findall(text)
    for _ in range(rng.randint(1, 3)):
        if not pieces:
            break
        i = rng.randrange(len(pieces))
        action = rng.choice(["delete", "repeat", "swap", "insert", "char", "splice"])
        if action == "delete":
            del pieces[i]
        elif action == "repeat":
            pieces.insert(i, pieces[i])
        elif action == "swap" and i + 1 < len(pieces):
            pieces[i], pieces[i + 1] = pieces[i + 1], pieces[i]
        elif action == "insert":
            pieces.insert(i, rng.choice(_INSERTS))
        elif action == "splice" and pool:
            other = _PIECES.findall(rng.choice(pool))
            if other:
                j = rng.randrange(len(other))
                pieces[i:i] = other[j : j + rng.randint(1, 8)]
        elif pieces[i]:
            k = rng.randrange(len(pieces[i]))
            ch = rng.choice(list('0a_.-"\\{} \n9xZ'))
            pieces[i] = pieces[i][:k] + ch + pieces[i][k + 1 :]
    return "".join(pieces)


def check(text: str, model: pa.TypeModel | None = None) -> None:
    """Raise :class:`Finding` where protoattr and text_format disagree on ``text``."""
    model = model or models()[0]
    for version in (3, 2):
        _check_one(model, version, text)


def _check_one(model: pa.TypeModel, version: int, text: str) -> None:
    cls = getattr(alltypes, f"TestAllTypesProto{version}")
    google = _google(version)
    try:
        with warnings.catch_warnings():  # text_format's "\q" goes through a deprecated path
            warnings.simplefilter("ignore", DeprecationWarning)
            theirs, their_error = text_format.Parse(text, google()), None
    except text_format.ParseError as exc:
        theirs, their_error = None, str(exc)
    except (ValueError, RecursionError) as exc:  # upb's own refusals (an enum beyond int32)
        theirs, their_error = None, f"(no place) {exc}"
    try:
        ours, our_error = model.from_text(cls, text), None
    except pa.DecodeError as exc:
        ours, our_error = None, str(exc)
    except Exception as exc:
        raise Finding(f"from_text raised {type(exc).__name__}: {exc}") from exc
    if "\\?" in text:
        return  # the spec's "\?" (docs/text-format.md)
    timed = any(name in text for name in _TIME)
    if their_error is None and our_error is not None:
        if timed and not _PLACE.match(our_error):
            return  # a timestamp a datetime cannot hold (docs/text-format.md)
        raise Finding(f"text_format accepts, protoattr refuses: {our_error}")
    if their_error is not None:
        if our_error is None:
            raise Finding(f"protoattr accepts, text_format refuses: {their_error}")
        where = their_error.split(" ", 1)[0]
        if ":" in where and our_error.split(" ", 1)[0] != where:
            raise Finding(f"refused at another place: {their_error!r} / {our_error!r}")
        return
    mine = google.FromString(model.serialize(ours))
    if timed:
        for name in _TIME:
            mine.ClearField(name)
            theirs.ClearField(name)
    if mine.SerializeToString(deterministic=True) != theirs.SerializeToString(deterministic=True):
        raise Finding("read as another message")
    if not timed:
        printed = model.to_text(ours, print_unknown_fields=True)
        if printed != text_format.MessageToString(theirs, print_unknown_fields=True):
            raise Finding("printed otherwise than MessageToString")
