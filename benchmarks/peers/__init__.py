"""One module per library; each exposes the same small interface.

``NAME``       the label in the results.
``version()``  the library's version string.
``CODECS``     ``{workload: (encode, decode)}`` over the domain dataclasses of
               ``benchmarks.workloads``: ``encode(obj) -> bytes``, ``decode(bytes) -> obj``.
``warm_up()``  optional: whatever a user would do once at start-up.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from benchmarks.workloads import ARTICLES

# name in the results -> module in this package; the order of the table.
PEERS = {
    "protoattr": "protoattr_",
    "protoattr-python": "protoattr_python",
    "google-upb": "google_upb",
    "protobuf-py": "protobuf_py_",
    "msgspec": "msgspec_",
    "pure-protobuf": "pure_protobuf_",
    "betterproto": "betterproto_",
    "json": "json_",
    "pickle": "pickle_",
    "thrift-compact": "thrift_",
}

BASELINE = "google-upb"

# Libraries measured on some workloads only (the rest run every workload):
# GoogleMessage1 is measured against the protobuf runtimes, msgspec and pickle.
ONLY = {
    "pure-protobuf": ARTICLES,
    "betterproto": ARTICLES,
    "json": ARTICLES,
    "thrift-compact": ("dns",),
}


def load(name: str) -> ModuleType:
    """Import the peer module registered as ``name``."""
    return importlib.import_module(f"{__name__}.{PEERS[name]}")
