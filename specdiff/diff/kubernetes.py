"""`x-kubernetes-*` extensions compared by what they do, one neutral fact per behaviour.

- `x-kubernetes-api-lifecycle` (KEP-2558): changes of the `kubernetes` entry's status, minVersion (when the status
  stays, or when it moves backwards) and featureGate; and a marker that the new spec introduces or changes while
  breaking the KEP's constraints (an unchanged marker is not a change, so it is not reported).
- List and map topology, as server-side apply reads it on each side: a list without `x-kubernetes-list-type`
  falls back to its strategic-merge patch strategy (as kube-openapi's schemaconv does), else it is atomic; a map
  or struct without `x-kubernetes-map-type` inherits the referenced type's, else it is granular; a list type on
  anything but a list is ignored. Map keys are compared while the list stays a map. Each such fact says whether
  the old spec is an API server's that predates the markers (`predates_topology`).
- Strategic merge patch: `x-kubernetes-patch-strategy` (with what kind of value it is on), and
  `x-kubernetes-patch-merge-key` while both sides merge.
- Flags `x-kubernetes-preserve-unknown-fields`, `-int-or-string`, `-embedded-resource`: absent means false.
- `x-kubernetes-validations`: rules matched by their `rule` text, then by their message, then the only rule removed
  with the only rule added, one fact per rule, so a message-only change is told apart from a changed rule. A
  changed rule says whether it accepts every object the old schema allows that the old one accepted (`old ||
  more`, or a `has()` guard for a field the old schema required); an added rule whether it holds on every
  object valid under the old schema, e.g. `!has(self.newField) || ...` (CEL read with cel-python, see
  `specdiff.diff.cel`; what the old schema says is `shape`).
- `x-kubernetes-unions`: unions matched by discriminator, one fact per member.

Any other `x-kubernetes-*` keyword is reported as a plain `extension` change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from specdiff.diff.evidence import said_exclusive, said_rule
from specdiff.diff.kernel import MISSING, Emit, Side, canonical, presence, same_value
from specdiff.diff.vocabulary import Where, change
from specdiff.graph.lifecycle import LIFECYCLE, lifecycle_of, marker_problems, version_key
from specdiff.graph.model import Schema, SpecGraph
from specdiff.graph.normalise import Normaliser
from specdiff.graph.schemas import SINGLE, subschemas, type_set
from specdiff.load.sourcemap import at_pointer, join_pointer, split_pointer
from specdiff.patterns import compiled

if TYPE_CHECKING:
    from specdiff.diff.cel import Shape
    from specdiff.diff.cel_cost import Decl
    from specdiff.load.document import Document

IDENTITY = "x-kubernetes-group-version-kind"  # names a type; identity, not behaviour
LIST_TYPE = "x-kubernetes-list-type"
MAP_KEYS = "x-kubernetes-list-map-keys"
MAP_TYPE = "x-kubernetes-map-type"
PATCH_STRATEGY = "x-kubernetes-patch-strategy"
MERGE_KEY = "x-kubernetes-patch-merge-key"
VALIDATIONS = "x-kubernetes-validations"
UNIONS = "x-kubernetes-unions"
TOPOLOGY = frozenset({LIST_TYPE, MAP_KEYS, MAP_TYPE})  # what server-side apply reads
FLAGS = ("x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string", "x-kubernetes-embedded-resource")
HANDLED = frozenset({IDENTITY, LIFECYCLE, LIST_TYPE, MAP_KEYS, MAP_TYPE, PATCH_STRATEGY, MERGE_KEY, VALIDATIONS,
                     UNIONS, *FLAGS})
#: parts of a validation rule that only shape the error a rejected write gets
MESSAGE_FIELDS = ("message", "messageExpression", "reason", "fieldPath")
_OLD_SELF = r"\boldSelf\b"


def value_kind(schema: Schema) -> str:
    """list, scalar or object (object also when the schema does not say): what a topology marker can apply to."""
    types = type_set(schema, "")
    if "array" in types or "items" in schema:
        return "list"
    if types and types <= {"string", "integer", "number", "boolean"}:
        return "scalar"
    return "object"


def list_topology(schema: Schema) -> tuple[str, tuple[str, ...]]:
    """(atomic | set | map, map keys) as server-side apply treats a list; `ignored` on anything but a list."""
    if value_kind(schema) != "list":
        return "ignored", ()
    list_type = schema.get(LIST_TYPE)
    if list_type is not None:
        keys = schema.get(MAP_KEYS)
        return str(list_type), tuple(str(k) for k in keys) if list_type == "map" and isinstance(keys, list) else ()
    if "merge" in patch_strategy(schema):
        key = schema.get(MERGE_KEY)
        return ("map", (key,)) if isinstance(key, str) else ("set", ())
    return "atomic", ()


def patch_strategy(schema: Schema) -> frozenset[str]:
    """`merge,retainKeys` -> {merge, retainKeys}."""
    value = schema.get(PATCH_STRATEGY)
    return frozenset(t.strip() for t in value.split(",") if t.strip()) if isinstance(value, str) else frozenset()


def transition_rule(rule: Any) -> bool:
    """A CEL rule that refers to `oldSelf` is a transition rule: it only runs on updates."""
    return isinstance(rule, str) and bool(compiled(_OLD_SELF).search(rule))


class KubernetesExtensions:
    """Compares the `x-kubernetes-*` keywords of one pair of schemas; `emit` is the schema differ's."""

    def __init__(self, emit: Emit, old_normal: Normaliser, new_normal: Normaliser,
                 predates_topology: Callable[[], bool]) -> None:
        self.emit = emit
        self.old_normal, self.new_normal = old_normal, new_normal
        self._predates_topology = predates_topology
        self._predates: bool | None = None  # whether the old spec predates topology, read when first needed
        self._budgets: dict[tuple[int, str], _VersionCost] = {}  # the cost check of each CRD version's schema

    def compare(self, old: Side, new: Side, where: Where) -> None:
        keywords = {k for k in (*old.schema, *new.schema) if k.startswith("x-kubernetes-")} - {IDENTITY}
        if not keywords:
            return
        if LIFECYCLE in keywords:
            self._lifecycle(old, new, where)
        if keywords & {LIST_TYPE, MAP_KEYS}:
            self._list_type(old, new, where)
        if MAP_TYPE in keywords:
            self._map_type(old, new, where)
        if keywords & {PATCH_STRATEGY, MERGE_KEY}:
            self._patch(old, new, where)
        for flag in FLAGS:
            if flag in keywords and (old.schema.get(flag) is True) != (new.schema.get(flag) is True):
                self._modified(flag, old.schema.get(flag) is True, new.schema.get(flag) is True, old, new, where)
        if VALIDATIONS in keywords:
            self._validations(old, new, where)
        if UNIONS in keywords:
            self._unions(old, new, where)
        for keyword in sorted(keywords - HANDLED):
            self._other(keyword, old, new, where)

    def introduced(self, new: Side, where: Where) -> None:
        """A schema or field the new spec adds: lifecycle markers in it that break KEP-2558's constraints, and
        validation rules in it that do not compile (the API server refuses the update that adds them)."""
        stack: list[tuple[Schema, str, tuple[str, ...]]] = [(new.schema, new.pointer, ())]
        seen: set[int] = set()
        while stack:
            schema, pointer, steps = stack.pop()
            if id(schema) in seen:
                continue
            seen.add(id(schema))
            marker = schema.get(LIFECYCLE)
            problems = marker_problems(marker, _builtin(where)) if marker is not None else []
            if problems:
                self.emit(change("added", "lifecycle", "marker", new=marker, where=_along(where, steps),
                                 new_pointer=f"{pointer}/{LIFECYCLE}", problems="; ".join(problems)))
            if VALIDATIONS in schema:
                self._uncompiled(schema, pointer, _along(where, steps), new.document)
            for tokens, sub in subschemas(schema):
                suffix = "." + tokens[1] if tokens[0] == "properties" else SINGLE.get(tokens[0], "")
                stack.append((sub, pointer + join_pointer(tokens), (*steps, suffix)))

    # -- lifecycle ----------------------------------------------------------------------------------
    def _lifecycle(self, old: Side, new: Side, where: Where) -> None:
        before, after = old.schema.get(LIFECYCLE), new.schema.get(LIFECYCLE)
        if same_value(before, after):
            return
        old_at, new_at = _pointers(LIFECYCLE, old, new)
        problems = marker_problems(after, _builtin(where)) if after is not None else []
        if problems:
            self.emit(change("added" if before is None else "modified", "lifecycle", "marker", old=before, new=after,
                             where=where, old_pointer=old_at, new_pointer=new_at,
                             problems="; ".join(problems)))
            return
        was, now = lifecycle_of(old.schema), lifecycle_of(new.schema)
        facts = {"old_min_version": was.min_version, "new_min_version": now.min_version,
                 "feature_gate": now.feature_gate or was.feature_gate}
        if was.status and now.status and was.status != now.status:
            self.emit(change("modified", "lifecycle", "status", old=was.status, new=now.status, where=where,
                             old_pointer=old_at, new_pointer=new_at, **facts))
        old_key, new_key = version_key(was.min_version), version_key(now.min_version)
        if old_key and new_key and old_key != new_key and (was.status == now.status or new_key < old_key):
            self.emit(change("modified", "lifecycle", "minVersion", old=was.min_version, new=now.min_version,
                             where=where, old_pointer=old_at, new_pointer=new_at, status=now.status,
                             feature_gate=facts["feature_gate"]))
        if was.feature_gate and now.feature_gate and was.feature_gate != now.feature_gate:
            self.emit(change("modified", "lifecycle", "featureGate", old=was.feature_gate, new=now.feature_gate,
                             where=where, old_pointer=old_at, new_pointer=new_at, status=now.status))

    # -- topology and strategic merge patch ---------------------------------------------------------
    def _before_topology(self) -> bool:
        if self._predates is None:
            self._predates = self._predates_topology()
        return self._predates

    def _list_type(self, old: Side, new: Side, where: Where) -> None:
        (old_type, old_keys), (new_type, new_keys) = list_topology(old.schema), list_topology(new.schema)
        before, after = old.schema.get(LIST_TYPE), new.schema.get(LIST_TYPE)
        if not same_value(before, after):
            self._modified(LIST_TYPE, before, after, old, new, where, old_type=old_type, new_type=new_type,
                           predates_topology=self._before_topology())
        explicit = before == "map" or after == "map"  # keys from a merge key alone are the patch's business
        if old_type == new_type == "map" and explicit and set(old_keys) != set(new_keys):
            self._modified(MAP_KEYS, list(old_keys), list(new_keys), old, new, where,
                           predates_topology=self._before_topology())

    def _map_type(self, old: Side, new: Side, where: Where) -> None:
        before, after = old.schema.get(MAP_TYPE), new.schema.get(MAP_TYPE)
        if same_value(before, after):
            return
        old_type = before if before is not None else self._referent(old, self.old_normal).get(MAP_TYPE)
        new_type = after if after is not None else self._referent(new, self.new_normal).get(MAP_TYPE)
        fields = old.schema if "properties" in old.schema else self._referent(old, self.old_normal)
        self._modified(MAP_TYPE, before, after, old, new, where, old_type=str(old_type or "granular"),
                       new_type=str(new_type or "granular"), predates_topology=self._before_topology(),
                       evidence=said_exclusive(fields))

    def _patch(self, old: Side, new: Side, where: Where) -> None:
        old_strategy, new_strategy = patch_strategy(old.schema), patch_strategy(new.schema)
        if old_strategy != new_strategy:
            self._modified(PATCH_STRATEGY, old.schema.get(PATCH_STRATEGY), new.schema.get(PATCH_STRATEGY), old, new,
                           where, old_strategy=sorted(old_strategy), new_strategy=sorted(new_strategy),
                           value_kind=value_kind(old.schema))
        before, after = old.schema.get(MERGE_KEY), new.schema.get(MERGE_KEY)
        if "merge" in old_strategy and "merge" in new_strategy and not same_value(before, after):
            self._modified(MERGE_KEY, before, after, old, new, where)

    @staticmethod
    def _referent(side: Side, normal: Normaliser) -> Schema:
        """The schema a `$ref` (or an `allOf` of one `$ref`) stands for; {} when the schema is not a reference."""
        target, pointer = side.schema, side.pointer
        if "$ref" not in target:
            target, pointer = normal.unwrap(target, pointer)
        if not isinstance(target.get("$ref"), str):
            return {}
        return normal.target(target, pointer, side.document)

    # -- validation rules ---------------------------------------------------------------------------
    def _validations(self, old: Side, new: Side, where: Where) -> None:
        pairs, removed, added = _match_rules(_listed(old.schema.get(VALIDATIONS)),
                                             _listed(new.schema.get(VALIDATIONS)))
        at_old, at_new = f"{old.pointer}/{VALIDATIONS}", f"{new.pointer}/{VALIDATIONS}"
        from specdiff.diff.cel import compile_error, proof, widens  # here: lark, the CEL parser, costs 30 ms to import

        known = shape(old.schema, new.schema)

        for (i, before), (j, after) in pairs:
            rule = after.get("rule")
            if before.get("rule") != rule or before.get("optionalOldSelf") != after.get("optionalOldSelf"):
                self.emit(change("modified", "validation", "rule", old=before.get("rule"), new=rule, where=where,
                                 old_pointer=f"{at_old}/{i}", new_pointer=f"{at_new}/{j}",
                                 transition=transition_rule(rule), message=after.get("message"),
                                 loosened=before.get("optionalOldSelf") == after.get("optionalOldSelf")
                                 and widens(before.get("rule"), rule, known), compile_error=compile_error(rule),
                                 **self._cost(rule, new, f"{at_new}/{j}")))
                continue
            fields = [f for f in MESSAGE_FIELDS if not same_value(before.get(f), after.get(f))]
            if fields:
                self.emit(change("modified", "validation", "message", old={f: before.get(f) for f in fields},
                                 new={f: after.get(f) for f in fields}, where=where, old_pointer=f"{at_old}/{i}",
                                 new_pointer=f"{at_new}/{j}", rule=rule, fields=", ".join(fields)))
        for i, before in removed:
            self.emit(change("removed", "validation", "rule", old=before.get("rule"), where=where,
                             old_pointer=f"{at_old}/{i}",
                             new_pointer=at_new if VALIDATIONS in new.schema else new.pointer,
                             transition=transition_rule(before.get("rule")), message=before.get("message")))
        for j, after in added:
            proven = proof(after.get("rule"), known)
            said = said_rule(after.get("rule"), old.schema, new.schema)
            self.emit(change("added", "validation", "rule", new=after.get("rule"), where=where,
                             old_pointer=at_old if VALIDATIONS in old.schema else old.pointer,
                             new_pointer=f"{at_new}/{j}", transition=transition_rule(after.get("rule")),
                             message=after.get("message"), on_new_fields=proven is not None, proof=proven,
                             compile_error=compile_error(after.get("rule")),
                             evidence=said[0] if said else None,
                             partly=bool(said and not said[1]),
                             **self._cost(after.get("rule"), new, f"{at_new}/{j}")))

    def _uncompiled(self, schema: Schema, pointer: str, where: Where, document: Document) -> None:
        """The rules of a schema the new spec adds that do not compile or cost more than the API server allows:
        the added schema's own finding says what it brings, but not that the API server refuses it."""
        from specdiff.diff.cel import compile_error

        for j, rule in _listed(schema.get(VALIDATIONS)):
            text = rule.get("rule")
            error = compile_error(text)
            at = f"{pointer}/{VALIDATIONS}/{j}"
            cost = self._cost(text, Side(schema, pointer, document), at) if error is None else {}
            if error is not None or cost.get("cost_overrun") is not None:
                self.emit(change("added", "validation", "rule", new=text, where=where, new_pointer=at,
                                 transition=transition_rule(text), message=rule.get("message"), on_new_fields=False,
                                 proof=None, compile_error=error, **cost))

    def _cost(self, rule: Any, new: Side, at: str) -> dict[str, Any]:
        """What the API server's cost check says of a new or changed rule of a CRD's schema (`cost`,
        `cost_overrun`, `cost_unchecked`; see `specdiff.diff.cel_cost`); nothing for other specs, whose rules no
        CRD update carries."""
        from specdiff.diff.cel import compile_error

        found = _version_root(new.pointer)
        if found is None or compile_error(rule) is not None:
            return {}
        root_pointer, below = found
        budget = self._budgets.get((id(new.document), root_pointer))
        if budget is None:
            budget = self._budgets[(id(new.document), root_pointer)] = _VersionCost(
                at_pointer(new.document.data, root_pointer))
        cost, runs, per_run = budget.rule(rule, below)
        if cost is None:
            return {"cost": None, "cost_overrun": None, "cost_unchecked": True}
        from specdiff.diff.cel_cost import CRD_BUDGET, NOTABLE, RULE_BUDGET

        estimate = f"{cost:,}" + (f" ({per_run:,} for each of up to {runs:,} runs)" if runs > 1 else "")
        overrun = None
        if cost > RULE_BUDGET:
            overrun = f"its estimated cost, {estimate}, exceeds the per-rule budget of {RULE_BUDGET:,}"
        elif cost >= NOTABLE and budget.total > CRD_BUDGET:  # (the total is only needed for a dear rule)
            overrun = (f"the estimated cost of all the rules of its version's schema, {budget.total:,}, exceeds the "
                       f"per-CRD budget of {CRD_BUDGET:,}, and this rule's estimate is {estimate}")
        return {"cost": cost, "cost_overrun": overrun, "cost_unchecked": False}

    # -- unions -------------------------------------------------------------------------------------
    def _unions(self, old: Side, new: Side, where: Where) -> None:
        before, after = _unions_by_key(old.schema), _unions_by_key(new.schema)
        at_old, at_new = f"{old.pointer}/{UNIONS}", f"{new.pointer}/{UNIONS}"
        for key, (j, union) in after.items():
            if key not in before:
                self.emit(change("added", "union", new=union, where=where, new_pointer=f"{at_new}/{j}",
                                 discriminator=union.get("discriminator")))
                continue
            i, previous = before[key]
            old_members, new_members = _members(previous), _members(union)
            facts = {"discriminator": union.get("discriminator")}
            for name in sorted(new_members.keys() - old_members.keys()):
                self.emit(change("added", "union", "member", new=name, where=where, old_pointer=f"{at_old}/{i}",
                                 new_pointer=f"{at_new}/{j}", value=new_members[name], **facts))
            for name in sorted(old_members.keys() - new_members.keys()):
                self.emit(change("removed", "union", "member", old=name, where=where, old_pointer=f"{at_old}/{i}",
                                 new_pointer=f"{at_new}/{j}", value=old_members[name], **facts))
            for name in sorted(old_members.keys() & new_members.keys()):
                if not same_value(old_members[name], new_members[name]):
                    self.emit(change("modified", "union", "member", old=old_members[name], new=new_members[name],
                                     where=where, old_pointer=f"{at_old}/{i}", new_pointer=f"{at_new}/{j}", member=name,
                                     **facts))
        for key, (i, union) in before.items():
            if key not in after:
                self.emit(change("removed", "union", old=union, where=where, old_pointer=f"{at_old}/{i}",
                                 discriminator=union.get("discriminator")))

    # -- plain facts --------------------------------------------------------------------------------
    def _modified(self, keyword: str, before: Any, after: Any, old: Side, new: Side, where: Where,
                  **detail: Any) -> None:
        old_at, new_at = _pointers(keyword, old, new)
        self.emit(change("modified", "extension", keyword, old=before, new=after, where=where,
                         old_pointer=old_at, new_pointer=new_at, **detail))

    def _other(self, keyword: str, old: Side, new: Side, where: Where) -> None:
        """An extension specdiff has no model for: the raw added, removed or changed value."""
        before, after = old.schema.get(keyword, MISSING), new.schema.get(keyword, MISSING)
        if before is not MISSING and after is not MISSING and same_value(before, after):
            return
        kind = presence(before, after)
        before, after = (None if value is MISSING else value for value in (before, after))
        old_pointer, new_pointer = _pointers(keyword, old, new)
        self.emit(change(kind, "extension", keyword, old=before, new=after, where=where,
                         old_pointer=None if kind == "added" else old_pointer,
                         new_pointer=None if kind == "removed" else new_pointer))


