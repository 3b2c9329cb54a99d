"""protoattr's mypy plugin: ``plugins = ["protoattr.mypy"]`` in the mypy configuration.

It tells mypy two things it cannot read from the annotations alone.

* **Required fields.**  mypy's dataclass support knows only ``dataclasses.field``
  as a field specifier, so to it ``id: int = pa.field(1)`` has a default and
  ``Task()`` type-checks (at run time it is the ``TypeError`` of a missing
  argument).  A ``dataclass_transform`` on ``proto_contract`` cannot help: the
  stdlib ``@dataclass`` under it wins.  The plugin leaves mypy's dataclass
  support alone and corrects the one thing it gets wrong, at the place it
  matters: when a contract class is called, each parameter that comes from a
  ``pa.field(...)`` with neither ``default=`` nor ``default_factory=`` becomes
  required (mypy's public ``get_function_signature_hook``).  Which fields those
  are is read from the class body when the class is analysed and kept in the
  class's plugin metadata, so it survives mypy's incremental cache.
* **Typed gRPC clients.**  ``protoattr.grpc.aio_client(Service, channel)`` is an
  ``AsyncClient[Service]``; for each RPC the plugin gives it the declared
  method's async form (a coroutine, or an ``AsyncResponseStream`` for a
  streamed response).  Every call through a service declaration's type (what
  ``client()`` returns) or an ``AsyncClient`` also takes the keywords a client
  accepts at run time (``timeout=``, ``metadata=``, ...), typed as
  ``_client._call_options`` declares them.  (An implementation called through
  the declaration's type is accepted with them too: the one thing a checker
  cannot tell from a client.)

pyright cannot be extended: there, declare required fields as
``Annotated[T, pa.member(n)]`` with no default.  Tested with mypy 1.10 to 2.4
(:data:`OLDEST` is the floor :func:`plugin` enforces).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mypy.errorcodes import ATTR_DEFINED
from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    ARG_STAR2,
    AssignmentStmt,
    Block,
    CallExpr,
    Decorator,
    FuncDef,
    IfStmt,
    NameExpr,
    RefExpr,
    Statement,
    TypeInfo,
    Var,
)
from mypy.plugin import (
    AttributeContext,
    CheckerPluginInterface,
    ClassDefContext,
    FunctionSigContext,
    MethodSigContext,
    Plugin,
)
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

__all__ = ["plugin"]

#: where the decorator and the field specifier are defined (what mypy resolves them to)
CONTRACT = "protoattr._core.contract.proto_contract"
FIELD = "protoattr._core.fields.field"
SERVICE = "protoattr._service.service"
CLIENT = "protoattr.grpc._client"
#: the parameters every client method takes (a function of that module)
OPTIONS = f"{CLIENT}._call_options"
#: the keys of the plugin's data in a class's metadata (stored in mypy's cache)
KEY = "protoattr"
SERVICE_KEY = "protoattr_service"
#: the annotations that make a request or a response a stream (``collections.abc``'s too)
STREAMS = frozenset(
    f"typing.{name}"
    for name in (
        "Iterator", "Iterable", "Generator", "AsyncIterator", "AsyncIterable", "AsyncGenerator"
    )
)  # fmt: skip


def _assignments(block: Block | list[Statement]) -> list[AssignmentStmt]:
    """The class body's assignments, including those under ``if`` (as dataclasses reads them)."""
    body = block.body if isinstance(block, Block) else block
    found: list[AssignmentStmt] = []
    for stmt in body:
        if isinstance(stmt, AssignmentStmt):
            found.append(stmt)
        elif isinstance(stmt, IfStmt):
            for branch in stmt.body:
                found += _assignments(branch)
            if stmt.else_body is not None:
                found += _assignments(stmt.else_body)
    return found


def _is_required_field(stmt: AssignmentStmt) -> bool:
    """``x: T = pa.field(n, ...)`` without ``default=``/``default_factory=``."""
    call = stmt.rvalue
    return (
        stmt.type is not None
        and isinstance(call, CallExpr)
        and isinstance(call.callee, RefExpr)
        and call.callee.fullname == FIELD
        and not {"default", "default_factory"} & set(call.arg_names)
    )


