"""manifests: which of a user's Kubernetes objects break when the cluster moves from OLD to NEW.

OLD and NEW are any input specdiff reads (an API server's swagger.json, per-group v3 folders, CRD files, git
revisions): they say which kinds each side serves and what their schemas accept. Each object of the user's
manifests is looked up by its apiVersion and kind, and checked against what changed between the two sides:

- its group-version or kind is no longer served by NEW: the served versions of the same kind are named as the
  replacement, with what the object would have to change to be accepted there (fields the replacement does not
  have, values and requirements it fails);
- its group-version is deprecated in NEW (a CRD's `deprecated` flag and warning, a KEP-2558 lifecycle marker);
- it sets a field NEW removed, or a value NEW refuses: an enum value no longer allowed, a required field it
  lacks, a type, length, pattern, size or bound it no longer meets. Only what NEW refuses and OLD accepted is
  reported: what OLD already refused is not a change the upgrade makes;
- a custom resource fails a CEL rule (`x-kubernetes-validations`) that NEW adds or changes, evaluated on the
  object with cel-python; a rule that cannot be evaluated here is reported as unchecked, never as passed.

Schemas are checked with `jsonschema` (draft 4, as Kubernetes' OpenAPI schemas are written), against the schema
the side's own document names for the kind, with its `$ref`s resolved in that document.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Any

from specdiff.diff.kernel import mapping
from specdiff.errors import InputError, UsageError
from specdiff.frozen import record
from specdiff.graph.kubernetes_names import group_version_kinds
from specdiff.graph.lifecycle import lifecycle_of
from specdiff.graph.model import NamedSchema, SpecGraph
from specdiff.load import read_file
from specdiff.load.document import Document
from specdiff.load.parse import Limits, decode, parse_text
from specdiff.load.sourcemap import JsonSourceMap, SourceMap, YamlSourceMap, at_pointer, join_pointer
from specdiff.records import Level

#: what one run reads at most: each object is checked against two schemas, so a stream of millions is refused
MAX_OBJECTS = 100_000
#: a value a CEL rule is evaluated on is skipped (unchecked) past this many JSON nodes: cel-python evaluates a
#: macro over every item, and nested macros over every pair
MAX_CEL_NODES = 2_000
#: the values and fields a finding lists before it says how many more there are
_LISTED = 5
_SUFFIXES = (".yaml", ".yml", ".json")
VALIDATIONS = "x-kubernetes-validations"


@record(frozen=True)
class Rule:
    """One kind of manifest finding: its level, and why it matters, written to read for one object or many."""

    id: str
    level: Level
    title: str
    reason: str


RULES = {rule.id: rule for rule in (
    Rule("manifest.version-not-served", Level.BREAKING, "Group-version or kind no longer served",
         "The API server refuses to create, update or read the object through an apiVersion it no longer serves; "
         "manifests, charts and controllers that write it fail after the upgrade."),
    Rule("manifest.version-deprecated", Level.DANGEROUS, "Group-version deprecated",
         "The object is still served, with a deprecation warning on every request; a later release stops serving it."),
    Rule("manifest.field-removed", Level.BREAKING, "Field removed",
         "The API server no longer knows the field: with strict field validation (kubectl's default) the request is "
         "refused, and otherwise the value is dropped without a word."),
    Rule("manifest.value-refused", Level.BREAKING, "Value refused",
         "The new schema refuses a value the object sets and the old schema accepted: creates and updates of the "
         "object fail validation."),
    Rule("manifest.required-missing", Level.BREAKING, "Required field missing",
         "The new schema requires a field the object does not set: creates and updates of the object fail "
         "validation."),
    Rule("manifest.rule-refused", Level.BREAKING, "Refused by a new validation rule",
         "A CEL validation rule that the new CRD adds or changes is false on the object: the API server refuses "
         "its next create or update."),
    Rule("manifest.rule-unchecked", Level.DANGEROUS, "New validation rule not checked",
         "A CEL validation rule that the new CRD adds or changes could not be evaluated here: check the object "
         "against it before the upgrade."),
)}


@record(frozen=True)
class ManifestObject:
    """One Kubernetes object of the user's manifests, and where it is written."""

    file: str
    pointer: str  # of the object in its file ("", "/1", "/items/2")
    line: int | None
    data: dict[str, Any]
    source: SourceMap | None = field(default=None, compare=False, repr=False)

    def line_of(self, pointer: str) -> int | None:
        """The line of a field of the object (a pointer below it), or the object's own line."""
        place = self.source.locate(self.pointer + pointer) if self.source is not None and pointer else None
        return place[0] if place else self.line

    @property
    def api_version(self) -> str:
        return str(self.data.get("apiVersion"))

    @property
    def kind(self) -> str:
        return str(self.data.get("kind"))

    @property
    def gvk(self) -> str:
        """group/version/Kind, the core group written `core` as the specs' names write it."""
        version = self.api_version
        return f"{version if '/' in version else 'core/' + version}/{self.kind}"

    @property
    def namespace(self) -> str | None:
        metadata = self.data.get("metadata")
        value = metadata.get("namespace") if isinstance(metadata, dict) else None
        return str(value) if value is not None else None

    @property
    def name(self) -> str | None:
        metadata = self.data.get("metadata")
        value = metadata.get("name") if isinstance(metadata, dict) else None
        return str(value) if value is not None else None

    @property
    def label(self) -> str:
        """`apps/v1 Deployment shop/web`, as kubectl names an object."""
        where = "/".join(part for part in (self.namespace, self.name) if part) or "(no name)"
        return f"{self.api_version} {self.kind} {where}"


