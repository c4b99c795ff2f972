"""CustomResourceDefinition comparison: CRDs, their versions, names, subresources, columns and schemas.

Each version's schema goes through the same `SchemaDiffer` as OpenAPI, compared with the same version of the
matched CRD. The details of a version that NEW no longer serves are not compared: no client reads or writes
through it, so only its lifecycle (served, deprecated, removed) is news.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from specdiff.diff.kernel import Side, canonical, mapping
from specdiff.diff.schemas import SchemaDiffer
from specdiff.diff.vocabulary import Where, change
from specdiff.errors import UsageError
from specdiff.graph.crd import Crd, CrdVersion
from specdiff.graph.ecosystem import Ecosystem
from specdiff.graph.model import Schema, SpecGraph
from specdiff.graph.schemas import type_set
from specdiff.graph.stability import rank
from specdiff.load.sourcemap import join_pointer
from specdiff.records import Change, Context

#: names whose change is reported on its own: spec.names keys with one value each
SINGLE_NAMES = ("kind", "plural", "singular", "listKind")
#: spec.names keys that hold a list of aliases
LIST_NAMES = ("shortNames", "categories")
#: printer-column keys that change what kubectl prints (the description only documents)
COLUMN_KEYS = ("jsonPath", "type", "format", "priority")

_QUOTED = re.compile(r"""("[^"]*"|'[^']*')""")
#: the versions or values a finding names before it says how many more there are
_LISTED = 5


def diff_crds(old: SpecGraph, new: SpecGraph, ecosystem: Ecosystem, changes: list[Change]) -> list[Change]:
    if not old.crds or not new.crds:
        crd_side, other = (old, new) if old.crds else (new, old)
        raise UsageError(f"cannot compare a CustomResourceDefinition ({crd_side.document.name}) with an "
                         f"OpenAPI document ({other.document.name})")
    CrdDiffer(SchemaDiffer(old, new, {}, changes.append, ecosystem)).run(old.crds, new.crds)
    return changes


def match_crds(old: dict[str, Crd], new: dict[str, Crd]) -> dict[str, str]:
    """Old CRD name -> new: the same metadata.name, else the same group and kind (the plural changed)."""
    names = {name: name for name in old if name in new}
    unmatched_new = {(c.group, c.kind): c.name for c in new.values() if c.name not in old}
    for name, crd in old.items():
        if name not in names and (crd.group, crd.kind) in unmatched_new:
            names[name] = unmatched_new[(crd.group, crd.kind)]
    return names


