"""The Python backend: codecs generated as Python source, compiled, and the
run-time helpers the generated code calls.

It is the reference the native engine is checked against, and its fallback:
``model.source(cls)`` shows the code this backend runs.  It depends only on the
contract layer (:mod:`protoattr._core`).
"""