@record(frozen=True)
class ObjectFinding:
    """What breaks for one object: where (its file and line, the field), why, and how to fix it."""

    object: ManifestObject
    rule: str
    message: str
    fix: str
    field: str = ""  # the field path in the object (`.spec.rollbackTo`), "" for the whole object
    line: int | None = None  # of the field when it is written, else of the object
    replacement: str | None = None  # the apiVersion to move to, when the object's is no longer served
    changes: tuple[str, ...] = ()  # what the object must change to move there

    @property
    def level(self) -> Level:
        return RULES[self.rule].level

    @property
    def at_line(self) -> int | None:
        """The line to point a reader at: the field's, else the object's."""
        return self.line if self.line is not None else self.object.line

    @property
    def reason(self) -> str:
        return RULES[self.rule].reason

    def sort_key(self) -> tuple[Any, ...]:
        return (self.object.file, self.object.line or 0, self.object.pointer, self.at_line or 0, self.rule,
                self.field, self.message)


@record(frozen=True)
class ManifestReport:
    old: str
    new: str
    findings: tuple[ObjectFinding, ...]
    checked: int  # objects of a kind OLD or NEW describes
    skipped: tuple[ManifestObject, ...] = ()  # objects of kinds neither side describes: not checked
    files: int = 0


# -- reading the user's objects -------------------------------------------------------------------------
def read_objects(paths: tuple[str, ...], limits: Limits, stdin: bytes | None = None) -> list[ManifestObject]:
    """Every object in the files, folders (recursively, `.yaml`, `.yml` and `.json` files) and stdin (`-`):
    multi-document YAML, JSON arrays and `kind: List` items are read too. Documents without apiVersion and kind
    (a chart's values, a kustomization) are not objects and are passed over."""
    objects: list[ManifestObject] = []
    for path in paths:
        for name, text in _texts(path, limits, stdin):
            objects.extend(_objects(name, text, limits))
            if len(objects) > MAX_OBJECTS:
                raise InputError(f"more than {MAX_OBJECTS} objects to check", file=name)
    return objects


def _texts(path: str, limits: Limits, stdin: bytes | None) -> Iterator[tuple[str, str]]:
    if path == "-":
        raw = stdin if stdin is not None else sys.stdin.buffer.read(limits.max_bytes + 1)
        if len(raw) > limits.max_bytes:
            raise InputError(f"input is over the {limits.max_bytes}-byte limit (--max-bytes)", file="<stdin>")
        yield "<stdin>", decode(raw, "<stdin>")
        return
    folder = Path(path)
    if folder.is_dir():
        files = sorted(p for p in folder.rglob("*") if p.suffix in _SUFFIXES and p.is_file()
                       and not any(part.startswith(".") for part in p.relative_to(folder).parts))
        for file in files:
            yield str(file), read_file(file, str(file), limits)
        return
    yield path, read_file(folder, path, limits)


