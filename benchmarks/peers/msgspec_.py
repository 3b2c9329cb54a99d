"""msgspec's MessagePack on the same dataclasses (msgspec reads and builds them natively).

Encoders and decoders are created once (``msgspec.msgpack.Encoder`` /
``Decoder(type)``), as msgspec's documentation recommends for speed; the
decoder validates the types and builds the dataclasses, so this is the same
end-to-end work as the protobuf peers do.  Datetimes travel as MessagePack
timestamps, enums as their numbers.
"""

from __future__ import annotations

from typing import Any

import msgspec

from benchmarks.google_message1 import GM1Proto2, GM1Proto3
from benchmarks.workloads import AllBoilers, Book, DnsResponse, Task

NAME = "msgspec"

_enc = msgspec.msgpack.Encoder()


def version() -> str:
    return msgspec.__version__


CODECS: dict[str, Any] = {
    "book": (_enc.encode, msgspec.msgpack.Decoder(Book).decode),
    "tasks": (_enc.encode, msgspec.msgpack.Decoder(list[Task]).decode),
    "boilers": (_enc.encode, msgspec.msgpack.Decoder(AllBoilers).decode),
    "dns": (_enc.encode, msgspec.msgpack.Decoder(DnsResponse).decode),
    "gm1_proto2": (_enc.encode, msgspec.msgpack.Decoder(GM1Proto2).decode),
    "gm1_proto3": (_enc.encode, msgspec.msgpack.Decoder(GM1Proto3).decode),
}
