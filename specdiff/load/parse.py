"""Bytes -> Python data, for JSON and YAML, with errors that name the file and the place.

Only plain data is ever built: mappings with string keys, lists, strings, numbers, booleans and null. YAML
tags that construct anything else (`!!python/...`, `!!binary`, `!!set`, custom tags) are refused, so nothing
in a spec is ever executed or turned into an object.
"""

from __future__ import annotations

import json
import math
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, compress
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from specdiff.errors import InputError

#: libyaml's parser where PyYAML was built with it (its wheels are), else PyYAML's own: slower, the same data
YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LIBYAML = YAML_LOADER is not yaml.SafeLoader
#: what libyaml says (from PyYAML 6.0.4 on) when it meets its own nesting limit, which is above MAX_DEPTH_CEILING
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"

#: libyaml composes nested nodes by recursion in C, which crashes the process somewhere past ~10,000 levels;
#: --max-depth may not go beyond this, and YAML that could nest deeper is measured before it is composed
MAX_DEPTH_CEILING = 1000


@dataclass(frozen=True)
class Limits:
    """Guards against hostile input; every one can be changed from the command line (README "Limits")."""

    max_bytes: int = 64 * 1024 * 1024
    max_depth: int = 256
    max_alias_nodes: int = 1_000_000  # nodes a YAML document may expand to through aliases
    max_changes: int = 100_000  # changes one comparison may find: what expanded aliases may produce
    max_versions: int = 100  # versions one CustomResourceDefinition may list: served ones are compared pairwise
    allow_remote_refs: bool = False  # fetch http(s) $refs
    remote_timeout: float = 10.0  # seconds for each remote $ref: connecting, and reading the whole answer

    def __post_init__(self) -> None:
        if not 1 <= self.max_depth <= MAX_DEPTH_CEILING:
            raise ValueError(f"max_depth must be between 1 and {MAX_DEPTH_CEILING}")


DEFAULT_LIMITS = Limits()


