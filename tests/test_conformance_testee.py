"""The conformance testee (``conformance/testee.py``) answers the runner's protocol.

The runner itself is built by ``conformance/build_runner.sh`` from sources the
project does not ship (docs/conformance.md); these tests drive the testee the
way the runner does, through its stdin and stdout framing, on whichever backend
the suite runs under.
"""

from __future__ import annotations

import io
import struct

import protoattr as pa
from conformance import proto2, proto3, testee
from conformance.testee import ConformanceRequest, ConformanceResponse, WireFormat
from conformance.testee import TestCategory as Category

P3 = "protobuf_test_messages.proto3.TestAllTypesProto3"
P2 = "protobuf_test_messages.proto2.TestAllTypesProto2"


def _framed(*requests: ConformanceRequest) -> bytes:
    out = b""
    for r in requests:
        data = pa.serialize(r)
        out += struct.pack("<I", len(data)) + data
    return out


def _responses(data: bytes) -> list[ConformanceResponse]:
    out, pos = [], 0
    while pos < len(data):
        (n,) = struct.unpack_from("<I", data, pos)
        out.append(pa.deserialize(ConformanceResponse, data[pos + 4 : pos + 4 + n]))
        pos += 4 + n
    return out


def test_serve_answers_each_framed_request_in_order() -> None:
    stdin = io.BytesIO(
        _framed(
            ConformanceRequest(message_type="conformance.FailureSet"),
            ConformanceRequest(
                protobuf_payload=b"\x08\x96\x01",
                requested_output_format=WireFormat.JSON,
                message_type=P3,
                test_category=Category.BINARY_TEST,
            ),
            ConformanceRequest(
                json_payload='{"optionalInt32": 150}',
                requested_output_format=WireFormat.PROTOBUF,
                message_type=P2,
                test_category=Category.JSON_TEST,
            ),
        )
    )
    stdout = io.BytesIO()
    assert testee.serve(stdin, stdout) == 3
    failure_set, as_json, as_binary = _responses(stdout.getvalue())
    assert failure_set.protobuf_payload == b""  # an empty FailureSet: nothing expected to fail
    assert as_json.json_payload == '{"optionalInt32": 150}'
    assert as_binary.protobuf_payload == b"\x08\x96\x01"


def test_refused_input_is_a_parse_error() -> None:
    bad_binary = ConformanceRequest(
        protobuf_payload=b"\x0a\x05ab",
        requested_output_format=WireFormat.PROTOBUF,
        message_type=P3,
    )
    assert (testee.answer(bad_binary).parse_error or "").startswith("DecodeError")
    unknown_key = ConformanceRequest(
        json_payload='{"noSuchField": 1}',
        requested_output_format=WireFormat.JSON,
        message_type=P3,
        test_category=Category.JSON_TEST,
    )
    assert testee.answer(unknown_key).parse_error
    unknown_key.test_category = Category.JSON_IGNORE_UNKNOWN_PARSING_TEST
    assert testee.answer(unknown_key).json_payload == "{}"


def test_what_json_cannot_write_is_a_serialize_error() -> None:
    too_late = pa.serialize(proto3.TestAllTypesProto3(optional_timestamp=pa.Timestamp(2**40)))
    request = ConformanceRequest(
        protobuf_payload=too_late, requested_output_format=WireFormat.JSON, message_type=P3
    )
    assert testee.answer(request).serialize_error


def test_jspb_is_skipped_and_text_format_waits_for_to_text() -> None:
    jspb = ConformanceRequest(jspb_payload="[]", message_type=P3)
    assert testee.answer(jspb).skipped
    text = ConformanceRequest(
        text_payload="optional_int32: 1",
        requested_output_format=WireFormat.TEXT_FORMAT,
        message_type=P3,
        test_category=Category.TEXT_FORMAT_TEST,
    )
    if not hasattr(pa, "to_text"):
        assert testee.answer(text).skipped
    else:
        assert testee.answer(text).text_payload == "optional_int32: 1\n"


def test_the_twins_keep_every_protobuf_name() -> None:
    schema = pa.default_model.schema(proto3.TestAllTypesProto3)
    assert "int32 __field_name13 = 413;" in schema
    assert "int32 Field_name18__ = 418;" in schema
    assert pa.default_model.full_name(proto2.TestAllTypesProto2) == P2
