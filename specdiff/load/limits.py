"""The limits every reader enforces against hostile input, and the checks the JSON and YAML readers share."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from specdiff.errors import InputError
from specdiff.frozen import record

#: libyaml composes nested nodes by recursion in C, which crashes the process somewhere past ~10,000 levels;
#: --max-depth may not go beyond this, and YAML that could nest deeper is measured before it is composed
MAX_DEPTH_CEILING = 1000


@record(frozen=True)
class Limits:
    """Guards against hostile input; every one can be changed from the command line (README "Limits")."""

    max_bytes: int = 64 * 1024 * 1024
    max_depth: int = 256
    max_alias_nodes: int = 1_000_000  # nodes a YAML document may expand to through aliases
    max_changes: int = 20_000  # changes one comparison may find (the real specs tested find at most 2,500)
    max_versions: int = 100  # versions one CustomResourceDefinition may list: served ones are compared pairwise
    allow_remote_refs: bool = False  # fetch http(s) $refs
    remote_timeout: float = 10.0  # seconds for each remote $ref: connecting, and reading the whole answer

    def __post_init__(self) -> None:
        if not 1 <= self.max_depth <= MAX_DEPTH_CEILING:
            raise ValueError(f"max_depth must be between 1 and {MAX_DEPTH_CEILING}")

    def check_size(self, size: int, name: str) -> None:
        """Refuse a file of `size` bytes over --max-bytes, before it is read."""
        if size > self.max_bytes:
            raise InputError(f"file is {size} bytes, over the {self.max_bytes}-byte limit (--max-bytes)", file=name)


DEFAULT_LIMITS = Limits()


class DuplicateKey(Exception):
    def __init__(self, key: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(key)
        self.key, self.line, self.column = key, line, column


class NotANumber(ValueError):
    """A number no report could print as JSON: too many digits, NaN or an infinity."""


def too_many_digits() -> str:
    return f"a number with more than {sys.get_int_max_str_digits()} digits"


#: JSON has no NaN or infinity (`.nan`, `.inf`, `1e400`, `-Infinity`): such a number is refused, so every
#: value a finding carries prints as strict JSON (README "Limits")
NOT_FINITE = "a number that is not finite (NaN or an infinity), which JSON cannot hold"


def bounded(value: int) -> int:
    """An integer Python can print: hex, octal and sexagesimal integers are built without the digit limit."""
    limit = sys.get_int_max_str_digits()
    if limit and value.bit_length() > 3.33 * limit and abs(value) >= 10 ** limit:
        raise NotANumber(too_many_digits())
    return value


def finite(value: float) -> float:
    if not math.isfinite(value):
        raise NotANumber(NOT_FINITE)
    return value


@contextmanager
def recursion_limit(limit: int) -> Iterator[None]:
    """The interpreter's recursion limit set to `limit` for a block, and put back however the block ends (setting
    it raises RecursionError when the stack is deeper than `limit` already)."""
    before = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(limit)
        yield
    finally:
        sys.setrecursionlimit(before)


def room_for_depth() -> AbstractContextManager[None]:
    """Recursion enough for MAX_DEPTH_CEILING levels, however deep the caller's own stack already is."""
    return recursion_limit(max(sys.getrecursionlimit(), 3 * MAX_DEPTH_CEILING + 500))


