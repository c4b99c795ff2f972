"""`$ref` resolution: local pointers, files beside the spec, and named-schema identity."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specdiff.errors import InputError
from specdiff.load.document import Document
from specdiff.load.parse import parse_text
from specdiff.load.sourcemap import JsonSourceMap, YamlSourceMap, split_pointer

NAMED_PREFIXES = ("/definitions/", "/components/schemas/")


class Resolver:
    """Resolves `$ref`s against the document they were written in; files are loaded once."""

    def __init__(self, root: Document, allow_remote: bool = False) -> None:
        self.root = root
        self.allow_remote = allow_remote

    def split(self, ref: str, doc: Document, at: str) -> tuple[Document, str]:
        """The document a ref points into and the pointer inside it."""
        location, _, fragment = ref.partition("#")
        if not location:
            return doc, fragment
        if "://" in location:
            raise InputError(f"remote $ref {ref!r} refused (remote references are not fetched)",
                             file=doc.name, place=at)
        return self._external(location, doc, at), fragment

    def _external(self, location: str, doc: Document, at: str) -> Document:
        if doc.base is None or doc.reader is None:
            raise InputError(f"$ref to file {location!r} cannot be resolved from this input", file=doc.name,
                             place=at)
        base = self.root.base.resolve() if self.root.base else doc.base.resolve()
        target = (doc.base / location).resolve()
        if not target.is_relative_to(base):
            raise InputError(f"$ref {location!r} leaves the spec's folder (refused)", file=doc.name, place=at)
        key = str(target)
        if key not in self.root.externals:
            name = str(Path(doc.name).parent / location) if doc.name != "<stdin>" else location
            text = doc.reader(target, name)
            self.root.externals[key] = load_text_any(text, name, target.parent, doc)
        return self.root.externals[key]

    def lookup(self, ref: str, doc: Document, at: str) -> tuple[Any, Document, str]:
        """(target object, its document, its pointer); a dangling ref is an input error."""
        target_doc, pointer = self.split(ref, doc, at)
        node: Any = target_doc.data
        for token in split_pointer(pointer):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise InputError(f"$ref {ref!r} points at nothing", file=doc.name, place=at)
        return node, target_doc, pointer

    def named(self, ref: str, doc: Document, at: str) -> str | None:
        """The named-schema identity of a ref (`Pet` for `#/components/schemas/Pet`), or None if inline."""
        target_doc, pointer = self.split(ref, doc, at)
        for prefix in NAMED_PREFIXES:
            if pointer.startswith(prefix) and "/" not in pointer[len(prefix):]:
                return split_pointer(pointer)[-1]
        return None


def load_text_any(text: str, name: str, base: Path, parent: Document) -> Document:
    """Files reached by $ref may be schema fragments, not whole specs: skip dialect detection for them."""
    data, fmt = parse_text(text, name)
    sourcemap = JsonSourceMap(text) if fmt == "json" else YamlSourceMap(text)
    return Document(name=name, data=data, dialect=parent.dialect, format=fmt, base=base, sourcemap=sourcemap,
                    reader=parent.reader)
