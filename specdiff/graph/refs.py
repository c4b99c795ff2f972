"""`$ref` resolution: local pointers, files beside the spec, remote documents when allowed, named-schema identity.

An OpenAPI 3.1 document that declares identifiers (`$id`, `$anchor`, `$dynamicAnchor`) has its references
resolved as JSON Schema 2020-12 does (graph.refs2020); every other document, pointer by pointer as before.

Files may not leave the spec's folder. Remote (http, https) documents are fetched only when the limits the
spec was read under allow it (`--allow-remote-refs`), within a timeout and the size limit. A chain of `$ref`s
that comes back to where it started without reaching a schema is an input error, not an endless loop.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from specdiff.errors import InputError
from specdiff.load.document import REMOTE_SCHEMES, Document, mappings
from specdiff.load.files import Folders
from specdiff.load.parse import decode, parse_text
from specdiff.load.sourcemap import (
    NOTHING,
    JsonSourceMap,
    SourceMap,
    YamlSourceMap,
    at_pointer,
    join_pointer,
    split_pointer,
    unescape_token,
)

if TYPE_CHECKING:
    from specdiff.graph.refs2020 import Resources

NAMED_PREFIXES = ("/definitions/", "/components/schemas/")
#: the dialects whose schemas are JSON Schema 2020-12 (or name their own dialect)
MODERN = ("openapi-3.1", "openapi-3.2")
#: the keywords that give a document identifiers its references resolve against
IDENTIFIERS = frozenset({"$id", "$anchor", "$dynamicAnchor", "$dynamicRef"})


def declares_identifiers(data: Any) -> bool:
    """Whether any mapping of a document writes an identifier (one pass, stopping at the first)."""
    if isinstance(data, dict) and isinstance(data.get("$self"), str) and str(data.get("openapi", "")).startswith("3.2"):
        return True
    return any(not IDENTIFIERS.isdisjoint(node) for node in mappings(data))


@cache
def naming_keywords() -> frozenset[str]:
    """The keywords of the 2020-12 core vocabulary that name schemas or hold them (`$id`, `$anchor`,
    `$dynamicAnchor`, `$defs`, `$vocabulary`), read from python-jsonschema's copy of its metaschema:
    they constrain no value, so beside a `$ref` they are not laid over its target, and their own changes show
    only where a reference reads them. `$ref` and `$dynamicRef` are followed; `$schema` changes what every
    keyword means, so it stays compared; `$comment` is a note for readers, reported as the metadata it is.
    (The file is read without importing its package, which builds a registry of every metaschema: most 3.1
    comparisons need no more than this list.)"""
    import importlib.util  # here, not at the top: the installed command has not imported it, and few runs ask

    found = importlib.util.find_spec("jsonschema_specifications")
    assert found is not None and found.submodule_search_locations, "jsonschema-specifications is a dependency"
    core = os.path.join(found.submodule_search_locations[0], "schemas", "draft202012", "vocabularies", "core")
    with open(core, encoding="utf-8") as fh:
        return frozenset(json.load(fh)["properties"]) - {"$ref", "$dynamicRef",
                                                                                   "$schema", "$comment"}


class Resolver:
    """Resolves `$ref`s against the document they were written in; files and URLs are loaded once.

    The resolver owns what it loaded: `externals` maps each file (by its path inside the spec's folder) and each
    URL to its document, and `key` names any document the same way on both sides of a comparison.
    """

    def __init__(self, root: Document) -> None:
        self.root = root
        self.externals: dict[str, Document] = {}
        self._keys: dict[Document, str] = {}
        self._own: dict[str, Document] | None = None
        self._acyclic: set[tuple[int, str]] = set()  # (document id, pointer) of $ref chains known to end
        #: (ref, document id) -> what it resolved to; a spec repeats the same few refs thousands of times
        self._found: dict[tuple[str, int] | tuple[str, int, str], tuple[Any, Document, str]] = {}
        self._names: dict[tuple[str, int] | tuple[str, int, str], str | None] = {}
        self._resources: Resources | None = None
        self._files: dict[tuple[str, str], Document] = {}  # (folder of the referring file, location) -> file
        self._folders: Folders | None = None  # the spec's folder, which files may not leave
        self._reached: tuple[int, dict[int, frozenset[str]]] = (0, {})
        #: every `$ref` followed from or into a file or URL: (id of its document, where it is written, id of the
        #: target's document, pointer)
        self.links: set[tuple[int, str, int, str]] = set()
        #: the places `inline` wrote into data compared as data, by document id: a difference there is reported
        #: where the data is compared
        self.inlined: dict[int, set[str]] = {}
        #: `$ref`s in data compared as data that could not be followed: (document name, pointer) -> the error
        self.unfollowed: dict[tuple[str, str], str] = {}
        self._modern: dict[int, bool] = {}
        #: (ref, base URI, dynamic scope, whether dynamic) -> the place a 2020-12 reference reaches
        self._located: dict[tuple[str, str, tuple[str, ...], bool], tuple[Document, str]] = {}

    def modern(self, doc: Document) -> bool:
        """Whether a document's references resolve as JSON Schema 2020-12 does: a 3.1 document (or a file it
        refers to) that declares identifiers. The others resolve a ref the same wherever it is written."""
        known = self._modern.get(id(doc))
        if known is None:
            known = doc.dialect in MODERN and declares_identifiers(doc.data)
            self._modern[id(doc)] = known
        return known

    def _key(self, ref: str, doc: Document, at: str) -> tuple[str, int] | tuple[str, int, str]:
        """What a ref's target depends on: the ref and its document, and in a 2020-12 document the base URI."""
        if self.modern(doc) or (doc.dialect in MODERN and not _is_pointer(ref)):
            return ref, id(doc), self._resources_with(doc).base(doc, at)
        return ref, id(doc)

    def split(self, ref: str, doc: Document, at: str) -> tuple[Document, str]:
        """The document a ref points into and the pointer inside it."""
        if self.modern(doc) or (doc.dialect in MODERN and not _is_pointer(ref)):
            return self._locate(ref, doc, at)
        location, _, fragment = ref.partition("#")
        fragment = _unquoted(fragment)
        if not location:
            return doc, fragment
        return self._external(location, doc, at), fragment

    def _external(self, location: str, doc: Document, at: str) -> Document:
        from urllib.parse import urljoin, urlsplit  # (a spec of one file, as most are, refers to no other)

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
        known = self._files.get((doc.base, location))
        if known is not None:  # the files of one folder refer to the same few others thousands of times
            return known
        found = self._file(location, doc, at)
        self._files[(doc.base, location)] = found
        return found

    def _file(self, location: str, doc: Document, at: str) -> Document:
        assert doc.base is not None and doc.reader is not None
        if self._folders is None:
            self._folders = Folders(self.root.base or doc.base)
        folders = self._folders
        try:
            target = folders.resolve(doc.base, location)
        except (OSError, RuntimeError):  # a symlink loop; its message would show the absolute path
            raise self.error(f"$ref {location!r} is a symlink loop", doc, at) from None
        key = folders.key(target)
        if key is None:
            raise self.error(f"$ref {location!r} leaves the spec's folder (refused)", doc, at)
        own = self._own_files().get(target)
        if own is not None:
            return own  # a ref back into the spec's own file (or a directory's document) is into that document
        if key not in self.externals:
            from pathlib import Path

            name = str(Path(doc.name).parent / location) if doc.name != "<stdin>" else location
            path = Path(target)
            try:
                text = doc.reader(path, name)
            except InputError as err:  # the file named alone would not say which spec, nor where, refers to it
                raise self.error(f"$ref {location!r}: {err.detail}", doc, at) from None
            self._loaded(key, load_text_any(text, name, str(path.parent), doc))
        return self.externals[key]

    def _resources_with(self, doc: Document) -> Resources:
        """The schema resources of the documents read so far, `doc` among them."""
        if self._resources is None:
            from specdiff.graph.refs2020 import Resources  # referencing is loaded only for 2020-12 references

            self._resources = Resources()
        self._resources.add(doc)
        return self._resources

    def _locate(self, ref: str, doc: Document, at: str, scope: tuple[str, ...] = (),
                dynamic: bool = False) -> tuple[Document, str]:
        """A 2020-12 reference's target: against the base URI where it is written, a file or URL no document
        declares being read (files confined, URLs only when remote references are allowed) before it is
        looked up again."""
        from urllib.parse import urlsplit

        from specdiff.graph.refs2020 import Unknown

        if urlsplit(ref).scheme.lower() == "file":  # a base may be a file's URI; a written `file:` URL is refused
            raise self.error(f"$ref {ref!r} refused: only http and https addresses can be fetched", doc, at)
        resources = self._resources_with(doc)
        base = resources.base(doc, at)
        key = (ref, base, scope, dynamic)
        found = self._located.get(key)
        if found is not None:
            return found
        try:
            found = resources.locate(ref, base, scope, dynamic)
        except Unknown as unknown:
            resources.add(self._retrieve(unknown.uri, ref, doc, at), unknown.uri)
            try:
                found = resources.locate(ref, base, scope, dynamic)
            except Unknown as still:
                raise self._undeclared(ref, still.uri, doc, at) from None
        if found is None:
            raise self.error(f"$ref {ref!r} points at nothing", doc, at)
        self._located[key] = found
        return found

    def _retrieve(self, uri: str, ref: str, doc: Document, at: str) -> Document:
        """The document at a URI no document declares: a file of the spec's folder (named by its `file:` URI,
        or under the folder a 3.2 document's `$self` gives the spec), or a URL when remote references are
        allowed."""
        from pathlib import Path
        from urllib.parse import unquote, urlsplit
        from urllib.request import url2pathname  # (with the HTTP client: only for a `file:` URI)

        from specdiff.graph.refs2020 import document_uri, file_uri

        assert self._resources is not None
        split, path = urlsplit(uri), None
        if split.scheme == "file":
            path = Path(url2pathname(split.path))
        for known in [self.root, *self._resources.documents.values()] if path is None else ():
            own, written = document_uri(known), file_uri(known)
            folder = own.rpartition("/")[0] + "/"
            if written is not None and own != written and uri.startswith(folder):
                path = Path(url2pathname(urlsplit(written).path)).parent / unquote(uri[len(folder):])
                break
        if path is not None:
            return self._external(os.path.relpath(path, Path(doc.base).resolve()) if doc.base else uri, doc, at)
        if urlsplit(uri).scheme.lower() in REMOTE_SCHEMES and self.root.limits.allow_remote_refs:
            return self._remote(uri, doc, at)
        raise self._undeclared(ref, uri, doc, at)

    def _undeclared(self, ref: str, uri: str, doc: Document, at: str) -> InputError:
        return self.error(f"$ref {ref!r}: no schema of the spec declares {uri!r} as its $id (schemas are not "
                          "fetched by their $id; remote references only with --allow-remote-refs)", doc, at)

    def scope(self, doc: Document, pointer: str) -> tuple[str, ...]:
        """The resources around a place of a 2020-12 document (their URIs, outermost first): the dynamic scope
        of a `$dynamicRef` written there when nothing refers to it from elsewhere."""
        return self._resources_with(doc).scope(doc, pointer)

    def dynamic(self, ref: str, doc: Document, at: str, scope: tuple[str, ...]) -> tuple[Any, Document, str]:
        """(target, its document, its pointer) of a `$dynamicRef` in a dynamic scope (URIs, outermost first)."""
        target_doc, pointer = self._locate(ref, doc, at, scope, dynamic=True)
        return self._target(ref, target_doc, pointer, doc, at), target_doc, pointer

    def writes_dynamic_refs(self) -> bool:
        """Whether a 2020-12 document read so far writes a `$dynamicRef`: what it reaches depends on the path."""
        return self.modern(self.root) and self._resources_with(self.root).dynamic

    def _own_files(self) -> dict[str, Document]:
        """The files the spec itself was read from (a directory's documents), by resolved path."""
        if self._own is None:
            from pathlib import Path

            docs = [part for _, part in self.root.parts] or [self.root]
            self._own = {str((Path(doc.base) / Path(doc.name).name).resolve()): doc for doc in docs
                         if doc.base is not None}
        return self._own

    def _loaded(self, key: str, doc: Document) -> None:
        self.externals[key] = doc
        self._keys[doc] = key

    def key(self, doc: Document) -> str | None:
        """A file or URL reached by `$ref`: its path inside the spec's folder, or its URL; None for the spec's own."""
        return self._keys.get(doc)

    def read_as(self, location: str, doc: Document) -> str | None:
        """The key of the file a `$ref` location written in `doc` has been read as; None when no `$ref` from that
        folder was followed to it, or it is one of the spec's own documents."""
        found = self._files.get((doc.base, location)) if doc.base is not None else None
        return self._keys.get(found) if found is not None else None

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
        key = self._key(ref, doc, at)
        found = self._found.get(key)
        if found is None:
            target_doc, pointer = self.split(ref, doc, at)
            node = self._target(ref, target_doc, pointer, doc, at)
            if _is_ref(node) and (id(target_doc), pointer) not in self._acyclic:
                self._check_chain(node, target_doc, pointer, doc, at)
            found = self._found[key] = (node, target_doc, pointer)
        if doc in self._keys or found[1] in self._keys:  # (refs within the spec's own documents are not needed)
            self.links.add((id(doc), at.removesuffix("/$ref"), id(found[1]), found[2]))
        return found

    def written(self, obj: Any, doc: Document, at: str, read: frozenset[str]) -> tuple[Any, str]:
        """An object past its own `$ref`s, as data compared as data: what `read` leaves out with its `$ref`s
        followed (`inline`), and the pointer where it is written."""
        while isinstance(obj, dict) and isinstance(obj.get("$ref"), str):
            obj, doc, at = self.lookup(obj["$ref"], doc, at)
        if not isinstance(obj, dict) or read.issuperset(obj):  # (most objects hold only keys the graph reads)
            return obj, at
        copied: dict[str, Any] | None = None
        for key, value in obj.items():
            if key in read or not isinstance(value, (dict, list)) or key.startswith("x-kubernetes-"):
                continue  # (Kubernetes' markers are read where they mean something, never through a $ref)
            inlined = self.inline(value, doc, at + join_pointer((str(key),)))
            if inlined is not value:
                copied = copied if copied is not None else dict(obj)
                copied[key] = inlined
        return (obj if copied is None else copied), at

    def inline(self, value: Any, doc: Document, at: str) -> Any:
        """`value` with every `$ref` in it replaced by what it points at, as a bundler writes it: for data
        compared as data (vendor extensions, links, code samples), where an unfollowed `$ref` would hide a change
        to its file. A `$ref` back into one being followed stays as written; one that cannot be followed (a
        dangling pointer, a remote document not allowed) stays as written and is kept in `unfollowed`."""
        return self._inline(value, doc, at, frozenset())

    def _inline(self, value: Any, doc: Document, at: str, following: frozenset[tuple[int, str]]) -> Any:
        if isinstance(value, list):
            items = [self._inline(item, doc, f"{at}/{i}", following) for i, item in enumerate(value)]
            return value if all(a is b for a, b in zip(items, value, strict=True)) else items
        if not isinstance(value, dict):
            return value
        ref = value.get("$ref")
        if isinstance(ref, str):
            try:
                target, target_doc, pointer = self.lookup(ref, doc, at + "/$ref")
            except InputError as err:
                self.unfollowed.setdefault((doc.name, at + "/$ref"), err.one_line())
                return value
            place = (id(target_doc), pointer)
            if place in following:
                return value
            self.inlined.setdefault(id(target_doc), set()).add(pointer)
            resolved = self._inline(target, target_doc, pointer, following | {place})
            beside = {k: v for k, v in value.items() if k != "$ref"}
            return {**resolved, **beside} if beside and isinstance(resolved, dict) else resolved
        found = {key: self._inline(item, doc, at + join_pointer((str(key),)), following) for key, item in value.items()}
        return value if all(found[key] is item for key, item in value.items()) else found

    def reached(self, doc: Document) -> frozenset[str]:
        """The pointers into `doc` that a `$ref` resolved so far points at (indexed once per batch of lookups)."""
        if self._reached[0] != len(self._found):
            index: dict[int, set[str]] = {}
            for _, target, pointer in self._found.values():
                index.setdefault(id(target), set()).add(pointer)
            self._reached = (len(self._found), {key: frozenset(found) for key, found in index.items()})
        return self._reached[1].get(id(doc), frozenset())

    def reached_roots(self, doc: Document) -> frozenset[str]:
        """The top-level keys of `doc` that a `$ref` resolved so far points into (`x-lib` for `#/x-lib/Foo`):
        what is written there is compared where it is used."""
        firsts = {pointer.lstrip("/").partition("/")[0] for _, target, pointer in self._found.values()
                  if target is doc and pointer.startswith("/")}  # (the first token alone, unescaped below)
        return frozenset(unescape_token(token) for token in firsts)

    def _target(self, ref: str, target_doc: Document, pointer: str, doc: Document, at: str) -> Any:
        """What a `$ref` points at, which may be a null written there; pointing at nothing is an input error."""
        node = at_pointer(target_doc.data, pointer)
        if node is NOTHING:
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
            node = self._target(ref, target_doc, pointer, target_doc, next_at)
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
        key = self._key(ref, doc, at)
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


