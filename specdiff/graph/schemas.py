"""JSON Schema helpers shared by the graph builder and the differ: subschemas, types, refs."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any, TypeGuard

from specdiff.patterns import compiled

#: a JSON Schema object as the documents write it (graph.model names it for the model's records too)
Schema = dict[str, Any]

#: keywords whose value is one subschema, and how the field path shows them
SINGLE = {"items": "[]", "additionalProperties": "{}", "not": "<not>", "contains": "<contains>",
          "propertyNames": "<propertyNames>", "additionalItems": "[]"}
#: keywords whose value is a list of subschemas
LISTS = ("allOf", "oneOf", "anyOf", "prefixItems")
#: keywords whose value maps names to subschemas
MAPS = ("properties", "patternProperties", "$defs", "definitions")
_DICT_ORDER, _LIST_ORDER = (*MAPS, *SINGLE), ("items", *LISTS)  # `items` holds a list in older drafts
_HOLDERS = frozenset((*_DICT_ORDER, *_LIST_ORDER))
#: what a schema holds a `$ref` under, its own or a subschema's (`refs_in`)
_REF_HOLDERS = _HOLDERS | {"$ref"}


def subschemas(schema: Schema) -> Iterator[tuple[tuple[str, ...], Schema]]:
    """Every direct subschema with its pointer tokens relative to `schema`: keywords in the order of MAPS, SINGLE,
    then those holding lists (`items` of older drafts first)."""
    held: Collection[str] = _HOLDERS.intersection(schema)  # most schemas hold one such keyword or none: only
    if len(held) > 1:  # those are read, and only these few need ordering
        held = [*(key for key in _DICT_ORDER if key in held and isinstance(schema[key], dict)),
                *(key for key in _LIST_ORDER if key in held and isinstance(schema[key], list))]
    for key in held:
        value = schema[key]
        if isinstance(value, dict):
            if key in SINGLE:
                yield (key,), value
            elif key in MAPS:
                for name, sub in value.items():
                    if isinstance(sub, dict):
                        yield (key, name), sub
        elif isinstance(value, list) and key in _LIST_ORDER:
            for i, sub in enumerate(value):
                if isinstance(sub, dict):
                    yield (key, str(i)), sub


def refs_in(schema: Schema, keywords: tuple[str, ...] = ("$ref",)) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every `$ref` (or other reference keyword: `$dynamicRef`) reachable inside an inline schema, without
    following it: the tokens to the keyword, and the reference."""
    stack: list[tuple[tuple[str, ...], Schema]] = [((), schema)]
    while stack:
        tokens, node = stack.pop()
        for keyword in keywords:
            ref = node.get(keyword)
            if isinstance(ref, str):
                yield tokens + (keyword,), ref
        if not _HOLDERS.isdisjoint(node):  # (most schemas are leaves: a property's type and description)
            for sub_tokens, sub in subschemas(node):
                stack.append((tokens + sub_tokens, sub))


def may_hold_refs(schema: Schema) -> bool:
    """Whether `refs_in` can find a `$ref` in a schema: a test cheap enough to run over every field of a type (most
    hold a type and a description only)."""
    return not _REF_HOLDERS.isdisjoint(schema)


def type_set(schema: Schema, dialect: str) -> frozenset[str]:
    """The JSON types a schema admits, without "null" (nullability is its own attribute)."""
    value = schema.get("type")
    if value is None:
        return frozenset()
    types = {value} if isinstance(value, str) else {str(t) for t in value} if isinstance(value, list) else set()
    return frozenset(types - {"null"})


def nullable(schema: Schema) -> bool:
    value = schema.get("type")
    return bool(schema.get("nullable") or schema.get("x-nullable")
                or (isinstance(value, list) and "null" in value)
                or (isinstance(schema.get("enum"), list) and None in schema["enum"]))


def required_set(schema: Schema) -> frozenset[str]:
    value = schema.get("required")
    return frozenset(str(v) for v in value) if isinstance(value, list) else frozenset()


#: where a live Kubernetes apiserver documents an enum type's values (KEP-2887), and one value's line
ENUM_HEADING = "Possible enum values:"
_ENUM_ITEM = r'^\s*-\s*`"(?P<value>[^"]*)"`\s*(?P<text>.*)$'
_DEPRECATED = r"(?i)\bdeprecated\b"


def lists_enum(description: Any) -> TypeGuard[str]:
    """Whether a description lists an enum's values (`documented_enum` reads them as the enum)."""
    return isinstance(description, str) and ENUM_HEADING in description


def documented_enum(schema: Schema) -> dict[str, str]:
    """Value -> its text, from the "Possible enum values:" list at the end of a description (else empty)."""
    description = schema.get("description")
    if not lists_enum(description):
        return {}
    values: dict[str, str] = {}
    last: str | None = None
    for line in description.split(ENUM_HEADING, 1)[1].splitlines():
        item = compiled(_ENUM_ITEM).match(line)
        if item:
            last = item.group("value")
            values[last] = item.group("text").strip()
        elif last is not None and line.strip():
            values[last] += " " + line.strip()  # a value's text that wraps onto more lines
    return values


def enum_values(schema: Schema) -> list[Any] | None:
    """The values an enum allows: `enum`, else the documented list of a live spec; None when it is no enum."""
    values = schema.get("enum")
    if isinstance(values, list):
        return values
    documented = documented_enum(schema)
    return list(documented) if documented else None


def deprecated_enum_values(schema: Schema) -> frozenset[str]:
    """Values whose documented line says they are deprecated."""
    return frozenset(value for value, text in documented_enum(schema).items() if compiled(_DEPRECATED).search(text))

