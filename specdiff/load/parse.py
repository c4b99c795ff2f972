"""Bytes -> Python data, for JSON and YAML, with errors that name the file and the place.

Only plain data is ever built: mappings with string keys, lists, strings, numbers, booleans and null. YAML
tags that construct anything else (`!!python/...`, `!!binary`, `!!set`, custom tags) are refused, so nothing
in a spec is ever executed or turned into an object.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any, ClassVar

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from specdiff.errors import InputError

#: libyaml composes nested nodes by recursion in C, which crashes the process somewhere past ~10,000 levels;
#: --max-depth may not go beyond this, and YAML that could nest deeper is measured before it is composed
MAX_DEPTH_CEILING = 1000


@dataclass(frozen=True)
class Limits:
    """Guards against hostile input; every one can be changed from the command line (README "Limits")."""

    max_bytes: int = 64 * 1024 * 1024
    max_depth: int = 256
    max_alias_nodes: int = 1_000_000  # nodes a YAML document may expand to through aliases
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


class _StrictLoader(yaml.CSafeLoader):
    """The C parser with a constructor for plain data only.

    Mapping keys are kept as written (`200:` is the key "200", as in JSON), duplicate keys are refused (YAML
    silently keeps the last one), timestamps stay strings, and merge keys (`<<`) are flattened without
    repeating keys, so merging a merge of merges cannot grow exponentially.
    """

    yaml_constructors: ClassVar[dict[Any, Any]] = {
        **{_YAML_TAG + kind: SafeConstructor.yaml_constructors[_YAML_TAG + kind]
           for kind in ("null", "bool", "int", "float", "str", "seq", "map")},
        _YAML_TAG + "timestamp": SafeConstructor.construct_scalar,
        None: SafeConstructor.construct_undefined,
    }
    yaml_multi_constructors: ClassVar[dict[Any, Any]] = {}

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as err:
            # an explicit tag on a value it cannot read (`!!int abc`), or an integer too long to convert
            kind = node.tag.removeprefix(_YAML_TAG)
            problem = f"a number with more than {sys.get_int_max_str_digits()} digits" if "digits" in str(err) \
                else f"{_shorten(str(node.value))!r} is not a valid {kind}"
            raise ConstructorError(None, None, problem, node.start_mark) from None

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
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
                self.flatten_mapping(source)
                merged.extend(source.value)
        if merged:
            latest = {_key_text(k): (k, v) for k, v in merged + own}  # later pairs win, each key kept once
            node.value = list(latest.values())
        else:
            node.value = own

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:  # type: ignore[override]
        seen: set[str] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            key = _key_text(key_node)
            if key in seen:
                mark = key_node.start_mark
                raise _DuplicateKey(key, mark.line + 1, mark.column + 1)
            seen.add(key)
        self.flatten_mapping(node)
        return {_key_text(k): self.construct_object(v, deep=deep) for k, v in node.value}


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
            data = json.loads(text, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as err:
            if name.endswith(".json"):
                raise InputError(f"malformed JSON: {err.msg}", file=name,
                                 place=f"{err.lineno}:{err.colno}") from None
        except _DuplicateKey as err:
            raise InputError(f"duplicate key {err.key!r}", file=name, place=_json_duplicate_place(text, err.key)) \
                from None
        except RecursionError:
            raise _too_deep(name, limits) from None
        except ValueError:  # an integer too long to convert
            digits = sys.get_int_max_str_digits()
            found = re.search(rf"\d{{{digits + 1},}}", text)
            raise InputError(f"a number with more than {digits} digits", file=name,
                             place=_line_col(text, found.start()) if found else None) from None
        else:
            _check_tree_depth(data, name, limits)
            return data, "json"
    return _parse_yaml(text, name, limits), "yaml"


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
        _check_yaml_depth(text, name, limits)
        loader = _StrictLoader(text)
        try:
            docs = []
            while loader.check_data():  # type: ignore[no-untyped-call]
                docs.append(loader.get_data())
        finally:
            loader.dispose()
    except _DuplicateKey as err:
        raise InputError(f"duplicate key {err.key!r}", file=name, place=f"{err.line}:{err.column}") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        place = f"{mark.line + 1}:{mark.column + 1}" if mark else None
        raise InputError(_yaml_problem(err), file=name, place=place) from None
    except yaml.YAMLError as err:
        raise InputError(f"malformed YAML: {str(err).splitlines()[0]}", file=name) from None
    except RecursionError:
        raise _too_deep(name, limits) from None
    docs = [d for d in docs if d is not None]
    if not docs:
        raise InputError("empty file", file=name)
    data = docs[0] if len(docs) == 1 else docs
    check_shape(data, name, limits, aliases_possible="*" in text)
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


def _check_yaml_depth(text: str, name: str, limits: Limits) -> None:
    """Refuse YAML nested deeper than the limit before it is composed (libyaml would crash, not fail).

    Block nesting needs indentation and flow nesting needs brackets, so text whose longest line and bracket
    count are small cannot nest deeper than libyaml composes safely (check_shape then applies the limit);
    only other text is walked here, as a stream of parser events.
    """
    longest = max(map(len, text.splitlines()), default=0)
    if 2 * longest + text.count("[") + text.count("{") + 2 <= MAX_DEPTH_CEILING:
        return
    parser = yaml.CSafeLoader(text)
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


def _check_tree_depth(data: Any, name: str, limits: Limits) -> None:
    """Refuse nesting deeper than the limit in a tree without shared nodes (JSON), one level at a time."""
    level = [data] if isinstance(data, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limits.max_depth:
            raise _too_deep(name, limits)
        level = [child for node in level for child in (node.values() if isinstance(node, dict) else node)
                 if isinstance(child, dict | list)]


def check_shape(data: Any, name: str, limits: Limits, aliases_possible: bool) -> None:
    """Refuse nesting deeper than the limit, alias expansions beyond the budget (billion laughs), and
    structures that contain themselves (`&a [*a]`).

    Each distinct node is visited once; a shared subtree (a YAML alias) is counted once per use through its
    memoised size and height, so the check is linear in the distinct nodes even when the expansion would be
    astronomically large.
    """
    size: dict[int, int] = {}  # id -> nodes it expands to
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
            containers = [c for c in children if isinstance(c, dict | list)]
            size[key] = 1 + sum(size.get(id(c), 1) for c in children)
            height[key] = 1 + max((height[id(c)] for c in containers), default=0)
            if aliases_possible and size[key] > limits.max_alias_nodes:
                raise InputError(f"YAML aliases expand to more than {limits.max_alias_nodes} nodes "
                                 "(alias budget exceeded, --max-aliases)", file=name)
            continue
        if depth > limits.max_depth:
            raise _too_deep(name, limits)
        open_ids.add(key)
        stack.append((node, depth, True))
        for child in children:
            if not isinstance(child, dict | list):
                continue
            if id(child) in open_ids:
                raise InputError("a YAML alias refers to a node that contains it (a structure that contains "
                                 "itself)", file=name)
            if id(child) in height:
                if depth + height[id(child)] > limits.max_depth:
                    raise _too_deep(name, limits)
            else:
                stack.append((child, depth + 1, False))