def unchanged_files(old: Resolver, new: Resolver, unpaired: Iterable[str]) -> frozenset[str]:
    """The files both sides reach (by key) where equal text means equal meaning: each holds equal data on both
    sides, and every `$ref` written in it leads only to such files. A split spec's commit changes a few of its
    thousands of files; a schema written in any other file, equal on both sides, is unchanged all the way down.
    A file that refers into the spec's own documents or to an address, refers to a file neither side read while
    graphing (the differ may read it later, behind a keyword the graph does not walk), resolves as 2020-12 does
    (where an identifier declared anywhere can change what a reference reaches), or holds a named schema not
    paired with itself (`unpaired`, named schema identities) is not vouched for."""
    old_files, new_files = old.externals, new.externals
    changed: set[str] = set(old_files.keys() ^ new_files.keys())
    changed.update(name.partition("#")[0] for name in unpaired if "#" in name)
    changed.update(key for key in old_files.keys() & new_files.keys()
                   if old_files[key].data != new_files[key].data or old.modern(old_files[key])
                   or new.modern(new_files[key]))
    referring: dict[str, set[str]] = {}  # file -> the files whose `$ref`s lead to it
    for key in old_files.keys() & new_files.keys() - changed:
        for location in _file_locations(new_files[key].data):  # (equal data: the same refs on both sides)
            target = new.read_as(location, new_files[key])
            if target is None or old.read_as(location, old_files[key]) != target:
                changed.add(key)  # not read while graphing, read as another file, or one of the spec's own
                break
            referring.setdefault(target, set()).add(key)
    pending = list(changed)
    while pending:
        for leading in referring.get(pending.pop(), ()):
            if leading not in changed:
                changed.add(leading)
                pending.append(leading)
    return frozenset(new_files.keys() - changed)


