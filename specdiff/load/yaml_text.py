"""YAML text -> plain data: loaded only for YAML input (a JSON spec never imports PyYAML).

Only plain data is ever built: mappings with string keys, lists, strings, numbers, booleans and null. YAML
tags that construct anything else (`!!python/...`, `!!binary`, `!!set`, custom tags) are refused, so nothing
in a spec is ever executed or turned into an object.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from specdiff.errors import InputError
from specdiff.load.limits import (
    MAX_DEPTH_CEILING,
    DuplicateKey,
    Limits,
    NotANumber,
    bounded,
    check_aliases,
    finite,
    room_for_depth,
    shorten,
    too_deep,
    too_many_digits,
)

#: libyaml's parser where PyYAML was built with it (its wheels are), else PyYAML's own: slower, the same data
YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LIBYAML = YAML_LOADER is not yaml.SafeLoader
#: what libyaml says (from PyYAML 6.0.4 on) when it meets its own nesting limit, which is above MAX_DEPTH_CEILING
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


_YAML_TAG = "tag:yaml.org,2002:"
_MERGE = _YAML_TAG + "merge"
_STR, _MAP, _SEQ = _YAML_TAG + "str", _YAML_TAG + "map", _YAML_TAG + "seq"
_CONSTRUCTOR = SafeConstructor()  # only its number readers are used: they read a node's text
#: scalar tags read as the value they say; a timestamp stays the string it is written as (JSON has no dates)
_SCALARS: dict[str, Any] = {
    _YAML_TAG + "null": lambda node: None,
    _YAML_TAG + "bool": lambda node: SafeConstructor.bool_values[node.value.lower()],
    _YAML_TAG + "int": lambda node: bounded(SafeConstructor.construct_yaml_int(_CONSTRUCTOR, node)),
    _YAML_TAG + "float": lambda node: finite(SafeConstructor.construct_yaml_float(_CONSTRUCTOR, node)),
    _YAML_TAG + "timestamp": lambda node: node.value,
}


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


#: a number as the YAML 1.2 core schema reads a plain scalar: `1e-8` and `1e-08` (YAML 1.1, and so PyYAML, needs
#: a dot and a signed exponent and reads both as strings); `.inf` and `.nan` are read alike by both
_YAML12_INT = re.compile(r"[-+]?[0-9]+")
_YAML12_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")


_NUMBER_STARTS = frozenset("+-.0123456789")


def _yaml12_number(text: str) -> Any:
    """The number a plain scalar is under YAML 1.2 that YAML 1.1 read as a string; None when it is none."""
    if _YAML12_INT.fullmatch(text):
        return bounded(int(text))
    if _YAML12_FLOAT.fullmatch(text):
        return finite(float(text))
    return None


def _declares_yaml12(root: yaml.Node) -> bool:
    """Whether a document says it is OpenAPI 3.1 (`openapi: 3.1.0`), which is written in YAML 1.2."""
    return isinstance(root, yaml.MappingNode) and any(
        isinstance(key, yaml.ScalarNode) and key.value == "openapi" and isinstance(value, yaml.ScalarNode)
        and str(value.value).startswith("3.1") for key, value in root.value)


class _Sharing:
    """What reading a document met: how many nodes it built, and each use of an alias, as the value the alias
    names and the depth it is used at (`check_aliases` measures what they expand to)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.uses: list[tuple[Any, int]] = []


