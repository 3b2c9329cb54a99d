"""Canonical proto3 JSON: plans, reader, writer and the special forms.

The well-known types' JSON forms (:mod:`protoattr._json.wkt`) register when the
first JSON plan is made, so that ``import protoattr`` loads neither.
"""