def _version_root(pointer: str) -> tuple[str, list[str]] | None:
    """(the pointer to the CRD version's `openAPIV3Schema`, the tokens from there to the schema), or None for a
    place outside a CRD version's schema."""
    tokens = split_pointer(pointer)
    for at in range(3, len(tokens)):
        if tokens[at] == "openAPIV3Schema" and tokens[at - 1] == "schema" and tokens[at - 3] == "versions":
            return join_pointer(tokens[:at + 1]), tokens[at + 1:]
    return None


class _VersionCost:
    """The cost check of one CRD version's schema as the API server makes it on an update: each rule's estimate
    times how many times it can run, and their total (rules that cannot be estimated count for nothing)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._total: int | None = None
        self._decls: dict[tuple[int, bool], Decl | None] = {}  # each schema read once, as `decl` reads it

    def rule(self, rule: Any, below: list[str]) -> tuple[int | None, int, int]:
        """(the rule's cost as checked against the per-rule budget, or None when unchecked; how many times it can
        run; its cost per run) for a rule at `below` (pointer tokens from the version's root)."""
        from specdiff.diff.cel_cost import cardinality, decl, estimate

        schema = at_pointer(self.root, below)
        try:
            node = decl(schema, not below or (isinstance(schema, dict)
                                              and schema.get("x-kubernetes-embedded-resource") is True), self._decls)
        except RecursionError:  # a schema nested past what Python recurses through: not followed
            node = None
        per_run = estimate(rule, node)
        if per_run is None or node is None:
            return None, 1, 0
        runs = cardinality(_schemas_above(self.root, below), node)
        return min(per_run * runs, 2 ** 64 - 1), runs, per_run

    @property
    def total(self) -> int:
        if self._total is None:
            self._total = sum(cost for cost in self._costs(self.root, []) if cost is not None)
        return self._total

    def _costs(self, schema: Any, below: list[str]) -> Iterator[int | None]:
        """The cost of each rule of the schema and of the schemas in it (walked with a stack: schemas nest deep)."""
        stack = [(schema, below)]
        while stack:
            schema, below = stack.pop()
            if not isinstance(schema, dict):
                continue
            for _, rule in _listed(schema.get(VALIDATIONS)):
                yield self.rule(rule.get("rule"), below)[0]
            properties = schema.get("properties")
            if isinstance(properties, dict):
                stack += [(prop, [*below, "properties", str(name)]) for name, prop in properties.items()]
            stack += [(schema[k], [*below, k]) for k in ("items", "additionalProperties")
                      if isinstance(schema.get(k), dict)]


def _schemas_above(root: Any, below: list[str]) -> list[Any]:
    """The schemas a place passes through from the root (the root first, the place itself left out): the object
    a property is in, the list an item is in, the map a value is in."""
    found, schema, at = [], root, 0
    while at < len(below):
        found.append(schema)
        step = 2 if below[at] == "properties" else 1  # `properties/name`: one step down
        schema, at = at_pointer(schema, below[at:at + step]), at + step
    return found


def predates_topology(graph: SpecGraph) -> bool:
    """The spec is a Kubernetes API server's that predates server-side apply: it states no topology anywhere
    (`x-kubernetes-list-type`, `-list-map-keys` or `-map-type`). An API server's published spec has carried the
    markers of every type that declares one since server-side apply, so in such a spec a marker appearing is the
    spec starting to describe topology, not a change of it. Asked only of an API server's spec (the ecosystem
    decides): a CRD without markers is read with the default topology, and a plain spec says nothing about which
    server reads it, so neither predates anything.

    The schema sections are walked first, the whole documents after them: a spec that states topology states it
    there, so the walk usually stops before the paths, which are most of the document."""
    documents = [graph.document.data, *(part.data for _, part in graph.document.parts)]
    stack: list[Any] = [*documents, *(section for data in documents for section in _schema_sections(data))]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if TOPOLOGY.intersection(value):
                return False
            stack.extend(v for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))
    return True


