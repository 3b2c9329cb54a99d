"""Differential JSON fuzzing: protoattr's JSON against ``json_format`` (upb).

The messages are the conformance suite's, ``TestAllTypesProto3`` and
``TestAllTypesProto2`` (their twins in ``conformance/``); Google's side is compiled
from the twins' own schema export, so both sides have the same fields and names.

An input is JSON text.  Seeds are *generated*: random upb messages (every field
kind, maps, oneofs, the well-known types, nested ``Any``) printed by
``json_format.MessageToJson``.  Mutations are *token-level*: the text is cut into
JSON tokens and tokens are dropped, repeated, swapped, taken from another seed or
replaced by tricky ones (``null``, ``"NaN"``, ``1e3``, lone surrogates, huge
numbers, type URLs, field names...).

:func:`check` reads the text with both, each under the options the input's hash
picks (``ignore_unknown_fields``, and for printing ``use_integers_for_enums`` and
``preserving_proto_field_name``), and raises :class:`~fuzz.targets.Finding` when

* protoattr raises anything but ``DecodeError`` (reading) or ``EncodeError``
  (writing);
* one side accepts and the other refuses, unless the refusal is one of the
  deliberate differences of docs/json.md (:func:`tolerated`);
* both accept but upb reads protoattr's bytes as another message, or the two
  print different JSON;
* the two backends write different bytes for the object read.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import random
import re
from types import ModuleType
from typing import Any

import protoattr as pa

__all__ = ["check", "generate", "google_classes", "models", "mutate", "ours", "seeds", "tolerated"]


# -- the two sides ------------------------------------------------------------------


@functools.cache
def google_classes() -> dict[int, Any]:
    """``{3: TestAllTypesProto3, 2: TestAllTypesProto2}`` of Google's runtime, compiled
    from the schema protoattr exports for the twins (full names kept, for ``Any``)."""
    from conformance import proto2, proto3
    from tests.protoc import compile_proto  # the test suite's protoc helper (grpc_tools)

    out: dict[int, Any] = {}
    for version, module in ((3, proto3), (2, proto2)):
        cls = getattr(module, f"TestAllTypesProto{version}")
        syntax = "proto3" if version == 3 else "proto2"
        schema = pa.default_model.schema(cls, syntax=syntax)
        pb: ModuleType = compile_proto(schema, f"conformance_twins{version}", unique_package=False)
        out[version] = getattr(pb, f"TestAllTypesProto{version}")
    return out


@functools.cache
def ours() -> dict[int, type]:
    from conformance import proto2, proto3

    return {3: proto3.TestAllTypesProto3, 2: proto2.TestAllTypesProto2}


@functools.cache
def models() -> tuple[pa.TypeModel, ...]:
    """One model per backend there is (the native one only when its engine is built)."""
    models = [pa.TypeModel(backend="python")]
    with contextlib.suppress(ImportError):  # no C engine built: the Python backend alone
        models.append(pa.TypeModel(backend="native"))
    for model in models:
        for cls in ours().values():
            model.add(cls)
    return tuple(models)


# -- what protoattr refuses on purpose (docs/json.md) ------------------------------------

_TOLERATED = re.compile(
    "|".join(
        [
            r"expected true or false",  # true/false only for bools
            r"expected an integer .*, got (true|false)",  # `true` for a number
            r"expected a .* name or number, got",  # ... or a float (json_format: int(1.5))
            r"expected a number, got (true|false)",
            r"is not an integer",  # Python spellings: "1_000", " 1"
            r"is neither a name nor a number of",  # ... for an enum too
            r"is out of range for an enum",  # beyond int32, which json_format truncates
            r"is not a number",
            r"is not base64",  # characters outside the alphabet, which json_format drops
            r"wrong base64 padding",
            # a string or an array for a message, which json_format walks as if an object
            # (and, ignoring unknown fields, accepts)
            r"expected a JSON object for .*, got",
            r"is given twice \(as its proto name and its JSON name\)",
            r"beside @type and value",  # extra keys beside a well-known payload
            r"nesting deeper than",  # map entries count as on the wire
            # a NullValue member's null beside another member: json_format does not
            # count the null, and the last member given wins
            r"oneof '\w+' already has",
            r"is not a finite number",  # NaN, Infinity in a Value: no JSON form to print
            r"Timestamp|Duration",  # RFC 3339 without leading zeros, > 9 digits...
            r"out of range for float",  # ... and the largest float32, which we accept
        ]
    )
)


#: what json_format refuses and protoattr reads on purpose: the largest float32, which
#: json_format itself prints as 3.4028235e+38; and its own crashes (a SystemError out of upb
#: looking up a key with a lone surrogate, under ignore_unknown_fields); and an
#: "[extension]" key on a message without extension ranges, which protoattr skips as an
#: unknown key under ignore_unknown_fields
_THEIRS_TOLERATED = re.compile(r"Float value too large|SystemError|does not have extensions")


def tolerated(message: str) -> bool:
    """Whether protoattr's refusal is one of docs/json.md's deliberate differences."""
    return _TOLERATED.search(message) is not None


# -- the check --------------------------------------------------------------------------


def _options(text: str) -> tuple[int, bool, bool, bool]:
    h = hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest()
    return 3 if h[0] & 1 else 2, bool(h[1] & 1), bool(h[2] & 1), bool(h[3] & 1)


def check(text: str) -> None:
    """Read ``text`` with both sides and compare (see the module docstring)."""
    from google.protobuf import json_format

    from .targets import Finding

    version, ignore, ints, proto_names = _options(text)
    google = google_classes()[version]
    cls = ours()[version]
    refusal = ""
    try:
        theirs: Any = json_format.Parse(text, google(), ignore_unknown_fields=ignore)
    except Exception as exc:  # json_format's refusals are not all ParseError
        theirs, refusal = None, f"{type(exc).__name__}: {exc}"
    results = []
    for model in models():
        try:
            obj = model.from_json(cls, text, ignore_unknown_fields=ignore)
        except pa.DecodeError as exc:
            if theirs is not None and not tolerated(str(exc)):
                raise Finding(f"json_format accepts, protoattr refuses: {exc}") from exc
            results.append(None)
            continue
        except Exception as exc:
            raise Finding(f"from_json raised {type(exc).__name__}: {exc}") from exc
        if theirs is None:
            if _THEIRS_TOLERATED.search(refusal):
                results.append(None)
                continue
            raise Finding(f"protoattr accepts, json_format refuses ({refusal})")
        try:
            data = model.serialize(obj)
        except Exception as exc:
            raise Finding(f"read, but cannot be serialized: {exc!r}") from exc
        if not _same_message(google.FromString(data), theirs):
            raise Finding("upb reads protoattr's bytes as another message")
        _same_json(model, obj, theirs, ints, proto_names)
        results.append(data)
    if len(set(results)) > 1:
        raise Finding("the backends wrote different bytes")


def _same_message(a: Any, b: Any) -> bool:
    """Equal bytes, or (an ``Any`` holds its payload's bytes in whichever order its writer
    chose for maps) equal once printed with every ``Any`` unpacked."""
    from google.protobuf import json_format

    if a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True):
        return True
    try:
        return bool(
            json_format.MessageToJson(a, sort_keys=True)
            == json_format.MessageToJson(b, sort_keys=True)
        )
    except Exception:
        return False


def _same_json(model: pa.TypeModel, obj: Any, theirs: Any, ints: bool, names: bool) -> None:
    from google.protobuf import json_format

    from .targets import Finding

    try:
        expected: Any = json.loads(
            json_format.MessageToJson(
                theirs, use_integers_for_enums=ints, preserving_proto_field_name=names
            )
        )
    except Exception:
        expected = None
    try:
        text = model.to_json(obj, use_integers_for_enums=ints, preserving_proto_field_name=names)
    except pa.EncodeError as exc:
        if expected is not None:
            raise Finding(f"json_format prints it, protoattr refuses: {exc}") from exc
        return
    except Exception as exc:
        raise Finding(f"to_json raised {type(exc).__name__}: {exc}") from exc
    if expected is None:
        raise Finding("protoattr prints what json_format refuses to print")
    if json.loads(text) != expected:
        raise Finding(f"printed differently: {text[:200]} vs {json.dumps(expected)[:200]}")


# -- generated messages ------------------------------------------------------------------

_INTS = [0, 1, -1, 127, 128, 2**31 - 1, -(2**31), 2**32 - 1, 2**53 + 1, 2**63 - 1, -(2**63)]
_FLOATS = [0.0, -0.0, 1.5, 0.1, 1e-45, 3.4028234663852886e38, 1e300, float("inf"), float("nan")]
_STRINGS = ["", "a", "héllo", "\u2028", "\U0001f600", '"\\/', "\x00\x1f"]


def generate(rng: random.Random, version: int) -> str:
    """The JSON text json_format prints for a random TestAllTypes message."""
    from google.protobuf import json_format

    msg = google_classes()[version]()
    _fill(rng, msg, 0)
    try:
        return json_format.MessageToJson(msg, indent=rng.choice([None, 0, 2]))
    except Exception:  # a random Any or Timestamp json_format cannot print
        return "{}"


def seeds(count: int = 24) -> list[bytes]:
    """Generated seeds, the same on every run: keys sorted (upb's map order is its own)."""
    rng = random.Random(0)
    out = [b"{}"]
    for i in range(count):
        data = json.loads(generate(rng, 3 if i % 2 == 0 else 2))
        text = json.dumps(data, indent=rng.choice([None, 2]), sort_keys=True)
        out.append(text.encode("utf-8"))
    return out


def _fill(rng: random.Random, msg: Any, depth: int) -> None:
    fields = list(msg.DESCRIPTOR.fields)
    for f in rng.sample(fields, min(len(fields), rng.randint(0, 12))):
        with contextlib.suppress(ValueError, TypeError):  # a value the field refuses
            _set_field(rng, msg, f, depth)


def _set_field(rng: random.Random, msg: Any, f: Any, depth: int) -> None:
    if f.message_type is not None and f.message_type.GetOptions().map_entry:
        key_f, value_f = (
            f.message_type.fields_by_name["key"],
            f.message_type.fields_by_name["value"],
        )
        target = getattr(msg, f.name)
        for _ in range(rng.randint(1, 3)):
            key = _scalar(rng, key_f)
            if value_f.message_type is not None:
                _fill_message(rng, target[key], depth + 1)
            else:
                target[key] = _scalar(rng, value_f)
        return
    if f.is_repeated:
        target = getattr(msg, f.name)
        for _ in range(rng.randint(1, 3)):
            if f.message_type is not None:
                _fill_message(rng, target.add(), depth + 1)
            else:
                target.append(_scalar(rng, f))
        return
    if f.message_type is not None:
        if depth < 3:
            _fill_message(rng, getattr(msg, f.name), depth + 1)
        return
    setattr(msg, f.name, _scalar(rng, f))


def _fill_message(rng: random.Random, msg: Any, depth: int) -> None:
    name = msg.DESCRIPTOR.full_name
    if name == "google.protobuf.Timestamp":
        msg.seconds = rng.randint(-62135596800, 253402300799)
        msg.nanos = rng.choice([0, 1000, 1000000, rng.randint(0, 999999999)])
    elif name == "google.protobuf.Duration":
        msg.seconds = rng.randint(-315576000000, 315576000000)
        msg.nanos = 0 if msg.seconds == 0 else (1 if msg.seconds > 0 else -1) * rng.randint(0, 999)
    elif name == "google.protobuf.FieldMask":
        msg.paths.extend(rng.sample(["a", "b_c", "foo_bar.baz", "x1"], rng.randint(0, 3)))
    elif name == "google.protobuf.Value":
        msg.CopyFrom(_value(rng, depth))
    elif name == "google.protobuf.Struct":
        msg.update({rng.choice(_STRINGS): _json(rng, depth) for _ in range(rng.randint(0, 3))})
    elif name == "google.protobuf.ListValue":
        msg.extend([_json(rng, depth) for _ in range(rng.randint(0, 3))])
    elif name == "google.protobuf.Any":
        # a TestAllTypes (nested Anys included) or a wrapper inside
        if depth < 3 and rng.random() < 0.5:
            payload = google_classes()[rng.choice([3, 2])]()
            _fill(rng, payload, depth + 1)
        else:
            from google.protobuf import wrappers_pb2

            payload = wrappers_pb2.Int32Value(value=rng.choice(_INTS[:6]))
        msg.Pack(payload)
    elif name.startswith("google.protobuf.") and name.endswith("Value"):
        _set_field(rng, msg, msg.DESCRIPTOR.fields_by_name["value"], depth)
    elif depth < 4:
        _fill(rng, msg, depth)


def _json(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth < 3 and roll < 0.15:
        return [_json(rng, depth + 1) for _ in range(rng.randint(0, 2))]
    if depth < 3 and roll < 0.3:
        return {rng.choice(_STRINGS): _json(rng, depth + 1) for _ in range(rng.randint(0, 2))}
    return rng.choice([None, True, False, 0, -1.5, 1e20, *_STRINGS])


def _value(rng: random.Random, depth: int) -> Any:
    from google.protobuf import struct_pb2

    v = struct_pb2.Value()
    x = _json(rng, depth)
    if x is None:
        v.null_value = 0
    elif isinstance(x, bool):
        v.bool_value = x
    elif isinstance(x, (int, float)):
        v.number_value = x
    elif isinstance(x, str):
        v.string_value = x
    elif isinstance(x, dict):
        v.struct_value.update(x)
    else:
        v.list_value.extend(x)
    return v


def _scalar(rng: random.Random, f: Any) -> Any:
    t = f.type
    if t == f.TYPE_BOOL:
        return rng.random() < 0.5
    if t == f.TYPE_STRING:
        return rng.choice(_STRINGS)
    if t == f.TYPE_BYTES:
        return rng.randbytes(rng.randint(0, 5))
    if t in (f.TYPE_FLOAT, f.TYPE_DOUBLE):
        return rng.choice(_FLOATS)
    if t == f.TYPE_ENUM:
        values = [v.number for v in f.enum_type.values]
        closed = getattr(f.enum_type, "is_closed", False)
        return rng.choice(values if closed else [*values, 7])
    bits = 32 if t in (f.TYPE_INT32, f.TYPE_SINT32, f.TYPE_SFIXED32) else 64
    unsigned = t in (f.TYPE_UINT32, f.TYPE_FIXED32, f.TYPE_UINT64, f.TYPE_FIXED64)
    if t in (f.TYPE_UINT32, f.TYPE_FIXED32):
        bits = 32
    lo, hi = (0, 2**bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return min(max(rng.choice(_INTS), lo), hi)


# -- token-level mutations ---------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+\-]*|true|false|null|[{}\[\]:,]|\s+|.', re.S)
_TRICKY = [
    "null", "true", "false", "0", "-0", "1e3", "1.5", "-1", "1e400", "18446744073709551616",
    "9223372036854775808", "2147483648", '"NaN"', '"Infinity"', '"-Infinity"', '"1e3"', '" 1"',
    '"0x10"', '"\\ud800"', '"\\udc00x"', '"\\u0000"', '""', '"="', '"QQ="', '"AA=="', '"-_"',
    '"1970-01-01T00:00:00Z"', '"1s"', '"-0.5s"', '"a.b,cD"', '"@type"', '"NULL_VALUE"',
    '"type.googleapis.com/google.protobuf.Value"',
    '"type.googleapis.com/google.protobuf.Int32Value"',
    '"type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3"', "[]", "{}", "[null]",
    '{"value": null}', '"optionalValue"', '"oneofNullValue"', '"optional_int32"', '"value"',
    '"mapInt32Int32"', '"FOO"', '"BAR"', '"moo"',
    '"[protobuf_test_messages.proto2.extension_int32]"',
]  # fmt: skip


def mutate(rng: random.Random, text: str, pool: list[str]) -> str:
    """``text`` with one to three token-level edits.

    Most edits replace a value (a string, number or literal) by another one, tricky
    or taken from another seed, and a key by another key, so that most mutants are
    still JSON and reach the readers; the rest drop, repeat, swap or insert tokens.
    """
    tokens = _TOKEN.findall(text) or ["{}"]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        op = rng.random()
        if op < 0.6:
            _replace_value(rng, tokens, pool)
        elif op < 0.7 and len(tokens) > 1:
            del tokens[i]
        elif op < 0.8:
            tokens.insert(i, tokens[i])
        elif op < 0.9:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens.insert(i, rng.choice(_TRICKY))
    return "".join(tokens)


def _replace_value(rng: random.Random, tokens: list[str], pool: list[str]) -> None:
    values = [i for i, t in enumerate(tokens) if _VALUE.match(t)]
    if not values:
        return
    i = rng.choice(values)
    following = next((t for t in tokens[i + 1 :] if not t.isspace()), "")
    others = [t for t in _TOKEN.findall(rng.choice(pool)) if _VALUE.match(t)] if pool else []
    if following == ":":  # a key: another key
        keys = [t for t in others if t.startswith('"')] + _KEYS
        tokens[i] = rng.choice(keys)
    elif others and rng.random() < 0.4:
        tokens[i] = rng.choice(others)
    else:
        tokens[i] = rng.choice(_TRICKY)


_VALUE = re.compile(r'"|-?[0-9]|true|false|null')
_KEYS = [t for t in _TRICKY if t.startswith('"')]
