"""`$ref` resolution: local pointers, files beside the spec, remote documents when allowed, named-schema identity.

Files may not leave the spec's folder. Remote (http, https) documents are fetched only when the limits the
spec was read under allow it (`--allow-remote-refs`), within a timeout and the size limit. A chain of `$ref`s
that comes back to where it started without reaching a schema is an input error, not an endless loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from specdiff.errors import InputError
from specdiff.load.document import REMOTE_SCHEMES, Document
from specdiff.load.files import inside
from specdiff.load.parse import decode, parse_text
from specdiff.load.sourcemap import JsonSourceMap, SourceMap, YamlSourceMap, array_index, split_pointer

NAMED_PREFIXES = ("/definitions/", "/components/schemas/")


class Resolver:
    """Resolves `$ref`s against the document they were written in; files and URLs are loaded once.

    The resolver owns what it loaded: `externals` maps each file (by its path inside the spec's folder) and each
    URL to its document, and `key` names any document the same way on both sides of a comparison.
    """

    def __init__(self, root: Document) -> None:
        self.root = root
        self.externals: dict[str, Document] = {}
        self._keys: dict[Document, str] = {}
        self._own: dict[Path, Document] | None = None
        self._acyclic: set[tuple[int, str]] = set()  # (document id, pointer) of $ref chains known to end
        #: (ref, document id) -> what it resolved to; a spec repeats the same few refs thousands of times
        self._found: dict[tuple[str, int], tuple[Any, Document, str]] = {}
        self._names: dict[tuple[str, int], str | None] = {}

    def split(self, ref: str, doc: Document, at: str) -> tuple[Document, str]:
        """The document a ref points into and the pointer inside it."""
        location, _, fragment = ref.partition("#")
        fragment = unquote(fragment)
        if not location:
            return doc, fragment
        return self._external(location, doc, at), fragment

    def _external(self, location: str, doc: Document, at: str) -> Document:
        try:
            scheme = urlsplit(location).scheme.lower()
        except ValueError as err:  # a bracketed host that is no IP address, an invalid port
            raise self.error(f"$ref {location!r} is no address: {err}", doc, at) from None
        if scheme in REMOTE_SCHEMES or (not scheme and _is_remote(doc)):
            return self._remote(urljoin(doc.name, location) if _is_remote(doc) else location, doc, at)
        if "://" in location:
            raise self.error(f"$ref {location!r} refused: only http and https addresses can be fetched", doc, at)
        if doc.base is None or doc.reader is None:
            raise self.error(f"$ref to file {location!r} cannot be resolved from this input", doc, at)
        if "\0" in location:
            raise self.error(f"$ref {location!r} holds a NUL character, which no file name can", doc, at)
        base = self.root.base.resolve() if self.root.base else doc.base.resolve()
        try:
            target = (doc.base / location).resolve()
        except (OSError, RuntimeError):  # a symlink loop; its message would show the absolute path
            raise self.error(f"$ref {location!r} is a symlink loop", doc, at) from None
        if not inside(target, base):
            raise self.error(f"$ref {location!r} leaves the spec's folder (refused)", doc, at)
        own = self._own_files().get(target)
        if own is not None:
            return own  # a ref back into the spec's own file (or a directory's document) is into that document
        key = target.relative_to(base).as_posix()
        if key not in self.externals:
            name = str(Path(doc.name).parent / location) if doc.name != "<stdin>" else location
            try:
                text = doc.reader(target, name)
            except InputError as err:  # the file named alone would not say which spec, nor where, refers to it
                raise self.error(f"$ref {location!r}: {err.detail}", doc, at) from None
            self._loaded(key, load_text_any(text, name, target.parent, doc))
        return self.externals[key]

    def _own_files(self) -> dict[Path, Document]:
        """The files the spec itself was read from (a directory's documents), by resolved path."""
        if self._own is None:
            docs = [part for _, part in self.root.parts] or [self.root]
            self._own = {(doc.base / Path(doc.name).name).resolve(): doc for doc in docs if doc.base is not None}
        return self._own

    def _loaded(self, key: str, doc: Document) -> None:
        self.externals[key] = doc
        self._keys[doc] = key

    def key(self, doc: Document) -> str | None:
        """A file or URL reached by `$ref`: its path inside the spec's folder, or its URL; None for the spec's own."""
        return self._keys.get(doc)

    def _remote(self, url: str, doc: Document, at: str) -> Document:
        url = url.partition("#")[0]
        if url not in self.externals:
            limits = self.root.limits
            if not limits.allow_remote_refs:
                raise self.error(f"remote $ref {url!r} refused (remote references are fetched only with "
                                 "--allow-remote-refs)", doc, at)
            from specdiff.graph.remote import fetch  # the HTTP client is loaded only when it is needed

            text = decode(fetch(url, limits.max_bytes, limits.remote_timeout, lambda why: self.error(
                f"remote $ref {url!r} could not be fetched: {why}", doc, at)), url)
            self._loaded(url, load_text_any(text, url, None, doc))
        return self.externals[url]

    def lookup(self, ref: str, doc: Document, at: str) -> tuple[Any, Document, str]:
        """(target object, its document, its pointer); a dangling ref or a cycle of bare refs is an input error."""
        found = self._found.get((ref, id(doc)))
        if found is not None:
            return found
        target_doc, pointer = self.split(ref, doc, at)
        node = self._walk(ref, target_doc, pointer, doc, at)
        if _is_ref(node) and (id(target_doc), pointer) not in self._acyclic:
            self._check_chain(node, target_doc, pointer, doc, at)
        found = self._found[(ref, id(doc))] = (node, target_doc, pointer)
        return found

    def reached_roots(self, doc: Document) -> frozenset[str]:
        """The top-level keys of `doc` that a `$ref` resolved so far points into (`x-lib` for `#/x-lib/Foo`):
        what is written there is compared where it is used."""
        return frozenset(split_pointer(pointer)[0] for _, target, pointer in self._found.values()
                         if target is doc and pointer.startswith("/"))

    def _walk(self, ref: str, target_doc: Document, pointer: str, doc: Document, at: str) -> Any:
        node: Any = target_doc.data
        for token in split_pointer(pointer):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and (index := array_index(token, len(node))) is not None:
                node = node[index]
            else:
                raise self.error(f"$ref {ref!r} points at nothing", doc, at)
        return node

    def _check_chain(self, node: Any, target_doc: Document, pointer: str, doc: Document, at: str) -> None:
        """Follow a target that is itself a `$ref` until something else: coming back means no schema at all.
        The chain is a set, so a chain of thousands of bare refs is walked once, not searched once per link."""
        chain = {(id(target_doc), pointer)}
        shown = [pointer or "#"]
        while _is_ref(node):
            next_at = pointer + "/$ref"
            ref = node["$ref"]
            target_doc, pointer = self.split(ref, target_doc, next_at)
            node = self._walk(ref, target_doc, pointer, target_doc, next_at)
            key = (id(target_doc), pointer)
            if key in self._acyclic:
                break
            shown.append(pointer or "#")
            if key in chain:
                raise self.error(f"$ref cycle with no schema in it: {' -> '.join(shown)}", doc, at)
            chain.add(key)
        self._acyclic.update(chain)

    def named(self, ref: str, doc: Document, at: str) -> str | None:
        """The named-schema identity of a ref (`Pet` for `#/components/schemas/Pet`), or None if inline."""
        key = (ref, id(doc))
        if key in self._names:
            return self._names[key]
        target_doc, pointer = self.split(ref, doc, at)
        home = self.home(target_doc, pointer)
        name = self._names[key] = home[0] if home is not None and not home[1] else None
        return name

    def home(self, doc: Document, pointer: str) -> tuple[str, str] | None:
        """(named-schema identity, pointer inside it) of a place inside a named schema; None elsewhere.

        A named schema of the spec's own documents is known by its name (`Pet`); one written in a file or URL
        reached by `$ref`, by that file and its pointer (`common.yaml#/components/schemas/Pet`): on one side
        they are two schemas, so neither hides a change to the other (one moved from the spec into the file
        between the versions is still paired by its written name, see `diff.match_schemas`).
        """
        for prefix in NAMED_PREFIXES:
            if pointer.startswith(prefix):
                name, slash, rest = pointer[len(prefix):].partition("/")
                file = self.key(doc)
                if file is None:
                    return split_pointer("/" + name)[0], slash + rest
                return f"{file}#{prefix}{name}", slash + rest
        return None

    @staticmethod
    def error(message: str, doc: Document, at: str) -> InputError:
        """An error at a pointer of a document, placed by line:column when the source map finds it."""
        found = doc.locate(at) if at else None
        return InputError(message, file=doc.name, place=f"{found[0]}:{found[1]}" if found else at or None)


def plain_name(name: str) -> str:
    """A named schema's name as its document writes it (`Pet` for `common.yaml#/components/schemas/Pet`)."""
    file, hash_, pointer = name.partition("#/")
    return split_pointer("/" + pointer)[-1] if hash_ and file else name


def _is_ref(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("$ref"), str)


def _is_remote(doc: Document) -> bool:
    return urlsplit(doc.name).scheme.lower() in REMOTE_SCHEMES


def load_text_any(text: str, name: str, base: Path | None, parent: Document) -> Document:
    """Files reached by $ref may be schema fragments, not whole specs: skip dialect detection for them."""
    data, fmt = parse_text(text, name, parent.limits)
    sourcemap: SourceMap = JsonSourceMap(text) if fmt == "json" else YamlSourceMap(text)
    return Document(name=name, data=data, dialect=parent.dialect, format=fmt, base=base, sourcemap=sourcemap,
                    reader=parent.reader if base is not None else None, limits=parent.limits)
