"""Build the optional C engine (``protoattr._native._engine``).

Everything else about the package is declared in ``pyproject.toml``.  The
extension is optional: when it cannot be compiled (no compiler, no Python
headers) the build warns and installs the pure-Python package, which runs the
generated Python codecs.  Set ``PROTOATTR_REQUIRE_EXTENSION=1`` to make a
failed compile an error (wheel builds do), or ``PROTOATTR_NO_EXTENSION=1`` to
skip the compile altogether.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SRC = Path("protoattr") / "_native" / "src"


class OptionalBuildExt(build_ext):
    """``build_ext`` that turns a failed compile into a warning."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            self._give_up(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._give_up(exc)

    def _give_up(self, exc: BaseException) -> None:
        if os.environ.get("PROTOATTR_REQUIRE_EXTENSION") == "1":
            raise exc
        message = (
            "protoattr: the C engine could not be compiled "
            f"({type(exc).__name__}: {exc}); installing the pure-Python package, "
            "which is correct but slower (backend='python')."
        )
        print("WARNING: " + message, file=sys.stderr)
        self.warn(message)


def extensions() -> list[Extension]:
    if os.environ.get("PROTOATTR_NO_EXTENSION") == "1":
        return []
    flags = os.environ.get("PROTOATTR_CFLAGS", "").split()
    link = os.environ.get("PROTOATTR_LDFLAGS", "").split()
    if sys.platform != "win32":
        flags = ["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", *flags]
    return [
        Extension(
            "protoattr._native._engine",
            sources=sorted(str(p) for p in SRC.glob("*.c")),
            depends=sorted(str(p) for p in SRC.glob("*.h")),
            include_dirs=[str(SRC)],
            extra_compile_args=flags,
            extra_link_args=link,
        )
    ]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