def _file_locations(data: Any) -> set[str]:
    """The file part of every `$ref` written anywhere in a file's data, whatever keyword holds it."""
    return {ref.partition("#")[0] for node in mappings(data)
            if isinstance(ref := node.get("$ref"), str) and not ref.startswith("#")}


def plain_name(name: str) -> str:
    """A named schema's name as its document writes it (`Pet` for `common.yaml#/components/schemas/Pet`)."""
    file, hash_, pointer = name.partition("#/")
    return split_pointer("/" + pointer)[-1] if hash_ and file else name


def _is_pointer(ref: str) -> bool:
    """Whether a ref's fragment, if it has one, is a JSON pointer (a plain name is a 2020-12 anchor)."""
    fragment = ref.partition("#")[2]
    return not fragment or fragment.startswith("/") or fragment.startswith("%2F")


def _is_ref(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("$ref"), str)


def _is_remote(doc: Document) -> bool:
    from urllib.parse import urlsplit

    return urlsplit(doc.name).scheme.lower() in REMOTE_SCHEMES


def _unquoted(text: str) -> str:
    """A ref's fragment with its percent-escapes decoded; urllib is imported for one that has any."""
    if "%" not in text:
        return text
    from urllib.parse import unquote

    return unquote(text)


def load_text_any(text: str, name: str, base: str | None, parent: Document) -> Document:
    """Files reached by $ref may be schema fragments, not whole specs: skip dialect detection for them. A reader
    that offers `parse` (git's, which parses a file once for every input that holds it) parses the text."""
    parse = getattr(parent.reader, "parse", parse_text)
    data, fmt = parse(text, name, parent.limits)
    sourcemap: SourceMap = JsonSourceMap(text) if fmt == "json" else YamlSourceMap(text)
    return Document(name=name, data=data, dialect=parent.dialect, format=fmt, base=base, sourcemap=sourcemap,
                    reader=parent.reader if base is not None else None, limits=parent.limits)
