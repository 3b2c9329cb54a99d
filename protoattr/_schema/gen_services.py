"""``gen``'s services: ``@pa.service`` Protocols, and the messages their RPCs use.

A mixin of :class:`protoattr._schema.gen_render.Writer`, which owns the state
named here (what the module declares and imports).
"""

from __future__ import annotations

from . import descriptor as d
from .gen_descriptors import GenError, Index, Type
from .gen_text import comment_lines, docstring_lines, safe_name, snake, str_literal
from .gen_types import RPC_WELL_KNOWN, WELL_KNOWN

__all__ = ["ServiceWriter"]


class ServiceWriter:
    """The service half of a module writer."""

    index: Index
    targets: list[str]
    chosen: dict[str, Type]
    uses: set[str]

    def _py_ref(self, t: Type) -> str:
        raise NotImplementedError  # the writer's: how this module names ``t``'s class

    def _service_types(
        self, services: list[tuple[d.FileDescriptorProto, int, d.ServiceDescriptorProto]]
    ) -> list[Type]:
        """The request and response messages of the requested files' services."""
        found: list[Type] = []
        for _, _, svc in services:
            for m in svc.method:
                for type_name in (m.input_type, m.output_type):
                    t = self.index.types.get(type_name or "")
                    if t is None or t.message is None:
                        raise GenError(
                            f"service {svc.name}, rpc {m.name}: {type_name} is not a message "
                            "in protoc's output"
                        )
                    if t.full_name in RPC_WELL_KNOWN and t.file.name not in self.targets:
                        continue  # protoattr's own contract: pa.Empty, pa.Timestamp...
                    if t.full_name in WELL_KNOWN and t.file.name not in self.targets:
                        raise GenError(
                            f"service {svc.name}, rpc {m.name}: {t.full_name.lstrip('.')} "
                            "cannot be a request or response (protoattr maps it to a Python "
                            "value, not a contract); wrap it in a message"
                        )
                    found.append(t)
        return found

    def _rpc_type(self, type_name: str | None) -> str:
        """The contract an RPC sends or returns (a well-known one: protoattr's own)."""
        t = self.index.types[type_name or ""]
        if t.full_name not in self.chosen and t.full_name in RPC_WELL_KNOWN:
            self.uses.add("pa")
            return RPC_WELL_KNOWN[t.full_name]
        return self._py_ref(t)

    def _service(self, fd: d.FileDescriptorProto, index: int, svc: d.ServiceDescriptorProto) -> str:
        """A ``@pa.service`` Protocol: implement it to serve, ``pa.grpc.client`` it to call."""
        from .._service import grpc_method_name

        self.uses |= {"pa", "Protocol"}
        full = f"{fd.package}.{svc.name}" if fd.package else str(svc.name)
        taken = {t.py_name for t in self.chosen.values()}
        name = safe_name(svc.name or f"Service{index}", taken, builtin=True)
        comments = {
            tuple(loc.path): loc
            for loc in (fd.source_code_info.location if fd.source_code_info else [])
        }
        lines = [f"@pa.service({str_literal(full)})", f"class {name}(Protocol):"]
        doc = docstring_lines(comments.get((6, index)), "    ")
        lines += doc
        attrs: set[str] = set()
        for j, m in enumerate(svc.method):
            if j or doc:
                lines.append("")
            lines += comment_lines(comments.get((6, index, 2, j)), "    ")
            rpc_name = m.name or f"Method{j}"
            attr = safe_name(snake(rpc_name), attrs | {"self"})
            attrs.add(attr)
            if grpc_method_name(attr) != rpc_name:
                lines.append(f"    @pa.rpc(name={str_literal(rpc_name)})")
            request, response = self._rpc_type(m.input_type), self._rpc_type(m.output_type)
            if m.client_streaming:
                self.uses.add("Iterator")
                request, param = f"Iterator[{request}]", "requests"
            else:
                param = "request"
            if m.server_streaming:
                self.uses.add("Iterator")
                response = f"Iterator[{response}]"
            params = f"self, {param}: {request}, context: pa.CallContext = pa.CallContext.NONE"
            signature = f"    def {attr}({params}) -> {response}: ..."
            if len(signature) > 88:  # wrapped the way ruff format wraps it
                if len(params) + 8 <= 88:
                    signature = f"    def {attr}(\n        {params}\n    ) -> {response}: ..."
                else:
                    each = "".join(f"        {p.strip()},\n" for p in params.split(", "))
                    signature = f"    def {attr}(\n{each}    ) -> {response}: ..."
            lines.append(signature)
        return "\n".join(lines)
