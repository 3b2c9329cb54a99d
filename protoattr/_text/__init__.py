"""protobuf's text format: plans, printer, tokenizer and parser.

Both directions go through the binary form, which is what Google's runtime
holds: :mod:`.printer` walks the bytes ``serialize`` writes, as
``text_format.MessageToString`` walks a parsed message, and :mod:`.parser`
turns text into bytes for ``deserialize``.  So every construct that has a
binary form (subtypes, converted values, surrogates, well-known types,
unknown fields) has exactly the text form its exported schema gives it, on
either backend.
"""
