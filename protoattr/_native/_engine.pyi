from collections.abc import Callable
from typing import Any

NATIVE_MAX_DEPTH: int

class NestedTooDeeply(RecursionError):
    _protoattr_final: bool

class Plan:
    fallbacks: int
    @property
    def ready(self) -> bool: ...
    @property
    def cls(self) -> type | None: ...
    def setup(
        self,
        cls: type,
        fields: tuple[tuple[Any, ...], ...],
        ctor_spec: tuple[Any, ...],
        unknown_spec: tuple[Any, ...] | None,
        use_dict: bool,
        max_depth: int,
        py_encode: Callable[[Any], bytes],
        py_decode: Callable[..., Any],
        hier_spec: tuple[Any, ...] | None = None,
        budget_spec: tuple[int, Any, Callable[[str, int, int], BaseException]] | None = None,
        /,
    ) -> None: ...
    def encode(self, obj: Any, /) -> bytes: ...
    def decode(self, buf: bytes, pos: int, end: int, depth: int, base: Any, /) -> Any: ...
    def set_list_fallback(
        self, encode: Callable[[Any], bytes], decode: Callable[..., Any], /
    ) -> None: ...
    def encode_list(self, items: Any, /) -> bytes: ...
    def decode_list(self, buf: bytes, pos: int, end: int, depth: int, base: Any, /) -> Any: ...
    def invalidate(self) -> None: ...

class Entry:
    """A model's serialize/deserialize/measure in C (mode 0/1/2)."""

    __wrapped__: Callable[..., Any]
    def __init__(
        self,
        mode: int,
        codecs: dict[Any, Any],
        lists: dict[Any, Any],
        slow: Callable[..., Any],
        /,
    ) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