class _DuplicateKey(Exception):
    def __init__(self, key: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(key)
        self.key, self.line, self.column = key, line, column


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


_YAML_TAG = "tag:yaml.org,2002:"
_MERGE = _YAML_TAG + "merge"
_STR, _MAP, _SEQ = _YAML_TAG + "str", _YAML_TAG + "map", _YAML_TAG + "seq"
_CONSTRUCTOR = SafeConstructor()  # only its number readers are used: they read a node's text
#: scalar tags read as the value they say; a timestamp stays the string it is written as (JSON has no dates)
_SCALARS: dict[str, Any] = {
    _YAML_TAG + "null": lambda node: None,
    _YAML_TAG + "bool": lambda node: SafeConstructor.bool_values[node.value.lower()],
    _YAML_TAG + "int": lambda node: _bounded(SafeConstructor.construct_yaml_int(_CONSTRUCTOR, node)),
    _YAML_TAG + "float": lambda node: _finite(SafeConstructor.construct_yaml_float(_CONSTRUCTOR, node)),
    _YAML_TAG + "timestamp": lambda node: node.value,
}


class _NotANumber(ValueError):
    """A number no report could print as JSON: too many digits, NaN or an infinity."""


def _too_many_digits() -> str:
    return f"a number with more than {sys.get_int_max_str_digits()} digits"


#: JSON has no NaN or infinity (`.nan`, `.inf`, `1e400`, `-Infinity`): such a number is refused, so every
#: value a finding carries prints as strict JSON (README "Limits")
_NOT_FINITE = "a number that is not finite (NaN or an infinity), which JSON cannot hold"


class _NotFinite(Exception):
    def __init__(self, literal: str) -> None:
        super().__init__(literal)
        self.literal = literal


def _json_not_finite(literal: str) -> Any:
    raise _NotFinite(literal)


def _json_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NotFinite(literal)
    return value


def _bounded(value: int) -> int:
    """An integer Python can print: hex, octal and sexagesimal integers are built without the digit limit."""
    limit = sys.get_int_max_str_digits()
    if limit and value.bit_length() > 3.33 * limit and abs(value) >= 10 ** limit:
        raise _NotANumber(_too_many_digits())
    return value


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise _NotANumber(_NOT_FINITE)
    return value


#: the tags of plain data and the one kind of node each may be written on
_KINDS: dict[str, type[yaml.Node]] = {_MAP: yaml.MappingNode, _SEQ: yaml.SequenceNode, _STR: yaml.ScalarNode,
                                      **dict.fromkeys(_SCALARS, yaml.ScalarNode)}
_KIND_NAMES = {yaml.ScalarNode: "plain value", yaml.SequenceNode: "list", yaml.MappingNode: "mapping"}


class _Composer(YAML_LOADER):  # type: ignore[misc]
    """libyaml's C parser and composer (or PyYAML's own), with the implicit tag of each plain scalar remembered
    by its text.

    The composer asks Python for the tag of every scalar, and a spec repeats the same few hundred words
    (`type`, `string`, `description`, ...) tens of thousands of times; for a plain scalar the tag depends on the
    text only, so it is computed once per distinct text.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._plain_tags: dict[str, str] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            tag = self._plain_tags.get(value)
            if tag is None:
                tag = self._plain_tags[value] = super().resolve(kind, value, implicit)
            return tag
        if kind is yaml.ScalarNode and implicit[1]:
            return _STR  # a quoted scalar without a tag is a string
        return super().resolve(kind, value, implicit)


class _TooDeep(Exception):
    def __init__(self, mark: Any) -> None:
        super().__init__()
        self.mark = mark


#: strings at least this long are remembered, so that an alias of one counts as shared (and its bytes are counted);
#: an alias of a shorter one adds at most _SHARED_TEXT / 2 characters per two-character `*a` in the file itself
_SHARED_TEXT = 64


def _build(root: yaml.Node, max_depth: int, shared: list[int]) -> Any:
    """Plain data from a composed YAML node tree.

    Mapping keys are kept as written (`200:` is the key "200", as in JSON), duplicate keys are refused (YAML
    silently keeps the last one), and merge keys (`<<`) are flattened without repeating keys, so merging a merge
    of merges cannot grow exponentially. A node met again through an alias is the same object, built once; a
    container is registered before its children are built, so a structure that contains itself is built as
    such (and refused afterwards by `check_shape`) instead of recursing forever. Any tag but those of plain
    data is refused, and so is a collection nested deeper than `max_depth`. Each node met again through an
    alias is counted in `shared[0]`: without any, the tree has no shared part for `check_shape` to measure.
    """
    built: dict[int, Any] = {}

    def build(node: yaml.Node, depth: int) -> Any:
        found = built.get(id(node))
        if found is not None or id(node) in built:
            shared[0] += 1
            return found
        tag = node.tag
        if tag == _STR and isinstance(node, yaml.ScalarNode):
            if len(node.value) >= _SHARED_TEXT:  # an alias of it may repeat its bytes: counted by check_shape
                built[id(node)] = node.value
            return node.value
        if tag == _MAP and isinstance(node, yaml.MappingNode):
            if depth > max_depth:
                raise _TooDeep(node.start_mark)
            mapping: dict[str, Any] = {}
            built[id(node)] = mapping
            if any(key.tag == _MERGE for key, _ in node.value):
                _refuse_duplicates(node.value)  # before merging, which keeps each key once
                _flatten(node)
            for key, value in node.value:
                text = _key_text(key)
                if text in mapping:
                    raise _DuplicateKey(text, key.start_mark.line + 1, key.start_mark.column + 1)
                mapping[text] = build(value, depth + 1)
            return mapping
        if tag == _SEQ and isinstance(node, yaml.SequenceNode):
            if depth > max_depth:
                raise _TooDeep(node.start_mark)
            items: list[Any] = []
            built[id(node)] = items
            items.extend([build(item, depth + 1) for item in node.value])
            return items
        if tag in _KINDS and not isinstance(node, _KINDS[tag]):  # `!!str [a]`, `!!int {}`, `!!seq x`
            raise ConstructorError(None, None, f"the tag {tag.replace(_YAML_TAG, '!!', 1)!r} does not fit a "
                                   f"{_KIND_NAMES[type(node)]}", node.start_mark)
        read = _SCALARS.get(tag) if isinstance(node, yaml.ScalarNode) else None
        if read is None:
            raise ConstructorError(None, None, f"could not determine a constructor for the tag {tag!r}",
                                   node.start_mark)
        try:
            value = read(node)
        except _NotANumber as err:
            raise ConstructorError(None, None, str(err), node.start_mark) from None
        except (ValueError, KeyError) as err:  # `!!int abc`, or an integer too long to convert
            problem = _too_many_digits() if "digits" in str(err) \
                else f"{_shorten(str(node.value))!r} is not a valid {tag.removeprefix(_YAML_TAG)}"
            raise ConstructorError(None, None, problem, node.start_mark) from None
        built[id(node)] = value
        return value

    with _room_for_depth():  # build refuses more than max_depth levels
        return build(root, 1)


@contextmanager
def _room_for_depth() -> Iterator[None]:
    """Recursion enough for MAX_DEPTH_CEILING levels, however deep the caller's own stack already is."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 3 * MAX_DEPTH_CEILING + 500))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _refuse_duplicates(pairs: list[tuple[yaml.Node, yaml.Node]]) -> None:
    seen: set[str] = set()
    for key_node, _ in pairs:
        if key_node.tag == _MERGE:
            continue
        key = _key_text(key_node)
        if key in seen:
            raise _DuplicateKey(key, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        seen.add(key)


def _flatten(node: yaml.MappingNode, open_ids: frozenset[int] = frozenset()) -> None:
    """Lay the mappings named by merge keys under the node's own pairs; each key is kept once. A mapping
    that merges itself (`&a {<<: *a}`), or one of the mappings that merge it, is refused."""
    open_ids |= {id(node)}
    own = [(k, v) for k, v in node.value if k.tag != _MERGE]
    merged: list[tuple[yaml.Node, yaml.Node]] = []
    for key_node, value_node in node.value:
        if key_node.tag != _MERGE:
            continue
        sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        for source in reversed(sources):  # the first mapping listed wins, so it is applied last
            if not isinstance(source, yaml.MappingNode):
                raise ConstructorError(None, None, "a merge key (<<) needs a mapping or a list of mappings",
                                       source.start_mark)
            if id(source) in open_ids:
                raise ConstructorError(None, None, "a recursive alias: a merge key (<<) merges a mapping into "
                                       "itself", source.start_mark)
            _flatten(source, open_ids)
            merged.extend(source.value)
    if merged:
        latest = {_key_text(k): (k, v) for k, v in merged + own}  # later pairs win, each key kept once
        node.value = list(latest.values())
    else:
        node.value = own


def _key_text(node: yaml.Node) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise ConstructorError(None, None, "a mapping key must be a plain value, not a list or a mapping",
                               node.start_mark)
    return str(node.value)


def _shorten(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def decode(raw: bytes, name: str) -> str:
    """UTF-8 text (a BOM is accepted and dropped); binary and other encodings are refused."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw[:8192]:
        raise InputError("binary data, not a JSON or YAML text", file=name)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(f"not valid UTF-8 (byte 0x{raw[err.start]:02x})", file=name,
                         place=f"{line}:{column}") from None


def looks_like_json(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def parse_text(text: str, name: str, limits: Limits = DEFAULT_LIMITS) -> tuple[Any, str]:
    """Parse JSON or YAML; returns (data, "json" | "yaml"). Multi-document YAML gives a list.

    Text that starts like JSON is read as JSON; if that fails, a `.json` file is malformed JSON, and anything
    else is read again as YAML (a YAML flow mapping starts with `{` too).
    """
    if not text.strip():
        raise InputError("empty file", file=name)
    if looks_like_json(text):
        try:
            with _room_for_depth():
                data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_json_not_finite,
                                  parse_float=_json_float)
        except json.JSONDecodeError as err:
            if name.endswith(".json"):
                raise InputError(f"malformed JSON: {err.msg}", file=name,
                                 place=f"{err.lineno}:{err.colno}") from None
        except _DuplicateKey as err:
            raise InputError(f"duplicate key {err.key!r}", file=name, place=_json_duplicate_place(text, err.key)) \
                from None
        except RecursionError:
            raise _too_deep(name, limits) from None
        except _NotFinite as err:
            found = re.search(rf"(?<![\w.\"]){re.escape(err.literal)}(?![\w.])", text)
            raise InputError(_NOT_FINITE, file=name, place=_line_col(text, found.start()) if found else None) \
                from None
        except ValueError:  # an integer too long to convert
            digits = sys.get_int_max_str_digits()
            found = re.search(rf"\d{{{digits + 1},}}", text)
            raise InputError(f"a number with more than {digits} digits", file=name,
                             place=_line_col(text, found.start()) if found else None) from None
        else:
            _check_tree_depth(data, name, limits)
            _refuse_lone_surrogates(text, name)
            return data, "json"
    return _parse_yaml(text, name, limits), "yaml"


#: a `\\uD800`-`\\uDFFF` escape, not itself escaped (an even number of backslashes before it)
_SURROGATE = re.compile(r"(?<!\\)(?:\\\\)*\\u([dD][89a-fA-F][0-9a-fA-F]{2})")


def _refuse_lone_surrogates(text: str, name: str) -> None:
    """JSON may escape half of a UTF-16 pair on its own (`"\\ud800"`); that is no character, and no report
    could print it. A high half must be followed by a low half, and a low half must follow a high one."""
    if "\\ud" not in text and "\\uD" not in text:
        return  # the usual case, found at the speed of a substring search
    pending: re.Match[str] | None = None  # a high half waiting for its low half
    for found in _SURROGATE.finditer(text):
        high = found.group(1)[1].lower() in "89ab"
        if pending is not None and not high and found.start() == pending.end():
            pending = None
            continue
        if pending is not None or not high:
            bad = pending or found
            raise InputError(f"\\u{bad.group(1)} escapes half of a UTF-16 surrogate pair, not a character",
                             file=name, place=_line_col(text, bad.end() - 6))
        pending = found
    if pending is not None:
        raise InputError(f"\\u{pending.group(1)} escapes half of a UTF-16 surrogate pair, not a character",
                         file=name, place=_line_col(text, pending.end() - 6))


def _line_col(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def _json_duplicate_place(text: str, key: str) -> str | None:
    needle = json.dumps(key) + ":"
    first = text.find(needle)
    second = text.find(needle, first + 1) if first != -1 else -1
    if second == -1:
        needle = json.dumps(key)
        first = text.find(needle)
        second = text.find(needle, first + 1) if first != -1 else -1
    if second == -1:
        return None
    return _line_col(text, second)


def _parse_yaml(text: str, name: str, limits: Limits) -> Any:
    try:
        bound = _nesting_bound(text)
        if bound > limits.max_depth and (bound > _DEEP_NESTING or not _LIBYAML):
            _check_yaml_depth(text, name, limits)  # before composing, which recurses once per level
        if _LIBYAML and MAX_DEPTH_CEILING < bound <= _DEEP_NESTING:
            nodes = _on_deep_stack(_compose, text)
        else:
            with _room_for_depth():  # PyYAML's own composer recurses in Python
                nodes = _compose(text)
        shared = [0]
        docs = [_build(node, limits.max_depth, shared) for node in nodes]
    except _DuplicateKey as err:
        raise InputError(f"duplicate key {err.key!r}", file=name, place=f"{err.line}:{err.column}") from None
    except _TooDeep as err:
        raise _too_deep(name, limits, f"{err.mark.line + 1}:{err.mark.column + 1}") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        place = f"{mark.line + 1}:{mark.column + 1}" if mark else None
        if err.problem == _LIBYAML_TOO_DEEP:  # libyaml stopped first, past any --max-depth: where it stopped
            raise _too_deep(name, limits, place) from None
        raise InputError(_yaml_problem(err), file=name, place=place) from None
    except yaml.YAMLError as err:
        raise InputError(f"malformed YAML: {str(err).splitlines()[0]}", file=name) from None
    except RecursionError:
        raise _too_deep(name, limits) from None
    docs = [d for d in docs if d is not None]
    if not docs:
        raise InputError("empty file", file=name)
    data = docs[0] if len(docs) == 1 else docs
    if shared[0]:  # depth is already bounded while building; aliases may still expand or contain themselves
        check_shape(data, name, limits)
    return data


def _yaml_problem(err: yaml.MarkedYAMLError) -> str:
    problem = err.problem or err.context or "invalid YAML"
    if isinstance(err, ConstructorError):
        tag = re.search(r"constructor for the tag '([^']*)'", problem)
        if tag:
            shown = tag.group(1).replace(_YAML_TAG, "!!", 1)
            return f"YAML tag {shown!r} refused: only plain data (no objects, sets or binary) is read"
        return f"YAML value refused: {problem}"
    return f"malformed YAML: {problem}"


#: libyaml composes each level by recursion in C: on a thread with a _DEEP_STACK-byte stack it composes
#: _DEEP_NESTING levels safely (and in under a second), where the main thread's stack gives out near 10,000
_DEEP_STACK, _DEEP_NESTING = 256 * 1024 * 1024, 20_000


def _nesting_bound(text: str) -> int:
    """An upper bound on a YAML text's nesting: block nesting needs indentation, flow nesting brackets."""
    longest = max(map(len, text.splitlines()), default=0)
    return 2 * longest + text.count("[") + text.count("{") + 2


def _compose(text: str) -> list[yaml.Node]:
    composer = _Composer(text)
    try:
        nodes = []
        while composer.check_node():
            node = composer.get_node()
            if node is not None:
                nodes.append(node)
        return nodes
    finally:
        composer.dispose()


def _on_deep_stack(work: Callable[[str], list[yaml.Node]], text: str) -> list[yaml.Node]:
    """`work(text)` on a thread whose stack holds libyaml's recursion for any text under _DEEP_NESTING.

    Text that could nest that deep but does not (long lines, brackets in descriptions) is composed at once,
    instead of being walked event by event first; errors are raised here as if it ran on this thread.
    """
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work(text))
        except BaseException as err:  # handed to the calling thread, which reports it
            outcome.append(err)

    previous = threading.stack_size(_DEEP_STACK)
    try:
        worker = threading.Thread(target=run, name="specdiff-yaml")
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return list(outcome[0])


def _check_yaml_depth(text: str, name: str, limits: Limits) -> None:
    """Refuse YAML nested deeper than the limit before it is composed (libyaml would crash, not fail), by
    walking it as a stream of parser events; for text whose `_nesting_bound` is too large to compose first."""
    parser = YAML_LOADER(text)
    try:
        depth = 0
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > limits.max_depth:
                    mark = event.start_mark
                    raise _too_deep(name, limits, f"{mark.line + 1}:{mark.column + 1}" if mark else None)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        parser.dispose()


def _too_deep(name: str, limits: Limits, place: str | None = None) -> InputError:
    return InputError(f"nesting deeper than {limits.max_depth} levels (--max-depth)", file=name, place=place)


#: a tuple: `dict | list`, tested once per value of a whole spec, would build a union object for each test
_CONTAINERS = (dict, list)
_CONTAINER_TYPES = frozenset(_CONTAINERS)


def _check_tree_depth(data: Any, name: str, limits: Limits) -> None:
    """Refuse nesting deeper than the limit in a tree without shared nodes (JSON), one level at a time.

    The walk sees every value of the spec: each level's containers are picked out by C-level iterators
    (`compress` over the values' types, which JSON decodes to exactly dict or list), not a Python test per value."""
    level = [data] if type(data) in _CONTAINER_TYPES else []
    depth = 0
    while level:
        depth += 1
        if depth > limits.max_depth:
            raise _too_deep(name, limits)
        values = list(chain.from_iterable(node.values() if type(node) is dict else node for node in level))
        level = list(compress(values, map(_CONTAINER_TYPES.__contains__, map(type, values))))


def check_shape(data: Any, name: str, limits: Limits) -> None:
    """Refuse nesting deeper than the limit, alias expansions beyond the budget (billion laughs: in nodes, and
    in the text of aliased strings, which --max-bytes bounds as if the document were written out without
    aliases), and structures that contain themselves (`&a [*a]`).

    Each distinct node is visited once; a shared subtree (a YAML alias) is counted once per use through its
    memoised size and height, so the check is linear in the distinct nodes even when the expansion would be
    astronomically large.
    """
    size: dict[int, int] = {}  # id -> nodes it expands to
    text: dict[int, int] = {}  # id -> characters of the strings it expands to, keys included
    height: dict[int, int] = {}  # id -> levels below and including it
    open_ids: set[int] = set()  # ids on the path being walked
    stack: list[tuple[Any, int, bool]] = [(data, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        children = list(node.values()) if isinstance(node, dict) else node
        key = id(node)
        if not done and key in height:  # met again through another alias
            continue
        if done:
            open_ids.discard(key)
            containers = [c for c in children if isinstance(c, _CONTAINERS)]
            size[key] = 1 + sum(size.get(id(c), 1) for c in children)
            height[key] = 1 + max((height[id(c)] for c in containers), default=0)
            if size[key] > limits.max_alias_nodes:
                raise InputError(f"YAML aliases expand to more than {limits.max_alias_nodes} nodes "
                                 "(alias budget exceeded, --max-aliases)", file=name)
            text[key] = sum(len(c) if type(c) is str else text.get(id(c), 0) for c in children) \
                + (sum(map(len, node)) if isinstance(node, dict) else 0)
            if text[key] > limits.max_bytes:  # few nodes, long strings: a byte bomb, not a node bomb
                raise InputError(f"YAML aliases expand to more than {limits.max_bytes} bytes of text "
                                 "(alias budget exceeded, --max-bytes)", file=name)
            continue
        if depth > limits.max_depth:
            raise _too_deep(name, limits)
        open_ids.add(key)
        stack.append((node, depth, True))
        for child in children:
            if not isinstance(child, _CONTAINERS):
                continue
            if id(child) in open_ids:
                raise InputError("a YAML alias refers to a node that contains it (a structure that contains "
                                 "itself)", file=name)
            if id(child) in height:
                if depth + height[id(child)] > limits.max_depth:
                    raise _too_deep(name, limits)
            else:
                stack.append((child, depth + 1, False))