def _objects(name: str, text: str, limits: Limits) -> Iterator[ManifestObject]:
    if not text.strip():
        return
    data, fmt = parse_text(text, name, limits)
    sourcemap: SourceMap = JsonSourceMap(text) if fmt == "json" else YamlSourceMap(text, multi=isinstance(data, list))
    documents = enumerate(data) if isinstance(data, list) else [(None, data)]
    for index, document in documents:
        yield from _listed(name, sourcemap, "" if index is None else f"/{index}", document)


def _listed(name: str, sourcemap: SourceMap, pointer: str, document: Any) -> Iterator[ManifestObject]:
    if not isinstance(document, dict) or not isinstance(document.get("apiVersion"), str) \
            or not isinstance(document.get("kind"), str):
        return
    if document["kind"].endswith("List") and isinstance(document.get("items"), list):
        for i, item in enumerate(document["items"]):
            yield from _listed(name, sourcemap, f"{pointer}/items/{i}", item)
        return
    place = sourcemap.locate(pointer)
    yield ManifestObject(name, pointer, place[0] if place else None, document, sourcemap)


# -- what each side serves ------------------------------------------------------------------------------
@record(frozen=True)
class Served:
    """A kind at one group-version, as one side describes it."""

    gvk: str
    schema: NamedSchema
    served: bool = True
    deprecated: str | None = None  # the deprecation, in words, when the side marks it


def served_kinds(graph: SpecGraph) -> dict[str, Served]:
    """group/version/Kind -> what the side says of it: every kind a schema declares
    (`x-kubernetes-group-version-kind`), and each version of each CRD, served or not."""
    kinds: dict[str, Served] = {}
    versions = {version.schema_name: version for crd in graph.crds.values() for version in crd.versions.values()}
    for named in graph.schemas.values():
        version = versions.get(named.name)
        if version is not None:
            warning = version.raw.get("deprecationWarning")
            deprecated = (str(warning) if warning else f"{version.group_version} is deprecated") \
                if version.deprecated else None
            kinds[version.gvk] = Served(version.gvk, named, version.served, deprecated)
            continue
        lifecycle = lifecycle_of(named.schema)
        deprecated = None
        if lifecycle.status == "deprecated":
            deprecated = "deprecated" + (f" since {lifecycle.min_version}" if lifecycle.min_version else "")
        for gvk in group_version_kinds(named.schema):
            kinds.setdefault(gvk, Served(gvk, named, True, deprecated))
    return kinds


def _major(gvk: str) -> int:
    """The major number of a kind's version (`autoscaling/v2/...` -> 2): of two stable versions, the later one is
    the one Kubernetes' deprecation guide points to."""
    found = re.search(r"/v(\d+)", gvk)
    return int(found.group(1)) if found else 0


def _api_version(gvk: str) -> str:
    group_version = gvk.rpartition("/")[0]
    return group_version.removeprefix("core/")


