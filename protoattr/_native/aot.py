"""Native plans in ahead-of-time modules.

A plan's spec (see :attr:`NativeBackend.specs`) is plain data - numbers,
strings, tag bytes, defaults - plus references: nested plans, classes, enum
tables, converters, default factories.  :func:`plan_source` writes it as one
Python expression, using the recipes the module writer already has for the
generated code's namespace (``_ref("pkg.mod", "Task")``, ``Decimal('0')``...)
and ``_plan(Class)`` for a nested plan.  Importing the module evaluates it and
hands it to :meth:`NativeBackend.install_ahead`: nothing reflects over the
classes.

Why carry the data rather than rebuild it at import: rebuilding needs the
resolved contract (field kinds, defaults, presence rules, constructor
arguments), which is exactly the reflection the module exists to skip.  The
spec is small, and every expression is evaluated again when written and
compared with the spec it came from, so a module that imports installs the
same plans the writing model ran.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["plan_source"]

Recipe = Callable[[str, Any], str]


def plan_source(
    model: CodecModel, cls: type, recipe: Recipe, class_expr: Callable[[type], str],
    scope: dict[str, Any],
) -> str | None:  # fmt: skip
    """The expression for ``(spec, max_depth)`` of ``cls``'s plan (a str literal: why it
    runs its Python codec), or ``None`` when the model is not native or a value has no recipe (the
    module's codec then stays Python under a native model)."""
    backend = model._native
    if backend is None:
        return None
    spec = backend.specs.get(cls)
    if spec is None:
        reason = backend.reasons.get(cls)
        return None if reason is None else repr(reason)
    writer = _Writer(recipe, class_expr)
    try:
        text = writer.spec(spec)
        again = eval(text, dict(scope, _plan=lambda c: backend.plans[c], _codec=model._codec))
    except Exception:  # a value without a recipe: leave the plan out, stay correct
        return None
    # with the max_depth the module's Python codec was generated with
    return f"({text}, {model.max_depth})" if _same(again, spec) else None


class _Writer:
    def __init__(self, recipe: Recipe, class_expr: Callable[[type], str]) -> None:
        self.recipe = recipe
        self.class_expr = class_expr

    def spec(self, spec: tuple[Any, ...]) -> str:
        """The spec as a readable expression: one line per part, one per field."""
        cls, fields, *rest = spec
        inner = "".join(f"\n                {self.expr(f)}," for f in fields)
        parts = [self.expr(cls), f"({inner}\n            )", *(self.expr(r) for r in rest)]
        return "(\n            " + ",\n            ".join(parts) + ",\n        )"

    def expr(self, value: Any) -> str:
        from . import engine

        mod = engine()
        if value is None or type(value) in (bool, int, str, bytes):
            return repr(value)
        if type(value) is float:
            return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
        if type(value) is tuple:
            items = [self.expr(v) for v in value]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if mod is not None and isinstance(value, mod.Plan):
            assert value.cls is not None
            return f"_plan({self.class_expr(value.cls)})"
        return self.recipe("plan", value)


def _same(again: Any, value: Any) -> bool:
    """``again`` (rebuilt from the written text) is ``value``: the same references,
    equal data of the same types (floats bit for bit)."""
    if type(value) is tuple:
        return (
            type(again) is tuple
            and len(again) == len(value)
            and all(_same(a, v) for a, v in zip(again, value, strict=True))
        )
    if again is value:
        return True
    if type(again) is not type(value):
        return False
    if type(value) is float:
        return repr(again) == repr(value)
    try:
        return bool(again == value)
    except Exception:
        return False