def _schema_sections(data: Any) -> list[dict[str, Any]]:
    """Where a document names its schemas: Swagger's `definitions`, OpenAPI 3's `components/schemas`."""
    if not isinstance(data, dict):
        return []
    components = data.get("components")
    sections = [data.get("definitions"), components.get("schemas") if isinstance(components, dict) else None]
    return [section for section in sections if isinstance(section, dict)]


def shape(before: Any, after: Any) -> Shape:
    """What every value valid under the old schema `before` is, for rules written on the new one `after`: it has
    none of the properties the new schema adds (unless they have a default, which the API server fills in on
    read), it has every property the old schema requires or the new one defaults, a string enum holds one of its
    old values or the default the new schema gives it, a list has between the old minItems and maxItems items
    and, as a list-map, unique keys, and each
    property (read when a rule first reaches it), each item of a list and each value of a map is described the
    same way from the two schemas there. Nothing is known where stored objects may carry any field
    (`x-kubernetes-preserve-unknown-fields`)."""
    from specdiff.diff.cel import NOTHING_KNOWN, Shape

    if not isinstance(before, dict) or not isinstance(after, dict) or before.get(FLAGS[0]) is True:
        return NOTHING_KNOWN
    old_properties, new_properties = _properties(before), _properties(after)
    required = before.get("required")
    present = frozenset(name for name in required if isinstance(name, str) and name in old_properties
                        and not (isinstance(old_properties[name], dict) and old_properties[name].get("nullable"))
                        ) if isinstance(required, list) else frozenset()
    present |= frozenset(name for name, prop in new_properties.items()  # filled in on every write and read
                         if isinstance(prop, dict) and prop.get("default") is not None and not prop.get("nullable"))
    absent = frozenset() if before.get("additionalProperties") not in (None, False) else frozenset(
        name for name, prop in new_properties.items()
        if name not in old_properties and not (isinstance(prop, dict) and "default" in prop))
    items = shape(before["items"], after["items"]) if "items" in before and "items" in after else None
    values = shape(before["additionalProperties"], after["additionalProperties"]) if all(
        isinstance(side.get("additionalProperties"), dict) for side in (before, after)) else None
    list_type, keys = list_topology(before)
    return Shape(absent, present, _Fields(old_properties, new_properties), items, values, _enum(before, after),
                 fielded=value_kind(before) == "object", keys=frozenset(keys) if list_type == "map" and keys else None,
                 min_items=_count(before.get("minItems")) or 0, max_items=_count(before.get("maxItems")))


