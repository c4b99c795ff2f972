"""Rule cards: the compatibility catalogue kept as data in rules/*.yaml."""

from __future__ import annotations

import hashlib
import marshal
import os
import string
import sys
from contextlib import suppress
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from specdiff.classify.predicates import PREDICATES, READS
from specdiff.diff.vocabulary import COMMON_VALUES, DIRECTIONS, VOCABULARY
from specdiff.errors import ConfigError

POLICIES = ("kubernetes", "openapi")
LEVELS = ("breaking", "dangerous", "safe")
UNCLASSIFIED = "specdiff.unclassified"


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    level: Any  # a level, or a mapping by policy and/or direction
    match: dict[str, Any]
    message: str
    reason: str
    docs: dict[str, str]
    cases: tuple[dict[str, Any], ...] = ()
    predicate: str | None = None
    area: str = ""
    path: str = ""
    keep_in_alpha: bool = False  # a verdict that stability does not soften (e.g. lifecycle markers)
    #: exceptions to the verdict, first match wins: ({predicate, level, reason}, ...)
    when: tuple[dict[str, Any], ...] = ()
    #: the reason by policy and/or direction when it differs (`reason` is the default, shown in the docs)
    reasons: Any = None

    def matches_shape(self, node: str, kind: str, attribute: str, direction: str) -> bool:
        return (_accepts(self.match.get("node"), node) and _accepts(self.match.get("change"), kind)
                and _accepts(self.match.get("attribute"), attribute)
                and _accepts(self.match.get("direction"), direction))

    @property
    def specificity(self) -> tuple[int, int, int]:
        return (self.predicate is not None, "attribute" in self.match, "direction" in self.match)


def resolve_level(level: Any, policy: str, direction: str, card_id: str = "") -> str:
    level = pick(level, policy, direction, card_id)
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r}", file=card_id)
    return str(level)


def pick(value: Any, policy: str, direction: str, card_id: str = "") -> Any:
    """A level or reason written as one value or as a mapping by policy and/or direction (`default` for the rest)."""
    while isinstance(value, dict):
        if policy in value or any(p in value for p in POLICIES):
            value = value.get(policy, value.get("default"))
        elif direction in value or "default" in value:
            value = value.get(direction, value.get("default"))
        else:
            raise ConfigError(f"mapping has no entry for {policy}/{direction}", file=card_id)
    return value


def reason_for(item: Card, policy: str, direction: str) -> str:
    return str(pick(item.reasons, policy, direction, item.id)) if item.reasons is not None else item.reason


def _default_text(value: Any) -> str:
    """The text a reason mapping gives when nothing more is known: its `default`, else its first entry."""
    while isinstance(value, dict):
        value = value.get("default", next(iter(value.values()), ""))
    return str(value)


def _accepts(expected: Any, actual: str) -> bool:
    if expected is None:
        return True
    if isinstance(expected, list):
        return actual in expected
    return bool(expected == actual)


