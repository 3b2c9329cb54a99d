"""Schemas both ways: ``.proto`` text and ``FileDescriptorSet`` bytes from contracts,
and contract source generated from ``.proto`` files (``protoattr gen``)."""