def _record_fields(ctx: ClassDefContext) -> bool:
    """Note which of the contract's own fields are required, for its constructor's hook."""
    names = [
        stmt.lvalues[0].name
        for stmt in _assignments(ctx.cls.defs)
        if isinstance(stmt.lvalues[0], NameExpr) and _is_required_field(stmt)
    ]
    ctx.cls.info.metadata[KEY] = {"required": names}
    return True


def _required(info: TypeInfo, name: str) -> bool:
    """Whether field ``name`` of ``info`` is required: the class nearest in the MRO that
    declares it decides (a subclass may give an inherited field a default)."""
    for base in info.mro:
        node = base.names.get(name)
        if node is not None and isinstance(node.node, Var):
            return name in base.metadata.get(KEY, {}).get("required", ())
    return False


def _constructor(info: TypeInfo) -> Callable[[FunctionSigContext], FunctionLike]:
    def hook(ctx: FunctionSigContext) -> FunctionLike:
        sig = ctx.default_signature
        kinds = list(sig.arg_kinds)
        positional_default = False  # a required parameter may not follow an optional one
        for i, (kind, name) in enumerate(zip(sig.arg_kinds, sig.arg_names, strict=True)):
            required = name is not None and _required(info, name)
            if kind == ARG_OPT and required and not positional_default:
                kinds[i] = ARG_POS
            elif kind == ARG_NAMED_OPT and required:
                kinds[i] = ARG_NAMED
            positional_default = positional_default or kinds[i] == ARG_OPT
        return sig.copy_modified(arg_kinds=kinds) if kinds != sig.arg_kinds else sig

    return hook


def _record_service(ctx: ClassDefContext) -> bool:
    ctx.cls.info.metadata[SERVICE_KEY] = {}
    return True


def _declared_method(info: TypeInfo, name: str) -> CallableType | None:
    """The declaration's method ``name`` without ``self`` (``@pa.rpc`` keeps the type)."""
    node = info.get(name)
    func = node.node if node is not None else None
    if isinstance(func, Decorator):
        func = func.func
    if not isinstance(func, FuncDef) or name.startswith("_"):
        return None
    sig = get_proper_type(func.type)
    if not isinstance(sig, CallableType) or not sig.arg_types:
        return None
    return sig.copy_modified(
        arg_types=sig.arg_types[1:], arg_kinds=sig.arg_kinds[1:], arg_names=sig.arg_names[1:]
    )


def _stream_item(typ: Type) -> Type | None:
    """``R`` of ``Iterator[R]``, ``AsyncIterator[R]``, ... (what a stream carries)."""
    proper = get_proper_type(typ)
    if isinstance(proper, Instance) and proper.type.fullname in STREAMS and proper.args:
        return proper.args[0]
    return None


def _is_context(typ: Type) -> bool:
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return any(_is_context(item) for item in proper.items)
    return isinstance(proper, Instance) and proper.type.fullname == "protoattr._service.CallContext"


def _async_method(
    declared: CallableType, options: CallableType, stream: TypeInfo, api: CheckerPluginInterface
) -> CallableType:
    """An aio client's method for ``declared``: its request (any iterable or async iterable
    of them for a client stream), an optional ``CallContext``, grpcio's keywords
    (``options``' keyword-only parameters), and a coroutine of the response (an
    ``AsyncResponseStream`` for a server stream), as ``_client._method`` makes them."""
    types: list[Type] = []
    kinds = []
    names: list[str | None] = []
    params = list(zip(declared.arg_types, declared.arg_kinds, declared.arg_names, strict=True))
    if params and params[0][1] == ARG_POS and not _is_context(params[0][0]):
        request, _, name = params[0]
        item = _stream_item(request)
        if item is not None:
            request = UnionType.make_union(
                [
                    api.named_generic_type("typing.Iterable", [item]),
                    api.named_generic_type("typing.AsyncIterable", [item]),
                ]
            )
        types.append(request)
        kinds.append(ARG_POS)
        names.append(name)
    context = options.arg_names.index("context")
    types.append(options.arg_types[context])
    kinds.append(ARG_OPT)
    names.append("context")
    for typ, kind, name in zip(
        options.arg_types, options.arg_kinds, options.arg_names, strict=True
    ):
        if kind.is_named():
            types.append(typ)
            kinds.append(kind)
            names.append(name)
    response = get_proper_type(declared.ret_type)
    if isinstance(response, Instance) and response.type.fullname == "typing.Coroutine":
        response = get_proper_type(response.args[-1])  # an ``async def`` declaration
    item = _stream_item(response)
    result: Type
    if item is not None:
        result = Instance(stream, [item])
    else:
        anything = AnyType(TypeOfAny.special_form)
        result = api.named_generic_type("typing.Coroutine", [anything, anything, response])
    return declared.copy_modified(
        arg_types=types, arg_kinds=kinds, arg_names=names, ret_type=result, variables=[]
    )


