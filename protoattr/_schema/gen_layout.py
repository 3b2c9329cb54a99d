"""``gen --out-dir``: one module per ``.proto`` file, laid out as protoc lays out ``_pb2``.

``shop/v1/order.proto`` becomes ``shop/v1/order_pa.py``.  A module imports the
modules of the files whose types it uses, and files generated in separate runs
into one tree share those modules instead of declaring the types twice.

Imports are relative to the tree's root (``from ...common.v1 import thing_pa as
common_v1_thing_pa``): the tree is imported as a package (``out.shop.v1.order_pa``),
which keeps generated ``google/...`` modules apart from the installed
``google.protobuf`` package (a regular package, which an absolute
``google.protobuf.type_pa`` would be looked up in, and not found).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .gen_descriptors import GenError, Index
from .gen_text import WIDTH

__all__ = ["WELL_KNOWN_FILES", "Layout"]

#: files whose types protoattr declares itself (pa.Timestamp, pa.Struct...): never generated
#: as a dependency; fields of their types use protoattr's
WELL_KNOWN_FILES = frozenset(
    [
        *(
            f"google/protobuf/{name}.proto"
            for name in (
                "any",
                "duration",
                "empty",
                "field_mask",
                "struct",
                "timestamp",
                "wrappers",
            )
        ),
        "protobuf-net/bcl.proto",  # pa.bcl.DateTime & co.
    ]
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Layout:
    """Which files get a module, where each module lives, and how they import each other."""

    def __init__(self, index: Index, targets: Iterable[str]) -> None:
        self.index = index
        self.files = self._closure(list(targets))

    def _closure(self, targets: list[str]) -> list[str]:
        """The targets and every file they import (but protoattr's well-known ones),
        each after the files it imports."""
        out: list[str] = []
        seen: set[str] = set()

        def visit(name: str) -> None:
            if name in seen:
                return
            seen.add(name)
            fd = self.index.files.get(name)
            if fd is None:
                raise GenError(f"{name} is not in protoc's output")
            for dep in fd.dependency:
                if dep not in WELL_KNOWN_FILES:
                    visit(dep)
            out.append(name)

        for name in targets:
            visit(name)
        return out

    @staticmethod
    def module_parts(file_name: str) -> list[str]:
        """``shop/v1/order.proto`` -> ``["shop", "v1", "order_pa"]``."""
        *folders, stem = file_name.split("/")
        stem = stem[:-6] if stem.endswith(".proto") else stem
        module = re.sub(r"\W", "_", stem) + "_pa"
        for folder in folders:
            if not _IDENT.fullmatch(folder):
                raise GenError(
                    f"{file_name}: the folder {folder!r} cannot be a Python package name"
                )
        return [*folders, module]

    def path(self, file_name: str) -> str:
        """The module's path in the tree: ``shop/v1/order_pa.py``."""
        return "/".join(self.module_parts(file_name)) + ".py"

    def alias(self, file_name: str) -> str:
        """The name a module imports ``file_name``'s module as: ``shop_v1_order_pa``."""
        return "_".join(self.module_parts(file_name))

    def import_lines(self, importer: str, imported: str) -> list[str]:
        """``from ...shop.v1 import order_pa as shop_v1_order_pa`` in ``importer``'s module,
        relative to the tree's root (wrapped the way ruff format wraps it)."""
        *folders, module = self.module_parts(imported)
        dots = "." * len(self.module_parts(importer))
        where = dots + ".".join(folders)
        alias = self.alias(imported)
        name = module if alias == module else f"{module} as {alias}"
        line = f"from {where} import {name}"
        if len(line) <= WIDTH:
            return [line]
        return [f"from {where} import (", f"    {name},", ")"]
