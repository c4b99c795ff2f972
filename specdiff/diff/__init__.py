"""diff: (old, new) SpecGraph -> [Change]. Neutral structural facts; never decides what is breaking."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from specdiff.diff.document import document_changes, documentation_changes
from specdiff.diff.files import unreported_files
from specdiff.diff.group_versions import fold_group_versions
from specdiff.diff.kernel import Side
from specdiff.diff.operations import OperationDiffer
from specdiff.diff.schemas import DeferredPlace, SchemaDiffer
from specdiff.diff.security import scheme_changes
from specdiff.diff.vocabulary import Where, change
from specdiff.frozen import refilled
from specdiff.graph.ecosystem import PLAIN, Ecosystem
from specdiff.graph.kubernetes_names import short_name
from specdiff.graph.model import NamedSchema, SpecGraph
from specdiff.graph.refs import plain_name
from specdiff.graph.subjects import users_subject
from specdiff.patterns import compiled
from specdiff.records import CUT_OFF, FIRST_USED, UNUSED, Change, Context

__all__ = ["Changes", "TooManyChanges", "diff", "match_schemas"]


def match_schemas(old: SpecGraph, new: SpecGraph) -> dict[str, str]:
    """Old named-schema identity -> new one, by three keys tried in turn on what is still unmatched:

    1. the group/version/kind of a schema with exactly one `x-kubernetes-group-version-kind`, when no other
       schema on its side has it (shared types listing many kinds are left to their names);
    2. the name;
    3. the name its document writes, when exactly one schema on each side has it: a schema moved between the
       spec and a file it refers to (`Pet` and `common.yaml#/components/schemas/Pet`) is the same schema;
    4. the Kubernetes short name, the name from its group segment on (`core.v1.ConfigMap` for
       `io.k8s.api.core.v1.ConfigMap`, `meta.v1.ObjectMeta` for `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`),
       when exactly one schema on each side has it. This is how KEP-style v3 names meet v2 names.
    A pair matched under different names (as the documents write them) is reported as a rename.
    """
    names: dict[str, str] = {}
    old_kinds = _unique(old.schemas.values(), lambda s: s.gvk)
    new_kinds = _unique(new.schemas.values(), lambda s: s.gvk)
    for gvk, name in old_kinds.items():
        if gvk in new_kinds:
            names[name] = new_kinds[gvk]
    taken = set(names.values())
    for name in old.schemas:
        if name not in names and name in new.schemas and name not in taken:
            names[name] = name
            taken.add(name)
    # the later keys are tried on what is still unmatched, most often nothing or a few schemas
    old_left = [schema for schema in old.schemas.values() if schema.name not in names]
    new_left = [schema for schema in new.schemas.values() if schema.name not in taken]
    old_plain = _unique(old_left, lambda s: plain_name(s.name))
    new_plain = _unique(new_left, lambda s: plain_name(s.name))
    for plain, name in old_plain.items():
        if plain in new_plain:
            names[name] = new_plain[plain]
            taken.add(new_plain[plain])
    old_short = _unique([s for s in old_left if s.name not in names], lambda s: short_name(s.name))
    new_short = _unique([s for s in new_left if s.name not in taken], lambda s: short_name(s.name))
    for short, name in old_short.items():
        if short in new_short:
            names[name] = new_short[short]
    return names


def _unique(schemas: Iterable[NamedSchema], key: Callable[[NamedSchema], str | None]) -> dict[str, str]:
    """key -> schema name, for the keys exactly one of the schemas has."""
    found: dict[str, str | None] = {}
    for schema in schemas:
        value = key(schema)
        if value is not None:
            found[value] = None if value in found else schema.name
    return {value: name for value, name in found.items() if name is not None}


class TooManyChanges(Exception):
    """More changes than the comparison may produce: stopped as soon as the bound is passed."""


class Changes(list[Change]):
    """The list every differ appends to, refusing to grow past `most`: YAML aliases within their budget can
    still multiply what is compared, and the bound must stop the work, not judge it afterwards."""

    def __init__(self, most: int | None = None) -> None:
        super().__init__()
        self.most = most

    def append(self, item: Change) -> None:
        if self.most is not None and len(self) >= self.most:
            raise TooManyChanges(self.most)
        super().append(item)


def diff(old: SpecGraph, new: SpecGraph, ecosystem: Ecosystem = PLAIN, include_docs: bool = False,
         most: int | None = None) -> list[Change]:
    """`ecosystem` is what the specs are (graph.ecosystem.decide); `include_docs` adds documentation changes
    (descriptions, summaries, titles, examples, tags); `most` bounds how many changes may be found
    (TooManyChanges past it). References resolve through each graph's normalisation stage (`SpecGraph.normal`)."""
    if old.crds or new.crds:
        from specdiff.diff.crd import diff_crds

        return diff_crds(old, new, ecosystem, Changes(most))
    changes = Changes(most)
    names = match_schemas(old, new)

    def unused(graph: SpecGraph, name: str) -> bool:
        """A plain OpenAPI schema nothing uses: described, never sent (Kubernetes definitions are reached through
        operations, and a few that are not still describe what the server serves, so they keep their verdicts)."""
        return ecosystem.spec == "openapi" and not graph.reached(name)

    def unreached(new_name: str, old_name: str) -> str | None:
        """How a schema compared on both sides is reached when operations on one side do not use it: cut off
        when only old ones did (each use that went is reported where it was), first used when only new ones do,
        unused when none does; None when operations on both sides use it."""
        if not unused(new, new_name):
            return f"{FIRST_USED}: {new.direction(new_name)}" if unused(old, old_name) else None
        return CUT_OFF if old.reached(old_name) else UNUSED

    def pair_where(old_name: str, new_name: str) -> Where:
        """Where the changes of a pair of named schemas are: at the level existing users relied on; and no existing
        client meets a change to a schema no new operation uses: its old uses went with their operations or now
        name another schema, each reported where it is."""
        return _named_where(new, new.schemas[new_name], unreached(new_name, old_name), old.stability(old_name))

    schemas = SchemaDiffer(old, new, names, changes.append, ecosystem)
    schemas.include_docs = include_docs
    OperationDiffer(old, new, schemas).run()
    for found in scheme_changes(old, new):
        changes.append(found)
    renamed_to = set(names.values())
    for old_name, new_name in names.items():
        before, after = old.schemas[old_name], new.schemas[new_name]
        unchanged = schemas.named_unchanged(before, after)
        if old_name == new_name and unchanged:
            continue  # equal content: nothing inside can differ (refs name the same schemas)
        place = DeferredPlace(_named_place(new, after), partial(pair_where, old_name, new_name))
        if plain_name(old_name) != plain_name(new_name):
            changes.append(change("modified", "schema", "name", old=old_name, new=new_name, where=place.where,
                                  old_pointer=before.pointer, new_pointer=after.pointer))
        if not unchanged:
            first = len(changes)
            schemas.compare_named(Side(before.schema, before.pointer, before.document),
                                  Side(after.schema, after.pointer, after.document), place)
            if len(changes) > first:
                changes[first:] = [place.resolved_change(found) for found in changes[first:]]
    for name, schema in new.schemas.items():
        if name not in renamed_to:
            where = _named_where(new, schema, UNUSED if unused(new, name) else None)
            changes.append(change("added", "schema", new=name, where=_whole(where), new_pointer=schema.pointer))
            schemas.introduced(Side(schema.schema, schema.pointer, schema.document), where)
    for name, schema in old.schemas.items():
        if name not in names:
            where = _named_where(old, schema, UNUSED if unused(old, name) else None)
            wire: dict[str, Any] = {"same_wire": True} if name in schemas.renamed else {}  # its places name a copy
            alias = _alias_of(old, new, name)
            changes.append(change("removed", "schema", old=name, where=_whole(where), old_pointer=schema.pointer,
                                  **wire, **({"alias_of": alias} if alias else {})))
    for found in document_changes(old, new):  # last: what the comparison resolved tells what is used elsewhere
        changes.append(found)
    if include_docs:
        for found in documentation_changes(old, new):
            changes.append(found)
    for found in list(unreported_files(old, new, changes)):  # after every other change, which it is checked against
        changes.append(found)
    return fold_group_versions(old, new, changes)


