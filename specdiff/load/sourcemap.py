"""Lazy JSON Pointer -> line:column maps for JSON and YAML sources.

Building a full map costs as much as parsing again, and most runs never need one, so each map is built only
when a formatter asks for a location, and only along the pointers it asks about.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

_DECODER = json.JSONDecoder()
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]
_WS = " \t\n\r"
_NULL_TAG = "tag:yaml.org,2002:null"


def split_pointer(pointer: str) -> list[str]:
    """A pointer's tokens, unescaped: `//x` is the key `x` under the empty key, as RFC 6901 reads it."""
    if not pointer:
        return []
    return [unescape_token(t) for t in pointer.removeprefix("/").split("/")]


def unescape_token(token: str) -> str:
    """A JSON pointer token as the key it names (RFC 6901: `~1` is `/`, then `~0` is `~`)."""
    return token.replace("~1", "/").replace("~0", "~")


#: an array index in a JSON pointer (RFC 6901): ASCII digits, no leading zero; bounded, since no list in memory
#: is longer than 18 digits and a longer token would not even convert to an int
_INDEX = re.compile(r"0|[1-9][0-9]{0,17}")


def array_index(token: str, length: int) -> int | None:
    """The list position a pointer token names, or None: `²`, Arabic digits and `01` name none."""
    if _INDEX.fullmatch(token) is None:
        return None
    index = int(token)
    return index if index < length else None


#: what `at_pointer` finds where a pointer leads to nothing: None is a value a document holds (`default: null`)
NOTHING: Any = object()


def at_pointer(data: Any, pointer: str | Sequence[str]) -> Any:
    """The node a JSON pointer (or its tokens, unescaped) names in parsed data, or NOTHING: the one walk by
    RFC 6901, so that a pointer names the same node wherever it is followed."""
    node = data
    for token in split_pointer(pointer) if isinstance(pointer, str) else pointer:
        node = _step(node, token)
        if node is NOTHING:
            break
    return node


def nodes_along(data: Any, pointer: str | Sequence[str]) -> Iterator[Any]:
    """The node each token of a pointer leads to, in order (the root left out), as `at_pointer` walks them; they
    stop where a token leads to nothing."""
    node = data
    for token in split_pointer(pointer) if isinstance(pointer, str) else pointer:
        node = _step(node, token)
        if node is NOTHING:
            return
        yield node


def _step(node: Any, token: str) -> Any:
    if isinstance(node, dict):
        return node.get(token, NOTHING)
    if isinstance(node, list) and (index := array_index(token, len(node))) is not None:
        return node[index]
    return NOTHING