class CrdDiffer:
    def __init__(self, schemas: SchemaDiffer) -> None:
        self.schemas = schemas
        self.emit = schemas.emit
        self._fields: dict[int, Fields] = {}

    def run(self, old: dict[str, Crd], new: dict[str, Crd]) -> None:
        names = match_crds(old, new)
        for old_name, new_name in names.items():
            self._crd(old[old_name], new[new_name])
        matched = set(names.values())
        for crd in new.values():
            if crd.name not in matched:
                self.emit(change("added", "crd", new=crd.name, where=_crd_where(crd),
                                 new_pointer=crd.at("metadata", "name")))
                self._round_trip(None, crd)
                self._retyped(None, crd)
                self._narrowed(None, crd)
        for crd in old.values():
            if crd.name not in names:
                self.emit(change("removed", "crd", old=crd.name, where=_crd_where(crd),
                                 old_pointer=crd.at("metadata", "name")))

    # -- the CRD as a whole ---------------------------------------------------------------------------
    def _crd(self, old: Crd, new: Crd) -> None:
        where = _crd_where(new)
        self._value("crd", "scope", old.spec.get("scope"), new.spec.get("scope"), where,
                    _key_pointer(old, "scope"), _key_pointer(new, "scope"))
        self._names(old, new, where)
        old_strategy, new_strategy = _conversion(old), _conversion(new)
        self._value("crd", "conversion", old_strategy, new_strategy, where, _conversion_pointer(old),
                    _conversion_pointer(new), versions=len(new.versions))
        old_storage, new_storage = old.storage_version, new.storage_version
        self._value("crd", "storage", old_storage, new_storage, where,
                    old.versions[old_storage].at("storage") if old_storage else old.at("spec", "versions"),
                    new.versions[new_storage].at("storage") if new_storage else new.at("spec", "versions"))
        for name, version in new.versions.items():
            if name in old.versions:
                self._version(old, old.versions[name], new, version)
            else:
                self.emit(change("added", "crd-version", new=name, where=_version_where(new, version),
                                 new_pointer=version.pointer, crd=new.name, version=name, served=version.served,
                                 storage=version.storage))
                # the API server checks the new version's schema too: a rule in it that does not compile or
                # costs too much is refused like one added to an existing version
                self.schemas.introduced(Side(version.schema, version.schema_pointer, self.schemas.new.document),
                                        _version_where(new, version))
        for name, version in old.versions.items():
            if name not in new.versions:
                self.emit(change("removed", "crd-version", old=name, where=_version_where(old, version, new.name),
                                 old_pointer=version.pointer, new_pointer=new.at("spec", "versions"), crd=new.name,
                                 version=name, served=version.served, deprecated=version.deprecated,
                                 stored=name in old.stored_versions or name in new.stored_versions))
        self._round_trip(old, new)
        self._retyped(old, new)
        self._narrowed(old, new)

    def _value(self, node: str, attribute: str, old: Any, new: Any, where: Where, old_pointer: str,
               new_pointer: str, **detail: Any) -> None:
        if canonical(old) != canonical(new):
            self.emit(change("modified", node, attribute, old=old, new=new, where=where, old_pointer=old_pointer,
                             new_pointer=new_pointer, **detail))

    def _names(self, old: Crd, new: Crd, where: Where) -> None:
        old_names, new_names = old.names, new.names
        for key in SINGLE_NAMES:
            self._value("crd-names", key, old_names.get(key), new_names.get(key), where,
                        _names_pointer(old, key), _names_pointer(new, key))
        for key in LIST_NAMES:
            before, after = _strings(old_names.get(key)), _strings(new_names.get(key))
            before_set, after_set = set(before), set(after)
            for i, value in enumerate(after):
                if value not in before_set:
                    self.emit(change("added", "crd-names", key, new=value, where=where,
                                     new_pointer=new.at("spec", "names", key, str(i)), name=value))
            for i, value in enumerate(before):
                if value not in after_set:
                    self.emit(change("removed", "crd-names", key, old=value, where=where,
                                     old_pointer=old.at("spec", "names", key, str(i)),
                                     new_pointer=_names_pointer(new, key), name=value))

    # -- one version ----------------------------------------------------------------------------------
    def _version(self, old_crd: Crd, old: CrdVersion, new_crd: Crd, new: CrdVersion) -> None:
        where = _version_where(new_crd, new)
        facts = {"crd": new_crd.name, "version": new.name}
        self._value("crd-version", "served", old.served, new.served, where, old.at("served"), new.at("served"),
                    deprecated=old.deprecated, **facts)
        self._value("crd-version", "deprecated", old.deprecated, new.deprecated, where, old.at("deprecated"),
                    new.at("deprecated"), **facts)
        if old.deprecated == new.deprecated:  # a new deprecation already carries its warning
            self._value("crd-version", "deprecationWarning", old.raw.get("deprecationWarning"),
                        new.raw.get("deprecationWarning"), where, old.at("deprecationWarning"),
                        new.at("deprecationWarning"), **facts)
        if not new.served:
            return
        self.schemas.compare(Side(old.schema, old.schema_pointer, self.schemas.old.document),
                             Side(new.schema, new.schema_pointer, self.schemas.new.document), where)
        self._subresources(old, new, where, facts)
        self._printer_columns(old, new, where, facts)
        self._selectable_fields(old, new, where, facts)

    def _subresources(self, old: CrdVersion, new: CrdVersion, where: Where, facts: dict[str, str]) -> None:
        before, after = mapping(old.raw.get("subresources")), mapping(new.raw.get("subresources"))
        for key in ("status", "scale"):
            old_at, new_at = f"{old.pointer}/subresources/{key}", f"{new.pointer}/subresources/{key}"
            if key in after and key not in before:
                self.emit(change("added", "crd-subresource", key, new=key, where=where, new_pointer=new_at, **facts))
            elif key in before and key not in after:
                self.emit(change("removed", "crd-subresource", key, old=key, where=where, old_pointer=old_at,
                                 new_pointer=new.at("subresources"), **facts))
        old_scale, new_scale = mapping(before.get("scale")), mapping(after.get("scale"))
        if "scale" in before and "scale" in after:
            for key in sorted(set(old_scale) | set(new_scale)):
                self._value("crd-subresource", "scale", old_scale.get(key), new_scale.get(key), where,
                            f"{old.pointer}/subresources/scale", f"{new.pointer}/subresources/scale" +
                            (f"/{key}" if key in new_scale else ""), key=key, **facts)

    def _printer_columns(self, old: CrdVersion, new: CrdVersion, where: Where, facts: dict[str, str]) -> None:
        before = _by(old.raw.get("additionalPrinterColumns"), "name")
        after = _by(new.raw.get("additionalPrinterColumns"), "name")
        old_list, new_list = f"{old.pointer}/additionalPrinterColumns", f"{new.pointer}/additionalPrinterColumns"
        for name, (i, column) in after.items():
            if name not in before:
                self.emit(change("added", "crd-printer-column", new=name, where=where, new_pointer=f"{new_list}/{i}",
                                 column=name, json_path=column.get("jsonPath"), **facts))
                continue
            j, previous = before[name]
            for key in COLUMN_KEYS:
                if key == "jsonPath" and _jsonpath(previous.get(key)) == _jsonpath(column.get(key)):
                    continue
                self._value("crd-printer-column", key, previous.get(key), column.get(key), where,
                            f"{old_list}/{j}", f"{new_list}/{i}" + (f"/{key}" if key in column else ""),
                            column=name, **facts)
        for name, (j, column) in before.items():
            if name not in after:
                self.emit(change("removed", "crd-printer-column", old=name, where=where, old_pointer=f"{old_list}/{j}",
                                 new_pointer=new.at("additionalPrinterColumns"), column=name,
                                 json_path=column.get("jsonPath"), **facts))

    def _selectable_fields(self, old: CrdVersion, new: CrdVersion, where: Where, facts: dict[str, str]) -> None:
        before = {_jsonpath(path): found for path, found in _by(old.raw.get("selectableFields"), "jsonPath").items()}
        after = {_jsonpath(path): found for path, found in _by(new.raw.get("selectableFields"), "jsonPath").items()}
        for path, (i, _) in after.items():
            if path not in before:
                self.emit(change("added", "crd-selectable-field", new=path, where=where,
                                 new_pointer=f"{new.pointer}/selectableFields/{i}", field=path, **facts))
        for path, (j, _) in before.items():
            if path not in after:
                self.emit(change("removed", "crd-selectable-field", old=path, where=where,
                                 old_pointer=f"{old.pointer}/selectableFields/{j}",
                                 new_pointer=new.at("selectableFields"), field=path, **facts))

    # -- round trips between served versions ----------------------------------------------------------
    def _round_trip(self, old: Crd | None, new: Crd) -> None:
        """Fields one served version has and others lack, unless OLD already had that very gap: one change per
        field and version that has it, naming the versions that lack it."""
        if old is not None and _served_schemas(old) == _served_schemas(new):
            return  # the same served versions with the same schemas: every gap is an old one
        known = self._losses(old) if old is not None else {}
        conversion = _conversion(new)
        webhook = old is not None and conversion == _conversion(old) == "Webhook"
        for (path, has_name), (version, tokens, lacking) in sorted(self._losses(new).items()):
            fresh = sorted(set(lacking) - set(known.get((path, has_name), (None, None, ()))[2]))
            if webhook and old is not None:
                fresh = [name for name in fresh if not self._converted_before(old, version, new.versions[name], path)]
            if not fresh:
                continue
            self.emit(change("added", "crd-round-trip", new=path, where=_version_where(new, version).at(path),
                             new_pointer=version.schema_pointer + join_pointer(tokens), crd=new.name,
                             version=version.name, field=path, missing_in=_listed(fresh), conversion=conversion))

    def _converted_before(self, old: Crd, has: CrdVersion, lacks: CrdVersion, path: str) -> bool:
        """Whether OLD already served side by side the two shapes the field's parent has in `has` and in `lacks`:
        its webhook already converted between them (`acmedns` in one, `acmeDNS` in the other), so the gap is not
        new even where these two versions did not have it."""
        parent = self._fields_of(has.schema).properties[path][0]
        shapes = {self._fields_of(v.schema).shapes.get(parent) for v in old.versions.values() if v.served}
        return {self._fields_of(has.schema).shapes[parent], self._fields_of(lacks.schema).shapes[parent]} <= shapes

    def _retyped(self, old: Crd | None, new: Crd) -> None:
        """Fields typed differently in two versions NEW serves side by side, unless OLD already served those two
        versions with those types there: one change per field, at its least stable version, naming each type
        with the versions that give it."""
        if old is not None and _served_schemas(old) == _served_schemas(new):
            return
        known = self._type_clashes(old) if old is not None else {}
        conversion = _conversion(new)
        for path, typed in sorted(self._type_clashes(new).items()):
            pairs = _clashing_pairs(typed)
            if not pairs - _clashing_pairs(known.get(path, {})):
                continue
            version = min((new.versions[name] for name in typed), key=lambda v: (rank(v.stability), v.name))
            by_type: dict[frozenset[str], list[str]] = {}
            for name, (types, _) in typed.items():
                by_type.setdefault(types, []).append(name)
            shown = "; ".join(f"{' or '.join(sorted(types))} in {', '.join(sorted(names))}"
                              for types, names in sorted(by_type.items(), key=lambda item: sorted(item[1])))
            self.emit(change("added", "crd-type-clash", "type", new=path,
                             where=_version_where(new, version).at(path),
                             new_pointer=version.schema_pointer + join_pointer(typed[version.name][1]),
                             crd=new.name, version=version.name, field=path, types=shown, conversion=conversion))

    def _narrowed(self, old: Crd | None, new: Crd) -> None:
        """Enums that a served version narrows against another version served beside it, unless OLD already
        served that version without those values: one change per field and narrower version, naming the values
        it lacks and the versions that allow them."""
        if old is not None and _served_schemas(old) == _served_schemas(new):
            return
        known = self._enum_gaps(old) if old is not None else {}
        conversion = _conversion(new)
        for (path, name), (version, tokens, lacking, wider) in sorted(self._enum_gaps(new).items()):
            fresh = [value for value in lacking if value not in known.get((path, name), (None, (), [], []))[2]]
            if not fresh:
                continue
            self.emit(change("added", "crd-enum-clash", "enum", new=path, where=_version_where(new, version).at(path),
                             new_pointer=version.schema_pointer + join_pointer((*tokens, "enum")), crd=new.name,
                             version=name, field=path, values=_listed(fresh), wider=_listed(wider),
                             conversion=conversion))

    def _enum_gaps(self, crd: Crd) -> dict[tuple[str, str], tuple[CrdVersion, tuple[str, ...], list[str], list[str]]]:
        """(field path, served version) -> (that version, the field's pointer tokens, the values other served
        versions allow there and it does not, those versions), for fields every version involved gives an enum.
        Each value is looked up once in an index of the versions that allow it, so the work grows with the enums,
        not with the square of the number of versions."""
        enums: dict[str, dict[str, tuple[frozenset[str], tuple[str, ...]]]] = {}
        for version in crd.versions.values():
            if version.served:
                for path, found in self._fields_of(version.schema).enums.items():
                    enums.setdefault(path, {})[version.name] = found
        gaps: dict[tuple[str, str], tuple[CrdVersion, tuple[str, ...], list[str], list[str]]] = {}
        for path, each in enums.items():
            if len({values for values, _ in each.values()}) < 2:
                continue
            allowing: dict[str, list[str]] = {}
            for name, (values, _) in each.items():
                for value in values:
                    allowing.setdefault(value, []).append(name)
            for name, (values, tokens) in each.items():
                lacking = sorted(allowing.keys() - values)
                if lacking:
                    wider = sorted({other for value in lacking for other in allowing[value]})
                    gaps[(path, name)] = (crd.versions[name], tokens, lacking, wider)
        return gaps

    def _type_clashes(self, crd: Crd) -> dict[str, dict[str, tuple[frozenset[str], tuple[str, ...]]]]:
        """Field path -> served version -> (the types it gives the field, the field's pointer tokens), for the
        fields that served versions type differently."""
        typed: dict[str, dict[str, tuple[frozenset[str], tuple[str, ...]]]] = {}
        for version in crd.versions.values():
            if version.served:
                for path, found in self._fields_of(version.schema).types.items():
                    typed.setdefault(path, {})[version.name] = found
        return {path: each for path, each in typed.items() if len({types for types, _ in each.values()}) > 1}

    def _losses(self, crd: Crd) -> dict[tuple[str, str], tuple[CrdVersion, tuple[str, ...], list[str]]]:
        """(field path, served version that has it) -> (that version, the field's pointer tokens, the served
        versions that lack it under a parent they have and that does not keep unknown fields).

        Versions with equal schemas are one group, and gaps are found from the lacking side: for each node a
        group has, the fields that other groups put under it. The work grows with the schemas and the gaps,
        not with the square of the number of versions.
        """
        groups: dict[str, list[CrdVersion]] = {}
        for version in crd.versions.values():
            if version.served:
                groups.setdefault(canonical(version.schema), []).append(version)
        fields = {key: self._fields_of(members[0].schema) for key, members in groups.items()}
        children: dict[str, dict[str, list[str]]] = {}  # parent node -> field path -> groups that have it
        for key, found_fields in fields.items():
            for path, (parent, _) in found_fields.properties.items():
                children.setdefault(parent, {}).setdefault(path, []).append(key)
        gaps: dict[tuple[str, str], list[str]] = {}  # (field path, group that has it) -> groups that lack it
        for lacks_key, lacking in fields.items():
            for node, keeps_unknown in lacking.nodes.items():
                for path, having in ({} if keeps_unknown else children.get(node, {})).items():
                    if path not in lacking.nodes:
                        for has_key in having:
                            gaps.setdefault((path, has_key), []).append(lacks_key)
        found: dict[tuple[str, str], tuple[CrdVersion, tuple[str, ...], list[str]]] = {}
        for (path, has_key), lacking_keys in gaps.items():
            names = [v.name for key in lacking_keys for v in groups[key]]
            for has in groups[has_key]:
                found[(path, has.name)] = (has, fields[has_key].properties[path][1], names)
        return found

    def _fields_of(self, schema: Schema) -> Fields:
        key = id(schema)
        if key not in self._fields:
            self._fields[key] = Fields(schema)
        return self._fields[key]


