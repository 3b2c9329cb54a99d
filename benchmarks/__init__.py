"""protoattr's benchmark suite (not part of the tests): ``python -m benchmarks --help``."""
