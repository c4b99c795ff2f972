"""Stability: how much users may rely on an element, decided here once for every place a change is reported.

One type, three levels and one order: alpha < beta < ga. An element's level comes from
- its API version: `v1alpha1` -> alpha, `v2beta3` -> beta, `v1` -> ga (Kubernetes paths, group/version/kind,
  CRD version names);
- the KEP-2558 marker `x-kubernetes-api-lifecycle` on a schema or field (status alpha or beta);
- `x-stability-level` (draft, alpha, beta, stable), which other OpenAPI users write on operations and schemas.
The weakest guarantee wins: an alpha field of a GA type is alpha. The graph gives each operation, named schema
and CRD its level (graph/model.py, graph/crd.py) and `SpecGraph.located` the level of a place inside them;
what a level does to a verdict is decided in one place, classify (alpha may break).
"""

from __future__ import annotations

import json
import re
from typing import Any

from specdiff.graph.lifecycle import lifecycle_of

#: the levels, least stable first
STABILITIES = ("alpha", "beta", "ga")
_RANK = {level: i for i, level in enumerate(STABILITIES)}
#: `x-stability-level` words, least stable first, and the level each one gives
DECLARED = {"draft": "alpha", "alpha": "alpha", "beta": "beta", "stable": "ga"}
_DECLARED_RANK = {word: i for i, word in enumerate(DECLARED)}
#: the word messages give each level: the configuration's and `x-stability-level`'s (`deprecation-days: {stable:
#: 180}`), so a reader meets one vocabulary; `ga` stays the internal name and is still accepted in configuration
SAID = {"alpha": "alpha", "beta": "beta", "ga": "stable"}


def said(level: str) -> str:
    """`stable` for ga: a level as messages and reasons write it."""
    return SAID.get(level, level)
_VERSION = re.compile(r"^v\d+(?:(alpha|beta)\d*)?$")


def rank(level: str) -> int:
    """0 for alpha, 1 for beta, 2 for ga; the place of a level in the one order."""
    return _RANK[level]


def least_stable(*levels: str) -> str:
    """The weakest guarantee wins: an alpha field in a GA type is alpha."""
    return min(levels, key=_RANK.__getitem__)


def most_stable(*levels: str) -> str:
    """The strongest guarantee among several: a CRD serving v1alpha1 and v1 is held to v1's."""
    return max(levels, key=_RANK.__getitem__)


def is_version(segment: str) -> bool:
    """`v1`, `v1beta2`, `v2alpha1`: a Kubernetes API version."""
    return bool(_VERSION.match(segment))


def of_version(version: str | None) -> str:
    """`v1alpha1` -> alpha, `v2beta3` -> beta, `v1` -> ga; anything else is ga."""
    match = _VERSION.match(version) if version else None
    return (match.group(1) or "ga") if match else "ga"


def declared(raw: Any) -> str | None:
    """`x-stability-level` as written (draft, alpha, beta, stable), None when absent or another word."""
    value = raw.get("x-stability-level") if isinstance(raw, dict) else None
    return value.lower() if isinstance(value, str) and value.lower() in DECLARED else None


def written_level(raw: Any) -> str | None:
    """`x-stability-level` as the spec writes it: a known word lower-cased, any other value as written (so that
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


def marked(schema: Any) -> str:
    """The level a schema or field's own markers give: the least stable of `x-stability-level` and the
    KEP-2558 status (deprecated says nothing about stability); ga when it has neither."""
    if not isinstance(schema, dict):
        return "ga"
    word = declared(schema)
    status = lifecycle_of(schema).status
    lifecycle = status if status in ("alpha", "beta") else "ga"
    return least_stable(DECLARED[word], lifecycle) if word else lifecycle