# -- checking -------------------------------------------------------------------------------------------
@record
class Checker:
    """Checks objects against two sides; validators and rule lists are made once per kind."""

    old: SpecGraph
    new: SpecGraph
    old_kinds: dict[str, Served] = field(init=False)
    new_kinds: dict[str, Served] = field(init=False)
    _validators: dict[int, Any] = field(default_factory=dict)
    _rules: dict[tuple[str, str], list[tuple[str, str, str]]] = field(default_factory=dict)
    #: each rule's verdict on each value it met, by the value's JSON: objects of one kind repeat values (the
    #: same parent reference, the same filters), and cel-python takes about a millisecond a rule (`_evaluated`)
    _verdicts: dict[tuple[str, str], tuple[bool | None, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.old_kinds, self.new_kinds = served_kinds(self.old), served_kinds(self.new)

    def check(self, objects: list[ManifestObject]) -> tuple[list[ObjectFinding], list[ManifestObject]]:
        findings: list[ObjectFinding] = []
        skipped: list[ManifestObject] = []
        for obj in objects:
            before, after = self.old_kinds.get(obj.gvk), self.new_kinds.get(obj.gvk)
            if before is None and after is None:
                skipped.append(obj)
                continue
            if after is None or not after.served:
                findings.append(self._not_served(obj, before))
                continue
            if after.deprecated:
                findings.append(ObjectFinding(obj, "manifest.version-deprecated",
                                              f"{obj.api_version} {obj.kind} is deprecated: {after.deprecated}",
                                              self._move_hint(obj) or "Plan the move to a served version."))
            if before is not None and before.served:
                findings.extend(self._changed(obj, before, after))
        return sorted(findings, key=ObjectFinding.sort_key), skipped

    def _not_served(self, obj: ManifestObject, before: Served | None) -> ObjectFinding:
        replacements = self._replacements(obj)
        if not replacements:
            return ObjectFinding(obj, "manifest.version-not-served",
                                 f"{obj.api_version} {obj.kind} is no longer served, and no other version of "
                                 f"{obj.kind} is", f"Remove the object, or keep a cluster that serves "
                                 f"{obj.api_version}.")
        target = replacements[0]
        changes = self._to_move(obj, before, target)
        others = [_api_version(r.gvk) for r in replacements[1:]]
        also = f" (also served: {', '.join(others)})" if others else ""
        fix = f"Change apiVersion to {_api_version(target.gvk)}{also}"
        fix += f", and: {'; '.join(changes)}." if changes else "; nothing else in the object needs to change."
        return ObjectFinding(obj, "manifest.version-not-served",
                             f"{obj.api_version} {obj.kind} is no longer served; {_api_version(target.gvk)} is",
                             fix, replacement=_api_version(target.gvk), changes=tuple(changes))

    def _replacements(self, obj: ManifestObject) -> list[Served]:
        """The served versions of the same kind in NEW: the object's own group first, then the most stable."""
        from specdiff.graph.stability import rank

        group = obj.gvk.split("/")[0]
        found = [served for gvk, served in self.new_kinds.items()
                 if served.served and gvk.rpartition("/")[2] == obj.kind and gvk != obj.gvk]
        if not any(s.gvk.split("/")[0] == group for s in found) and len({s.gvk.split("/")[0] for s in found}) > 1:
            return []  # a kind every group declares (DeleteOptions, WatchEvent): no one group replaces it
        return sorted(found, key=lambda s: (s.gvk.split("/")[0] != group, rank(s.schema.stability),
                                            -_major(s.gvk), s.gvk))

    def _move_hint(self, obj: ManifestObject) -> str:
        replacements = [r for r in self._replacements(obj) if not r.deprecated]
        return f"Move to {_api_version(replacements[0].gvk)}." if replacements else ""

    def _to_move(self, obj: ManifestObject, before: Served | None, target: Served) -> list[str]:
        """What the object must change to be accepted by the replacement: fields it does not have, and what its
        schema refuses."""
        changes = [f"remove {path} (not in {_api_version(target.gvk)})"
                   for path, _ in self._removed(obj.data, before, target)] if before is not None else []
        for path, keyword, detail in self._refusals(obj.data, target):
            changes.append(f"{path}: {detail}" if keyword != "required" else detail)
        defaulted = _defaulted(obj.data, target.schema.schema)
        for path, rule, message in _rules_of(target.schema.schema):
            for where, value in _values_at(defaulted, path):
                if evaluate(rule, value)[0] is False:
                    changes.append(f"{where or 'the object'}: make the rule `{rule}` hold"
                                   + (f" ({message})" if message else ""))
        return changes

    def _changed(self, obj: ManifestObject, before: Served, after: Served) -> list[ObjectFinding]:
        found: list[ObjectFinding] = []
        for path, pointer in self._removed(obj.data, before, after):
            found.append(ObjectFinding(obj, "manifest.field-removed", f"{path} is set, and {obj.api_version} "
                                       f"{obj.kind} no longer has it", f"Remove {path} from the object.",
                                       path, obj.line_of(pointer)))
        refusals = self._refusals(obj.data, after)
        # what the old schema refused too is no change the upgrade makes; asked only of objects the new one refuses
        old_refusals = {(path, keyword) for path, keyword, _ in self._refusals(obj.data, before)} if refusals else set()
        for path, keyword, detail in refusals:
            if (path, keyword) in old_refusals:
                continue  # refused before the upgrade as well: not a change it makes
            rule = "manifest.required-missing" if keyword == "required" else "manifest.value-refused"
            pointer = _pointer_of(path)
            found.append(ObjectFinding(obj, rule, detail if keyword == "required" else f"{path}: {detail}",
                                       "Set it as the new schema requires." if keyword == "required"
                                       else "Change the value to one the new schema accepts.", path,
                                       obj.line_of(pointer)))
        found.extend(self._cel(obj, before, after))
        return found

    # -- fields the new schema no longer has ------------------------------------------------------------
    def _removed(self, data: Any, before: Served | None, after: Served) -> list[tuple[str, str]]:
        """(field path, pointer) of each field the object sets that the old schema declares and the new one,
        at the same place, does not (and does not keep unknown fields there)."""
        if before is None:
            return []
        found: list[tuple[str, str]] = []
        stack = [(data, _Node(before.schema), _Node(after.schema), "", "")]
        while stack:
            value, old, new, path, pointer = stack.pop()
            old_schema, new_schema = old.resolved(), new.resolved()
            if isinstance(value, dict):
                old_props, new_props = mapping(old_schema.get("properties")), mapping(new_schema.get("properties"))
                keeps = new_schema.get("x-kubernetes-preserve-unknown-fields") is True \
                    or new_schema.get("additionalProperties") not in (None, False)
                for key in sorted(value, key=str):
                    child, where = f"{path}.{key}", f"{pointer}/{join_pointer([str(key)])[1:]}"
                    if key in old_props and key not in new_props and not keeps and new_props:
                        found.append((child, where))
                    elif key in old_props and key in new_props:
                        stack.append((value[key], old.at(old_props[key]), new.at(new_props[key]), child, where))
                    elif isinstance(old_schema.get("additionalProperties"), dict) \
                            and isinstance(new_schema.get("additionalProperties"), dict):
                        stack.append((value[key], old.at(old_schema["additionalProperties"]),
                                      new.at(new_schema["additionalProperties"]), f"{path}[{key}]", where))
            elif isinstance(value, list) and isinstance(old_schema.get("items"), dict) \
                    and isinstance(new_schema.get("items"), dict):
                for i, item in enumerate(value):
                    stack.append((item, old.at(old_schema["items"]), new.at(new_schema["items"]), f"{path}[{i}]",
                                  f"{pointer}/{i}"))
        return sorted(found)

    # -- what a schema refuses ------------------------------------------------------------------------
    def _refusals(self, data: Any, served: Served) -> list[tuple[str, str, str]]:
        """(field path, keyword, what is wrong) for each error of the object against the side's schema."""
        validator = self._validator(served)
        errors = []
        for error in validator.iter_errors(data):
            path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            errors.append((path, str(error.validator), _detail(error, path)))
        return sorted(set(errors))

    def _validator(self, served: Served) -> Any:
        key = id(served.schema)
        if key not in self._validators:
            self._validators[key] = _validator_for(served.schema)
        return self._validators[key]

    # -- CEL rules the new CRD adds or changes ----------------------------------------------------------
    def _cel(self, obj: ManifestObject, before: Served, after: Served) -> list[ObjectFinding]:
        key = (before.gvk, after.schema.name)
        if key not in self._rules:
            old_rules = {(path, rule) for path, rule, _ in _rules_of(before.schema.schema)}
            self._rules[key] = [(path, rule, message) for path, rule, message in _rules_of(after.schema.schema)
                                if (path, rule) not in old_rules]
        found: list[ObjectFinding] = []
        if not self._rules[key]:
            return found
        defaulted = _defaulted(obj.data, after.schema.schema)  # as the API server reads it before validating
        written: dict[int, str | None] = {}  # each value's JSON, made once for all the rules at its place
        for path, rule, message in self._rules[key]:
            for where, value in _values_at(defaulted, path):
                if id(value) not in written:
                    written[id(value)] = _written(value)
                verdict, why = self._evaluated(rule, value, written[id(value)])
                if verdict is True:
                    continue
                shown = where or "the object"
                if verdict is False:
                    found.append(ObjectFinding(obj, "manifest.rule-refused",
                                               f"{shown} would be refused by the new rule `{rule}`"
                                               + (f" ({message})" if message else "") + (f": {why}" if why else ""),
                                               "Change the object so that the rule holds.", where,
                                               obj.line_of(_pointer_of(where))))
                else:
                    found.append(ObjectFinding(obj, "manifest.rule-unchecked",
                                               f"{shown}: the new rule `{rule}` is unchecked ({why})",
                                               "Check the object against the rule by hand, or with a dry run "
                                               "(kubectl apply --dry-run=server) on a cluster at the new "
                                               "version.", where, obj.line_of(_pointer_of(where))))
        return found


    def _evaluated(self, rule: str, value: Any, written: str | None) -> tuple[bool | None, str]:
        """`evaluate`, once for each rule and value written alike (`written`, the value's JSON: the same keys in
        the same order, the same types); a value without one is evaluated each time."""
        if written is None:
            return evaluate(rule, value)
        seen = (rule, written)
        if seen not in self._verdicts:
            self._verdicts[seen] = evaluate(rule, value)
        return self._verdicts[seen]


#: the longest JSON of a value whose verdicts are kept: objects repeat small values (a parent reference, a
#: filter), and a large one kept for each rule would hold its text as many times
MOST_WRITTEN = 4096


def _written(value: Any) -> str | None:
    """A value's JSON as `_evaluated` keys verdicts by, or None for one JSON cannot write or too long to keep."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= MOST_WRITTEN else None


class _Node:
    """A schema and the document its `$ref`s resolve in: Kubernetes' specs refer to named types by local
    pointers (`#/definitions/...`, `#/components/schemas/...`)."""

    def __init__(self, named: NamedSchema, schema: dict[str, Any] | None = None) -> None:
        self.named, self.schema = named, named.schema if schema is None else schema

    def at(self, schema: Any) -> _Node:
        return _Node(self.named, schema if isinstance(schema, dict) else {})

    def resolved(self) -> dict[str, Any]:
        schema, seen = self.schema, 0
        while seen < 64:
            seen += 1
            if isinstance(schema.get("$ref"), str):
                schema = _follow(self.named.document, schema["$ref"])
            elif isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1 \
                    and isinstance(schema["allOf"][0], dict):
                schema = schema["allOf"][0]
            else:
                break
        return schema


def _follow(document: Document, ref: str) -> dict[str, Any]:
    if not ref.startswith("#/"):
        return {}
    node = at_pointer(document.data, ref[1:])
    return node if isinstance(node, dict) else {}


def _validator_for(named: NamedSchema) -> Any:
    """A draft-4 validator for the named schema, its `$ref`s resolved in its own document and nowhere else."""
    from jsonschema.validators import Draft4Validator
    from referencing import Registry
    from referencing.jsonschema import DRAFT4

    uri = "urn:specdiff:document"
    document = named.document.data if isinstance(named.document.data, dict) else {}
    registry: Registry[Any] = Registry().with_resource(uri, DRAFT4.create_resource(document))
    if named.pointer.startswith(("/definitions/", "/components/")):
        schema: Any = {"$ref": f"{uri}#{named.pointer}"}
    else:
        schema = named.schema
    return Draft4Validator(schema, registry=registry)


def _detail(error: Any, path: str) -> str:
    """What the schema refuses, in a reviewer's words, never the whole value."""
    keyword, expected, value = str(error.validator), error.validator_value, error.instance
    if keyword == "required":
        missing = [name for name in expected if isinstance(value, dict) and name not in value] \
            if isinstance(expected, list) else []
        names = ", ".join(f"{path}.{name}" for name in missing[:_LISTED]) or path
        return f"lacks {names}, which is required"
    if keyword == "enum":
        allowed = ", ".join(_short(v) for v in expected[:_LISTED]) if isinstance(expected, list) else ""
        more = f" and {len(expected) - _LISTED} more" if isinstance(expected, list) and len(expected) > _LISTED else ""
        return f"{_short(value)} is not one of the allowed values ({allowed}{more})"
    if keyword == "type":
        return f"is {_json_type(value)}, and must be {_short(expected)}"
    words = {"maxLength": "is longer than {} characters", "minLength": "is shorter than {} characters",
             "maxItems": "has more than {} items", "minItems": "has fewer than {} items",
             "maximum": "is more than {}", "minimum": "is less than {}", "pattern": "does not match {}",
             "maxProperties": "has more than {} entries", "minProperties": "has fewer than {} entries",
             "multipleOf": "is not a multiple of {}"}
    if keyword in words:
        return words[keyword].format(_short(expected))
    return f"fails {keyword} {_short(expected)}"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _json_type(value: Any) -> str:
    for kind, types in (("a boolean", bool), ("an integer", int), ("a number", float), ("a string", str),
                        ("a list", list), ("an object", dict)):
        if isinstance(value, types):
            return kind
    return "null"


def _rules_of(schema: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(field path, rule, message) of every CEL rule in a CRD version's schema (CRD schemas hold no `$ref`)."""
    stack: list[tuple[dict[str, Any], str]] = [(schema, "")]
    while stack:
        node, path = stack.pop()
        for rule in node.get(VALIDATIONS) or []:
            if isinstance(rule, dict) and isinstance(rule.get("rule"), str):
                yield path, rule["rule"], str(rule.get("message") or "")
        for name, sub in mapping(node.get("properties")).items():
            if isinstance(sub, dict):
                stack.append((sub, f"{path}.{name}"))
        if isinstance(node.get("items"), dict):
            stack.append((node["items"], path + "[]"))
        if isinstance(node.get("additionalProperties"), dict):
            stack.append((node["additionalProperties"], path + "{}"))


def _values_at(data: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(the field as written in the object, its value) for each value a rule at `path` (`.spec.rules[]`) reads."""
    found: list[tuple[str, Any]] = [("", data)]
    for step in _steps(path):
        following: list[tuple[str, Any]] = []
        for where, value in found:
            if step == "[]" and isinstance(value, list):
                following.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
            elif step == "{}" and isinstance(value, dict):
                following.extend((f"{where}[{key}]", item) for key, item in value.items())
            elif step.startswith(".") and isinstance(value, dict) and step[1:] in value:
                following.append((where + step, value[step[1:]]))
        found = following
    yield from found


def _steps(path: str) -> list[str]:
    steps, at = [], 0
    while at < len(path):
        if path.startswith(("[]", "{}"), at):
            steps.append(path[at:at + 2])
            at += 2
            continue
        end = min([i for i in (path.find(".", at + 1), path.find("[]", at + 1), path.find("{}", at + 1)) if i > 0],
                  default=len(path))
        steps.append(path[at:end])
        at = end
    return steps


def _pointer_of(path: str) -> str:
    """The JSON pointer of a field path written by this module (`.spec.rules[0].name` -> /spec/rules/0/name)."""
    tokens, word = [], ""
    for char in path:
        if char in ".[":
            if word:
                tokens.append(word)
            word = ""
        elif char == "]":
            tokens.append(word)
            word = ""
        else:
            word += char
    if word:
        tokens.append(word)
    return join_pointer(tokens) if tokens else ""


def evaluate(rule: str, value: Any) -> tuple[bool | None, str]:
    """(True or False, why) when cel-python evaluates the rule on the value (as `self`, and as `oldSelf` too: a
    transition rule runs when the object is applied again, unchanged, after the upgrade), or (None, why it could
    not): Kubernetes' own CEL libraries are not all in cel-python. A rule that reads a field the object does not
    set is an error, which the API server refuses the object for, as for a false rule."""
    from specdiff.diff.cel import compile_error

    if compile_error(rule) is not None:
        return None, "the rule does not compile"
    if _size(value) > MAX_CEL_NODES:
        return None, f"the value has more than {MAX_CEL_NODES} parts"
    import celpy
    from celpy.adapter import json_to_cel

    try:
        program = _program(rule)
        value_in_cel = json_to_cel(value)
        result = program.evaluate({"self": value_in_cel, "oldSelf": value_in_cel})
    except Exception as err:  # cel-python raises its own errors, and others for what it cannot evaluate
        return _errored(err)
    if isinstance(result, Exception):
        return _errored(result)
    if isinstance(result, (bool, celpy.celtypes.BoolType)):
        return bool(result), ""
    return None, "the rule does not give a boolean"


@lru_cache(maxsize=1024)
def _program(rule: str) -> Any:
    """cel-python's program for a rule, compiled once: a rule runs on every object of its kind, and compiling
    it (parsing above all) cost more than running it."""
    environment = _environment()
    return environment.program(environment.compile(rule))


@lru_cache(maxsize=1)
def _environment() -> Any:
    """cel-python's environment, made once: making one sets the process's recursion limit to 2,500, which the
    depth bounds of every later comparison in the process must not inherit, so the limit is put back."""
    import celpy
    from celpy.celparser import CELParser

    from specdiff.diff.cel_grammar import cel_parser

    # cel-python keeps one parser for the process, made when its first environment is: the one loaded from
    # tables is the same parser (tests/test_cel_grammar.py), without analysing the grammar again (130 ms)
    CELParser.CEL_PARSER = cel_parser()
    limit = sys.getrecursionlimit()
    try:
        return celpy.Environment()
    finally:
        sys.setrecursionlimit(limit)


_NO_SUCH_MEMBER = re.compile(r"no such member in mapping: '([^']{1,200})'")


_UNDECLARED = re.compile(r"undeclared reference to '(\w{1,100})'")


def _errored(err: BaseException) -> tuple[bool | None, str]:
    text = err.args[0] if err.args and isinstance(err.args[0], str) else str(err)
    missing = _NO_SUCH_MEMBER.search(text)
    if missing:
        return False, f"it reads {missing.group(1)!r}, which the object does not set"
    undeclared = _UNDECLARED.search(text)
    if undeclared:
        return None, f"cel-python has no {undeclared.group(1)}(), one of Kubernetes' own CEL functions"
    first = text.splitlines()[0] if text else type(err).__name__
    return None, f"cel-python could not evaluate it: {_short(first)}"


def _defaulted(value: Any, schema: dict[str, Any]) -> Any:
    """The value with the defaults of a CRD's structural schema filled in where it leaves fields out, as the API
    server does before it runs validation rules (a CRD schema holds no `$ref`)."""
    if isinstance(value, dict):
        properties = mapping(schema.get("properties"))
        extra = schema.get("additionalProperties")
        filled = {key: _defaulted(item, properties[key] if isinstance(properties.get(key), dict)
                                  else extra if isinstance(extra, dict) else {}) for key, item in value.items()}
        for key, sub in properties.items():
            if key not in filled and isinstance(sub, dict) and "default" in sub:
                filled[key] = _defaulted(sub["default"], sub)
        return filled
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_defaulted(item, schema["items"]) for item in value]
    return value


def _size(value: Any) -> int:
    count, stack = 0, [value]
    while stack and count <= MAX_CEL_NODES:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def check_manifests(old: SpecGraph, new: SpecGraph, paths: tuple[str, ...], limits: Limits,
                    stdin: bytes | None = None) -> ManifestReport:
    """The findings of every object in `paths` for an upgrade from `old` to `new`."""
    if not paths:
        raise UsageError("name at least one manifest file or folder, or - for standard input")
    objects = read_objects(paths, limits, stdin)
    findings, skipped = Checker(old, new).check(objects)
    return ManifestReport(old.document.name, new.document.name, tuple(findings), len(objects) - len(skipped),
                          tuple(skipped), len({o.file for o in objects}))
