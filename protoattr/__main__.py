"""``python -m protoattr``: the command line (see :mod:`protoattr._cli`)."""

from __future__ import annotations

import sys

from ._cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
