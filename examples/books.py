"""A Book ("protobuf vs JSON in Python"): one book, timed against ``json``.

The article declares ``message Book { string isbn = 1; string title = 2;
string author = 3; int32 pagecount = 4; }`` (edition 2023), generates
``book_pb2`` with protoc, and times serialising and deserialising one book
10**6 times against ``json.dumps``/``json.loads`` of a dict.  Its protobuf
function builds the message from the dict inside the timed call.

Here the same ``Book`` is a dataclass, with no ``.proto`` and no generated
file.  The comparison is the article's, with 10**5 runs (enough for stable
figures in a couple of seconds):

* "from a dict", as in the article: ``pa.serialize(Book(**d))`` against
  ``json.dumps(d)``; deserialising: ``pa.deserialize(Book, data)`` against
  ``json.loads(text)``;
* "from the object": ``pa.serialize(book)``, for code that holds ``Book``
  objects rather than dicts.

Edition 2023 gives these fields explicit presence; the plain fields below
write the same bytes for any book whose fields are set (they leave out empty
strings and a zero page count, which an explicit-presence field would write).

Run: ``python examples/books.py``  (a few seconds)
"""

from __future__ import annotations

import json
import timeit
from dataclasses import asdict, dataclass

import protoattr as pa
from protoattr import field, proto_contract

RUNS = 10**5


@proto_contract
@dataclass
class Book:
    isbn: str = field(1, default="")
    title: str = field(2, default="")
    author: str = field(3, default="")
    pagecount: pa.int32 = field(4, default=0)


BOOK = dict(
    isbn="9781857232097",
    title="The Fires of Heaven",
    author="Robert Jordan",
    pagecount=912,
)


def serialize_to_json(book: dict[str, object]) -> str:
    return json.dumps(book)


def serialize_to_protoattr(book: dict[str, object]) -> bytes:
    return pa.serialize(Book(**book))  # type: ignore[arg-type]


def deserialize_from_json(text: str) -> dict[str, object]:
    return json.loads(text)  # type: ignore[no-any-return]


def deserialize_from_protoattr(data: bytes) -> Book:
    return pa.deserialize(Book, data)


def seconds(fn: object, arg: object) -> float:
    """Seconds for RUNS calls of ``fn(arg)``, as the article's ``timeit.timeit``."""
    return timeit.timeit("fn(arg)", number=RUNS, globals={"fn": fn, "arg": arg})


def report(title: str, json_s: float, pa_s: float) -> None:
    print(f"{title} across 10^{len(str(RUNS)) - 1} runs:")
    print(f"  JSON={json_s:.4f} s")
    print(f"  protoattr={pa_s:.4f} s")
    print(f"  % difference={(json_s - pa_s) / json_s * 100:.1f}  (positive: protoattr faster)")


def main() -> None:
    data = serialize_to_protoattr(BOOK)
    text = serialize_to_json(BOOK)
    book = deserialize_from_protoattr(data)
    assert asdict(book) == deserialize_from_json(text) == BOOK
    print(f"{book.title} by {book.author}")
    print(f"protoattr: {len(data)} bytes  {data.hex(' ')}")
    print(f"JSON:      {len(text.encode())} bytes  {text}\n")

    pa.default_model.compile()  # the first call's codec generation is not what we time
    json_ser = seconds(serialize_to_json, BOOK)
    report(
        "Serialization (from a dict, as in the article)",
        json_ser,
        seconds(serialize_to_protoattr, BOOK),
    )
    report("Serialization (from the object)", json_ser, seconds(pa.serialize, book))
    report(
        "Deserialization",
        seconds(deserialize_from_json, text),
        seconds(deserialize_from_protoattr, data),
    )


if __name__ == "__main__":
    main()
