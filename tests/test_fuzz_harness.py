"""The fuzz harnesses stay runnable: every committed seed passes every target,
and a short seeded run of the plain mutation engine finds nothing.

(The coverage-guided runs themselves are ``python -m fuzz run`` / ``ci``; see
docs/errors.md.)  A target must fail loudly on a broken promise: the last test
feeds one an input that decodes to something that cannot be re-encoded.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import protoattr as pa
from fuzz import __main__ as runner
from fuzz.targets import Finding, all_targets, protoattr_target

CORPUS = Path(runner.__file__).parent / "corpus"


@pytest.mark.parametrize("name", list(all_targets()))
def test_every_seed_passes_its_target(name: str) -> None:
    target = all_targets()[name]()
    seeds = sorted((CORPUS / name).glob("*"))
    assert seeds, f"no seed corpus for {name}: run python -m fuzz seeds"
    for path in seeds:
        target.check(path.read_bytes())
    assert {p.read_bytes() for p in seeds} == set(target.seeds())  # the corpus is current


@pytest.mark.parametrize("name", ["alltypes3", "diff3", "inheritance", "maps"])
def test_mutated_seeds_raise_nothing_but_decode_errors(name: str) -> None:
    target = all_targets()[name]()
    pool = [p.read_bytes() for p in sorted((CORPUS / name).glob("*"))]
    rng = random.Random(2)
    for _ in range(300):
        target.check(runner._mutate(rng, rng.choice(pool), pool))


def test_a_target_reports_a_broken_promise(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzz import families

    target = protoattr_target("zoo", families.Zoo, list, "")
    assert target.model is not None
    monkeypatch.setattr(target.model, "serialize", _refuse)
    with pytest.raises(Finding, match="cannot be encoded"):
        target.check(b"")


def _refuse(obj: object, **_: object) -> bytes:
    raise pa.EncodeError("refused")
