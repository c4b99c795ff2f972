"""Bytes -> Python data, for JSON and YAML, with errors that name the file and the place.

JSON is read here; YAML by specdiff/load/yaml_text.py, imported only when a text is YAML. The limits and the
checks both share are in specdiff/load/limits.py (`Limits` is importable from here too).
"""

from __future__ import annotations

import json
import math
import re
import sys
import threading
from itertools import chain, compress
from typing import TYPE_CHECKING, Any

from specdiff.errors import InputError
from specdiff.load.limits import CONTAINERS, NOT_FINITE, DuplicateKey, recursion_limit, room_for_depth, too_deep
from specdiff.load.limits import DEFAULT_LIMITS as DEFAULT_LIMITS
from specdiff.load.limits import MAX_DEPTH_CEILING as MAX_DEPTH_CEILING
from specdiff.load.limits import Limits as Limits

if TYPE_CHECKING:
    from types import FrameType


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return result


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
    if not text or text.isspace():  # (what `not text.strip()` tells, without copying the text)
        raise InputError("empty file", file=name)
    if looks_like_json(text):
        try:
            data = _json_within(text, name, limits)
        except json.JSONDecodeError as err:
            if name.endswith(".json"):
                raise InputError(f"malformed JSON: {err.msg}", file=name,
                                 place=f"{err.lineno}:{err.colno}") from None
        except DuplicateKey as err:
            raise InputError(f"duplicate key {err.key!r}", file=name, place=_json_duplicate_place(text, err.key)) \
                from None
        except RecursionError:
            raise too_deep(name, limits) from None
        except _NotFinite as err:
            found = re.search(rf"(?<![\w.\"]){re.escape(err.literal)}(?![\w.])", text)
            raise InputError(NOT_FINITE, file=name, place=_line_col(text, found.start()) if found else None) \
                from None
        except ValueError:  # an integer too long to convert
            digits = sys.get_int_max_str_digits()
            found = re.search(rf"\d{{{digits + 1},}}", text)
            raise InputError(f"a number with more than {digits} digits", file=name,
                             place=_line_col(text, found.start()) if found else None) from None
        else:
            _refuse_lone_surrogates(text, name)
            return data, "json"
    from specdiff.load.yaml_text import parse_yaml  # PyYAML is loaded for YAML input only

    return parse_yaml(text, name, limits), "yaml"


def _json(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_json_not_finite,
                      parse_float=_json_float)


def _json_within(text: str, name: str, limits: Limits) -> Any:
    """The data of a JSON text no deeper than the limit. CPython's C scanner before 3.12 counts each level it
    enters against the interpreter's recursion limit, as a call does: under a limit of the frames on the stack
    (each counts one at least) plus `max_depth`, a text that parses nests `max_depth` levels at most, and the walk
    that measures the depth is spared (20 M instructions on the small pair, 120 M on the Kubernetes one). A text
    that does not parse so (deeper, or within a few levels of the limit) is parsed again with room and measured.
    The limit is the interpreter's, so it is lowered only while no other thread runs."""
    if _LEVELS_COUNTED and threading.active_count() == 1:
        try:
            with recursion_limit(_frames() + limits.max_depth):
                return _json(text)
        except RecursionError:
            pass
    with room_for_depth():
        data = _json(text)
    _check_tree_depth(data, name, limits)
    return data


#: whether `json.loads` counts the levels of a text against `sys.getrecursionlimit()` (from 3.12 C code has a
#: limit of its own)
_LEVELS_COUNTED = sys.implementation.name == "cpython" and sys.version_info < (3, 12)


def _frames() -> int:
    """The Python frames on the stack, the caller's among them."""
    frame: FrameType | None = sys._getframe(1)
    count = 0
    while frame is not None:
        frame, count = frame.f_back, count + 1
    return count


#: a `\\uD800`-`\\uDFFF` escape, or text that reads like one after an escaped backslash (`_escapes` tells them
#: apart): searched for by its literal prefix, a 4 MB spec takes 1.5 ms; a look-behind for the backslashes before it
#: made the search try each position, 100 ms on Twilio's spec, which writes emoji as surrogate pairs
_SURROGATE = re.compile(r"\\u([dD][89a-fA-F][0-9a-fA-F]{2})")


def _refuse_lone_surrogates(text: str, name: str) -> None:
    """JSON may escape half of a UTF-16 pair on its own (`"\\ud800"`); that is no character, and no report
    could print it. A high half must be followed by a low half, and a low half must follow a high one."""
    pending: re.Match[str] | None = None  # a high half waiting for its low half
    for found in _SURROGATE.finditer(text):
        if not _escapes(text, found.start()):
            continue  # `\\\\ud800`: a backslash, then text
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


def _escapes(text: str, at: int) -> bool:
    """Whether the backslash at `at` starts an escape: an even number of backslashes stands before it."""
    start = at
    while start and text[start - 1] == "\\":
        start -= 1
    return (at - start) % 2 == 0


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


#: a tuple: `dict | list`, tested once per value of a whole spec, would build a union object for each test
_CONTAINER_TYPES = frozenset(CONTAINERS)


def _check_tree_depth(data: Any, name: str, limits: Limits) -> None:
    """Refuse nesting deeper than the limit in a tree without shared nodes (JSON), one level at a time.

    The walk sees every value of the spec: each level's containers are picked out by C-level iterators
    (`compress` over the values' types, which JSON decodes to exactly dict or list), not a Python test per value;
    each level's children are listed by a comprehension, which spares resuming a generator for each container."""
    level = [data] if type(data) in _CONTAINER_TYPES else []
    depth = 0
    while level:
        depth += 1
        if depth > limits.max_depth:
            raise too_deep(name, limits)
        values = list(chain.from_iterable([node.values() if type(node) is dict else node for node in level]))
        level = list(compress(values, map(_CONTAINER_TYPES.__contains__, map(type, values))))


