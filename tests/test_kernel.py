"""The differ's kernel: its shortcuts say what the definitions they stand for say."""

from __future__ import annotations

import datetime
import itertools

from specdiff.diff.kernel import canonical, same_value

#: values a spec may hold, with those whose canonical forms meet across types (a date is written as its string)
VALUES = ["a", "1", "", "null", "true", 1, 0, True, False, None, 1.0, 0.0, -0.0, float("nan"), ["a"], {"a": 1},
          {"a": True}, datetime.date(2024, 1, 2), "2024-01-02"]


def test_same_value_is_equal_canonical_form_for_every_pair_of_values() -> None:
    for old, new in itertools.product(VALUES, repeat=2):
        assert same_value(old, new) == (canonical(old) == canonical(new)), (old, new)
