"""Surrogates: classes protoattr cannot annotate travel as a contract the user writes.

``pa.add_surrogate(Foreign, Contract, to_surrogate, from_surrogate)`` is
process-wide (protobuf-net's ``SetSurrogate``).  Here: ``IPv4Address`` (as a
fixed32), ``IPv6Address`` (16 bytes), ``PurePosixPath`` (its parts) and a
third-party-like ``Money`` with ``__slots__`` - as singular, Optional, list and
map-value fields, and at the top level.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Annotated, Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.contracts3 import canonical, parse
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=60)

IPv4 = ipaddress.IPv4Address
IPv6 = ipaddress.IPv6Address


class Money:
    """A class from "another library": slots, no dataclass, no annotations."""

    __slots__ = ("cents", "currency")

    def __init__(self, cents: int, currency: str) -> None:
        self.cents = cents
        self.currency = currency

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and (self.cents, self.currency) == (
            other.cents,
            other.currency,
        )

    def __hash__(self) -> int:
        return hash((self.cents, self.currency))

    def __repr__(self) -> str:
        return f"Money({self.cents}, {self.currency!r})"


# --------------------------------------------------------------- surrogates


@proto_contract
@dataclass
class IPv4Surrogate:
    value: pa.fixed32 = field(1, default=0)


@proto_contract
@dataclass
class IPv6Surrogate:
    packed: bytes = field(1, default=b"")


@proto_contract
@dataclass
class PathSurrogate:
    absolute: bool = field(1, default=False)
    parts: list[str] = field(2, default_factory=list)


@proto_contract
@dataclass
class MoneySurrogate:
    cents: pa.sint64 = field(1, default=0)
    currency: str = field(2, default="")


def _path_to(p: PurePosixPath) -> PathSurrogate:
    parts = list(p.parts)
    absolute = p.is_absolute()
    return PathSurrogate(absolute=absolute, parts=parts[1:] if absolute else parts)


def _path_from(s: PathSurrogate) -> PurePosixPath:
    return PurePosixPath("/" if s.absolute else "", *s.parts)


pa.add_surrogate(IPv4, IPv4Surrogate, lambda a: IPv4Surrogate(int(a)), lambda s: IPv4(s.value))
pa.add_surrogate(IPv6, IPv6Surrogate, lambda a: IPv6Surrogate(a.packed), lambda s: IPv6(s.packed))
pa.add_surrogate(PurePosixPath, PathSurrogate, _path_to, _path_from)
pa.add_surrogate(
    Money,
    MoneySurrogate,
    lambda m: MoneySurrogate(m.cents, m.currency),
    lambda s: Money(s.cents, s.currency),
)


# ------------------------------------------------------------ contracts using them


@proto_contract
@dataclass
class Host:
    ip: IPv4 = field(1, default=IPv4(0))
    backup: IPv4 | None = field(2, default=None)
    aliases: list[IPv4] = field(3, default_factory=list)
    v6: IPv6 | None = field(4, default=None)
    home: PurePosixPath | None = field(5, default=None)
    mounts: dict[str, PurePosixPath] = field(6, default_factory=dict)
    price: Money | None = field(7, default=None)
    prices: list[Money] = field(8, default_factory=list)
    name: str = field(9, default="")


HOST_PROTO = """
syntax = "proto3";
package surrogates3;

