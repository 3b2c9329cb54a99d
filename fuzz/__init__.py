"""Fuzz harnesses for the protoattr decoder (see fuzz/__main__.py and docs/errors.md)."""