def join_pointer(tokens: list[str] | tuple[str, ...]) -> str:
    return "".join(["/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens])


# (bounded: keys come from the specs, and a history reads many)
@lru_cache(maxsize=4096)
def pointer_token(key: str) -> str:
    """`/` and a key escaped, as a pointer's next token: a walk over a document meets the same few keys
    (`properties`, `items`, status codes, media types) at every level."""
    return join_pointer((key,))


class SourceMap:
    """Finds where a pointer's node starts in the text. Subclasses know the syntax."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._line_starts: list[int] | None = None

    def locate(self, pointer: str) -> tuple[int, int] | None:
        raise NotImplementedError

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i != -1:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1


class JsonSourceMap(SourceMap):
    """Walks the JSON text along the pointer, skipping sibling values with the C decoder."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._members: dict[int, dict[str, tuple[int, int]]] = {}  # object offset -> key -> (key, value)
        self._scanned_to: dict[int, int] = {}
        self._elements: dict[int, list[int]] = {}  # array offset -> offsets of the elements scanned so far

    def _ws(self, i: int) -> int:
        text = self.text
        while i < len(text) and text[i] in _WS:
            i += 1
        return i

    def _member(self, obj: int, key: str) -> tuple[int, int] | None:
        members = self._members.setdefault(obj, {})
        if key in members:
            return members[key]
        text = self.text
        i = self._scanned_to.get(obj, obj + 1)
        while True:
            i = self._ws(i)
            if i >= len(text) or text[i] == "}":
                self._scanned_to[obj] = i
                return None
            if text[i] == ",":
                i = self._ws(i + 1)
            key_at = i
            name, i = _scanstring(text, i + 1)
            i = self._ws(self._ws(i) + 1)  # past ':'
            value_at = i
            members.setdefault(name, (key_at, value_at))
            _, i = _DECODER.raw_decode(text, value_at)
            self._scanned_to[obj] = i
            if name == key:
                return members[name]

    def _element(self, arr: int, index: int) -> int | None:
        """Scans each array once, however many of its elements are asked for: a rescan per element was
        quadratic on a long array."""
        text = self.text
        elements = self._elements.setdefault(arr, [])
        if index < len(elements):  # scanned already: skipping the last one again decoded it again, whole
            return elements[index]
        i = self._ws(arr + 1) if not elements else self._after(elements[-1])
        while len(elements) <= index:
            if i >= len(text) or text[i] == "]":
                return None
            elements.append(i)
            i = self._after(i)
        return elements[index]

    def _after(self, element: int) -> int:
        """The offset of the element after the one at `element` (or of the closing bracket)."""
        _, i = _DECODER.raw_decode(self.text, element)
        i = self._ws(i)
        if i < len(self.text) and self.text[i] == ",":
            i = self._ws(i + 1)
        return i

    def locate(self, pointer: str) -> tuple[int, int] | None:
        try:
            at = self._ws(1 if self.text.startswith("\ufeff") else 0)
            found = at
            for token in split_pointer(pointer):
                if self.text[at] == "{":
                    member = self._member(at, token)
                    if member is None:
                        return None
                    found, at = member
                elif self.text[at] == "[" and _INDEX.fullmatch(token):
                    element = self._element(at, int(token))
                    if element is None:
                        return None
                    found = at = element
                else:
                    return None
            return self.line_col(found)
        except (ValueError, IndexError):
            return None


class YamlSourceMap(SourceMap):
    """Composes the YAML node tree (C parser) once, on first use, and walks it."""

    def __init__(self, text: str, multi: bool = False) -> None:
        super().__init__(text)
        self.multi = multi
        self._root: Any = None
        self._keys: dict[int, dict[str, tuple[Any, Any]]] = {}  # id(mapping node) -> key -> (key mark, value)

    def _tree(self) -> Any:
        if self._root is None:
            from specdiff.load.yaml_text import YAML_LOADER  # a YAML source: PyYAML is loaded already

            loader = YAML_LOADER(self.text)
            try:
                nodes = []
                while loader.check_node():
                    nodes.append(loader.get_node())
            finally:
                loader.dispose()
            nodes = [n for n in nodes if n is not None and n.tag != _NULL_TAG]  # as the parser drops them
            self._root = nodes if self.multi else (nodes[0] if nodes else None)
        return self._root

    def locate(self, pointer: str) -> tuple[int, int] | None:
        import yaml

        node: Any = self._tree()
        mark = getattr(node, "start_mark", None)
        for token in split_pointer(pointer):
            if isinstance(node, list):
                index = array_index(token, len(node))
                if index is None:
                    return None
                node = node[index]
                mark = node.start_mark
            elif isinstance(node, yaml.MappingNode):
                member = self._mapping(node).get(token)
                if member is None:
                    return None
                mark, node = member
            elif isinstance(node, yaml.SequenceNode):
                index = array_index(token, len(node.value))
                if index is None:
                    return None
                node = node.value[index]
                mark = node.start_mark
            else:
                return None
        return (mark.line + 1, mark.column + 1) if mark is not None else None

    def _mapping(self, node: yaml.MappingNode) -> dict[str, tuple[Any, Any]]:
        """A mapping's keys indexed once (the tree keeps the node alive, so its id stays its own): a scan per
        lookup was quadratic on a wide mapping."""
        import yaml

        keys = self._keys.get(id(node))
        if keys is None:
            keys = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    keys.setdefault(str(key.value), (key.start_mark, value))
            self._keys[id(node)] = keys
        return keys