class Fields:
    """The field paths of a structural schema (`.spec.rules[].name`), as a CRD's conversion sees them.

    `nodes` maps every object or array node to whether it keeps unknown fields (then nothing under it is
    pruned); `properties` maps every property to its parent node and its pointer tokens; `types` every node
    that states its JSON types to them (int-or-string is both) and its pointer tokens; `shapes` every node to
    the names of its properties and whether it keeps unknown fields, which is all pruning looks at.
    """

    def __init__(self, schema: Schema) -> None:
        self.nodes: dict[str, bool] = {}
        self.properties: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.types: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}
        self.enums: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}
        self.shapes: dict[str, tuple[frozenset[str], bool]] = {}
        for path, parent, tokens, node in _walk(schema):
            if isinstance(node.get("enum"), list):
                self.enums[path] = (frozenset(map(_shown, node["enum"])), tokens)
            self.nodes[path] = node.get("x-kubernetes-preserve-unknown-fields") is True
            self.shapes[path] = (frozenset(mapping(node.get("properties"))), self.nodes[path])
            types = frozenset({"integer", "string"}) if node.get("x-kubernetes-int-or-string") is True \
                else type_set(node, "")
            if types:
                self.types[path] = (types, tokens)
            if parent is not None:
                self.properties[path] = (parent, tokens)


