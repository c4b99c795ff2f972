"""Rule cards: the compatibility catalogue kept as data in rules/*.yaml."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import MISSING, fields
from functools import cache, lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from specdiff.classify.calendar import DATED_VALUES
from specdiff.classify.predicates import PREDICATES, READS
from specdiff.diff.vocabulary import COMMON_VALUES, VOCABULARY
from specdiff.errors import ConfigError
from specdiff.frozen import record
from specdiff.graph.stability import STABILITIES
from specdiff.load.files import replace_whole
from specdiff.records import DIRECTIONS, LEVELS, POLICIES, READERS
from specdiff.records import UNCLASSIFIED as UNCLASSIFIED

try:  # (hashlib would load OpenSSL, which a comparison otherwise never needs)
    from _blake2 import blake2b
except ImportError:  # (an interpreter built without it)
    from hashlib import blake2b

if TYPE_CHECKING:
    from pathlib import Path

    def formatter_parser(template: str) -> Iterator[tuple[str, str | None, str | None, str | None]]: ...
else:  # what `string.Formatter().parse` calls: `string` compiles `Template`'s pattern as it is imported (2.6 M
    from _string import formatter_parser  # instructions a run), and typeshed does not describe `_string`


@record(frozen=True)
class Card:
    id: str
    title: str
    level: Any  # a level, or a mapping by policy and/or direction
    match: dict[str, Any]
    message: str
    reason: str  # one sentence that reads for one place and for many: a group of findings gives it once
    docs: dict[str, str]
    predicate: str | None = None
    area: str = ""
    path: str = ""  # relative to the catalogue's root
    source: str = ""  # the card's file, where `cases` reads its test cases
    #: a verdict that stability does not soften: the card says so (lifecycle markers), or one of its levels
    #: names stability levels itself
    keep_in_alpha: bool = False
    #: exceptions to the verdict, first match wins: ({predicate, level, reason}, ...)
    when: tuple[dict[str, Any], ...] = ()
    #: former ids, oldest first: configuration naming them still applies, fingerprints keep the first
    aliases: tuple[str, ...] = ()
    section: str = "other"  # release notes: deprecations, features (shown there when safe) or other
    #: the reason by policy and/or direction when it differs (`reason` is the default, shown in the docs)
    reasons: Any = None
    #: what one logical change spans (specdiff/group.py): `place` (the default) folds the same change at many
    #: operations and API versions; `rule` also folds it over different schemas (a spec-wide correction);
    #: `release` folds every finding of the card at one level whatever its values (operationIds renamed across
    #: the API); `resource` folds the operations of one Kubernetes resource added or removed together; `name`
    #: folds every change of one extension or keyword (the change's `name`) however its values differ
    #: (`x-oaiMeta` rewritten in 50 schemas); `referrer` folds as `place` does, then makes a Kubernetes type
    #: added (or removed) a member of the finding that added (or removed) what refers to it
    group: str = "place"
    #: a placeholder of `message` -> the message of a group whose members differ in it, which lists their values:
    #: "enum values {value} added to {location}" (group.py renders it; it never edits a message's words)
    group_message: tuple[tuple[str, str], ...] = ()

    def matches_shape(self, node: str, kind: str, attribute: str, direction: str) -> bool:
        return (_accepts(self.match.get("node"), node) and _accepts(self.match.get("change"), kind)
                and _accepts(self.match.get("attribute"), attribute)
                and _accepts(self.match.get("direction"), direction))


class _Shelved(Card):
    """A card of the compiled catalogue made with the fields classify's index reads (`_INDEXED`): the others are
    read from its line of the compiled file when one is first asked for, and the card is then a plain `Card`
    (whose fields are read without `__getattr__` in the way). A run reads a few dozen of the 230 cards."""

    def __getattr__(self, name: str) -> Any:
        if type(self._read()) is _Shelved:  # (an object being unpickled: nothing to read yet)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self, name)

    def __eq__(self, other: object) -> bool:
        return self._read() == other

    def __hash__(self) -> int:
        return hash(self._read())

    def _read(self) -> Card:
        """The card whole. Threads may race here: the fields are added in one step before the class changes and the
        line is dropped, so another thread finds the card either whole or still to read (and reads it alike)."""
        held = self.__dict__
        unread = held.get(_UNREAD)
        if unread is not None:
            held.update(_unread_fields(*unread))
            object.__setattr__(self, "__class__", Card)
            held.pop(_UNREAD, None)
        return self


#: the fields of a card classify's index and its lookup by id read of every card: the others are read for the
#: cards a run chooses (a few dozen of 230), when first asked for
_INDEXED = ("id", "aliases", "match", "predicate")
#: (the key of a card's `__dict__` that holds what `__getattr__` reads its other fields from)
_UNREAD = "_unread"
#: the defaults of a card's fields other than those, which a compiled card's line leaves out
_UNREAD_DEFAULTS = {f.name: f.default for f in fields(Card) if f.default is not MISSING and f.name not in _INDEXED}
for _name in _UNREAD_DEFAULTS:  # not class attributes, which a card not yet read would show instead of its own
    delattr(Card, _name)


def most_specific_first(item: Card) -> tuple[bool, bool, bool, str]:
    """The order classify tries cards in: one with a predicate, then one naming an attribute, then one naming a
    direction before one without; then by id. (False sorts first: the key of each of 230 cards is made at each run,
    so it is a plain tuple.)"""
    match = item.match
    return item.predicate is None, "attribute" not in match, "direction" not in match, item.id


def resolve_level(level: Any, policy: str, direction: str, card_id: str = "", stability: str = "stable",
                  readers: str = "tolerant") -> str:
    level = pick(level, policy, direction, card_id, stability, readers)
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r}", file=card_id)
    return str(level)


def pick(value: Any, policy: str, direction: str, card_id: str = "", stability: str = "stable",
         readers: str = "tolerant") -> Any:
    """A level or reason written as one value or as a mapping by policy, stability (alpha, beta, stable), how clients
    read responses (validating, tolerant) and/or direction, nested in any order (`default` for the rest)."""
    while isinstance(value, dict):
        if any(p in value for p in POLICIES):
            wanted = policy
        elif any(s in value for s in STABILITIES):
            wanted = stability
        elif any(r in value for r in READERS):
            wanted = readers
        else:
            wanted = direction
        key = wanted if wanted in value else "default"
        if key not in value:
            raise ConfigError(f"mapping has no entry for {policy}/{direction}", file=card_id)
        value = value[key]
    return value


def reason_for(item: Card, policy: str, direction: str, readers: str = "tolerant") -> str:
    if item.reasons is None:
        return item.reason
    return str(pick(item.reasons, policy, direction, item.id, readers=readers))


def level_summary(item: Card) -> str:
    """The default level in words: one level, or how it varies by policy and direction."""
    level = item.level
    text = level if isinstance(level, str) else "; ".join(f"{key}: {level_text(value)}" for key, value in level.items())
    return text + "".join(f"; {level_text(e['level'])} when {e['predicate']}" for e in item.when)


def level_text(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} ({level_text(v)})" if isinstance(v, dict) else f"{k} {v}" for k, v in value.items())
    return str(value)


def _default_text(value: Any) -> str:
    """The text a reason mapping gives when nothing more is known: its `default`, else its first entry."""
    while isinstance(value, dict):
        value = value.get("default", next(iter(value.values()), ""))
    return str(value)


def _accepts(expected: Any, actual: str) -> bool:
    """Whether a card's match value (one value, a list, or absent for any) takes `actual`; a value ending in `/*`
    takes everything inside it (`encoding/*`: each place inside a keyword compared as data)."""
    if expected is None:
        return True
    for value in expected if isinstance(expected, list) else (expected,):
        if value == actual or (isinstance(value, str) and value.endswith("/*") and actual.startswith(value[:-1])):
            return True
    return False


def rules_root() -> str:
    """The catalogue shipped inside the package (specdiff/rules in a wheel or sdist install), else rules/ of a
    checkout (an editable install maps specdiff.rules there). A plain folder either way: rules/ has no
    __init__.py, so importlib.resources would hand back a namespace MultiplexedPath, not a folder. Given as text:
    a comparison reads the catalogue without pathlib, which imports urllib."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    installed = os.path.join(package, "rules")
    return installed if os.path.isdir(installed) else os.path.join(os.path.dirname(package), "rules")


