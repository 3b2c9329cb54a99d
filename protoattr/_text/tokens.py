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
_SPACE = re.compile(r"(\s|(#.*$))+", re.MULTILINE)


class Tokens:
    """The tokens of one text, and where each starts (0-based line and column)."""

    __slots__ = ("cols", "eof", "line_of", "lines", "rows", "text")

    def __init__(self, text: str) -> None:
        self.lines = lines = text.split("\n")
        toks: list[str] = []
        rows: list[int] = []
        cols: list[int] = []
        count = len(lines)
        row, col = -1, 0
        line = ""
        token_len = 0
        match_space = _SPACE.match
        match_token = _TOKEN.match
        while True:
            col += token_len
            # skip whitespace and comments, moving to the next line at each end of line
            while True:
                while len(line) <= col:
                    if row + 1 >= count:
                        line = ""
                        break
                    row += 1
                    line = lines[row]
                    col = 0
                else:
                    m = match_space(line, col)
                    if m is None:
                        break
                    col = m.end()
                    continue
                break
            if len(line) <= col:  # the end of the text
                self.eof = (max(row, 0), col)
                break
            m = match_token(line, col)
            token = m.group(0) if m is not None else line[col]
            toks.append(token)
            rows.append(row)
            cols.append(col)
            token_len = len(token)
        self.text = toks
        self.rows = rows
        self.cols = cols
        self.line_of = lines

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
