"""JSON deeper than --max-depth is refused whether the C scanner bounds it or the walk measures it: the same
answer at each side of the limit, for lists, objects and objects the hooks are called for."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from specdiff.errors import InputError
from specdiff.load import parse
from specdiff.load.parse import Limits, parse_text

#: a text of each kind nesting `depth` levels (the root is the first)
SHAPES = {
    "lists": lambda depth: "[" * depth + "]" * depth,
    "objects": lambda depth: '{"a": ' * (depth - 1) + '{"b": 1.5}' + "}" * (depth - 1),
    "both": lambda depth: _alternating(depth),
}


def _alternating(depth: int) -> str:
    """An object holding a list holding an object ..., `depth` levels."""
    opening = ['{"a": ' if level % 2 == 0 else "[" for level in range(depth - 1)]
    closing = ["}" if level % 2 == 0 else "]" for level in range(depth - 1)]
    return "".join(opening) + ("{}" if (depth - 1) % 2 == 0 else "[]") + "".join(reversed(closing))


def _outcome(text: str, limits: Limits) -> str:
    try:
        parse_text(text, "spec.json", limits)
    except InputError as err:
        return err.one_line()
    return "read"


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The depth walks made: one entry a walk."""
    made: list[int] = []
    walk = parse._check_tree_depth

    def counted(data: Any, name: str, limits: Limits) -> None:
        made.append(1)
        walk(data, name, limits)

    monkeypatch.setattr(parse, "_check_tree_depth", counted)
    yield made


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("most", [1, 2, 5, 20, 256, 1000])
def test_the_limit_is_exact(shape: str, most: int) -> None:
    limits = Limits(max_depth=most)
    refused = f"spec.json: nesting deeper than {most} levels (--max-depth)"
    assert _outcome(SHAPES[shape](most), limits) == "read"
    assert _outcome(SHAPES[shape](most + 1), limits) == refused
    assert _outcome(SHAPES[shape](most + 50), limits) == refused


def test_a_text_within_the_limit_is_not_walked_where_the_scanner_counts_levels(
        walks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 1)  # (a test before may have left a thread running)
    before = sys.getrecursionlimit()
    assert _outcome(SHAPES["both"](40), Limits()) == "read"
    assert sys.getrecursionlimit() == before
    assert walks == ([] if parse._LEVELS_COUNTED else [1])


def test_a_text_near_the_limit_is_walked(walks: list[int]) -> None:
    before = sys.getrecursionlimit()
    assert _outcome(SHAPES["lists"](20), Limits(max_depth=20)) == "read"
    assert _outcome(SHAPES["lists"](21), Limits(max_depth=20)) == "spec.json: nesting deeper than 20 levels " \
                                                                   "(--max-depth)"
    assert sys.getrecursionlimit() == before
    assert walks == [1, 1]


def test_the_limit_is_not_lowered_while_another_thread_runs(walks: list[int]) -> None:
    """The recursion limit is the interpreter's: lowered, it would fail a thread that is deep in a walk."""
    done = threading.Event()
    other = threading.Thread(target=done.wait)
    other.start()
    try:
        assert _outcome(SHAPES["both"](40), Limits()) == "read"
    finally:
        done.set()
        other.join()
    assert walks == [1]


def test_errors_other_than_depth_are_those_of_a_plain_read() -> None:
    duplicate = '{"a": ' * 30 + '{"b": 1, "b": 2}' + "}" * 30
    assert _outcome(duplicate, Limits()) == "spec.json:1:190: duplicate key 'b'"
    assert _outcome(duplicate, Limits(max_depth=20)) == "spec.json:1:190: duplicate key 'b'"  # (found first)
    malformed = '{"a": ' * 30 + "{" + "}" * 30
    assert _outcome(malformed, Limits()) == "spec.json:1:212: malformed JSON: Expecting ',' delimiter"