@lru_cache(maxsize=1)
def catalogue() -> tuple[Card, ...]:
    return load_catalogue(rules_root())


#: the catalogue compiled to JSON beside the cards (`make docs` writes it); used only while it matches them
COMPILED = "catalogue.json"


def load_catalogue(root: Path | str) -> tuple[Card, ...]:
    """Every card under `root`, each checked against the change vocabulary.

    The cards come from `catalogue.json` when its digest matches the card files (parsing 200 YAML files costs
    15-70 ms a run, the JSON under 1 ms); an edited card makes it stale, and then the YAML itself is read, so
    the compiled file can make loading slower but never different. Compiling checked its cards and wrote each
    one's fields as read from its YAML (the tests compile the catalogue afresh), so they are read and checked
    again only from their YAML.
    """
    names: list[str] = []
    _card_names(str(root), "", names)
    cards = _compiled_cards(root, names)
    if cards is None:
        cards = [_card(root, name, _head(root, name, data)) for name, data in _card_files(root, names).items()]
        for item in cards:
            check_card(item, root)
    duplicates = sorted(i for i, count in Counter(name for c in cards for name in (c.id, *c.aliases)).items()
                        if count > 1)
    if duplicates:
        raise ConfigError(f"duplicate rule ids: {', '.join(duplicates)}", file=str(root))
    return tuple(cards)