def shorten(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def too_deep(name: str, limits: Limits, place: str | None = None) -> InputError:
    return InputError(f"nesting deeper than {limits.max_depth} levels (--max-depth)", file=name, place=place)


#: what a YAML alias or a JSON value may nest: containers, tested by type
CONTAINERS = (dict, list)


def check_shape(data: Any, name: str, limits: Limits) -> None:
    """Refuse nesting deeper than the limit, alias expansions beyond the budget (billion laughs: in nodes, and
    in the text of aliased strings, which --max-bytes bounds as if the document were written out without
    aliases), and structures that contain themselves (`&a [*a]`), walking the whole document once."""
    Expansion(name, limits).of(data)


def check_aliases(uses: list[tuple[Any, int]], nodes: int, text_bound: int, data: Any, name: str,
                  limits: Limits) -> None:
    """`check_shape` for a document read with `nodes` distinct nodes, `uses` of aliases (each the value an alias
    names and the depth it is used at) and at most `text_bound` characters of its own, walking only what the
    aliases name: a large spec with one alias (OpenAI's, a list of names used twice) is not walked whole.

    The document expands to its distinct nodes plus, at each use, the expansion of what the alias names (each
    use is met once while reading): the same count `check_shape` makes. Text is counted from the document's
    length, an upper bound, and counted exactly by the whole walk only when that bound passes the budget."""
    expansion = Expansion(name, limits)
    total_nodes, total_text = nodes, text_bound
    if total_nodes > limits.max_alias_nodes:
        raise expansion.too_many_nodes()
    for value, depth in uses:
        size, text, height = expansion.of(value)
        if depth - 1 + height > limits.max_depth:
            raise too_deep(name, limits)
        total_nodes, total_text = total_nodes + size, total_text + text
        if total_nodes > limits.max_alias_nodes:
            raise expansion.too_many_nodes()
    if total_text > limits.max_bytes:
        expansion.of(data)  # the whole walk, which reads what the aliases name from what it measured above


class Expansion:
    """What values expand to through the aliases inside them: nodes, characters of text and levels, each distinct
    node walked once (a shared one is counted once per use through its memoised figures), so the walk is linear
    in the distinct nodes even when the expansion would be astronomically large. Refuses what the budget does
    not allow, nesting deeper than the limit, and a structure that contains itself."""

    def __init__(self, name: str, limits: Limits) -> None:
        self.name, self.limits = name, limits
        self.size: dict[int, int] = {}  # id -> nodes it expands to
        self.text: dict[int, int] = {}  # id -> characters of the strings it expands to, keys included
        self.height: dict[int, int] = {}  # id -> levels below and including it

    def too_many_nodes(self) -> InputError:
        return InputError(f"YAML aliases expand to more than {self.limits.max_alias_nodes} nodes (alias budget "
                          "exceeded, --max-aliases)", file=self.name)

    def of(self, value: Any) -> tuple[int, int, int]:
        """(nodes, characters, levels) that `value` expands to."""
        if not isinstance(value, CONTAINERS):
            return 1, len(value) if type(value) is str else 0, 0
        size, text, height, limits = self.size, self.text, self.height, self.limits
        open_ids: set[int] = set()  # ids on the path being walked
        stack: list[tuple[Any, int, bool]] = [(value, 1, False)]
        while stack:
            node, depth, done = stack.pop()
            children = list(node.values()) if isinstance(node, dict) else node
            key = id(node)
            if not done and key in height:  # met again through another alias
                continue
            if done:
                open_ids.discard(key)
                containers = [c for c in children if isinstance(c, CONTAINERS)]
                size[key] = 1 + sum(size.get(id(c), 1) for c in children)
                height[key] = 1 + max((height[id(c)] for c in containers), default=0)
                if size[key] > limits.max_alias_nodes:
                    raise self.too_many_nodes()
                text[key] = sum(len(c) if type(c) is str else text.get(id(c), 0) for c in children) \
                    + (sum(map(len, node)) if isinstance(node, dict) else 0)
                if text[key] > limits.max_bytes:  # few nodes, long strings: a byte bomb, not a node bomb
                    raise InputError(f"YAML aliases expand to more than {limits.max_bytes} bytes of text "
                                     "(alias budget exceeded, --max-bytes)", file=self.name)
                continue
            if depth > limits.max_depth:
                raise too_deep(self.name, limits)
            open_ids.add(key)
            stack.append((node, depth, True))
            for child in children:
                if not isinstance(child, CONTAINERS):
                    continue
                if id(child) in open_ids:
                    raise InputError("a YAML alias refers to a node that contains it (a structure that contains "
                                     "itself)", file=self.name)
                if id(child) in height:
                    if depth + height[id(child)] > limits.max_depth:
                        raise too_deep(self.name, limits)
                else:
                    stack.append((child, depth + 1, False))
        key = id(value)
        return size[key], text[key], height[key]