message IPv4Surrogate { fixed32 value = 1; }
message IPv6Surrogate { bytes packed = 1; }
message PathSurrogate {
  bool absolute = 1;
  repeated string parts = 2;
}
message MoneySurrogate {
  sint64 cents = 1;
  string currency = 2;
}
message Host {
  IPv4Surrogate ip = 1;
  IPv4Surrogate backup = 2;
  repeated IPv4Surrogate aliases = 3;
  IPv6Surrogate v6 = 4;
  PathSurrogate home = 5;
  map<string, PathSurrogate> mounts = 6;
  MoneySurrogate price = 7;
  repeated MoneySurrogate prices = 8;
  string name = 9;
}
"""


def pb() -> Any:
    return compile_proto(HOST_PROTO, "surrogates3")


def to_google(h: Host) -> Any:
    m = pb().Host(name=h.name)
    m.ip.value = int(h.ip)
    m.ip.SetInParent()
    if h.backup is not None:
        m.backup.value = int(h.backup)
        m.backup.SetInParent()
    for a in h.aliases:
        m.aliases.add(value=int(a))
    if h.v6 is not None:
        m.v6.packed = h.v6.packed
        m.v6.SetInParent()
    if h.home is not None:
        s = _path_to(h.home)
        m.home.absolute = s.absolute
        m.home.parts.extend(s.parts)
        m.home.SetInParent()
    for k, p in h.mounts.items():
        s = _path_to(p)
        m.mounts[k].absolute = s.absolute
        m.mounts[k].parts.extend(s.parts)
    if h.price is not None:
        m.price.cents, m.price.currency = h.price.cents, h.price.currency
        m.price.SetInParent()
    for p in h.prices:
        m.prices.add(cents=p.cents, currency=p.currency)
    return m


IPV4S = st.ip_addresses(v=4)
SEGMENT = st.text("abcxyz._-", min_size=1, max_size=4).filter(lambda s: s not in (".", ".."))
PATHS = st.builds(
    lambda absolute, parts: PurePosixPath("/" if absolute else "", *parts),
    st.booleans(),
    st.lists(SEGMENT, max_size=3),
)
MONEY = st.builds(Money, st.integers(-(2**63), 2**63 - 1), st.sampled_from(["", "EUR", "JPY"]))
HOSTS = st.builds(
    Host,
    ip=IPV4S,
    backup=st.none() | IPV4S,
    aliases=st.lists(IPV4S, max_size=3),
    v6=st.none() | st.ip_addresses(v=6),
    home=st.none() | PATHS,
    mounts=st.dictionaries(st.sampled_from("ab"), PATHS, max_size=1),
    price=st.none() | MONEY,
    prices=st.lists(MONEY, max_size=2),
    name=st.text(max_size=3),
)

# ------------------------------------------------------------------ fields


def test_golden_bytes() -> None:
    host = Host(ip=IPv4("1.2.3.4"), price=Money(-150, "EUR"))
    assert pa.serialize(host) == (
        b"\x0a\x05\x0d\x04\x03\x02\x01" + b"\x3a\x08\x08\xab\x02\x12\x03EUR"
    )


def test_round_trip_of_every_position() -> None:
    host = Host(
        ip=IPv4("10.0.0.1"),
        backup=IPv4("0.0.0.0"),  # a zero surrogate is still present
        aliases=[IPv4("1.2.3.4"), IPv4("255.255.255.255")],
        v6=IPv6("2001:db8::1"),
        home=PurePosixPath("/home/me"),
        mounts={"data": PurePosixPath("/mnt/data"), "rel": PurePosixPath("a/b")},
        price=Money(199, "EUR"),
        prices=[Money(1, "USD"), Money(0, "")],
        name="h",
    )
    back = pa.deserialize(Host, pa.serialize(host))
    assert back == host
    assert type(back.ip) is IPv4 and type(back.home) is PurePosixPath
    assert type(back.price) is Money
    assert pa.deep_clone(host) == host
    assert pa.measure(host) == len(pa.serialize(host))


def test_absent_fields_decode_to_their_defaults() -> None:
    got = pa.deserialize(Host, b"")
    # ip has default=IPv4(0): a missing field decodes to its default
    assert got == Host()
    assert got.ip == IPv4(0)
    assert got.backup is None and got.aliases == [] and got.mounts == {}


def test_a_surrogate_field_without_default_decodes_from_an_empty_surrogate() -> None:
    @proto_contract
    @dataclass
    class Needs:
        where: PurePosixPath = field(1)
        ip: IPv4 = field(2)

    assert pa.deserialize(Needs, b"") == Needs(where=PurePosixPath(""), ip=IPv4(0))


@given(HOSTS)
@SETTINGS
def test_against_google(host: Host) -> None:
    data = pa.serialize(host)
    expected = to_google(host)
    assert canonical(parse(pb().Host, data)) == canonical(expected)
    assert pa.deserialize(Host, expected.SerializeToString()) == host
    assert data == expected.SerializeToString()  # at most one map entry: same order


# --------------------------------------------------------------- top level


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (IPv4("1.2.3.4"), b"\x0d\x04\x03\x02\x01"),
        (IPv4("0.0.0.0"), b""),
        (PurePosixPath("/a/b"), b"\x08\x01\x12\x01a\x12\x01b"),
        (Money(5, "X"), b"\x08\x0a\x12\x01X"),
        (IPv6("::1"), b"\x0a\x10" + bytes(15) + b"\x01"),
    ],
    ids=repr,
)
def test_top_level_values(value: Any, expected: bytes) -> None:
    assert pa.serialize(value) == expected
    back = pa.deserialize(type(value), expected)
    assert back == value and type(back) is type(value)
    assert pa.deep_clone(value) == value
    assert pa.measure(value) == len(expected)


def test_top_level_list_of_a_foreign_type() -> None:
    items = [IPv4("1.1.1.1"), IPv4("0.0.0.0"), IPv4("8.8.4.4")]
    data = pa.serialize(items, type=list[IPv4])
    assert data == b"\x0a\x05\x0d\x01\x01\x01\x01" + b"\x0a\x00" + b"\x0a\x05\x0d\x04\x04\x08\x08"
    assert pa.deserialize(list[IPv4], data) == items


def test_surrogate_inside_attrs_and_frozen_classes() -> None:
    @proto_contract
    @attrs.frozen
    class Wallet:
        owner: Annotated[str, member(1)] = ""
        cash: Annotated[list[Money], member(2)] = attrs.field(factory=list)
        limit: Annotated[Money | None, member(3)] = None

    w = Wallet("me", [Money(1, "EUR")], Money(10**12, "USD"))
    assert pa.deserialize(Wallet, pa.serialize(w)) == w


def test_a_surrogate_field_seen_twice_merges_through_the_surrogate() -> None:
    # A message seen twice is merged: here the surrogates merge (cents from the
    # first, currency from the second), then convert back - as Google reads it.
    first = Host(ip=IPv4("1.1.1.1"), price=Money(1, "A"))
    second = Host(ip=IPv4("2.2.2.2"), price=Money(0, "B"))
    data = pa.serialize(first) + pa.serialize(second)
    got = pa.deserialize(Host, data)
    assert got == Host(ip=IPv4("2.2.2.2"), price=Money(1, "B"))
    assert canonical(to_google(got)) == canonical(parse(pb().Host, data))


def test_merge_with_surrogate_fields() -> None:
    host = Host(ip=IPv4("1.1.1.1"), aliases=[IPv4("2.2.2.2")])
    pa.merge(host, pa.serialize(Host(ip=IPv4("3.3.3.3"), aliases=[IPv4("4.4.4.4")])))
    assert host.ip == IPv4("3.3.3.3")
    assert host.aliases == [IPv4("2.2.2.2"), IPv4("4.4.4.4")]


# ------------------------------------------------------------------ errors


def test_to_surrogate_returning_the_wrong_type_is_an_encode_error() -> None:
    class Odd:
        pass

    pa.add_surrogate(Odd, IPv4Surrogate, lambda o: "not a surrogate", lambda s: Odd())

    @proto_contract
    @dataclass
    class HasOdd:
        odd: Odd | None = field(1, default=None)

    with pytest.raises(pa.EncodeError):
        pa.serialize(HasOdd(odd=Odd()))


def test_a_value_of_the_wrong_type_in_a_surrogate_field_is_an_encode_error() -> None:
    with pytest.raises(pa.EncodeError):
        pa.serialize(Host(ip="1.2.3.4"))  # type: ignore[arg-type]
    with pytest.raises(pa.EncodeError):
        pa.serialize(Host(prices=[Decimal(1)]))  # type: ignore[list-item]


def test_from_surrogate_rejecting_bad_bytes_is_a_decode_error() -> None:
    # IPv6Address(b"...") raises ValueError for 3 bytes: bad input, so a DecodeError
    data = b"\x22\x05\x0a\x03abc"
    with pytest.raises(pa.DecodeError) as info:
        pa.deserialize(Host, data)
    assert info.value.offset is not None


def test_truncated_surrogate_message_is_a_decode_error() -> None:
    with pytest.raises(pa.DecodeError):
        pa.deserialize(Host, b"\x0a\x05\x0d\x04\x03")
    with pytest.raises(pa.DecodeError):
        pa.deserialize(IPv4, b"\x0d\x04\x03")


def test_add_surrogate_rejects_bad_registrations() -> None:
    class Foreign:
        pass

    @dataclass
    class NotAContract:
        x: int = 0

    with pytest.raises(pa.ContractError):
        pa.add_surrogate(Foreign, NotAContract, lambda f: NotAContract(), lambda s: Foreign())
    with pytest.raises(pa.ContractError):
        pa.add_surrogate("Foreign", IPv4Surrogate, str, str)  # type: ignore[arg-type]
    # a second, different surrogate for the same class
    with pytest.raises(pa.ContractError):
        pa.add_surrogate(IPv4, MoneySurrogate, lambda a: MoneySurrogate(), lambda s: IPv4(0))
    # the same registration again is harmless
    pa.add_surrogate(Money, MoneySurrogate, lambda m: MoneySurrogate(m.cents, m.currency),
                     lambda s: Money(s.cents, s.currency))  # fmt: skip
    assert pa.deserialize(Money, pa.serialize(Money(3, "A"))) == Money(3, "A")


def test_a_foreign_type_without_surrogate_is_a_contract_error() -> None:
    class Unknown:
        pass

    with pytest.raises(pa.ContractError, match="field"):

        @proto_contract
        @dataclass
        class Uses:
            field: Unknown | None = field(1, default=None)


def test_the_model_method_is_the_same_registry() -> None:
    class Celsius(float):
        pass

    @proto_contract
    @dataclass
    class CelsiusSurrogate:
        value: float = field(1, default=0.0)

    pa.default_model.add_surrogate(
        Celsius, CelsiusSurrogate, lambda c: CelsiusSurrogate(float(c)), lambda s: Celsius(s.value)
    )
    assert pa.deserialize(Celsius, pa.serialize(Celsius(21.5))) == 21.5
