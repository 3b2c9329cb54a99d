"""Small random damage to valid encodings: the inputs hostile-bytes tests start from."""

from __future__ import annotations

import random


def garble(data: bytes, rnd: random.Random) -> bytes:
    """``data`` with one to three random edits: a byte replaced, the tail cut, bytes
    inserted, a continuation bit flipped, or junk appended."""
    b = bytearray(data)
    for _ in range(rnd.randint(1, 3)):
        action = rnd.randrange(5)
        if action == 0 and b:
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        elif action == 1 and b:
            del b[rnd.randrange(len(b)) :]
        elif action == 2:
            at = rnd.randrange(len(b) + 1)
            b[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 4)))
        elif action == 3 and b:
            b[rnd.randrange(len(b))] ^= 0x80
        else:
            b += bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 6)))
    return bytes(b)