def _build(root: yaml.Node, max_depth: int, sharing: _Sharing) -> Any:
    """Plain data from a composed YAML node tree.

    Mapping keys are kept as written (`200:` is the key "200", as in JSON), duplicate keys are refused (YAML
    silently keeps the last one), and merge keys (`<<`) are flattened without repeating keys, so merging a merge
    of merges cannot grow exponentially. A node met again through an alias is the same object, built once; a
    container is registered before its children are built, so a structure that contains itself is built as
    such (and refused afterwards by `check_aliases`) instead of recursing forever. Any tag but those of plain
    data is refused, and so is a collection nested deeper than `max_depth`. Each node built and each node met
    again through an alias is noted in `sharing`: without a use, the tree has no shared part to measure.
    """
    built: dict[int, Any] = {}
    yaml12 = _declares_yaml12(root)  # OpenAPI 3.1: its plain numbers as YAML 1.2 reads them

    def build(node: yaml.Node, depth: int) -> Any:
        found = built.get(id(node))
        if found is not None or id(node) in built:
            sharing.uses.append((found, depth))
            return found
        sharing.nodes += 1
        tag = node.tag
        if tag == _STR and isinstance(node, yaml.ScalarNode):
            if yaml12 and not node.style and node.value[:1] in _NUMBER_STARTS:  # plain, not quoted
                number = _yaml12_number(node.value)
                if number is not None:
                    built[id(node)] = number
                    return number
            if len(node.value) >= _SHARED_TEXT:  # an alias of it may repeat its bytes: counted by check_aliases
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
                    raise DuplicateKey(text, key.start_mark.line + 1, key.start_mark.column + 1)
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
        except NotANumber as err:
            raise ConstructorError(None, None, str(err), node.start_mark) from None
        except (ValueError, KeyError) as err:  # `!!int abc`, or an integer too long to convert
            problem = too_many_digits() if "digits" in str(err) \
                else f"{shorten(str(node.value))!r} is not a valid {tag.removeprefix(_YAML_TAG)}"
            raise ConstructorError(None, None, problem, node.start_mark) from None
        built[id(node)] = value
        return value

    with room_for_depth():  # build refuses more than max_depth levels
        return build(root, 1)


def _refuse_duplicates(pairs: list[tuple[yaml.Node, yaml.Node]]) -> None:
    seen: set[str] = set()
    for key_node, _ in pairs:
        if key_node.tag == _MERGE:
            continue
        key = _key_text(key_node)
        if key in seen:
            raise DuplicateKey(key, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
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


def parse_yaml(text: str, name: str, limits: Limits) -> Any:
    try:
        bound = _nesting_bound(text)
        if bound > limits.max_depth and (bound > _DEEP_NESTING or not _LIBYAML):
            _check_yaml_depth(text, name, limits)  # before composing, which recurses once per level
        if _LIBYAML and MAX_DEPTH_CEILING < bound <= _DEEP_NESTING:
            nodes = _on_deep_stack(_compose, text)
        else:
            with room_for_depth():  # PyYAML's own composer recurses in Python
                nodes = _compose(text)
        sharing = _Sharing()
        docs = [_build(node, limits.max_depth, sharing) for node in nodes]
    except DuplicateKey as err:
        raise InputError(f"duplicate key {err.key!r}", file=name, place=f"{err.line}:{err.column}") from None
    except _TooDeep as err:
        raise too_deep(name, limits, f"{err.mark.line + 1}:{err.mark.column + 1}") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        place = f"{mark.line + 1}:{mark.column + 1}" if mark else None
        if err.problem == _LIBYAML_TOO_DEEP:  # libyaml stopped first, past any --max-depth: where it stopped
            raise too_deep(name, limits, place) from None
        raise InputError(_yaml_problem(err), file=name, place=place) from None
    except yaml.YAMLError as err:
        raise InputError(f"malformed YAML: {str(err).splitlines()[0]}", file=name) from None
    except RecursionError:
        raise too_deep(name, limits) from None
    docs = [d for d in docs if d is not None]
    if not docs:
        raise InputError("empty file", file=name)
    data = docs[0] if len(docs) == 1 else docs
    if sharing.uses:  # depth is already bounded while building; aliases may still expand or contain themselves
        check_aliases(sharing.uses, sharing.nodes, len(text), data, name, limits)
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
                    raise too_deep(name, limits, f"{mark.line + 1}:{mark.column + 1}" if mark else None)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        parser.dispose()