class ProtoattrPlugin(Plugin):
    """See the module's docstring."""

    def get_class_decorator_hook_2(self, fullname: str) -> Callable[[ClassDefContext], bool] | None:
        if fullname == CONTRACT:
            return _record_fields
        if fullname == SERVICE:
            return _record_service
        return None

    def _stream(self) -> TypeInfo | None:
        node = self.lookup_fully_qualified(f"{CLIENT}.AsyncResponseStream")
        return node.node if node is not None and isinstance(node.node, TypeInfo) else None

    def _options(self) -> CallableType | None:
        node = self.lookup_fully_qualified(OPTIONS)
        func = node.node if node is not None else None
        sig = get_proper_type(func.type) if isinstance(func, FuncDef) else None
        return sig if isinstance(sig, CallableType) else None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        prefix = f"{CLIENT}.AsyncClient."
        if not fullname.startswith(prefix):
            return None
        name = fullname[len(prefix) :]

        def hook(ctx: AttributeContext) -> Type:
            client = ctx.type
            service = get_proper_type(client.args[0]) if isinstance(client, Instance) else None
            options, stream = self._options(), self._stream()
            if not isinstance(service, Instance) or options is None or stream is None:
                return ctx.default_attr_type  # Any: nothing to check against
            declared = _declared_method(service.type, name)
            if declared is None:
                message = f'Service "{service.type.name}" has no RPC "{name}"'
                ctx.api.fail(message, ctx.context, code=ATTR_DEFINED)
                return AnyType(TypeOfAny.from_error)
            return _async_method(declared, options, stream, ctx.api)

        return hook

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        owner, _, name = fullname.rpartition(".")
        node = self.lookup_fully_qualified(owner) if owner else None
        info = node.node if node is not None else None
        if not isinstance(info, TypeInfo) or SERVICE_KEY not in info.metadata:
            return None
        if name.startswith("_"):
            return None

        def hook(ctx: MethodSigContext) -> FunctionLike:
            options = self._options()
            sig = ctx.default_signature
            if options is None or ARG_STAR2 in sig.arg_kinds:
                return sig  # no protoattr.grpc in the program (so no client), or **kwargs
            taken = set(sig.arg_names)
            extra = [
                (typ, kind, name)
                for typ, kind, name in zip(
                    options.arg_types, options.arg_kinds, options.arg_names, strict=True
                )
                if kind.is_named() and name not in taken
            ]
            return sig.copy_modified(
                arg_types=[*sig.arg_types, *(e[0] for e in extra)],
                arg_kinds=[*sig.arg_kinds, *(e[1] for e in extra)],
                arg_names=[*sig.arg_names, *(e[2] for e in extra)],
            )

        return hook

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        node = self.lookup_fully_qualified(fullname)
        info = node.node if node is not None else None
        if isinstance(info, TypeInfo) and any(KEY in base.metadata for base in info.mro):
            return _constructor(info)
        return None


#: the oldest mypy the plugin is tested with (the project's test extra pins it too)
OLDEST = (1, 10)


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point (``version`` is mypy's own): refuses a mypy older than it is
    tested with, rather than half-working there."""
    found = re.match(r"(\d+)\.(\d+)", version)
    if found is None or (int(found[1]), int(found[2])) < OLDEST:
        oldest = ".".join(map(str, OLDEST))
        raise RuntimeError(
            f"protoattr.mypy needs mypy {oldest} or later, not {version}: "
            f"pip install 'mypy>={oldest}'"
        )
    return ProtoattrPlugin
