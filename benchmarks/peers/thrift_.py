"""Thrift's compact protocol via thriftpy2 (the DNS records only), ``.thrift`` parsed at run time.

thriftpy2 ships a Cython implementation of the *binary* protocol only
(``thriftpy2.protocol.cybin``); its compact protocol is pure Python, and that
is what is measured here, as the issue asks.  Optional fields with defaults are
left ``None`` when the value is the default, so they are not written (as the
DNS article describes); reading fills the IDL default back in.
"""

from __future__ import annotations

from importlib.metadata import version as _dist_version
from pathlib import Path
from typing import Any

import thriftpy2
from thriftpy2.protocol import TCompactProtocolFactory
from thriftpy2.utils import deserialize, serialize

from benchmarks.workloads import DNS_DEFAULT_TTL, DNS_DEFAULT_TYPE, DnsRecord, DnsResponse

NAME = "thrift-compact"

_IDL = Path(__file__).resolve().parent.parent / "schemas" / "dns.thrift"
dns_thrift: Any = thriftpy2.load(str(_IDL), module_name="dns_thrift")
_TRecord = dns_thrift.DnsRecord
_TResponse = dns_thrift.DnsResponse
_FACTORY = TCompactProtocolFactory()


def version() -> str:
    return f"thriftpy2 {_dist_version('thriftpy2')} (compact protocol, pure Python)"


def encode_dns(obj: DnsResponse) -> bytes:
    msg = _TResponse(
        records=[
            _TRecord(
                key=r.key,
                value=r.value,
                first=r.first,
                last=r.last,
                type=None if r.type == DNS_DEFAULT_TYPE else r.type,
                ttl=None if r.ttl == DNS_DEFAULT_TTL else r.ttl,
            )
            for r in obj.records
        ]
    )
    return serialize(msg, _FACTORY)


def decode_dns(data: bytes) -> DnsResponse:
    msg = deserialize(_TResponse(), data, _FACTORY)
    return DnsResponse(
        records=[DnsRecord(m.key, m.value, m.first, m.last, m.type, m.ttl) for m in msg.records]
    )


CODECS: dict[str, Any] = {"dns": (encode_dns, decode_dns)}