def _walk(schema: Schema) -> Iterator[tuple[str, str | None, tuple[str, ...], Schema]]:
    """(path, parent node if this is a property, pointer tokens, schema) for every node under properties,
    items and additionalProperties: the keywords that give a structural schema its fields."""
    stack: list[tuple[str, str | None, tuple[str, ...], Schema]] = [("", None, (), schema)]
    while stack:
        path, parent, tokens, node = stack.pop()
        yield path, parent, tokens, node
        for name, sub in mapping(node.get("properties")).items():
            if isinstance(sub, dict):
                stack.append((f"{path}.{name}", path, tokens + ("properties", name), sub))
        for keyword, suffix in (("items", "[]"), ("additionalProperties", "{}")):
            sub = node.get(keyword)
            if isinstance(sub, dict):
                stack.append((path + suffix, None, tokens + (keyword,), sub))


def _clashing_pairs(typed: dict[str, tuple[frozenset[str], tuple[str, ...]]]) -> set[frozenset[str]]:
    """The pairs of versions that type one field differently."""
    return {frozenset((a, b)) for a, (one, _) in typed.items() for b, (other, _) in typed.items()
            if a < b and one != other}


def _crd_where(crd: Crd) -> Where:
    """A CRD-wide change is as stable as the graph says the CRD is (its most stable served version), in the
    direction it gives, and about its kind."""
    return Where(Context(document=crd.name, stability=crd.stability, kind=crd.about), crd.direction)


