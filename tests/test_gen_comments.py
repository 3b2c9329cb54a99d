"""``gen``'s comments (issue 18, problem 7): a long comment is wrapped as a paragraph, with
no orphan fragment, and a trailing comment stays with its own value."""

from __future__ import annotations

from pathlib import Path

from tests.test_gen import gen_proto

LONG = " ".join(["word"] * 17)  # 84 characters: one line too long for a docstring
PROTO = f"""\
syntax = "proto3";
package gencomments.v1;

// {LONG}
// and the next line of the same paragraph.
//
// - a list item stays on its own line
// - and so does this one
message Note {{
  string a = 1;  // about a
  // above b
  string b = 2;  // about b, which is a long trailing comment that cannot fit after the value
  string c = 3;
}}

enum Mood {{
  MOOD_UNSPECIFIED = 0;  // nothing said
  MOOD_GOOD = 1;
  MOOD_BAD = 2;  // trailing, not the next value's
}}
"""


def test_comments(tmp_path: Path) -> None:
    g = gen_proto(PROTO, tmp_path, "comments")  # ruff-clean and importable
    source = (tmp_path / "comments.py").read_text()
    doc = g.Note.__doc__
    assert doc is not None
    words = doc.split("\n\n")[0].split()
    assert words == ["word"] * 17 + [
        "and",
        "the",
        "next",
        "line",
        "of",
        "the",
        "same",
        "paragraph.",
    ]
    lines = doc.split("\n\n")[0].splitlines()
    assert all(len(line.strip()) > 40 for line in lines[:-1])  # no orphan fragment
    assert "- a list item stays on its own line\n    - and so does this one" in source
    assert '    a: str = pa.field(1, default="")  # about a\n' in source
    assert (
        "    # above b\n    # about b, which is a long trailing comment that cannot fit after"
        in source
    )
    assert '    b: str = pa.field(2, default="")\n    c: str' in source
    assert "    MOOD_UNSPECIFIED = 0  # nothing said\n    MOOD_GOOD = 1\n" in source
    assert "    MOOD_BAD = 2  # trailing, not the next value's\n" in source