def _card_files(root: Path | str, names: list[str] | None = None) -> dict[str, bytes]:
    """Every card file under `root` (or those `names`, listed by `_card_names`), by its place there
    (`schema/type-changed.yaml`), in path order: the bytes of its card, the first YAML document (`_card_text`),
    which is all a catalogue is made from.

    This is kept to the system calls: the names are joined as text, not as paths made relative again, and each
    file is read without a file object; the test cases, two thirds of the bytes, are left out of the digest."""
    if names is None:
        names = []
        _card_names(str(root), "", names)
    folder = str(root) + os.sep
    return {name: _card_text(_read(folder + name)) for name in names}


def _card_names(folder: str, prefix: str, names: list[str]) -> None:
    """The `.yaml` files under `folder`, each as `prefix` and its place there, in path order (each folder's entries
    by name: the order of their places split at each `/`); a link to a folder is not followed."""
    with os.scandir(folder) as listed:
        entries = sorted(listed, key=attrgetter("name"))
    for entry in entries:
        if entry.is_dir():
            if not entry.is_symlink():
                _card_names(entry.path, f"{prefix}{entry.name}/", names)
        elif entry.name.endswith(".yaml"):
            names.append(prefix + entry.name)


def _read(path: str) -> bytes:
    """A file's bytes, read in blocks rather than in the size `os.fstat` gives: its result holds three times in
    nanoseconds, made with long multiplication, and cost more than reading a card file."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        data = os.read(descriptor, _BLOCK)
        if len(data) < _BLOCK:
            return data
        chunks = [data]
        while chunk := os.read(descriptor, _BLOCK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


_BLOCK = 1 << 16


def _digest(sources: dict[str, bytes]) -> str:
    """What the compiled catalogue was made from: every card file's place and card, and the code that made each
    card's fields from them, this module (a catalogue compiled by other code is stale). BLAKE2 rather than SHA-256:
    half the instructions a byte, and hashlib would load OpenSSL, which a comparison otherwise never needs. Hashed
    in one call, not one a card."""
    parts = [_read(__file__)]
    for name, data in sources.items():
        parts += (name.encode(), data)
    return blake2b(b"\0".join(parts) + b"\0").hexdigest()


def _compiled_cards(root: Path | str, names: list[str]) -> list[Card] | None:
    """The cards as compiled into `catalogue.json` (`compile_catalogue`), or None when it is absent or made from
    other card files than `names`. Each card is made from its index entry; the rest of it is its line, parsed
    when first read (`_Shelved`): parsing every card and making it was a third of loading the catalogue."""
    try:
        compiled = _read(os.path.join(root, COMPILED))
        opening = compiled.find(b"\n") + 1  # (where the cards' lines start)
        header = json.loads(compiled[1:opening - 2])  # (the header line is `[{...},`)
        digest, index = str(header["digest"]), header["index"]
        # (whole: a file cut short, being written or on a full disk, would fail only when a card is first read)
        whole = compiled.endswith(b"]\n") and opening + index[-1][1] + 2 == len(compiled)
    except (OSError, ValueError, LookupError, TypeError):
        return None
    if not whole or not _made_from_cards(root, names, digest):
        return None
    folder = os.path.join(root, "")
    return [_shelved(entry, folder, compiled[opening + entry[0]:opening + entry[1]]) for entry in index]


def _made_from_cards(root: Path | str, names: list[str], digest: str) -> bool:
    """Whether the card files are those the compiled catalogue's `digest` was made from.

    Reading and hashing every card file to tell cost more than the rest of loading the catalogue, so, as Python
    does for its bytecode, the answer is kept beside the catalogue (`CHECKED`) under the files' stamps
    (`_stamps`), which an edit changes. They are kept only once no file has changed for a while (`_SETTLED_NS`):
    a file rewritten at its size within the clock tick of its last write keeps its stamp."""
    stamps, newest = _stamps(root, names)
    key = blake2b(f"{digest}\0{stamps}".encode()).hexdigest()
    checked = os.path.join(root, CHECKED)
    try:
        if _read(checked) == key.encode():
            return True
    except OSError:
        pass
    if _digest(_card_files(root, names)) != digest:
        return False
    if _STAMPS_TELL and time.time_ns() - newest > _SETTLED_NS:
        with contextlib.suppress(OSError):  # (a folder that cannot be written to is checked on every run)
            replace_whole(checked, key)
    return True


#: beside the compiled catalogue: the stamps of the card files it was last found made from (`_made_from_cards`)
CHECKED = "catalogue.checked"
#: how long the card files must have been left alone before their stamps are kept: well over a clock tick
_SETTLED_NS = 2_000_000_000
#: whether an edit always changes a file's stamps: on Windows `st_ctime` is when the file was made, and a rewrite
#: in place that sets the modification time back would keep them
_STAMPS_TELL = os.name != "nt"


def _stamps(root: Path | str, names: list[str]) -> tuple[str, int]:
    """The stamps of the card files `names` under `root` and of this module (the digest covers it too): each
    one's place, size, and modification and change times (a copy that sets a file's modification time back
    still changes it), and the newest of those times."""
    folder = str(root) + os.sep
    places = [__file__, *(folder + name for name in names)]
    stats = [os.stat(place) for place in places]
    stamps = "\0".join(f"{place}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}"
                        for place, stat in zip(places, stats, strict=True))
    return stamps, max(max(stat.st_mtime_ns, stat.st_ctime_ns) for stat in stats)


#: the fields of a card its place gives (`_card`), not written into the compiled catalogue
_PLACED = ("area", "path", "source")


def compile_catalogue(root: Path | str) -> str:
    """The text of `catalogue.json` for the cards under `root`, a JSON list: a header line, the digest and an index
    entry for each card, then a line for each card, its place and its other fields (`_INDEXED`; not those its place
    gives nor those left at their defaults). A card's entry is where its line starts and ends, bytes after the
    header line, and its fields of `_INDEXED` in that order."""
    sources = _card_files(root)
    index, lines, at = [], [], 0
    for name, data in sources.items():
        raw = _head(root, name, data)
        if json.loads(json.dumps(raw)) != raw:
            raise ConfigError("the card holds values JSON cannot keep (non-text keys or dates)", file=name)
        card = _card(root, name, raw)
        check_card(card, root)
        written = {f.name: getattr(card, f.name) for f in fields(Card)
                   if f.name not in (*_PLACED, *_INDEXED) and getattr(card, f.name) != f.default}
        line = json.dumps([name, written], ensure_ascii=False)
        size = len(line.encode())
        index.append([at, at + size, *(getattr(card, key) for key in _INDEXED)])
        lines.append(line)
        at += size + 2  # (and the `,` or `]` and the line's end)
    header = json.dumps({"digest": _digest(sources), "index": index}, ensure_ascii=False)
    return "[" + ",\n".join([header, *lines]) + "]\n"


def _shelved(entry: list[Any], folder: str, line: bytes) -> Card:
    """A card of the compiled catalogue with the fields of its index entry, and the line (its place and its other
    fields) it reads the rest from when first asked (`_Shelved`)."""
    _, _, card_id, aliases, match, predicate = entry
    made = object.__new__(_Shelved)
    object.__setattr__(made, "__dict__", {"id": card_id, "aliases": tuple(aliases), "match": match,
                                          "predicate": predicate, _UNREAD: (folder, line)})
    return made


def _unread_fields(folder: str, line: bytes) -> dict[str, Any]:
    """The fields of a compiled card its index entry did not give, from its line of the compiled file."""
    name, written = json.loads(line)
    return {**_UNREAD_DEFAULTS, **_from_json(written), **_placed(folder, name)}


def _from_json(written: dict[str, Any]) -> dict[str, Any]:
    """A card's fields as JSON kept them (tuples as lists) as the card holds them: reading and checking the YAML's
    values again on every run was an eighth of loading the catalogue."""
    return {**written, **{key: _tupled(written[key]) for key in _TUPLE_FIELDS if key in written}}


#: the fields of a card that hold tuples, which JSON keeps as lists
_TUPLE_FIELDS = tuple(f.name for f in fields(Card) if str(f.type).startswith("tuple"))


def _tupled(value: Any) -> Any:
    """A tuple field as JSON kept it: its lists (and lists of lists) tuples again, its mappings as they are."""
    return tuple(map(_tupled, value)) if isinstance(value, list) else value


def _placed(folder: str, name: str) -> dict[str, Any]:
    """The fields of the card `name` its place under `folder` (the catalogue's root, ending in a separator)
    gives (`_PLACED`): joined as text, as `os.path.join` would, which costs more than the rest of the card."""
    holder, _, _ = name.rpartition("/")
    return {"area": holder.rpartition("/")[2], "path": name, "source": folder + name}


def write_compiled() -> None:
    """`make docs`: compile the shipped catalogue into `catalogue.json` beside its cards."""
    replace_whole(os.path.join(rules_root(), COMPILED), compile_catalogue(rules_root()))


def _head(root: Path | str, name: str, data: bytes) -> Any:
    """The card (the first YAML document of its file, `_card_files`), parsed; its test cases are not read here."""
    import yaml  # only when the compiled catalogue is stale: a card was edited

    from specdiff.load.yaml_text import YAML_LOADER

    path = os.path.join(root, name)
    try:
        return yaml.load(data.decode("utf-8"), Loader=YAML_LOADER)
    except UnicodeDecodeError:
        raise ConfigError("a rule card must be UTF-8 text", file=path) from None
    except yaml.YAMLError as err:
        raise ConfigError(f"invalid rule card: {err}", file=path) from None


def _card(root: Path | str, name: str, raw: Any) -> Card:
    """The card `name` (its place under `root`) from its parsed first document, its shape checked."""
    path = os.path.join(root, name)  # a plain string: a Path per card costs more than the card
    if not isinstance(raw, dict):
        raise ConfigError("a rule card must be a mapping", file=path)
    if "cases" in raw:  # the old layout: classification would parse every case on every run
        raise ConfigError("the card holds `cases:`; move them to a second YAML document after a `---` line",
                          file=path)
    missing = [k for k in ("id", "title", "level", "message", "reason", "docs") if k not in raw]
    if missing:
        raise ConfigError(f"rule card lacks {', '.join(missing)}", file=path)
    reason = raw["reason"]
    when = _exceptions(raw.get("when"), path)
    levels = [raw["level"], *(exception["level"] for exception in when)]
    return Card(id=raw["id"], title=raw["title"], level=raw["level"], match=raw.get("match") or {},
                message=raw["message"], reason=_default_text(reason), docs=raw["docs"],
                predicate=raw.get("predicate"), **_placed(os.path.join(root, ""), name), when=when,
                keep_in_alpha=bool(raw.get("keep_in_alpha")) or any(keys_on_stability(level) for level in levels),
                reasons=reason if isinstance(reason, dict) else None,
                group=_grouping(raw.get("group", "place"), path), aliases=_aliases(raw.get("aliases"), path),
                section=_section(raw.get("section", "other"), path),
                group_message=_group_message(raw.get("group_message"), path))


def _group_message(raw: Any, path: str) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise ConfigError("'group_message' must map a placeholder of the message to a message", file=path)
    return tuple(raw.items())


def _grouping(raw: Any, path: str) -> str:
    if raw not in ("place", "rule", "release", "resource", "name", "referrer"):
        raise ConfigError("'group' must be place, rule, release, resource, name or referrer", file=path)
    return str(raw)


#: the release-note sections a card (or one of its `when` exceptions) may declare: breaking findings always go
#: first, whatever their card says; `corrections` is for a verdict the old spec's own text decided (it already
#: said so), shown there when safe; `unnoticed` for what no client can notice (a vendor extension's metadata, the
#: encoding entry of a field added, a named schema whose places are reported), left out of release notes when safe
SECTIONS = ("deprecations", "features", "corrections", "unnoticed", "other")


def _section(raw: Any, path: str) -> str:
    if raw not in SECTIONS:
        raise ConfigError(f"unknown section {raw!r} (one of {', '.join(SECTIONS)})", file=path)
    return str(raw)


def _aliases(raw: Any, path: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(name, str) and name for name in raw):
        raise ConfigError("'aliases' must be a list of former rule ids", file=path)
    return tuple(raw)


def _exceptions(raw: Any, path: str) -> tuple[dict[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(e, dict) and {"predicate", "level"} <= set(e) for e in raw):
        raise ConfigError("'when' must be a list of {predicate, level, reason, section}", file=path)
    for exception in raw:
        if "section" in exception:
            _section(exception["section"], path)
    return tuple(raw)


# -- the card against the change vocabulary ------------------------------------------------------------
_MATCH_KEYS = ("node", "change", "attribute", "direction")


def check_card(item: Card, root: Path | str) -> None:
    """Refuses a card that matches, tests or renders anything the differ never emits, naming the unknown name.

    A card may only name facts that every node it matches declares, so no placeholder renders empty because
    one kind of change lacks it.
    """
    def refuse(what: str) -> ConfigError:
        return ConfigError(what, file=os.path.join(root, item.path))

    unknown = sorted(set(item.match) - set(_MATCH_KEYS))
    if unknown:
        raise refuse(f"unknown match key {unknown[0]!r}")
    names = _listed(item.match.get("node"))
    for name in names:
        if name not in VOCABULARY:
            raise refuse(f"unknown node {name!r}")
    nodes = [VOCABULARY[name] for name in names] or list(VOCABULARY.values())
    for kind in _listed(item.match.get("change")):
        if not any(kind in node.kinds for node in nodes):
            raise refuse(f"unknown change kind {kind!r}")
    for attribute in _listed(item.match.get("attribute")):
        if not any(node.has_attribute(attribute) for node in nodes):
            raise refuse(f"unknown attribute {attribute!r}")
    for direction in _listed(item.match.get("direction")):
        if direction not in DIRECTIONS:
            raise refuse(f"unknown direction {direction!r}")
    facts = set.intersection(*(set(node.facts) for node in nodes)) if names else set()
    predicates = [item.predicate] if item.predicate else []
    for name in [*predicates, *(e["predicate"] for e in item.when)]:
        if name not in PREDICATES:
            raise refuse(f"unknown predicate {name!r}")
        missing = [fact for fact in READS.get(name, ()) if fact not in facts]
        if missing:
            raise refuse(f"predicate {name!r} reads fact {missing[0]!r}, which not every matched node carries")
    check_coverage(item, refuse)
    known = set(COMMON_VALUES) | facts
    for key, _ in item.group_message:
        if key not in placeholders(item.message):
            raise refuse(f"group_message names {{{key}}}, which the message does not")
    reasons = [*_texts(item.reasons or item.reason), *(t for e in item.when for t in _texts(e.get("reason", "")))]
    dated = known | set(DATED_VALUES) if "sunset" in facts else known
    for template, allowed in ((item.message, known), *((t, known) for _, t in item.group_message),
                              *((reason, dated) for reason in reasons)):
        try:
            names = placeholders(template)
        except ValueError as err:
            raise refuse(f"malformed template {template!r}: {err}") from None
        for placeholder in names:
            if placeholder not in allowed:
                raise refuse(f"unknown placeholder {{{placeholder}}}")


def check_coverage(item: Card, refuse: Callable[[str], ConfigError]) -> None:
    """Refuses a card whose level or reason maps leave out a policy, direction or stability: classification
    meets every combination on some spec, and a gap there would abort the whole run instead of one card."""
    specs = [("level", item.level), *(("level", e["level"]) for e in item.when)]
    reasons = [item.reasons, *(e["reason"] for e in item.when if isinstance(e.get("reason"), dict))]
    specs += [("reason", r) for r in reasons if r is not None]
    for what, spec in specs:
        stabilities = STABILITIES[::-1] if what == "level" and keys_on_stability(spec) else ("stable",)
        readers_all = READERS if _keys_on(spec, READERS) else READERS[:1]
        for policy, direction, stability, readers in itertools.product(POLICIES, DIRECTIONS, stabilities, readers_all):
            where = (f"{policy}/{direction}" + (f"/{stability}" if len(stabilities) > 1 else "")
                     + (f"/{readers}" if len(readers_all) > 1 else ""))
            try:
                value = pick(spec, policy, direction, item.id, stability, readers)
            except ConfigError:
                raise refuse(f"{what} has no entry for {where}") from None
            if what == "level" and value not in LEVELS:
                raise refuse(f"level for {where} is {value!r}, not one of {', '.join(LEVELS)}")


def _texts(value: Any) -> list[str]:
    """The templates of a reason written as one text or as a mapping by policy, stability or direction."""
    return [t for v in value.values() for t in _texts(v)] if isinstance(value, dict) else [str(value)]


def placeholders(template: str) -> list[str]:
    """The names a message template fills in (`{name}` and `{name!r}` alike); ValueError when malformed."""
    fields = [name for _, name, _, _ in formatter_parser(template) if name is not None]
    return [name.split(".")[0].split("[")[0] for name in fields]


def keys_on_stability(level: Any) -> bool:
    """Whether a card's level names stability levels itself (then stability does not soften it again)."""
    return _keys_on(level, STABILITIES)


def _keys_on(value: Any, keys: tuple[str, ...]) -> bool:
    """Whether a level or reason map names any of `keys` at some depth."""
    return isinstance(value, dict) and (any(k in value for k in keys) or any(_keys_on(v, keys) for v in value.values()))


def _listed(value: Any) -> list[Any]:
    return [] if value is None else list(value) if isinstance(value, list) else [value]


def _card_text(data: bytes) -> bytes:
    """The first document of a card file: its card."""
    start, end = _card_bounds(data)
    return data[start:end]


def _cases_text(data: bytes) -> bytes:
    """The second document of a card file, after the `---` line that ends its card: its test cases."""
    _, end = _card_bounds(data)
    return data[end + 5:]


def _card_bounds(data: bytes) -> tuple[int, int]:
    """Where a card file's first document starts and ends: after a `---` line opening the file, and at the `---`
    line before its test cases (or the file's end). Every run finds this in every card file, so without a
    pattern, and without copying the test cases."""
    start = 0
    if data.startswith(b"---"):
        line_end = data.find(b"\n")
        if line_end >= 0 and not data[3:line_end].strip(b" \t"):
            start = line_end + 1
    end = data.find(b"\n---\n", start)
    return start, len(data) if end < 0 else end


def cases(item: Card) -> tuple[dict[str, Any], ...]:
    """A card's test cases (old, new, the exact findings): read for tests and `specdiff explain`, never to
    classify, so loading the catalogue parses only the cards themselves."""
    return _cases_in(item.source)


@cache
def _cases_in(source: str) -> tuple[dict[str, Any], ...]:
    import yaml  # test cases are read by tests and `specdiff explain`, never by a comparison

    from specdiff.load.yaml_text import YAML_LOADER

    tail = _cases_text(_read(source))
    if not tail.strip():
        return ()
    try:
        raw = yaml.load(tail.decode("utf-8"), Loader=YAML_LOADER)
    except yaml.YAMLError as err:
        raise ConfigError(f"invalid rule card cases: {err}", file=source) from None
    listed = raw.get("cases") if isinstance(raw, dict) else None
    if not isinstance(listed, list) or not all(isinstance(case, dict) for case in listed):
        raise ConfigError("the cases document must hold `cases:`, a list of {name, old, new, expect}",
                          file=source)
    return tuple(listed)


def card(rule_id: str) -> Card | None:
    """The card with this id, or the one that was renamed from it (looked up once per finding and stage)."""
    return _by_id(catalogue()).get(rule_id)


_indexed: tuple[tuple[Card, ...], dict[str, Card]] = ((), {})


def _by_id(cards: tuple[Card, ...]) -> dict[str, Card]:
    """Every id and former id -> its card, made again only when the catalogue itself is another one."""
    global _indexed
    if _indexed[0] is not cards:
        _indexed = (cards, {name: c for c in reversed(cards) for name in (*c.aliases, c.id)})
    return _indexed[1]


def rule_ids() -> list[str]:
    """Every id a configuration may name: current ids and former ones."""
    return [name for c in catalogue() for name in (c.id, *c.aliases)]


@lru_cache(maxsize=1)
def renamed() -> dict[str, str]:
    """Former rule id -> current id."""
    return {alias: c.id for c in catalogue() for alias in c.aliases}
