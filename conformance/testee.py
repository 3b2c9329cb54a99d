"""The testee Google's conformance runner talks to: protoattr answering its requests.

    conformance-test-runner --enforce_recommended conformance/testee.py

The runner starts this program and writes requests to its stdin, each a
little-endian ``uint32`` length and a ``conformance.ConformanceRequest``; each
answer is a ``ConformanceResponse`` framed the same way on stdout.  A request
holds a payload (protobuf bytes, JSON text or text format) for
``TestAllTypesProto3``/``TestAllTypesProto2`` and the format wanted back; the
answer is the re-encoded message, or the error that refused it.

The protocol's own two messages are protoattr contracts too (``conformance.proto``
of protobuf v21.12), so the testee needs nothing but protoattr; the backend is
the one ``PROTOATTR_BACKEND`` picks, as everywhere.

Text format (``TEXT_FORMAT``) is answered once ``protoattr.to_text`` and
``protoattr.from_text`` exist; until then those requests are ``skipped``, which
the runner counts apart from failures.
"""

from __future__ import annotations

import enum
import os
import struct
import sys
from dataclasses import dataclass
from typing import Any, BinaryIO

if __package__ in (None, ""):  # run as a script: the checkout's root holds conformance/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import protoattr as pa
from conformance import proto2, proto3


class WireFormat(enum.IntEnum):
    UNSPECIFIED = 0
    PROTOBUF = 1
    JSON = 2
    JSPB = 3
    TEXT_FORMAT = 4


class TestCategory(enum.IntEnum):
    UNSPECIFIED_TEST = 0
    BINARY_TEST = 1
    JSON_TEST = 2
    JSON_IGNORE_UNKNOWN_PARSING_TEST = 3
    JSPB_TEST = 4
    TEXT_FORMAT_TEST = 5


@pa.proto_contract(package="conformance")
@dataclass
class FailureSet:
    failure: list[str] = pa.field(1, default_factory=list)


@pa.proto_contract(package="conformance")
@dataclass
class JspbEncodingConfig:
    use_jspb_array_any_format: bool = pa.field(1, default=False)


@pa.proto_contract(package="conformance")
@dataclass
class ConformanceRequest:
    protobuf_payload: bytes | None = pa.field(1, default=None, oneof="payload")
    json_payload: str | None = pa.field(2, default=None, oneof="payload")
    jspb_payload: str | None = pa.field(7, default=None, oneof="payload")
    text_payload: str | None = pa.field(8, default=None, oneof="payload")
    requested_output_format: WireFormat = pa.field(3, default=WireFormat.UNSPECIFIED)
    message_type: str = pa.field(4, default="")
    test_category: TestCategory = pa.field(5, default=TestCategory.UNSPECIFIED_TEST)
    jspb_encoding_options: JspbEncodingConfig | None = pa.field(6, default=None)
    print_unknown_fields: bool = pa.field(9, default=False)


@pa.proto_contract(package="conformance")
@dataclass
class ConformanceResponse:
    parse_error: str | None = pa.field(1, default=None, oneof="result")
    serialize_error: str | None = pa.field(6, default=None, oneof="result")
    runtime_error: str | None = pa.field(2, default=None, oneof="result")
    protobuf_payload: bytes | None = pa.field(3, default=None, oneof="result")
    json_payload: str | None = pa.field(4, default=None, oneof="result")
    skipped: str | None = pa.field(5, default=None, oneof="result")
    jspb_payload: str | None = pa.field(7, default=None, oneof="result")
    text_payload: str | None = pa.field(8, default=None, oneof="result")


#: the runner's message types -> their twins
MESSAGES: dict[str, type] = {
    "protobuf_test_messages.proto3.TestAllTypesProto3": proto3.TestAllTypesProto3,
    "protobuf_test_messages.proto2.TestAllTypesProto2": proto2.TestAllTypesProto2,
}


# -- text format: the hook ----------------------------------------------------------
# TEXT FORMAT HOOK: ``pa.to_text``/``pa.from_text`` (API.md section 12) land on
# another branch; once they exist these two answer TEXT_FORMAT requests, and until
# then such requests are skipped.


def _text_support() -> tuple[Any, Any] | None:
    to_text, from_text = getattr(pa, "to_text", None), getattr(pa, "from_text", None)
    if to_text is None or from_text is None:
        return None
    return to_text, from_text


def _parse(request: ConformanceRequest, cls: type) -> Any:
    """The request's payload as a ``cls``; ``pa.ProtoError`` when it is refused."""
    if request.protobuf_payload is not None:
        return pa.deserialize(cls, request.protobuf_payload)
    if request.json_payload is not None:
        ignore = request.test_category == TestCategory.JSON_IGNORE_UNKNOWN_PARSING_TEST
        return pa.from_json(cls, request.json_payload, ignore_unknown_fields=ignore)
    if request.text_payload is not None:
        text = _text_support()
        assert text is not None  # checked by answer()
        return text[1](cls, request.text_payload)
    raise ValueError("the request has no payload")


def answer(request: ConformanceRequest) -> ConformanceResponse:
    """What protoattr answers to one request."""
    if request.message_type == "conformance.FailureSet":
        return ConformanceResponse(protobuf_payload=pa.serialize(FailureSet()))
    if request.jspb_payload is not None or request.requested_output_format == WireFormat.JSPB:
        return ConformanceResponse(skipped="JSPB is Google-internal")
    text = _text_support()
    if text is None and (
        request.text_payload is not None
        or request.requested_output_format == WireFormat.TEXT_FORMAT
    ):
        return ConformanceResponse(skipped="text format: protoattr.to_text is not there yet")
    cls = MESSAGES.get(request.message_type)
    if cls is None:
        return ConformanceResponse(runtime_error=f"unknown message type {request.message_type}")
    try:
        message = _parse(request, cls)
    except pa.ProtoError as exc:
        return ConformanceResponse(parse_error=f"{type(exc).__name__}: {exc}")
    out = request.requested_output_format
    try:
        if out == WireFormat.PROTOBUF:
            return ConformanceResponse(protobuf_payload=pa.serialize(message))
        if out == WireFormat.JSON:
            return ConformanceResponse(json_payload=pa.to_json(message, indent=None))
        if out == WireFormat.TEXT_FORMAT and text is not None:
            printed = text[0](message, print_unknown_fields=request.print_unknown_fields)
            return ConformanceResponse(text_payload=printed)
    except pa.ProtoError as exc:
        return ConformanceResponse(serialize_error=f"{type(exc).__name__}: {exc}")
    return ConformanceResponse(runtime_error=f"unsupported output format {out!r}")


def _read_exactly(stream: BinaryIO, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            if data:
                raise EOFError("the runner closed the pipe inside a request")
            return None
        data += chunk
    return data


def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer requests until the runner closes stdin; returns how many were answered."""
    count = 0
    while (head := _read_exactly(stdin, 4)) is not None:
        (length,) = struct.unpack("<I", head)
        body = _read_exactly(stdin, length) or b""
        request = pa.deserialize(ConformanceRequest, body)
        try:
            response = answer(request)
        except Exception as exc:  # an answer, not a crash: the runner reports it
            response = ConformanceResponse(runtime_error=f"{type(exc).__name__}: {exc}")
        data = pa.serialize(response)
        stdout.write(struct.pack("<I", len(data)) + data)
        stdout.flush()
        count += 1
    return count


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