def _version_where(crd: Crd, version: CrdVersion, crd_name: str | None = None) -> Where:
    """A version's changes, at the stability and in the direction the graph gave them (graph/crd.py)."""
    name = crd_name or crd.name
    return Where(Context(schema=f"{name}/{version.name}", gvk=version.gvk, group_version=version.group_version,
                         stability=version.stability, document=name), crd.direction)


def _served_schemas(crd: Crd) -> dict[str, Schema]:
    return {v.name: v.schema for v in crd.versions.values() if v.served}


def _conversion(crd: Crd) -> str:
    conversion = mapping(crd.spec.get("conversion"))
    return str(conversion.get("strategy") or "None")


def _conversion_pointer(crd: Crd) -> str:
    conversion = mapping(crd.spec.get("conversion"))
    if "strategy" in conversion:
        return crd.at("spec", "conversion", "strategy")
    return crd.at("spec", "conversion") if "conversion" in crd.spec else crd.at("spec")


def _key_pointer(crd: Crd, key: str) -> str:
    return crd.at("spec", key) if key in crd.spec else crd.at("spec")


def _names_pointer(crd: Crd, key: str) -> str:
    return crd.at("spec", "names", key) if key in crd.names else crd.at("spec", "names")


def _listed(names: list[str]) -> str:
    """The first few names, and how many more."""
    more = len(names) - _LISTED
    return ", ".join(names[:_LISTED]) + (f" and {more} more" if more > 0 else "")


def _shown(value: Any) -> str:
    """An enum value as a reader compares it: a string as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _jsonpath(path: Any) -> Any:
    """A JSONPath without the spaces outside quoted strings: `[?(@.type == "Ready")]` is `[?(@.type=="Ready")]`."""
    if not isinstance(path, str):
        return path
    return "".join(part if i % 2 else "".join(part.split()) for i, part in enumerate(_QUOTED.split(path)))


def _by(items: Any, key: str) -> dict[str, tuple[int, dict[str, Any]]]:
    """A list of mappings keyed by one of their fields, with each one's index."""
    if not isinstance(items, list):
        return {}
    return {str(item[key]): (i, item) for i, item in enumerate(items) if isinstance(item, dict) and key in item}
