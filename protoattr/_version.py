"""The version, in one place: packaging reads it (pyproject.toml), so does
``protoattr --version``."""

__version__ = "0.1.0"
