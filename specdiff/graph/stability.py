"""Stability: how much users may rely on an element, decided here once for every place a change is reported.

One type, three levels and one order: alpha < beta < stable. An element's level comes from
- its API version: `v1alpha1` -> alpha, `v2beta3` -> beta, `v1` -> stable (Kubernetes paths, group/version/kind,
  CRD version names);
- the KEP-2558 marker `x-kubernetes-api-lifecycle` on a schema or field (status alpha or beta);
- `x-stability-level` (draft, alpha, beta, stable), which other OpenAPI users write on operations and schemas;
- a description that says the field itself is alpha ("This is an alpha field and requires enabling the ... feature
  gate", "This field is alpha-level"), as Kubernetes wrote before KEP-2558 markers existed.
The weakest guarantee wins: an alpha field of a stable type is alpha. The graph gives each operation, named schema
and CRD its level (graph/model.py, graph/crd.py) and `SpecGraph.located` the level of a place inside them;
what a level does to a verdict is decided in one place, classify (alpha may break).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from specdiff.graph.lifecycle import LIFECYCLE, lifecycle_of

#: the levels, least stable first
STABILITIES = ("alpha", "beta", "stable")
_RANK = {level: i for i, level in enumerate(STABILITIES)}
#: `x-stability-level` words, least stable first, and the level each one gives
DECLARED = {"draft": "alpha", "alpha": "alpha", "beta": "beta", "stable": "stable"}
_DECLARED_RANK = {word: i for i, word in enumerate(DECLARED)}
#: other spellings read as one of those words: `ga` (general availability) is stable
SYNONYMS = {"ga": "stable"}
_VERSION = re.compile(r"^v\d+(?:(alpha|beta)\d*)?$")
#: a description that calls the element itself alpha; "if the alpha feature gate X is enabled" speaks of another
_SAID_ALPHA = re.compile(r"\bThis\s+(?:field\s+)?is\s+(?:an\s+)?alpha\b", re.IGNORECASE)


def rank(level: str) -> int:
    """0 for alpha, 1 for beta, 2 for stable; the place of a level in the one order."""
    return _RANK[level]


def least_stable(*levels: str) -> str:
    """The weakest guarantee wins: an alpha field in a stable type is alpha."""
    return min(levels, key=_RANK.__getitem__)


def most_stable(*levels: str) -> str:
    """The strongest guarantee among several: a CRD serving v1alpha1 and v1 is held to v1's."""
    return max(levels, key=_RANK.__getitem__)


def is_version(segment: str) -> bool:
    """`v1`, `v1beta2`, `v2alpha1`: a Kubernetes API version."""
    return bool(_VERSION.match(segment))


@lru_cache(maxsize=4096)  # (every operation of a group-version asks)
def of_version(version: str | None) -> str:
    """`v1alpha1` -> alpha, `v2beta3` -> beta, `v1` -> stable; anything else is stable."""
    match = _VERSION.match(version) if version else None
    return (match.group(1) or "stable") if match else "stable"


def level_word(word: Any) -> str | None:
    """A stability word of a spec or the configuration in its one spelling (`GA` -> stable); None when it is no
    level."""
    if not isinstance(word, str):
        return None
    word = SYNONYMS.get(word.lower(), word.lower())
    return word if word in DECLARED else None


def declared(raw: Any) -> str | None:
    """`x-stability-level` as a level word (draft, alpha, beta, stable), None when absent or another word."""
    return level_word(raw.get("x-stability-level")) if isinstance(raw, dict) else None


def written_level(raw: Any) -> str | None:
    """`x-stability-level` as the spec writes it: a level word in its one spelling, any other value as written (so that
    a word specdiff does not know is reported, not read as absent); None when there is none."""
    value = raw.get("x-stability-level") if isinstance(raw, dict) else None
    if value is None:
        return None
    if declared(raw):
        return declared(raw)
    return value.strip() if isinstance(value, str) and value.strip() else json.dumps(value, default=str)


def declared_rank(word: str | None) -> int:
    """The place of an `x-stability-level` word in its order; an element without one is stable."""
    return _DECLARED_RANK.get(word or "stable", _DECLARED_RANK["stable"])


def said_alpha(schema: Any) -> bool:
    """Whether a schema or field's description calls it alpha: the evidence older Kubernetes specs give."""
    description = schema.get("description") if isinstance(schema, dict) else None
    return isinstance(description, str) and _says_alpha(description)


@lru_cache(maxsize=4096)  # (bounded: keyed by a spec's text)
def _says_alpha(description: str) -> bool:
    """A field's description is read at its place, for its type's caps and in each version of a comparison."""
    # (a search that ignores case tries the pattern at every position of every description: the word is looked
    # for first, in one pass; no other character matches a, l, p or h when case is ignored)
    return "alpha" in description.lower() and bool(_SAID_ALPHA.search(description))


def may_be_marked(schema: dict[str, Any]) -> bool:
    """Whether `marked` can find a level other than stable on a schema or field: a test cheap enough to run over
    every field of a type before reading any of them."""
    return "x-stability-level" in schema or LIFECYCLE in schema or said_alpha(schema)


def marked(schema: Any) -> str:
    """The level a schema or field's own markers give: the least stable of `x-stability-level`, the
    KEP-2558 status (deprecated says nothing about stability) and a description calling it alpha; stable when it
    has none."""
    if not isinstance(schema, dict):
        return "stable"
    word = declared(schema)
    status = lifecycle_of(schema).status
    lifecycle = "alpha" if said_alpha(schema) else status if status in ("alpha", "beta") else "stable"
    return least_stable(DECLARED[word], lifecycle) if word else lifecycle
