"""A Griffe extension that makes protoattr's docstrings render well in the API reference.

Loaded by mkdocstrings (``mkdocs.yml``: ``extensions: [docs/_ext/griffe_protoattr.py]``).
It changes what the reference *shows*, never the package:

* **Sphinx roles become links.**  The docstrings are written for readers of the
  source, with ``:func:`serialize``` and ``:class:`DecodeError```; Markdown has no
  such roles, so they would render literally.  Each role becomes an autorefs
  cross-reference (``[`serialize`][protoattr.serialize]``) when its target is on
  the reference page, and plain code otherwise (private helpers).
* **The module-level functions are documented as functions.**  ``pa.serialize``
  and friends are bound methods of ``pa.default_model``
  (``serialize = default_model.serialize``: no wrapper on the hot path), which
  Griffe sees as attributes.  Each is replaced by a copy of the method with its
  signature (``self`` dropped), overloads and docstring.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

PACKAGE = "protoattr"

#: Objects outside the top-level package that the reference documents (the
#: return type of ``info()`` and what it holds), by the name docstrings use.
EXTRA_TARGETS = {
    name: f"protoattr._core.contract.{name}"
    for name in ("ContractInfo", "FieldInfo", "ContractOptions", "Label", "ValueType")
}

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj):`(?P<target>[^`]+)`")


def role_to_markdown(text: str, targets: dict[str, str]) -> str:
    """Replace Sphinx roles in ``text`` by Markdown: a cross-reference or plain code.

    ``targets`` maps the names docstrings use (``serialize``, ``TypeModel.compile``,
    ``protoattr.DecodeError``) to the identifier of their heading on the page.
    ``~a.b`` shows ``b``, as in Sphinx.
    """

    def replace(m: re.Match[str]) -> str:
        target = m["target"].strip()
        short = target.startswith("~")
        target = target.lstrip("~!.")
        shown = target.rsplit(".", 1)[-1] if short else target
        for prefix in (PACKAGE + ".", "pa."):
            target = target.removeprefix(prefix)
        identifier = targets.get(target)
        if identifier is None:
            return f"`{shown}`"
        return f"[`{shown}`][{identifier}]"

    return _ROLE.sub(replace, text)


def _as_function(method: griffe.Function, name: str, parent: griffe.Module) -> griffe.Function:
    """A module-level copy of a ``TypeModel`` method, as the bound method is called."""
    params = griffe.Parameters(*list(method.parameters)[1:])  # drop self
    docstring = method.docstring.value if method.docstring else ""
    docstring += (
        f"\n\n`pa.{name}` is the method `{name}` of `pa.default_model`"
        f" (see [`TypeModel.{name}`][protoattr.TypeModel.{name}])."
    )
    function = griffe.Function(
        name,
        lineno=method.lineno,
        endlineno=method.endlineno,
        parameters=params,
        returns=method.returns,
        docstring=griffe.Docstring(docstring, parent=None),
        parent=parent,
    )
    assert function.docstring is not None
    function.docstring.parent = function
    if method.overloads:
        function.overloads = [
            griffe.Function(
                name,
                lineno=over.lineno,
                endlineno=over.endlineno,
                parameters=griffe.Parameters(*list(over.parameters)[1:]),
                returns=over.returns,
                parent=parent,
            )
            for over in method.overloads
        ]
    return function


class ProtoattrReference(griffe.Extension):
    """See the module docstring."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != PACKAGE:
            return
        model = pkg["TypeModel"]
        model = model.final_target if isinstance(model, griffe.Alias) else model
        for name, member in list(pkg.members.items()):
            if name.startswith("_"):  # private imports (aliases griffe cannot resolve)
                continue
            bound = str(getattr(member, "value", "")) == f"default_model.{name}"
            if isinstance(member, griffe.Attribute) and bound:
                method = _methods(model, pkg).get(name)
                if isinstance(method, griffe.Function):  # not a property or an attribute
                    pkg.set_member(name, _as_function(method, name, pkg))

        targets = dict(EXTRA_TARGETS)
        for name, member in pkg.members.items():
            if name.startswith("_"):
                continue
            targets[name] = f"{PACKAGE}.{name}"
            obj = member.final_target if isinstance(member, griffe.Alias) else member
            for sub in getattr(obj, "all_members", getattr(obj, "members", {})):
                if not sub.startswith("_"):
                    targets[f"{name}.{sub}"] = f"{PACKAGE}.{name}.{sub}"
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = role_to_markdown(obj.docstring.value, targets)


def _methods(cls: griffe.Class, pkg: griffe.Module) -> dict[str, griffe.Object | griffe.Alias]:
    """``cls``'s members and those it inherits from classes of this package (``TypeModel``
    is ``CodecModel`` plus the features' methods).  Looked up by path: when griffe
    calls ``on_package``, it has not resolved base classes yet."""
    found: dict[str, griffe.Object | griffe.Alias] = {}
    for base in cls.bases:
        path = getattr(base, "canonical_path", str(base))
        if path.startswith(f"{PACKAGE}."):
            parent = pkg[path[len(PACKAGE) + 1 :]]
            parent = parent.final_target if isinstance(parent, griffe.Alias) else parent
            if isinstance(parent, griffe.Class):
                found.update(_methods(parent, pkg))
    found.update(cls.members)
    return found


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and every object defined in it (aliases are skipped: their targets are walked)."""
    found = [obj]
    for member in obj.members.values():
        if not isinstance(member, griffe.Alias):
            found.extend(_walk(member))
    return found
