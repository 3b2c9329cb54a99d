"""Splitting text format into tokens, with the line and column of each.

The tokens, and the positions errors report, are ``text_format.Tokenizer``'s:
the text is read line by line (split on ``\\n`` only); whitespace and ``#``
comments separate tokens; a token is an identifier (``[a-zA-Z_][\\w+-]*``),
a number-like run (``-1.5e3``, ``0x1F``, ``inf``...), a quoted string that ends
on its line, or any other single character.  Everything is tokenized up
front; the parser walks the list.
"""

from __future__ import annotations

import re

from .._core.errors import DecodeError

_TOKEN = re.compile(
    r"[a-zA-Z_][0-9a-zA-Z_+-]*"
    r"|([0-9+-]|(\.[0-9]))[0-9a-zA-Z_.+-]*"
    r"|\"[^\"\n\\]*((\\.)+[^\"\n\\]*)*(\"|\\?$)"
    r"|'[^'\n\\]*((\\.)+[^'\n\\]*)*('|\\?$)"
)
#: one line's pieces: whitespace and comments (group 1 unset), else a token (group 1)
_SCAN = re.compile(r"(?:\s|#.*)+|(" + _TOKEN.pattern + r"|.)")


class Tokens:
    """The tokens of one text, and where each starts (0-based line and column)."""

    __slots__ = ("cols", "eof", "line_of", "lines", "rows", "text")

    def __init__(self, text: str) -> None:
        self.lines = lines = text.split("\n")
        toks: list[str] = []
        rows: list[int] = []
        cols: list[int] = []
        add_tok, add_row, add_col = toks.append, rows.append, cols.append
        scan = _SCAN.finditer
        for row, line in enumerate(lines):
            for m in scan(line):
                token = m.group(1)
                if token is not None:  # not whitespace nor a comment
                    add_tok(token)
                    add_row(row)
                    add_col(m.start())
        self.text = toks
        self.rows = rows
        self.cols = cols
        self.line_of = lines
        self.eof = (len(lines) - 1, len(lines[-1]))  # where text_format's tokenizer stops

    def position(self, i: int) -> tuple[int, int]:
        """The 1-based line and column of token ``i`` (the end of the text past the last)."""
        if i < len(self.text):
            return self.rows[i] + 1, self.cols[i] + 1
        return self.eof[0] + 1, self.eof[1] + 1

    def line_text(self, i: int) -> str:
        if i < len(self.text):
            return self.lines[self.rows[i]]
        return ""

    def error(self, i: int, message: str) -> DecodeError:
        """An error at token ``i``, quoting its line as ``text_format`` does."""
        line, col = self.position(i)
        return DecodeError(f"{line}:{col} : '{self.line_text(i)}': {message}")

    def error_before(self, i: int, message: str) -> DecodeError:
        """An error at the token before ``i`` (the one just read)."""
        line, col = self.position(max(i - 1, 0))
        return DecodeError(f"{line}:{col} : {message}")
