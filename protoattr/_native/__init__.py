"""The native backend: a C engine that executes per-class plans.

``protoattr._native._engine`` is the optional C extension (built by
``setup.py`` when a compiler is there); :mod:`protoattr._native.plan` turns
resolved contracts into the plans it runs.  This module only answers which
backend a model uses.
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["BACKENDS", "ENV_VAR", "available", "choose", "engine"]

BACKENDS = ("native", "python")
ENV_VAR = "PROTOATTR_BACKEND"


def engine() -> ModuleType | None:
    """The C extension module, or ``None`` when it is not built."""
    try:
        from . import _engine
    except ImportError:
        return None
    return _engine


def available() -> bool:
    """True when the C engine is built and importable."""
    return engine() is not None


def choose(backend: str | None) -> str:
    """The backend a model asked for ``backend`` runs: ``"native"`` or ``"python"``.

    ``None`` follows ``PROTOATTR_BACKEND``, and without it picks native when the
    extension is built.  A name that is neither, or native without the
    extension, is an error here rather than a slow surprise later.
    """
    source = "backend"
    if backend is None:
        env = os.environ.get(ENV_VAR, "").strip()
        if env:
            backend, source = env, ENV_VAR
    if backend is None:
        return "native" if available() else "python"
    if backend not in BACKENDS:
        raise ValueError(f"{source} must be 'native' or 'python', not {backend!r}")
    if backend == "native" and not available():
        raise ImportError(
            f"{source}={backend!r} needs protoattr's C extension (protoattr._native._engine), "
            "which is not built in this installation: reinstall with a C compiler "
            "(pip install --force-reinstall --no-binary protoattr protoattr), or use "
            "backend='python'"
        )
    return backend