#: "Deprecated. Please use io.k8s.api.core.v1.Pod instead.": the schema a deprecated alias names
_ALIAS = r"(?is)^\s*Deprecated\b.*?\buse\s+(\S+?)\s+instead\b"


def _alias_of(old: SpecGraph, new: SpecGraph, name: str) -> str | None:
    """The schema a removed one was a deprecated alias of, when that one stays and no operation used the alias:
    its description says to use the other instead, and it is only a `$ref` to it or the same schema."""
    schema = old.schemas[name].schema
    text = str(schema.get("description", ""))
    # (the pattern is compiled, and tried, only for a description with the word: no letter of it has another case
    # that `re` matches beside the one `lower` gives)
    match = compiled(_ALIAS).match(text) if "deprecated" in text.lower() else None
    target = match.group(1) if match else None
    if target is None or target not in old.schemas or target not in new.schemas or old.reached(name):
        return None
    rest = {key: value for key, value in schema.items() if key != "description"}
    ref = rest.get("$ref")
    if set(rest) == {"$ref"} and isinstance(ref, str) and ref.rpartition("/")[2] == target:
        return target
    other = {key: value for key, value in old.schemas[target].schema.items() if key != "description"}
    return target if rest == other else None


def _whole(where: Where) -> Where:
    """Where a named schema itself is added or removed: a report names the type, not its place in a kind."""
    return refilled(where, context=refilled(where.context, whole_type=True))


def _named_place(graph: SpecGraph, schema: NamedSchema) -> Where:
    """Where a named schema's changes are, but for what the graph's walks find (`DeferredPlace.provisional`):
    read both ways, at the most stable level, of no resource or kind."""
    return Where(Context(schema=schema.name, gvk=schema.gvk, group_version=schema.group_version,
                         document=graph.part_of(schema.document)), "both")


def _named_where(graph: SpecGraph, schema: NamedSchema, unreached: str | None = None, stability: str | None = None
                 ) -> Where:
    """Where a named schema's changes are: its group-version, and the stability, direction, resource and kind
    the graph gave it (those its operations share); `unreached` (unused or cut off) when no operation uses it."""
    resource, kind = (None, None) if schema.gvk else users_subject(graph, schema)
    return Where(Context(schema=schema.name, gvk=schema.gvk, group_version=schema.group_version,
                         stability=stability or graph.stability(schema.name), document=graph.part_of(schema.document),
                         resource=resource, kind=kind),
                 unreached or graph.direction(schema.name))
