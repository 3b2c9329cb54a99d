"""The native backend: a C engine that executes per-class plans.

``protoattr._native._engine`` is the optional C extension (built by
``setup.py`` when a compiler is there); :mod:`protoattr._native.plan` turns
resolved contracts into the plans it runs.  This module only answers which
backend a model uses.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType

__all__ = ["BACKENDS", "ENV_VAR", "available", "choose", "engine"]

BACKENDS = ("native", "python")
ENV_VAR = "PROTOATTR_BACKEND"

_why_not: str | None = None  # the ImportError of the extension, once it failed
_warned = False
_loaded: ModuleType | None = None  # the extension, once imported


def engine() -> ModuleType | None:
    """The C extension module, or ``None`` when it is not built.

    Every model asks (twice) when it is made: after the first import the module is
    returned from here, without the import statement's machinery (about 4,000
    instructions each time)."""
    global _why_not, _loaded
    if _loaded is not None:
        return _loaded
    try:
        from . import _engine
    except ImportError as exc:
        _why_not = str(exc)
        return None
    _loaded = _engine
    return _engine


def _warn_python_fallback() -> None:
    """Say once, where the user looks (at first use, not only in ``pip install -v``'s log),
    that the C engine is missing, how to get it, and how to silence this."""
    global _warned
    if _warned:
        return
    _warned = True
    warnings.warn(
        "protoattr's C engine is not built in this installation "
        f"({_why_not or 'protoattr._native._engine is missing'}), so every model runs the "
        "generated Python codecs, 3-5x slower. To build it, install a C compiler and the "
        "Python headers and run `pip install -v --force-reinstall --no-binary protoattr "
        "protoattr` (or `pip install -v -e .` in a checkout; -v shows why a build fails). "
        f"To choose the Python codecs and silence this warning, set {ENV_VAR}=python.",
        RuntimeWarning,
        stacklevel=2,
    )


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
        if available():
            return "native"
        _warn_python_fallback()
        return "python"
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
