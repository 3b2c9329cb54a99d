"""Schema evolution: three versions of a ``User`` contract exchanging messages.

* v1: ``id``, ``name``, ``role`` (an open enum with two members).
* v2: adds ``email`` (tag 4) and a new role, ``AUDITOR``.
* v3: retires ``name``: its tag and name go into ``reserved``.

What it shows:

1. v2 writes, v1 reads, edits and writes on, v2 reads: the email and the new
   role that v1 does not know pass through v1 untouched (unknown fields, and an
   enum number kept as a plain ``int``).
2. v1 writes, v2 reads: the new field has its default.
3. v3 reads v2's bytes: the retired ``name`` is an unknown field to v3, and v3
   hands it on to v2 unchanged; reusing tag 2 in v3 is refused.
4. Where unknown fields are lost: a ``@dataclass(slots=True)`` without
   ``weakref_slot=True`` has nowhere to keep them.
5. An unsafe change: ``int32`` -> ``sint32`` on the same tag garbles the value.

Run: ``python examples/schema_evolution.py``  (well under a second)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import protoattr as pa
from protoattr import field, proto_contract


class RoleV1(enum.IntEnum):
    USER = 0
    ADMIN = 1


class RoleV2(enum.IntEnum):
    USER = 0
    ADMIN = 1
    AUDITOR = 2  # new in v2


@proto_contract(name="User")
@dataclass
class UserV1:
    id: pa.int32 = field(1, default=0)
    name: str = field(2, default="")
    role: RoleV1 = field(3, default=RoleV1.USER)


@proto_contract(name="User")
@dataclass
class UserV2:
    id: pa.int32 = field(1, default=0)
    name: str = field(2, default="")
    role: RoleV2 = field(3, default=RoleV2.USER)
    email: str = field(4, default="")  # new in v2


@proto_contract(name="User", reserved=[2, "name"])
@dataclass
class UserV3:
    id: pa.int32 = field(1, default=0)
    role: RoleV2 = field(3, default=RoleV2.USER)
    email: str = field(4, default="")


@proto_contract(name="User")
@dataclass(slots=True)
class UserV1Slotted:  # slotted without __weakref__: cannot keep unknown fields
    id: pa.int32 = field(1, default=0)
    name: str = field(2, default="")
    role: RoleV1 = field(3, default=RoleV1.USER)


def show(label: str, data: bytes) -> None:
    print(f"  {label:34} {len(data):3} bytes  {data.hex(' ')}")


def main() -> None:
    print("1. v2 -> v1 -> v2: what v1 does not know passes through")
    original = UserV2(7, "Ada", RoleV2.AUDITOR, "ada@example.org")
    data = pa.serialize(original)
    show("v2 writes", data)
    v1 = pa.deserialize(UserV1, data)
    print(f"  v1 reads                           {v1}")
    v1.name = "Ada Lovelace"
    relayed = pa.serialize(v1)
    show("v1 renames her and writes", relayed)
    back = pa.deserialize(UserV2, relayed)
    print(f"  v2 reads                           {back}")
    assert back == UserV2(7, "Ada Lovelace", RoleV2.AUDITOR, "ada@example.org")

    print("\n2. v1 -> v2: a field v1 never wrote reads as its default")
    old = pa.serialize(UserV1(8, "Bob", RoleV1.ADMIN))
    show("v1 writes", old)
    newer = pa.deserialize(UserV2, old)
    print(f"  v2 reads                           {newer}")
    assert newer.email == ""

    print("\n3. v2 -> v3 -> v2: a retired field is an unknown field to v3")
    v3 = pa.deserialize(UserV3, data)
    print(f"  v3 reads                           {v3}")
    from_v3 = pa.serialize(v3)
    show("v3 writes (name last: unknown)", from_v3)
    assert pa.deserialize(UserV2, from_v3) == original
    print("  v2 reads it: equal to the original")
    try:

        @proto_contract(name="User", reserved=[2, "name"])
        @dataclass
        class UserV4:
            id: pa.int32 = field(1, default=0)
            nickname: str = field(2, default="")

    except pa.ContractError as e:
        print(f"  reusing tag 2 is refused:          ContractError: {e}")

    print("\n4. a slotted class without __weakref__ drops unknown fields")
    slotted = pa.deserialize(UserV1Slotted, data)
    dropped = pa.serialize(slotted)
    show("UserV1Slotted writes", dropped)
    lost = pa.deserialize(UserV2, dropped)
    print(f"  v2 reads                           {lost}")
    assert lost.email == "" and lost.role == RoleV2.AUDITOR  # the role was a known field

    print("\n5. an unsafe change: int32 -> sint32 on the same tag")

    @proto_contract(name="User")
    @dataclass
    class UserZigzag:
        id: pa.sint32 = field(1, default=0)

    garbled = pa.deserialize(UserZigzag, data)
    print(f"  v2 wrote id=7; the sint32 reader sees id={garbled.id}")
    assert garbled.id == -4


if __name__ == "__main__":
    main()
