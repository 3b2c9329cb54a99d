"""The contract layer: what to encode, with no codec in it.

Declarations (``proto_contract``, ``field``, ``member``), their reflection into
:class:`~protoattr._core.contract.ContractInfo`, the scalar kinds, converted
types and surrogates, wire primitives, names, the well-known types (which are
contracts themselves), and the registry through which declarations reach the
models.  Nothing here imports a backend or a feature: every package above
(``_python``, ``_native``, ``_model``, the features) imports this one, never the
other way round.
"""
