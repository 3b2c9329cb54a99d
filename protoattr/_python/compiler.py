"""Compile generated source: the one place protoattr turns text into functions.

The source is registered with :mod:`linecache` under a readable file name, so
tracebacks, ``inspect.getsource`` and debuggers show the generated lines, and
each function gets a proper ``__qualname__`` and ``__module__`` (as attrs does
for the methods it writes).
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from typing import Any

__all__ = ["compile_functions"]


def _unique_filename(qualname: str, module: str) -> str:
    base = f"<protoattr codec {module}.{qualname}>"
    filename, n = base, 0
    while filename in linecache.cache:
        n += 1
        filename = f"{base[:-1]}-{n}>"
    return filename


def compile_functions(
    source: str,
    namespace: dict[str, Any],
    names: list[str],
    *,
    qualname: str,
    module: str,
) -> dict[str, Callable[..., Any]]:
    """Execute ``source`` in ``namespace`` and return the functions called ``names``."""
    filename = _unique_filename(qualname, module)
    code = compile(source, filename, "exec")
    # (size, mtime=None, lines, fullname): mtime None keeps linecache.checkcache from dropping it
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(code, namespace)
    functions: dict[str, Callable[..., Any]] = {}
    for name in names:
        fn = namespace[name]
        fn.__qualname__ = f"{qualname}.<protoattr>.{name}"
        fn.__module__ = module
        functions[name] = fn
    return functions
