"""diff: (old, new) SpecGraph -> [Change]. Neutral structural facts; never decides what is breaking."""

from __future__ import annotations

from specdiff.diff.operations import OperationDiffer
from specdiff.diff.schemas import SchemaDiffer, Side, Where
from specdiff.graph.model import NamedSchema, SpecGraph
from specdiff.graph.refs import Resolver
from specdiff.records import Change, Context

__all__ = ["diff", "match_schemas"]


def match_schemas(old: SpecGraph, new: SpecGraph) -> dict[str, str]:
    """Old named-schema identity -> new one: the same name, else the same group/version/kind."""
    names = {name: name for name in old.schemas if name in new.schemas}
    new_by_gvk = {s.gvk: s.name for s in new.schemas.values() if s.gvk and s.name not in old.schemas}
    for name, schema in old.schemas.items():
        if name not in names and schema.gvk and schema.gvk in new_by_gvk:
            names[name] = new_by_gvk[schema.gvk]
    return names


def diff(old: SpecGraph, new: SpecGraph, old_resolver: Resolver | None = None,
         new_resolver: Resolver | None = None) -> list[Change]:
    if old.crds or new.crds:
        from specdiff.diff.crd import diff_crds

        return diff_crds(old, new, old_resolver or Resolver(old.document), new_resolver or Resolver(new.document))
    changes: list[Change] = []
    names = match_schemas(old, new)
    schemas = SchemaDiffer(old, new, names, changes.append, old_resolver or Resolver(old.document),
                           new_resolver or Resolver(new.document))
    OperationDiffer(old, new, schemas).run()
    renamed_to = set(names.values())
    for old_name, new_name in names.items():
        before, after = old.schemas[old_name], new.schemas[new_name]
        if old_name == new_name and schemas.local_only and before.schema == after.schema:
            continue  # equal content: nothing inside can differ (refs name the same schemas)
        where = _named_where(new, after, old.stability(old_name))  # the level existing users relied on
        if old_name != new_name:
            changes.append(Change("modified", "schema", "name", old_name, new_name, where.direction, where.context,
                                  before.pointer, after.pointer))
        schemas.compare(Side(before.schema, before.pointer, before.document),
                        Side(after.schema, after.pointer, after.document), where)
    for name, schema in new.schemas.items():
        if name not in renamed_to:
            where = _named_where(new, schema)
            changes.append(Change("added", "schema", "", None, name, where.direction, where.context, None,
                                  schema.pointer))
            schemas.introduced(Side(schema.schema, schema.pointer, schema.document), where)
    for name, schema in old.schemas.items():
        if name not in names:
            where = _named_where(old, schema)
            changes.append(Change("removed", "schema", "", name, None, where.direction, where.context,
                                  schema.pointer, None))
    return changes


def _named_where(graph: SpecGraph, schema: NamedSchema, stability: str | None = None) -> Where:
    return Where(Context(schema=schema.name, gvk=schema.gvk, group_version=schema.group_version,
                         stability=stability or graph.stability(schema.name)), graph.direction(schema.name))
