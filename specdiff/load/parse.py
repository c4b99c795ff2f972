"""Bytes -> Python data, for JSON and YAML, with errors that name the file and the place."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import yaml

from specdiff.errors import InputError


@dataclass(frozen=True)
class Limits:
    """Guards against hostile input; every one can be raised from the command line."""

    max_bytes: int = 64 * 1024 * 1024
    max_depth: int = 256
    max_alias_nodes: int = 1_000_000  # nodes a YAML document may expand to through aliases


DEFAULT_LIMITS = Limits()


class _DuplicateKey(ValueError):
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


class _StrictLoader(yaml.CSafeLoader):
    """The C loader, refusing duplicate keys (YAML silently keeps the last one)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = key_node.value
            if key in seen and key_node.tag != "tag:yaml.org,2002:merge":
                mark = key_node.start_mark
                raise _DuplicateKey(str(key), mark.line + 1, mark.column + 1)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


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
    """Parse JSON or YAML; returns (data, "json" | "yaml"). Multi-document YAML gives a list."""
    if not text.strip():
        raise InputError("empty file", file=name)
    if looks_like_json(text):
        try:
            return json.loads(text, object_pairs_hook=_no_duplicates), "json"
        except json.JSONDecodeError as err:
            raise InputError(f"malformed JSON: {err.msg}", file=name,
                             place=f"{err.lineno}:{err.colno}") from None
        except _DuplicateKey as err:
            raise InputError(f"duplicate key {err.key!r}", file=name, place=_json_duplicate_place(text, err.key)) \
                from None
        except RecursionError:
            raise InputError(f"nesting deeper than {limits.max_depth} levels", file=name) from None
        except ValueError:
            pass  # not JSON after all (e.g. a YAML flow mapping); try YAML
    return _parse_yaml(text, name, limits), "yaml"


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
    line = text.count("\n", 0, second) + 1
    return f"{line}:{second - (text.rfind(chr(10), 0, second) + 1) + 1}"


def _parse_yaml(text: str, name: str, limits: Limits) -> Any:
    loader = _StrictLoader(text)
    try:
        docs = []
        while loader.check_data():  # type: ignore[no-untyped-call]
            docs.append(loader.get_data())
    except _DuplicateKey as err:
        raise InputError(f"duplicate key {err.key!r}", file=name, place=f"{err.line}:{err.column}") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        place = f"{mark.line + 1}:{mark.column + 1}" if mark else None
        problem = err.problem or err.context or "invalid YAML"
        raise InputError(f"malformed YAML: {problem}", file=name, place=place) from None
    except yaml.YAMLError as err:
        raise InputError(f"malformed YAML: {str(err).splitlines()[0]}", file=name) from None
    except RecursionError:
        raise InputError(f"nesting deeper than {limits.max_depth} levels", file=name) from None
    finally:
        loader.dispose()
    docs = [d for d in docs if d is not None]
    if not docs:
        raise InputError("empty file", file=name)
    data = docs[0] if len(docs) == 1 else docs
    check_shape(data, name, limits, aliases_possible="*" in text)
    return data


def check_shape(data: Any, name: str, limits: Limits, aliases_possible: bool) -> None:
    """Refuse nesting deeper than the limit and alias expansions beyond the budget (billion laughs).

    Shared subtrees are counted once per use, memoised by identity, so the check is linear in the
    distinct nodes even when the expansion would be astronomically large.
    """
    expanded: dict[int, int] = {}
    stack: list[tuple[Any, int, bool]] = [(data, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if depth > limits.max_depth:
            raise InputError(f"nesting deeper than {limits.max_depth} levels", file=name)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        key = id(node)
        if done:
            total = 1 + sum(expanded.get(id(c), 1) for c in children)
            expanded[key] = total
            if aliases_possible and total > limits.max_alias_nodes:
                raise InputError(f"YAML aliases expand to more than {limits.max_alias_nodes} nodes "
                                 "(alias budget exceeded)", file=name)
            continue
        if key in expanded:
            continue
        stack.append((node, depth, True))
        for child in children:
            if isinstance(child, dict | list) and id(child) not in expanded:
                stack.append((child, depth + 1, False))