def rules_root() -> Path:
    """The catalogue shipped inside the package (specdiff/rules in a wheel or sdist install), else rules/ of a
    checkout (an editable install maps specdiff.rules there). A plain path either way: rules/ has no
    __init__.py, so importlib.resources would hand back a namespace MultiplexedPath, not a folder."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "rules"
    return installed if installed.is_dir() else package.parent / "rules"


@lru_cache(maxsize=1)
def catalogue() -> tuple[Card, ...]:
    return load_catalogue(rules_root())


def load_catalogue(root: Path) -> tuple[Card, ...]:
    """Every card under `root`, each checked against the change vocabulary."""
    paths = sorted(root.rglob("*.yaml"))
    cache = _cache_file(root, paths)
    cards = _read_cache(cache)
    if cards is None:
        cards = [_card(path, root) for path in paths]
        _write_cache(cache, cards)
    for item in cards:
        check_card(item, root)
    ids = [c.id for c in cards]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ConfigError(f"duplicate rule ids: {', '.join(duplicates)}", file=str(root))
    return tuple(cards)


# -- the parsed catalogue, cached between runs ---------------------------------------------------------
# Parsing every card (their test cases are most of the text) costs more than comparing a small spec, and
# the cards change only when specdiff is edited or upgraded. The cache is keyed by each card's path, size and
# modification time and by the Python version (marshal's format follows it); any problem means a re-parse.


def _cache_file(root: Path, paths: list[Path]) -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    key = hashlib.sha256(f"{sys.version}\0{root}".encode())
    for path in paths:
        stat = path.stat()
        key.update(f"\0{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return Path(base) / "specdiff" / f"catalogue-{key.hexdigest()[:32]}.marshal"


def _read_cache(cache: Path | None) -> list[Card] | None:
    if cache is None:
        return None
    try:
        fields = marshal.loads(cache.read_bytes())
        return [Card(**{**item, "cases": tuple(item["cases"]), "when": tuple(item["when"])}) for item in fields]
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        return None


def _write_cache(cache: Path | None, cards: list[Card]) -> None:
    if cache is None:
        return
    temporary = cache.with_name(f".{cache.name}.{os.getpid()}")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(marshal.dumps([asdict(card) for card in cards]))
        os.replace(temporary, cache)
    except (OSError, ValueError):  # an unwritable cache, or a card value marshal cannot store
        with suppress(OSError):
            temporary.unlink()


def _card(path: Path, root: Path) -> Card:
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    except yaml.YAMLError as err:
        raise ConfigError(f"invalid rule card: {err}", file=str(path)) from None
    missing = [k for k in ("id", "title", "level", "message", "reason", "docs") if k not in raw]
    if missing:
        raise ConfigError(f"rule card lacks {', '.join(missing)}", file=str(path))
    reason = raw["reason"]
    return Card(id=raw["id"], title=raw["title"], level=raw["level"], match=raw.get("match") or {},
                message=raw["message"], reason=_default_text(reason), docs=raw["docs"],
                cases=tuple(raw.get("cases") or ()),
                predicate=raw.get("predicate"), area=path.parent.name if path.parent != root else "",
                path=str(path.relative_to(root)), keep_in_alpha=bool(raw.get("keep_in_alpha")),
                when=_exceptions(raw.get("when"), path), reasons=reason if isinstance(reason, dict) else None)


def _exceptions(raw: Any, path: Path) -> tuple[dict[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(e, dict) and {"predicate", "level"} <= set(e) for e in raw):
        raise ConfigError("'when' must be a list of {predicate, level, reason}", file=str(path))
    return tuple(raw)


# -- the card against the change vocabulary ------------------------------------------------------------
_MATCH_KEYS = ("node", "change", "attribute", "direction")


def check_card(item: Card, root: Path) -> None:
    """Refuses a card that matches, tests or renders anything the differ never emits, naming the unknown name.

    A card may only name facts that every node it matches declares, so no placeholder renders empty because
    one kind of change lacks it.
    """
    def refuse(what: str) -> ConfigError:
        return ConfigError(what, file=str(root / item.path))

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
    known = set(COMMON_VALUES) | facts
    for template in (item.message, item.reason, *(str(e.get("reason", "")) for e in item.when)):
        try:
            names = placeholders(template)
        except ValueError as err:
            raise refuse(f"malformed template {template!r}: {err}") from None
        for placeholder in names:
            if placeholder not in known:
                raise refuse(f"unknown placeholder {{{placeholder}}}")


def placeholders(template: str) -> list[str]:
    """The names a message template fills in (`{name}` and `{name!r}` alike); ValueError when malformed."""
    fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    return [name.split(".")[0].split("[")[0] for name in fields]


def _listed(value: Any) -> list[Any]:
    return [] if value is None else list(value) if isinstance(value, list) else [value]


def card(rule_id: str) -> Card | None:
    return next((c for c in catalogue() if c.id == rule_id), None)
