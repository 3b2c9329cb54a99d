"""Shared fixtures and Hypothesis settings for the test suite."""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType

import pytest
from hypothesis import settings

from tests.protoc import compile_proto

# Codecs are generated and compiled on first use, which can take longer than
# Hypothesis's default 200 ms deadline on a slow CI machine: no deadline.
settings.register_profile("protoattr", deadline=None)
settings.register_profile("ci", parent=settings.get_profile("protoattr"), max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "protoattr"))


@pytest.fixture(scope="session")
def protoc() -> Callable[..., ModuleType]:
    """:func:`tests.protoc.compile_proto`: ``protoc(source, name)`` -> the ``*_pb2`` module."""
    return compile_proto
