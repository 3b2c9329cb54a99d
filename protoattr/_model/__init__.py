"""The codec model: one codec per contract, made on first use by the chosen
backend and cached, and the binary operations over them (serialize,
deserialize, merge, measure, compile).

It sits on the contract layer and both backends; the features (JSON, schema,
streams, ahead-of-time modules, services) sit on it, and
:class:`protoattr.TypeModel` (in :mod:`protoattr._typemodel`) puts the features'
methods on top.
"""