def _count(value: Any) -> int | None:
    """A bound on a number of items, as the schema writes it (an int, not a bool)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _enum(before: dict[str, Any], after: dict[str, Any]) -> frozenset[str] | None:
    """The strings a value of an old string enum can read as: an old value, or the default the new schema gives
    (the API server fills it in when it reads an object stored without the value)."""
    enum = before.get("enum")
    if not (isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum)):
        return None
    if "default" not in after:
        return frozenset(enum)
    return frozenset(enum) | {after["default"]} if isinstance(after["default"], str) else None


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties")
    return properties if isinstance(properties, dict) else {}


class _Fields(Mapping[str, "Shape"]):
    """The shapes of an object's properties, each made when a rule first reads it: a rule on a CRD's `spec`
    reads a few of its thousands of nested properties."""

    def __init__(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        self._before, self._after, self._made = before, after, dict[str, "Shape"]()

    def __getitem__(self, name: str) -> Shape:
        if name not in self._made:
            if name not in self._before:
                raise KeyError(name)
            self._made[name] = shape(self._before[name], self._after.get(name))
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._before)

    def __len__(self) -> int:
        return len(self._before)


def _pointers(keyword: str, old: Side, new: Side) -> tuple[str, str]:
    """Pointers to the keyword on each side, or to the schema on a side that lacks it."""
    return (f"{old.pointer}/{keyword}" if keyword in old.schema else old.pointer,
            f"{new.pointer}/{keyword}" if keyword in new.schema else new.pointer)


def _along(where: Where, steps: tuple[str, ...]) -> Where:
    """`where` the steps further along the field path: made only for a subschema with something to report, where
    the walk of an added schema passes every one (an added Kubernetes type: a few dozen each)."""
    for step in steps:
        where = where.at(step)
    return where


def _builtin(where: Where) -> bool:
    """Types of the Kubernetes project itself, whose lifecycle markers may only name the kubernetes component."""
    return (where.context.schema or "").startswith("io.k8s.")


def _listed(value: Any) -> list[tuple[int, dict[str, Any]]]:
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)] if isinstance(value, list) else []


Indexed = tuple[int, dict[str, Any]]


def _match_rules(before: list[Indexed], after: list[Indexed]
                 ) -> tuple[list[tuple[Indexed, Indexed]], list[Indexed], list[Indexed]]:
    """Pairs of the same rule (same `rule` text, else the same message, else the only rule left on each side),
    then the removed and the added ones."""
    pairs: list[tuple[Indexed, Indexed]] = []
    left, right = list(before), list(after)
    keys: Iterable[Callable[[dict[str, Any]], Any]] = (
        lambda rule: rule.get("rule"),
        lambda rule: (rule.get("message"), rule.get("messageExpression"))
        if rule.get("message") or rule.get("messageExpression") else None,
    )
    for key in keys:  # each rule in turn takes the first unmatched rule with its key: linear, not quadratic
        waiting: dict[str, deque[Indexed]] = {}
        for other in right:
            wanted = key(other[1])
            if wanted is not None:
                waiting.setdefault(canonical(wanted), deque()).append(other)
        unmatched, taken = [], set()
        for item in left:
            wanted = key(item[1])
            queue = waiting.get(canonical(wanted)) if wanted is not None else None
            if queue:
                match = queue.popleft()
                pairs.append((item, match))
                taken.add(match[0])
            else:
                unmatched.append(item)
        left, right = unmatched, [other for other in right if other[0] not in taken]
    if len(left) == 1 and len(right) == 1:  # one rule replaced by another at the same place
        return [*pairs, (left[0], right[0])], [], []
    return pairs, left, right


def _unions_by_key(schema: Schema) -> dict[str, Indexed]:
    """Unions by discriminator (by position when a union has none)."""
    found: dict[str, Indexed] = {}
    for i, union in _listed(schema.get(UNIONS)):
        discriminator = union.get("discriminator")
        found[discriminator if isinstance(discriminator, str) else f"#{i}"] = (i, union)
    return found


def _members(union: dict[str, Any]) -> dict[str, Any]:
    members = union.get("fields-to-discriminateBy")
    return {str(k): v for k, v in members.items()} if isinstance(members, dict) else {}
