"""Extensions plain OpenAPI specs use to manage change: `x-sunset`, `x-stability-level`, `x-extensible-enum`,
and the `deprecated` flag they go with.

Operations and parameters carry the first two in the graph; this module compares them on schemas and
properties, where they are written inside the schema. Dates are recorded as the spec gives them (graph/sunset.py);
how far away they are is classify's question, asked against the reference date.
"""

from __future__ import annotations

from typing import Any

from specdiff.diff.kernel import (
    MISSING,
    Differ,
    Side,
    by_value,
    keyed_difference,
    keyword_pointer,
    presence,
    same_value,
)
from specdiff.diff.vocabulary import Where, change
from specdiff.graph.stability import written_level
from specdiff.graph.sunset import sunset_of

EXTENSIBLE_ENUM = "x-extensible-enum"
#: vendor extensions known to change what is sent or how a client reads or sends it (every other `x-` keyword
#: documents, or feeds a code generator or a portal): Swagger 2's `x-nullable` and discriminator value, the
#: lifecycle extensions above, and AutoRest's `x-ms-*` that change requests or how values are read. A change to
#: one that no card models stays unclassified, for review by hand
WIRE_EXTENSIONS = frozenset({"x-nullable", "x-discriminator-value", "x-sunset", "x-stability-level", EXTENSIBLE_ENUM,
                             "x-ms-paths", "x-ms-enum", "x-ms-skip-url-encoding", "x-ms-discriminator-value",
                             "x-ms-long-running-operation", "x-ms-long-running-operation-options"})
#: the prefix of the Kubernetes extensions, each change of which has its own rule (specdiff.diff.kubernetes)
KUBERNETES_PREFIX = "x-kubernetes-"


def changes_the_wire(extension: str) -> bool:
    """Whether a vendor extension is known to change what is sent or how it is read (`WIRE_EXTENSIONS`)."""
    return extension in WIRE_EXTENSIONS or extension.startswith(KUBERNETES_PREFIX)


#: the keywords `compare_extensions` reads (most schemas write none)
_COMPARED = frozenset({"deprecated", "x-sunset", "x-stability-level", EXTENSIBLE_ENUM})


def compare_extensions(differ: Differ, old: Side, new: Side, where: Where) -> None:
    o, n = old.schema, new.schema
    if _COMPARED.isdisjoint(o) and _COMPARED.isdisjoint(n):
        return
    _deprecated(differ, old, new, where)
    old_sunset, new_sunset = sunset_of(o), sunset_of(n)
    if old_sunset != new_sunset:
        differ.emit(change(presence(old_sunset, new_sunset, None), "schema", "x-sunset", old=old_sunset,
                           new=new_sunset, where=where, old_pointer=keyword_pointer(old, "x-sunset"),
                           new_pointer=keyword_pointer(new, "x-sunset"), deprecated=n.get("deprecated") is True))
    old_level, new_level = written_level(o), written_level(n)
    if old_level != new_level:
        differ.emit(change("modified", "schema", "x-stability-level", old=old_level, new=new_level, where=where,
                           old_pointer=keyword_pointer(old, "x-stability-level"),
                           new_pointer=keyword_pointer(new, "x-stability-level")))
    _extensible_enum(differ, old, new, where)


def _deprecated(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """`deprecated` set or dropped, with the sunset the new side announces: the notice `deprecation-days` checks
    (`deprecated: false` says what its absence says)."""
    o, n = (side.schema.get("deprecated", False) for side in (old, new))
    o, n = (MISSING if value is False else value for value in (o, n))
    if o is MISSING and n is MISSING or (o is not MISSING and n is not MISSING and same_value(o, n)):
        return
    kind = presence(o, n)
    differ.emit(change(kind, "schema", "deprecated", old=None if o is MISSING else o, new=None if n is MISSING else n,
                       where=where, old_pointer=None if kind == "added" else keyword_pointer(old, "deprecated"),
                       new_pointer=None if kind == "removed" else keyword_pointer(new, "deprecated"),
                       sunset=sunset_of(new.schema)))


def _extensible_enum(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """An open enum lists the values known today; clients must accept others, so only removals break."""
    o, n = old.schema.get(EXTENSIBLE_ENUM), new.schema.get(EXTENSIBLE_ENUM)
    o_list, n_list = (o if isinstance(o, list) else []), (n if isinstance(n, list) else [])
    old_keys, new_keys = by_value(o_list), by_value(n_list)
    added, removed, _ = keyed_difference(old_keys, new_keys)
    for key in added:
        i = new_keys[key]
        differ.emit(change("added", "enum-value", EXTENSIBLE_ENUM, new=n_list[i], where=where,
                           old_pointer=keyword_pointer(old, EXTENSIBLE_ENUM),
                           new_pointer=f"{new.pointer}/{EXTENSIBLE_ENUM}/{i}", value=n_list[i]))
    for key in removed:
        i = old_keys[key]
        differ.emit(change("removed", "enum-value", EXTENSIBLE_ENUM, old=o_list[i], where=where,
                           old_pointer=f"{old.pointer}/{EXTENSIBLE_ENUM}/{i}",
                           new_pointer=keyword_pointer(new, EXTENSIBLE_ENUM), value=o_list[i]))


def deprecation_facts(schema: Any) -> dict[str, Any]:
    """Whether a property the old spec had was marked deprecated, and the sunset it announced."""
    if not isinstance(schema, dict):
        return {}
    return {"deprecated": bool(schema.get("deprecated")), "sunset": sunset_of(schema)}


#: schema keywords that only document: compared with `--include-docs`, for complete changelogs
DOC_KEYWORDS = ("title", "description", "example", "examples", "externalDocs")
#: the keywords this family compares (specdiff.diff.residue compares the rest as data)
HANDLES = frozenset({"x-sunset", "x-stability-level", EXTENSIBLE_ENUM, *DOC_KEYWORDS})


def compare_docs(differ: Differ, old: Side, new: Side, where: Where) -> None:
    for keyword in DOC_KEYWORDS:
        o, n = old.schema.get(keyword), new.schema.get(keyword)
        if o != n:
            differ.emit(change(presence(o, n, None), "schema", keyword, old=o, new=n, where=where,
                               old_pointer=keyword_pointer(old, keyword), new_pointer=keyword_pointer(new, keyword)))
