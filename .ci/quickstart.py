"""Run the README's Quickstart against an installed protoattr (the wheel smoke test).

    python .ci/quickstart.py README.md

Executes, in order and in one namespace, every ```` ```python ```` block of the
README's "## Quickstart" section, after checking that ``protoattr`` is imported
from an installed distribution (not from a checkout on ``sys.path``) and that
``protoattr --version`` prints the installed version.  Run it from outside the
source tree, with the interpreter of the virtualenv the wheel went into.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import types
from pathlib import Path

SECTION = "## Quickstart"


def quickstart_blocks(readme: str) -> list[tuple[int, str]]:
    """The (first line number, code) of each python block in the Quickstart section."""
    lines = readme.splitlines()
    try:
        start = lines.index(SECTION)
    except ValueError:
        raise SystemExit(f"quickstart: the README has no {SECTION!r} section") from None
    found: list[tuple[int, str]] = []
    i = start + 1
    while i < len(lines) and not lines[i].startswith("## "):
        if lines[i].strip() == "```python":
            j = lines.index("```", i + 1)
            found.append((i + 2, "\n".join(lines[i + 1 : j])))
            i = j
        i += 1
    if not found:
        raise SystemExit(f"quickstart: no ```python block under {SECTION!r}")
    return found


def main() -> None:
    readme = Path(sys.argv[1])
    import protoattr

    installed = importlib.metadata.version("protoattr")
    where = Path(protoattr.__file__).resolve()
    if where.is_relative_to(readme.resolve().parent):
        raise SystemExit(f"quickstart: protoattr was imported from the checkout ({where})")
    if protoattr.__version__ != installed:
        raise SystemExit(f"quickstart: __version__ {protoattr.__version__} != {installed}")
    cli = subprocess.run(
        [sys.executable, "-m", "protoattr", "--version"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not re.fullmatch(rf"protoattr {re.escape(installed)}\b.*", cli):
        raise SystemExit(f"quickstart: `protoattr --version` printed {cli!r}")

    # a real module, as tests/test_docs.py runs pages, so that annotations resolve
    module = types.ModuleType("quickstart")
    sys.modules[module.__name__] = module
    for line, code in quickstart_blocks(readme.read_text(encoding="utf-8")):
        # pad so that a traceback names the README's own line
        exec(compile("\n" * (line - 1) + code, str(readme), "exec"), module.__dict__)
    print(f"quickstart: protoattr {installed} from {where.parent} ran the README quickstart")


if __name__ == "__main__":
    main()
