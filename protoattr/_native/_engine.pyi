from collections.abc import Callable, Sequence
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
    def set_pending(self, setup: Callable[[], Any] | None, /) -> None: ...
    def invalidate(self) -> None: ...

def field_specs(
    slots: Sequence[Any],
    oneofs: Sequence[int] | None,
    values: dict[int, tuple[Any, tuple[Any, ...]]],
    cmps: dict[int, Any],
    value: Callable[[Any], tuple[Any, ...]],
    any_field: Callable[[Any, int, tuple[Any, ...] | None], tuple[Any, ...]],
    consts: tuple[Any, ...],
    /,
) -> tuple[tuple[Any, ...], ...]: ...

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

class FrameReader:
    """Items framed and decoded in C from chunks the Python side reads (stream.c)."""

    def __init__(
        self,
        plan: Plan,
        style: int,
        tag: bytes,
        max_size: int,
        refill: Callable[[int, int, bool], bytes | tuple[Any] | None] | None,
        /,
    ) -> None: ...
    def __iter__(self) -> FrameReader: ...
    def __next__(self) -> Any: ...
    def close(self) -> None: ...
    def take(self, chunk: bytes, pos: int, limit: int, /) -> tuple[list[Any], int]: ...

def encode_frames(
    plan_for: Callable[[type], Plan | None],
    frame: Callable[[Any], bytes],
    iterator: Any,
    style: int,
    tag: bytes,
    max_bytes: int,
    /,
) -> tuple[bytes, int, bool, BaseException | None]: ...

class JsonWriter:
    """One contract's canonical-JSON writer for one option set (json_write.c)."""

    @property
    def ready(self) -> bool: ...
    def setup(
        self,
        cls: type,
        fields: tuple[tuple[Any, ...], ...],
        sorted: tuple[int, ...],
        use_dict: bool = False,
        /,
    ) -> None: ...
    def write(self, obj: Any, indent: Any, sort_keys: Any, ensure_ascii: Any, /) -> str | None: ...
    @classmethod
    def write_items(
        cls, table: dict[type, Any], items: Any, indent: Any, sort_keys: Any, ensure_ascii: Any, /
    ) -> str | None: ...

class JsonEntry:
    """A native model's to_json in C (json_write.c), shadowing the Python method."""

    __wrapped__: Callable[..., Any]
    def __init__(self, model_dict: dict[str, Any], slow: Callable[..., Any], /) -> None: ...
    def bind(self, plans: Any, tables: tuple[dict[type, Any], ...], /) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

class JsonReader:
    """One contract's canonical JSON read in C (json_read.c, protoattr._json.native_read)."""

    fallbacks: int
    @property
    def ready(self) -> bool: ...
    def setup(
        self,
        plan: Plan,
        fields: tuple[tuple[Any, ...], ...],
        keys: tuple[tuple[bytes, int], ...],
        max_depth: int,
        ignore_unknown: bool,
        /,
    ) -> None: ...
    def read(self, text: Any, /) -> Any: ...
    def read_items(self, text: Any, as_tuple: bool, /) -> Any: ...

class JsonReadEntry:
    """A native model's from_json in C (json_read.c)."""

    __wrapped__: Callable[..., Any]
    plans: Any
    def __init__(self, model_dict: dict[str, Any], slow: Callable[..., Any], /) -> None: ...
    def bind(
        self, plans: Any, tables: tuple[dict[Any, Any], dict[Any, Any]], reader_type: type, /
    ) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
