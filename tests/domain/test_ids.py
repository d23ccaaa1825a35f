"""IDs (webapp/ids.py): the shapes other code and clients rely on."""

from __future__ import annotations

import collections
import re

from webapp import ids


def test_ids_are_26_base32_digits_and_sort_by_creation() -> None:
    made = [ids.new_id("pass") for _ in range(2000)]
    assert all(re.fullmatch(r"pass_[0-9a-hjkmnp-tv-z]{26}", value) for value in made)
    assert made == sorted(made) and len(set(made)) == len(made)
    assert ids._encode(0, 10) == "0" * 10 and ids._encode(31, 3) == "00z"
    assert ids._encode(2**50 - 1, 10) == "z" * 10 and ids._encode(1024 + 33, 3) == "111"


def test_short_ids_use_the_whole_alphabet_evenly() -> None:
    made = [ids.short_id() for _ in range(3000)]
    assert all(len(v) == 12 and set(v) <= set(ids.SHORT_ALPHABET) for v in made)
    counts = collections.Counter("".join(made))
    assert set(counts) == set(ids.SHORT_ALPHABET)
    expected = 3000 * 12 / len(ids.SHORT_ALPHABET)  # about 1161 each
    assert all(abs(n - expected) < 200 for n in counts.values())
    first = collections.Counter(v[0] for v in made)  # no position is favoured
    assert len(first) == len(ids.SHORT_ALPHABET)
