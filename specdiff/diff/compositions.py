"""What an added `allOf` part or `oneOf` branch means for the values a schema accepts.

An `allOf` part is judged by what it adds to the schema it joins (required properties, constraints, types),
not by the fact that it was added. A `oneOf` branch is judged by whether a value may match it and another
branch at once: `oneOf` refuses such a value, so branches that overlap break writers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from specdiff.diff.kernel import mapping
from specdiff.graph.schemas import nullable, required_set, type_set
from specdiff.load.sourcemap import join_pointer

Schema = dict[str, Any]
#: keywords that say nothing about the values a part accepts
_QUIET = frozenset({"description", "title", "example", "examples", "externalDocs", "$comment", "allOf"})


def composed(schema: Schema, pointer: str, resolve: Callable[[Schema, str], tuple[Schema, str]],
             depth: int = 0) -> tuple[Schema, dict[str, str]]:
    """A schema at `pointer` and its `allOf` parts read as one, parts of parts included, and where each keyword
    and property of the joined schema is written, by its pointer inside it (`/required`, `/properties/name`):
    the part whose value it keeps, a property in the last part that writes it (the one that refines it).
    `resolve` gives a part's target and its pointer. A part met again at the same depth is joined once
    (by identity): five parts that are each the same five parts, eight deep, are 40 joins, not 5^8."""
    #: (part, its schema and places joined) by the part's identity, where it is and how deep: the part is kept,
    #: so that its identity is no other's while this join lasts
    joined: dict[tuple[int, str, int], tuple[Schema, tuple[Schema, dict[str, str]]]] = {}

    def join(schema: Schema, pointer: str, depth: int) -> tuple[Schema, dict[str, str]]:
        base = {k: v for k, v in schema.items() if k != "allOf"}
        places = _places(base, pointer)
        parts = schema.get("allOf")
        for i, part in enumerate(parts if isinstance(parts, list) else ()):
            if isinstance(part, dict):
                target, at = resolve(part, f"{pointer}/allOf/{i}")
                if isinstance(target.get("allOf"), list) and depth < _DEPTH:
                    key = (id(target), at, depth + 1)
                    if key not in joined:
                        joined[key] = target, join(target, at, depth + 1)
                    target, inner = joined[key][1]
                else:
                    inner = _places(target, at)
                merged = with_additions(base, target)
                places.update({inside: place for inside, place in inner.items()
                               if inside.startswith("/properties/")
                               or merged.get(inside[1:]) is not base.get(inside[1:])})
                base = merged
        return base, places

    return join(schema, pointer, depth)


def _places(schema: Schema, pointer: str) -> dict[str, str]:
    """Where a schema writes its keywords and properties, by their pointers inside it."""
    return {**{join_pointer((key,)): pointer + join_pointer((key,)) for key in schema},
            **{join_pointer(("properties", name)): pointer + join_pointer(("properties", name))
               for name in mapping(schema.get("properties"))}}


#: how deep parts of parts are joined (a part that includes itself stops here)
_DEPTH = 8
#: bounds of which the joined schema keeps the tighter, as a value must meet both parts' bounds
_TIGHTER: dict[str, Callable[[Any, Any], Any]] = {
    "maximum": min, "maxLength": min, "maxItems": min, "maxProperties": min,
    "minimum": max, "minLength": max, "minItems": max, "minProperties": max}


def with_additions(base: Schema, part: Schema) -> Schema:
    """`base` with what `part` adds to it: keywords it lacks, properties it does not name, more required names,
    the tighter of two bounds, and a property both name joined keyword by keyword (a part that bounds `name`
    bounds the base's `name`). Any other keyword both write keeps the base's value."""
    merged = dict(base)
    for key, value in part.items():
        if key in _QUIET or key == "$ref":
            continue
        if key == "properties" and isinstance(value, dict):
            known = mapping(merged.get("properties"))
            merged["properties"] = {**value, **known, **{
                name: with_additions(known[name], schema) for name, schema in value.items()
                if isinstance(known.get(name), dict) and isinstance(schema, dict) and "$ref" not in schema}}
        elif key == "required" and isinstance(value, list):
            merged["required"] = sorted(required_set(merged) | {str(v) for v in value})
        elif key not in merged:
            merged[key] = value
        elif key in _TIGHTER and _number(value) and _number(merged[key]):
            merged[key] = _TIGHTER[key](merged[key], value)
    return merged


def may_overlap(a: Schema, b: Schema) -> bool:
    """Whether some value could match both schemas (so a `oneOf` of the two refuses it). Conservative: only
    disjoint types, disjoint constants or enums, a required property whose constants differ, or a closed
    object that lacks a property the other requires prove the branches apart."""
    types_a, types_b = _types(a), _types(b)
    if types_a and types_b and not types_a & types_b:
        return False
    values_a, values_b = _values(a), _values(b)
    if values_a is not None and values_b is not None and not values_a & values_b:
        return False
    props_a, props_b = mapping(a.get("properties")), mapping(b.get("properties"))
    for name in required_set(a) & required_set(b):
        inner_a, inner_b = _values(props_a.get(name)), _values(props_b.get(name))
        if inner_a is not None and inner_b is not None and not inner_a & inner_b:
            return False
    return not (_closed_without(a, required_set(b)) or _closed_without(b, required_set(a)))


#: how many branches, in all, one `oneOf` compares one by one with the branches added to it, when indexing them
#: by type and listed value does not tell them apart; past it an added branch is taken to overlap
#: (conservative: a `oneOf` of thousands of open objects that only closed properties tell apart)
PAIRS_COMPARED = 200_000


class Overlaps:
    """Whether a branch of one `oneOf` may match a value with another (`may_overlap`), answered without
    comparing it with every branch: branches are indexed once by the types they admit and the values they list,
    which is how most branches are told apart; only those the index cannot rule out are compared one by one,
    within a budget for the whole `oneOf` (`PAIRS_COMPARED`)."""

    def __init__(self, branches: dict[str, Schema]) -> None:
        self._branches = branches
        self._by_types: dict[frozenset[str], list[str]] = {}  # the branches that admit these types
        self._unlisted: dict[frozenset[str], list[str]] = {}  # of those, the ones that list no values
        self._by_value: dict[str, list[str]] = {}  # the branches that list a value
        for key, branch in branches.items():
            types = _types(branch)
            self._by_types.setdefault(types, []).append(key)
            self._unlisted.setdefault(types, [])
            values = _values(branch)
            if values is None:
                self._unlisted[types].append(key)
            for value in sorted(values or ()):
                self._by_value.setdefault(value, []).append(key)
        self._budget = PAIRS_COMPARED

    def any_besides(self, key: str) -> bool:
        """Whether a value may match branch `key` and some other branch."""
        branch = self._branches[key]
        types, values = _types(branch), _values(branch)
        if values is not None:  # branches that list values overlap it only by listing one of its own
            sharing = {other: _types(self._branches[other]) for value in sorted(values)
                       for other in self._by_value.get(value, ())}
        for group, keys in self._by_types.items():
            if types and group and not types & group:
                continue  # disjoint types: apart
            candidates = keys if values is None else self._unlisted[group] + [
                other for other, other_types in sharing.items() if other_types == group]
            for other in candidates:
                if other == key:
                    continue
                self._budget -= 1
                if self._budget < 0 or may_overlap(branch, self._branches[other]):
                    return True
        return False


def _types(schema: Schema) -> frozenset[str]:
    """The JSON types a schema admits, null included (`type: "null"` overlaps only null); none when it does
    not say."""
    if "type" not in schema:
        return frozenset()
    types = type_set(schema, "") | ({"null"} if nullable(schema) or schema["type"] == "null" else set())
    return types | {"integer"} if "number" in types else types


def _values(schema: Any) -> frozenset[str] | None:
    """The values a schema allows when it lists them (`const`, `enum`), as canonical text."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return frozenset({json.dumps(schema["const"], sort_keys=True)})
    if isinstance(schema.get("enum"), list):
        return frozenset(json.dumps(v, sort_keys=True) for v in schema["enum"])
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _closed_without(schema: Schema, names: frozenset[str]) -> bool:
    """An object that allows no other properties and does not name one of `names`."""
    return schema.get("additionalProperties") is False and bool(names - set(mapping(schema.get("properties"))))
