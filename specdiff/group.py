"""group: [Finding] -> [Finding]. Findings that are one logical change fold into one finding listing every place.

One change is often written many times in a spec: the same optional parameter added to every list and watch
operation, the same enum value added to a field in each served version of a CRD, the same field change in each
version of a type. Two findings are the same logical change when they share a `group_key`: the rule, the
verdict and its reason, what changed (node, attribute, field path, old and new value, the new value as what it is
to the operation when the differ says so) and where, leaving out
the operation, the API version and the document (a per-group folder repeats shared types in each); enum values
added to (or removed from) one field fold together too, as do CEL rules added to (or removed from) one field, the
alternatives of one union, and the fields of named schemas that gained (or lost) the same values
(`_same_values`). So does the same
change at the same place of the spec text, whichever operations or named schemas reach it (`keys_of`): a plain
API's body type compared where each operation uses it finds it once per operation.

A card may say `group: release`: every finding of the card at one level is one change, whatever its values
(GitHub renaming 21 operationIds in one release).

A card may say `group: resource` (operations added or removed): then the operations of one Kubernetes
resource in one group-version (its collection, items, watch paths and subresources, as the graph placed them on
the context) are one change, written as Kubernetes' notes write it ("... is no longer served by ..."); so are
the operations on the API server's paths outside every API group (`/.well-known/openid-configuration/`,
`/openid/v1/jwks/`: RBAC's nonResourceURLs), which belong to no resource and come as one feature.

A card may say `group: referrer` (a named schema added or removed): on an API server's spec the type then joins,
as a member, the finding that added (or removed) what refers to it (`with_types`), since a new type is reachable
only through what added it; names that only referred to a type both versions keep go together.

One edit is one change whatever rules it takes (`with_edits`): a property that became both optional and nullable;
on objects an API server serves, the same change in each served version of a CRD, though an alpha version's is
judged as alpha, and on an API server's own types the `required` markers one release sets or drops on a kind's
fields (a status losing its `required` list, a required field added where two became optional). As with the
types a new field uses (`with_types`) and what a reference's swap brings (`with_moves`), the other rules'
findings are members of the one shown (`_holding`), each keeping its own rule, level, message and reason.

A card may say `group: name` (metadata written in many places): the findings of its rule for one extension or
keyword are one change, wherever they are and whatever their values (`x-expandableFields` rewritten in 70
schemas, items added to it in some and removed in others).

A group gives its reason once: the members share it (it is part of the key), so a card's reason is written to
read for one place and for many ("Clients that call a removed operation ...", never "this operation"; "a removed
value" on a card for enum values); tests/test_group.py holds the catalogue to it.

A group's message is its card's, with its places, operations and values listed once; where the members differ
in a value the message names (enum values, CRD versions, columns), the card's `group_message` for that
placeholder says it for many ("enum values {value} added to {location}"): a card's words are only ever its own.
Several places are counted by the noun the card names one by ("property {location} removed" gives "2
properties: `a` and `b` removed"), or as places when the message starts with its place ("2 places: `a` and `b`
became optional"), with the verb after them written for many (`_named_places`).

A group keeps its members (each with its own fingerprint) and has a fingerprint of its own, hashed from the key,
so it does not change when one more operation gains the parameter; baselines and ignores match either.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from specdiff.classify import literal, message_values, render
from specdiff.classify.cards import placeholders
from specdiff.graph.ecosystem import Ecosystem
from specdiff.load.sourcemap import (
    at_pointer,
    join_pointer,
    nodes_along,
    pointer_token,
    split_pointer,
    unescape_token,
)
from specdiff.notation import PREPOSITIONS, by_type, finding_name, long_where, part, plural, scope, type_where, where
from specdiff.notation import distinct as _distinct
from specdiff.patterns import compiled
from specdiff.records import (
    FLAT_TYPES,
    Change,
    Context,
    Finding,
    InOrder,
    Level,
    _plain,
    _sha256,
    field_path,
    hashed,
    spaced_text,
)

#: An API version as a name segment: v1, v2beta3, v1alpha1 (in io.k8s.api.apps.v1.Deployment, CRD "plural/v1")
_VERSION = re.compile(r"(?<![A-Za-z0-9])v\d+(?:(?:alpha|beta)\d+)?(?![A-Za-z0-9])")
#: the place of a change to a whole request or response body: the same change to several bodies of an operation
#: (its request and each response taking another type) is one change
_BODY = "a body"
#: Nodes whose findings fold over their values: one field gaining several enum values is one change.
_VALUE_NODES = ("enum-value",)
#: Keywords whose alternatives added to (or removed from) one union fold together, as the values of one enum.
_UNIONS = ("anyOf", "oneOf", "allOf")
_LISTED = 3  # operations, values or versions named before "and N more"
_UNSET = object()  # a fact a change does not carry


def _over_values(change: Change) -> bool:
    """Whether the change folds with the others at its field whatever its value: an enum value, or a CEL rule
    added to (or removed from) one field (Gateway API 0.8 writing the webhook's ten path checks as ten rules on
    `matches[].path`)."""
    return change.node in _VALUE_NODES or (change.node, change.attribute) == ("validation", "rule") and (
        change.kind != "modified")


class InlinedCopies:
    """Object schemas written out whole at several places of one document: a CRD inlines a Go type at every
    field that uses it (Gateway API writes HTTPRouteFilter under `rules[].filters[]` and again under
    `rules[].backendRefs[].filters[]`; cert-manager's pod template, LabelSelector at each affinity term), so a
    change inside one copy is the same change as inside the others.

    `home(change)` names the place by the copy it is in, the innermost object schema around it (with
    properties) whose text, its own description aside (the field's, not the type's), is written out at least
    twice on that side, and the pointer below it; None when the place is in no such copy.

    `list_home(change)` names a change on a list (or map) whose items are such a copy, rather than inside one of
    its items, by that type (`items:<digest>`) and the pointer below the list: both of HTTPRoute's `filters`
    lists gaining a validation rule is one change, while lists of two different types gaining it are two."""

    def __init__(self, old: Any, new: Any) -> None:
        self._sides = (_Copies(old), _Copies(new))

    def home(self, change: Change) -> tuple[str, str] | None:
        return self._homes(change)[0]

    def list_home(self, change: Change) -> tuple[str, str] | None:
        return self._homes(change)[1]

    def _homes(self, change: Change) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
        pointer = change.new_pointer or change.old_pointer
        return self._sides[1 if change.new_pointer else 0].homes(pointer) if pointer else (None, None)


class _Copies:
    def __init__(self, data: Any) -> None:
        self.data = data
        self._counts: dict[str, int] | None = None
        self._digests: dict[int, str] = {}  # each inline object schema of `data` (by identity): its digest
        self._homes: dict[str, tuple[tuple[str, str] | None, tuple[str, str] | None]] = {}

    def homes(self, pointer: str) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
        """(the innermost copy around the place, the list of copies the place is on when no copy is nearer)."""
        found = self._homes.get(pointer)
        if found is not None:
            return found
        tokens = pointer.split("/")[1:]  # as the pointer spells them: the place below a copy is spelt from them
        along = nodes_along(self.data, split_pointer(pointer)[:-1])  # the changed node is no copy around itself
        copy, listed = None, None
        for i, (token, node) in enumerate(zip(tokens, along, strict=False)):
            below = "/" + "/".join(tokens[i + 1:])
            if digest := self._copy_of(node):
                copy, listed = (digest, below), None
            elif token not in _SCHEMA_MAPS and isinstance(node, dict):  # a schema, not a map of named ones
                held = next((f"{key}:{digest}" for key in _ELEMENTS if (digest := self._copy_of(node.get(key)))), None)
                listed = (held, below) if held else listed
        found = self._homes[pointer] = copy, listed
        return found

    def _copy_of(self, node: Any) -> str | None:
        """The digest of an inline object schema written out more than once; None for any other node."""
        if not _inline_object(node):
            return None
        counts = self.counts()
        digest = self._digests.get(id(node)) or _digest(node)
        return digest if counts.get(digest, 0) > 1 else None

    def counts(self) -> dict[str, int]:
        """How often each inline object schema is written out in the document (read once, when first asked)."""
        if self._counts is None:
            self._counts = {}
            stack = [self.data]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    if _inline_object(node):
                        digest = self._digests[id(node)] = _digest(node)
                        self._counts[digest] = self._counts.get(digest, 0) + 1
                    stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
                elif isinstance(node, list):
                    stack.extend(v for v in node if isinstance(v, (dict, list)))
        return self._counts


#: the keywords whose schema is each item of a list or value of a map
_ELEMENTS = ("items", "additionalProperties")
#: keywords that map names to schemas: a member of theirs named `items` is a field, not a list's items
_SCHEMA_MAPS = ("properties", "patternProperties", "definitions", "$defs")


def _inline_object(schema: Any) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("properties"), dict) and bool(schema["properties"])


def _digest(schema: dict[str, Any]) -> str:
    """The text of an object schema without its own description, which documents the field it is written at."""
    return _sha256(spaced_text({k: v for k, v in schema.items() if k != "description"}))[:16]


def group_key(finding: Finding, copies: InlinedCopies | None = None, values: _Values | None = None
              ) -> tuple[Any, ...]:
    """What makes two findings the same logical change (see the module docstring); with `copies`, a change
    inside an inlined copy of a type is placed by that copy, so the same change in each copy is one. `values`
    are the change's `_Values` when the caller has them already."""
    change, ctx = finding.change, finding.change.context
    spans = finding.rule_info.group
    resource = _resource_of(finding) if spans == "resource" else None
    if resource is not None:
        return (finding.rule, finding.level.value, finding.reason, change.kind, change.node, "resource", *resource)
    if spans == "resource" and _non_resource(finding):
        return (finding.rule, finding.level.value, finding.reason, change.kind, change.node, "non-resource")
    if spans == "resource" and _api_resource(finding):
        return (finding.rule, finding.level.value, finding.reason, change.kind, change.node, "api-resource",
                ctx.resource)
    if spans == "name":
        return (finding.rule, finding.level.value, finding.reason, change.node, "name", change.fact("name"))
    if spans == "release":  # one change made across the API, whatever each member's values
        return (finding.rule, finding.level.value, finding.reason, change.kind, change.node, change.attribute,
                "release")
    compared = () if _over_values(change) else (values or _Values.of(change)).compared
    home = copies.home(change) if copies is not None else None
    if home is not None and _over_values(change):  # `.../enum/2`: the field, whatever the value's index
        home = home[0], re.sub(r"/\d+$", "", home[1])
    where = ("", "") if spans == "rule" else (_unversioned(ctx.schema),
                                              home or (_BODY if ctx.at_body() else field_path(ctx) or ""))
    return (finding.rule, finding.level.value, finding.reason, change.kind, change.node, change.attribute,
            *where, compared)


def keys_of(finding: Finding, known: _Known, lists: bool = False) -> list[tuple[Any, ...]]:
    """Every key that makes findings one change: `group_key`, and the same change at the same place of the spec
    text, however many operations or named schemas reach it (a body type five operations swapped, a `Metadata`
    thirteen requests refer to), even when each is compared where it is used and has its own field path. The
    alternatives added to (or removed from) one union are one change too, as the values of one enum are (an issue
    event that became fifteen kinds of event); a union an operation writes in place is its own, never folded with
    another operation's inline alternatives that happen to be labelled alike (`#1`). With `lists`, the names one
    edit of a `required` list adds or drops are one change too (a plain API writes the list by hand; Kubernetes
    generates it from each field's own marker, so there each field is its own change), as is one format change
    on several fields of one object (`_formats_key`)."""
    change = finding.change
    if not change.pointer:
        return [known.key(finding)]  # nowhere in the text: the group key alone
    verdict = (finding.rule, finding.level.value, finding.reason, change.kind, change.node, change.attribute,
               change.context.document)
    values = known.values(finding)
    detail = change.detail
    if change.fact("moved_with", _UNSET) is not _UNSET:  # one place, any move
        detail = tuple((key, value) for key, value in detail if key != "moved_with")
    if lists and (change.node, change.attribute) == ("property", "required"):  # one edit of one `required` list
        detail = tuple((key, value) for key, value in detail if key != "name")
    place = ("place", *verdict, change.pointer, values.old, values.new, known.detail_text(detail))
    if change.node == "schema" and change.attribute in _UNIONS and change.kind in ("added", "removed"):
        union = ("union", *verdict, change.context.operation, change.pointer.rpartition("/")[0])
        inline = str(change.new if change.kind == "added" else change.old).startswith("#")  # `#1`: no name
        return ([union, place] if change.context.operation and inline
                else [known.key(finding), union, place])
    listed = _list_key(finding, known.copies, values)
    formats = _formats_key(finding, values) if lists else None
    return [known.key(finding), *([listed] if listed else []), place,
            *([formats] if formats else [])]


def _formats_key(finding: Finding, values: _Values) -> tuple[Any, ...] | None:
    """One format change written on several fields of one object, by hand in a plain API, is one change (GitHub's
    33 root links from `uri` to `uri-template`); fields changing to different formats stay apart."""
    change = finding.change
    parent, _, inside = (change.pointer or "").rpartition("/properties/")
    if (change.node, change.attribute, change.kind) != ("schema", "format", "modified") or not parent \
            or inside.count("/") != 1:
        return None
    return ("formats", finding.rule, finding.level.value, finding.reason, change.context.document, parent,
            *values.compared)


def _list_key(finding: Finding, copies: InlinedCopies | None, values: _Values) -> tuple[Any, ...] | None:
    """The same change on each list of one inlined type (`InlinedCopies.list_home`), whatever the field path. A
    validation rule is named by its text, not by its index: Gateway API writes one rule twice in one of its two
    `filters` lists, so the lists give the next rule different indices."""
    change = finding.change
    held = copies.list_home(change) if copies is not None else None
    if held is None:
        return None
    below = re.sub(r"/\d+$", "", held[1]) if (change.node, change.attribute) == ("validation", "rule") else held[1]
    return ("list", finding.rule, finding.level.value, finding.reason, change.kind, change.node, change.attribute,
            _unversioned(change.context.schema), held[0], below, *(() if _over_values(change) else values.compared))


def _resource_of(finding: Finding) -> tuple[str, str] | None:
    """(group/version, resource) of a whole operation of a Kubernetes resource that serves a kind, as the graph
    placed it on the context; a plain API's `/apis/shop/v1/carts` (no kind) never folds this way."""
    change, ctx = finding.change, finding.change.context
    if change.node != "operation" or change.attribute or not (ctx.kind and ctx.resource and ctx.group_version):
        return None
    return ctx.group_version, ctx.resource.partition("/")[0]


def _api_resource(finding: Finding) -> bool:
    """Whether the finding is a whole operation of a plain API's resource (its tag, or its path to the first
    segment that is no version: `/v1/customers`): Stripe removing 25 operations of `/v1/account` is one change."""
    change, ctx = finding.change, finding.change.context
    return (change.node == "operation" and not change.attribute and ctx.group_version is None
            and bool(ctx.resource) and not change.fact("non_resource"))


def _non_resource(finding: Finding) -> bool:
    """Whether the finding is a whole operation on one of a Kubernetes API server's paths outside every API
    group (the differ's `non_resource` fact): such paths come and go together as one change."""
    return finding.change.node == "operation" and not finding.change.attribute and bool(
        finding.change.fact("non_resource"))


class _Values(NamedTuple):
    """A change's values as fingerprints write them (`records._plain`), encoded once for all the keys naming them:
    the old, the new, and the new as what it is to the operation when the differ knows (each DELETE that now
    answers the object it deletes names its own kind, and all of them are one change from `Status` to "the
    deleted object")."""

    old: Any
    new: Any
    relative: Any

    @classmethod
    def of(cls, change: Change) -> _Values:
        new = _plain(change.new)
        return cls(_plain(change.old), new, _OWN_KIND if change.fact("own_kind") else new)

    @property
    def compared(self) -> tuple[Any, Any]:
        """What a group's members share of their values: the old one and the new one as the operation sees it."""
        return self.old, self.relative


#: what `_plain` writes for the new value of a change the differ says is the kind the operation acts on
_OWN_KIND = _plain("the kind the operation acts on")


def group_fingerprint(finding: Finding, copies: InlinedCopies | None = None) -> str:
    """The fingerprint of the group `finding` belongs to (whether or not it has company)."""
    return _fingerprint_of(group_key(finding, copies))


def _fingerprint_of(key: tuple[Any, ...]) -> str:
    """The fingerprint of the group of a `group_key`."""
    return hashed(["group", *key])


class _Known:
    """Each finding's values as fingerprints write them (`_Values`) and its `group_key`, worked out once in a
    grouping run: putting it in its bucket (`keys_of`), joining the buckets and findings one edit made
    (`_edit_keys`, `_edit_of`) and fingerprinting the group it is shown at (`folded`) each ask for them again.
    Kept by the finding's identity, beside the finding itself, so no other finding takes its id while the run
    lasts."""

    def __init__(self, copies: InlinedCopies | None) -> None:
        self.copies = copies
        self._values: dict[int, tuple[Finding, _Values]] = {}
        self._keys: dict[int, tuple[Finding, tuple[Any, ...]]] = {}
        self._details: dict[tuple[Any, ...], str] = {}

    def detail_text(self, detail: tuple[tuple[str, Any], ...]) -> str:
        """`_plain(detail)`, written once for each distinct detail of flat values (a parameter added to 402
        operations carries the same facts in each), keyed by each value's type too: `('required', False)` equals
        `('required', 0)` but is written apart. A detail holding anything else is written each time."""
        if not all(type(value) in FLAT_TYPES for _, value in detail):
            return _plain(detail)  # type: ignore[no-any-return]
        key = tuple((fact, type(value), value) for fact, value in detail)
        text = self._details.get(key)
        if text is None:
            text = self._details[key] = _plain(detail)
        return text

    def values(self, finding: Finding) -> _Values:
        found = self._values.get(id(finding))
        if found is None:
            found = self._values[id(finding)] = finding, _Values.of(finding.change)
        return found[1]

    def key(self, finding: Finding) -> tuple[Any, ...]:
        found = self._keys.get(id(finding))
        if found is None:
            found = self._keys[id(finding)] = finding, group_key(finding, self.copies, self.values(finding))
        return found[1]


def group(findings: Iterable[Finding], copies: InlinedCopies | None = None, lists: bool = False,
          uses: TypeUses | None = None, kinds: bool = False, api_server: bool = False) -> list[Finding]:
    """Fold findings with the same key into one; a key with one finding leaves it as it is. Order is kept (a
    group takes the place of its first member). `lists`: see `keys_of`. With `uses`, a type added or removed
    then joins the finding that added or removed what refers to it (`with_types`); findings one edit made
    join whatever their rules (`with_edits`), with `kinds` (objects an API server serves) those of one kind.
    `api_server`: the findings are of an API server's own types, whose fields a release adds one feature at a
    time (`_one_edit`) and whose `required` lists are generated from each field's marker (`with_edits`)."""
    known = _Known(copies)
    buckets: dict[tuple[Any, ...], list[Finding]] = {}
    joined: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # each key of a finding -> the bucket it joined
    for finding in findings:
        keys = keys_of(finding, known, lists)
        bucket = keys[0]
        for key in keys:  # (a loop, not `next` over a generator: it runs for every finding)
            if key in joined:
                bucket = joined[key]
                break
        for key in keys:
            joined.setdefault(key, bucket)
        buckets.setdefault(bucket, []).append(finding)
    found = _same_values(list(buckets.values()), known)
    edits = _one_edit(found, known, api_server) if lists or api_server else [(m, False) for m in found]
    grouped = [members[0] if len(members) == 1 else folded(_shown_first(members), known, each)
               for members, each in edits]
    grouped = with_types(grouped, uses) if uses is not None else grouped
    return with_edits(grouped, known, kinds, markers=api_server)


def _one_edit(buckets: list[list[Finding]], known: _Known, api_server: bool) -> list[tuple[list[Finding], bool]]:
    """The buckets, with those one edit of the spec made joined (`_edit_keys`), each with whether it joined
    others: a schema whose fields all became nullable in one release is one change, as is one ID pattern widened
    the same way in 18 named schemas, or two query parameters removed from the same 25 operations. On an API
    server's spec (`api_server`) each field added or removed stays its own: a Kubernetes release adds a type's
    fields feature by feature (PodSpec gains eleven between 1.11 and 1.28, each its own KEP). Order is kept: a
    joined bucket takes the place of its first."""
    joined: dict[tuple[Any, ...], int] = {}
    out: list[tuple[list[Finding], bool]] = []
    for members in buckets:
        change = members[0].change
        each = api_server and change.node == "property" and change.kind in ("added", "removed")
        keys = [] if each else _edit_keys(members, known)
        into = next((joined[key] for key in keys if key in joined), None)
        if into is None:
            into = len(out)
            out.append((members, False))
        else:
            out[into] = ([*out[into][0], *members], True)
        for key in keys:
            joined.setdefault(key, into)
    return out


#: a field's place among its siblings: the named schema holding it, however deep (one edit of one type), else the
#: object schema (or the operation's parameters) holding it; then what is below the field
_SIBLING = re.compile(r"^(/(?:components/schemas|definitions)/[^/]+)/(?:.*/)?properties/[^/]+(?:/.*)?$"
                      r"|^(.*)/(?:properties/[^/]+|parameters/\d+)(?:/.*)?$")


def _edit_keys(members: Sequence[Finding], known: _Known) -> list[tuple[Any, ...]]:
    """The keys a bucket shares with the others one edit made: the same rule at fields (or parameters) of the same
    named schemas (or inline objects, or operations), every member's, that the same operations reach, whatever
    each field gains or loses (the members are listed one by one), changed alike when a value is changed; fields
    of one name in named schemas switched from one type to the same other (a duration sent as a number in both
    verbose responses); and the same text removed and inserted in patterns, whatever else each pattern says."""
    first = members[0]
    change = first.change
    if first.rule_info.group != "place" or change.node in _VALUE_NODES or not change.pointer:
        return []
    verdict = (first.rule, first.level.value, first.reason, change.kind, change.node, change.attribute)
    keys: list[tuple[Any, ...]] = []
    held = [_SIBLING.match(m.change.pointer or "") for m in members]
    if all(held) and change.attribute not in _UNIONS:  # (a union's alternatives fold as `keys_of` says)
        holders = sorted({(m.change.context.document or "", h.group(1) or h.group(2))
                          for m, h in zip(members, held, strict=True) if h})
        reached = sorted(set().union(*(m.operations for m in members)))  # fields that reach other operations differ
        # what a field gains or loses is its own (its default, the field itself); a value changed is one edit only
        # when changed alike (two fields moving to two different formats are two changes)
        alike = known.values(first).compared if change.kind == "modified" else ()
        keys.append(("siblings", *verdict, tuple(holders), tuple(reached), *alike))
    steps = [step for step in change.context.field if step != "[]"]
    if change.attribute == "type" and steps and all(
            m.change.context.schema and not m.change.context.operation for m in members):
        keys.append(("type switch", *verdict, steps[-1], *known.values(first).compared))
    if change.attribute == "pattern" and isinstance(change.old, str) and isinstance(change.new, str):
        keys.append(("pattern edit", *verdict, *_edit(change.old, change.new)))
    return keys


def _edit(old: str, new: str) -> tuple[str, str]:
    """What an edit of `old` into `new` removed and inserted, between the text both keep at either end:
    `^B[A-Z0-9]{8}$` -> `^B[A-Z0-9]{8,}$` inserts `,`."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return old[start:len(old) - end], new[start:len(new) - end]


def _same_values(buckets: list[list[Finding]], known: _Known) -> list[list[Finding]]:
    """The buckets, with the fields that gained (or lost) the same enum values joined: Stripe adding 21 tax ID
    types to `tax_id.type`, `invoices_resource_invoice_tax_id.type` and the checkout session's `type` is one
    change. One value alone joins only fields of one name (an `other` added to two unrelated fields is two
    changes). Only fields of named schemas join: an operation's parameter and its body are told apart by the
    message, which a group writes once. Order is kept: a joined bucket takes the place of its first."""
    joined: dict[tuple[Any, ...], list[Finding]] = {}
    out: list[list[Finding]] = []
    for members in buckets:
        first, ctx = members[0], members[0].change.context
        if first.change.node not in _VALUE_NODES or first.rule_info.group != "place" or not ctx.schema \
                or any(m.change.context.operation for m in members):
            out.append(members)
            continue
        values = frozenset(known.values(m).new if m.change.kind == "added" else known.values(m).old for m in members)
        steps = [step for step in ctx.field if step != "[]"]
        field = steps[-1] if steps else ctx.schema  # a schema that is an enum itself: its name
        key = (first.rule, first.level.value, first.reason, first.change.kind, values,
               field if len(values) == 1 else None)
        if key in joined:
            joined[key].extend(members)
        else:
            joined[key] = members
            out.append(members)
    return out


#: a named schema -> the (document key, pointer) of each place
_Places = dict[str, list[tuple[str | None, str]]]


class TypeUses:
    """Where each named schema is defined and referred to on each side, read from the documents' text when
    asked: `refs_under(side, places)` the (document key, pointer) of each `$ref` to a named schema within some
    places, `defined(side, name)` where a named schema is written. A directory's documents are keyed as findings
    name them (`Context.document`), a single document by None."""

    def __init__(self, old: Sequence[tuple[str | None, Any]], new: Sequence[tuple[str | None, Any]]) -> None:
        self._documents = {"old": old, "new": new}
        #: each side's maps of named schemas: (document key, where the map is, the map)
        self._schema_maps = {side: [(key, place, named) for key, data in documents
                              for place, named in (("/definitions", _get(data, "definitions")),
                                                   ("/components/schemas", _get(_get(data, "components"), "schemas")))
                              if isinstance(named, dict)]
                       for side, documents in self._documents.items()}

    def refs_under(self, side: str, places: Iterable[tuple[str, str | None, str]],
                   names: Container[str] | None = None) -> _Places:
        """Named schema (of `names`, when given: the types a run asks about) -> the `$ref`s to it on `side` at or
        under one of `places` ((side, document key, pointer)), or whose `$ref` keyword is one of them. Only those
        places are walked: a whole 4 MB document took as long to walk as to parse, and the changes of a release
        sit in a small part of it."""
        wanted = {(document, pointer) for at, document, pointer in places if at == side}
        found: _Places = {}
        for key, data in self._documents[side]:
            for pointer in sorted(pointer for document, pointer in wanted if document == key):
                if _within(pointer, key, wanted):
                    continue  # (its sites are among those of the place holding it)
                if pointer.endswith("/$ref"):  # a `$ref` itself: the mapping holding it is the site
                    pointer = pointer.removesuffix("/$ref")
                    node = at_pointer(data, pointer)
                    target = _named(node.get("$ref")) if isinstance(node, dict) else None
                    if target is not None and (names is None or target in names):
                        found.setdefault(target, []).append((key, pointer))
                    continue
                for named, site in _ref_sites(at_pointer(data, pointer), pointer, names):
                    found.setdefault(named, []).append((key, site))
        return found

    def defined(self, side: str, name: str) -> list[tuple[str | None, str]]:
        """Looked up in each document's named schemas when asked: a run asks for a few dozen names, and an index
        of every name (a thousand in a Kubernetes spec, each with its pointer written) cost more than all of them."""
        return [(key, place + join_pointer((name,))) for key, place, named in self._schema_maps[side] if name in named]

    def alias(self, side: str, name: str) -> str | None:
        """The named schema that `name` only refers to (`{$ref, description}`, as Kubernetes 1.11 kept its
        deprecated `io.k8s.kubernetes.pkg.*` names); else None."""
        for _, data in self._documents[side]:
            named = _get(data, "definitions") or _get(_get(data, "components"), "schemas")
            written = _get(named, name)
            if isinstance(written, dict) and set(written) <= {"$ref", "description"}:
                return _named(written.get("$ref"))
        return None

    def kept(self, name: str) -> bool:
        """Whether both sides write a named schema `name` (asked for each member of a type found alone: no
        pointer is written for it)."""
        return all(any(name in named for _, _, named in self._schema_maps[side]) for side in ("old", "new"))


def _within(pointer: str, document: str | None, places: set[tuple[str | None, str]]) -> bool:
    """Whether a place strictly holding `pointer` is among `places`."""
    while pointer:
        pointer = pointer.rpartition("/")[0]
        if (document, pointer) in places:
            return True
    return False


def _ref_sites(data: Any, at: str = "", names: Container[str] | None = None) -> Iterator[tuple[str, str]]:
    """(named schema, pointer) of each local `$ref` in `data`, which is at `at`, to a named schema (of `names`,
    when given). A 4 MB spec holds a few hundred thousand mappings and lists: the pointer is made only for those,
    and the `$ref` looked at only where a mapping has one."""
    stack: list[tuple[Any, str]] = [(data, at)]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, dict):
            target = node.get("$ref")
            if isinstance(target, str) and (name := _named(target)) is not None and (names is None or name in names):
                yield name, pointer
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, pointer + pointer_token(k)))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, f"{pointer}/{i}"))


#: a `$ref` to a named schema of the same document
_LOCAL_NAMES = ("#/definitions/", "#/components/schemas/")


def _named(ref: Any) -> str | None:
    """The named schema a local `$ref` names; None for any other value."""
    if isinstance(ref, str):  # (a loop, not `next` over a generator: it runs for every `$ref` walked)
        for prefix in _LOCAL_NAMES:
            if ref.startswith(prefix):
                return unescape_token(ref[len(prefix):])
    return None


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def with_types(findings: list[Finding], uses: TypeUses) -> list[Finding]:
    """A type added is reachable only through what added it: the new field, the new resource's operations, the
    new type that refers to it. A finding of a card that says `group: referrer` (a named schema added or
    removed) joins, as a member, the finding that added (or removed) a reference to it, through the new types
    that refer to it when those are what the reference reaches; it never joins a finding of a lower level, and
    a type nothing reported refers to stays a finding of its own. Among several, it joins the first in report
    order, one that is no type itself before the others."""
    types = [i for i, f in enumerate(findings) if f.rule_info.group == "referrer"]
    if not types:
        return findings
    held = _holders(findings, uses)
    asked: dict[str, set[str]] = {}  # each side's types: the `$ref`s to them are all `_referrers` reads
    for i in types:
        asked.setdefault(_side(findings[i]), set()).update(
            member.change.context.schema or "" for member in findings[i].members or (findings[i],))
    sites = {side: uses.refs_under(side, held, names) for side, names in asked.items()}
    candidates = {i: _referrers(findings, i, held, uses, sites[_side(findings[i])]) for i in types}
    hosts: dict[int, list[int]] = {}  # a finding that is no type -> the types that join it
    alike: dict[int, int] = {}  # a finding -> the one it joins: the same change where a new type is used again
    aliases: dict[tuple[Any, ...], list[int]] = {}  # names that only referred to a type both sides keep
    for i in types:
        found = _hosts(i, candidates)
        if found:
            host = _top(alike, min(found))
            hosts.setdefault(host, []).append(i)
            for j in sorted(found):
                if _top(alike, j) != host and _alike(findings[j], findings[host]):
                    alike[_top(alike, j)] = host
        elif all(uses.kept(uses.alias(_side(m), m.change.context.schema or "") or "")
                 for m in findings[i].members or (findings[i],)):
            aliases.setdefault((findings[i].rule, findings[i].level, findings[i].reason), []).append(i)
    held_by: dict[int, list[int]] = {}
    for host, members in hosts.items():
        held_by.setdefault(_top(alike, host), []).extend(members)
    places: dict[int, list[int]] = {}
    for j in alike:
        places.setdefault(_top(alike, j), []).append(j)
    out: dict[int, Finding] = {}
    for i in sorted(held_by.keys() | places.keys()):
        same = [findings[j] for j in [i, *sorted(places.get(i, ()))]]
        shown = folded(_shown_first([m for f in same for m in f.members or (f,)])) if len(same) > 1 else same[0]
        out[i] = _holding(shown, [findings[j] for j in held_by.get(i, ())])
    joined = {j for members in hosts.values() for j in members} | set(alike)
    for same_aliases in aliases.values():
        if len(same_aliases) > 1:  # one change: the names that were only aliases went (or came) together
            out[same_aliases[0]] = folded(_shown_first([m for j in same_aliases
                                                        for m in findings[j].members or (findings[j],)]))
            joined.update(same_aliases[1:])
    return [out.get(i, f) for i, f in enumerate(findings) if i not in joined]


def _top(alike: dict[int, int], i: int) -> int:
    while i in alike:
        i = alike[i]
    return i


def _alike(one: Finding, other: Finding) -> bool:
    """Two findings that add (or remove) a use of one new type are one change when they add (or remove) a field
    of the same name, judged alike: `appArmorProfile` added to both the pod's and the container's security
    context. Different fields, or resources, that share a type stay apart."""
    def said(finding: Finding) -> tuple[Any, ...]:
        change = finding.change
        return (finding.rule, finding.level, finding.reason, change.kind, change.node,
                (change.pointer or "").rpartition("/")[2])

    return one.change.node == "property" and said(one) == said(other)


def _side(finding: Finding) -> str:
    """The side a type added (new) or removed (old) is written on."""
    return "new" if finding.change.kind == "added" else "old"


def _referrers(findings: list[Finding], i: int, held: dict[tuple[str, str | None, str], int], uses: TypeUses,
               sites: _Places) -> set[int]:
    """The positions of the findings that hold a reference to the type finding `i` (or, for an alias of a type
    that came or went, that type's definition), at its level or a more severe one; `sites`, the `$ref`s on its
    side that some finding holds."""
    finding, found = findings[i], set()
    side = _side(finding)
    for member in finding.members or (finding,):
        named = member.change.context.schema or ""
        target = uses.alias(side, named)  # an alias goes where what it names went
        gone = target is not None and not uses.kept(target)  # (kept ones are grouped with the other aliases)
        for document, pointer in [*sites.get(named, ()), *(uses.defined(side, target or "") if gone else ())]:
            j = _holder(held, side, document, pointer)
            if j is not None and j != i and findings[j].level.rank <= finding.level.rank:
                found.add(j)
    return found


def holds(finding: Finding) -> dict[str, int]:
    """What a group's members are, and how many of each, for the reports: `operations` of one resource, `values`
    of one field or union, `rules` added to (or removed from) one field, `places` the same change is made at, and
    the `types added` (or `types removed`) that joined the finding that added (or removed) their use, each of which
    keeps its own rule and message."""
    counts: dict[str, int] = {}
    for member in finding.members:
        change = member.change
        if member.rule != finding.rule:
            what = f"types {change.kind}" if change.node == "schema" and not change.attribute else member.rule
        elif finding.rule_info.group == "resource":
            what = "operations"
        elif _over_values(change) or change.attribute in _UNIONS:
            what = "rules" if change.node == "validation" else "values"
        else:
            what = "places"
        counts[what] = counts.get(what, 0) + 1
    return counts


def _holders(findings: list[Finding], uses: TypeUses) -> dict[tuple[str, str | None, str], int]:
    """(side, document, pointer) -> the position of the finding (or group) a change there belongs to; a
    group-version added or removed holds the definitions it folded."""
    held: dict[tuple[str, str | None, str], int] = {}
    for i, finding in enumerate(findings):
        for member in finding.members or (finding,):
            change = member.change
            for side, pointer in (("old", change.old_pointer), ("new", change.new_pointer)):
                if pointer is not None:
                    held.setdefault((side, change.context.document, pointer), i)
            if change.node == "group-version":
                for name in change.fact("definitions") or ():
                    for document, pointer in uses.defined(_side(member), name):
                        held.setdefault((_side(member), document, pointer), i)
    return held


def _holder(held: dict[tuple[str, str | None, str], int], side: str, document: str | None, pointer: str
            ) -> int | None:
    """The finding whose change is at `pointer` (the `$ref` itself, when it is the name that changed) or around
    it."""
    found = held.get((side, document, f"{pointer}/$ref"))
    while found is None:
        found = held.get((side, document, pointer))
        if not pointer:
            break
        pointer = pointer.rpartition("/")[0]
    return found


def _hosts(start: int, candidates: dict[int, set[int]]) -> set[int]:
    """The findings that are no type and hold a reference to `start` or to a type that reaches it; none when only
    types refer to it."""
    seen, pending, hosts = {start}, [start], set()
    while pending:
        for j in candidates.get(pending.pop(), ()):
            if j in candidates:
                if j not in seen:
                    seen.add(j)
                    pending.append(j)
            else:
                hosts.add(j)
    return hosts


def _holding(host: Finding, brought: Sequence[Finding], said: str = "") -> Finding:
    """`host` with what one change brought beside it among its members, each keeping its own rule, level and
    message (types a field added uses, what a reference's swap changed, a kind's other markers): the host keeps
    its level, rule and fingerprint (a single finding's own fingerprint becomes its group's, so baselines and
    alerts that recorded it still match), and its message gains `said`."""
    members = (*(host.members or (host,)), *(m for finding in brought for m in (finding.members or (finding,))))
    operations = tuple(sorted(set(host.operations).union(*(finding.operations for finding in brought))))
    return replace(host, message=host.message + said, operations=operations, members=members,
                   group=host.fingerprint)


def _shown_first(members: list[Finding]) -> list[Finding]:
    """The members with the one the group is shown at and hashed from first, the others in report order, named
    schemas' before operations' (a change found both in a named schema and where an operation uses it is shown
    as the named schema's).

    Which member comes first decides the group's pointer and, when its members' own keys differ (they joined
    through one place of the spec text), its fingerprint. It is chosen from the members alone, never from the
    report's order: among the members of the most severe level, the named schemas' (else all), the one earlier
    versions sorted first, by the type notation (`notation.type_where`), then pointer and what changed, so every
    group keeps the fingerprint and place that baselines and code-scanning alerts recorded however reports come
    to be ordered."""
    ordered = sorted(members, key=lambda member: member.change.context.schema is None)
    worst = min(member.level.rank for member in members)  # (one edit's rules may differ in level: the most severe)
    severe = [member for member in ordered if member.level.rank == worst]
    candidates = [member for member in severe if member.change.context.schema is not None] or severe
    # by the type notation first, which tells most members apart: the rest of the order only among those that tie
    places = [type_where(member.change.context) for member in candidates]
    least = min(places)
    first = min((member for member, place in zip(candidates, places, strict=True) if place == least),
                key=_as_sorted_before)
    return [first, *(member for member in ordered if member is not first)]


def _as_sorted_before(finding: Finding) -> tuple[Any, ...]:
    """Where earlier versions sorted a finding among those of one level and rule: by its place in the type
    notation, then pointer, then what changed."""
    change, ctx = finding.change, finding.change.context
    return (type_where(ctx), change.pointer, change.kind, change.attribute, long_where(ctx), ctx.document or "",
            change.old_pointer or "", InOrder(change.old), InOrder(change.new))


def folded(members: Sequence[Finding], known: _Known | None = None, each: bool = False) -> Finding:
    """One finding for the members: the first member's change, every operation, and a message that names the
    places once ("added to 402 operations: list, watch and deletecollection of 66 resources in 33 group-versions
    of 21 API groups"). With `each` (fields one edit changed, each in its own way), the message says each way
    once, with its places."""
    first = members[0]
    operations = tuple(sorted(set().union(*(member.operations for member in members))))
    message = "; ".join(_message(part) for part in _ways(members)) if each else _message(members)
    return Finding(first.rule, first.level, message, first.reason, first.change, operations,
                   members=tuple(members), group=_fingerprint_of(known.key(first) if known else group_key(first)),
                   rule_info=first.rule_info,
                   values=first.values, place=first.place)


def _values_of(finding: Finding) -> Mapping[str, str]:
    """The values the finding's card message is written from: those classify worked out, else (a finding made by
    hand) worked out here."""
    return finding.values or message_values(finding.change)


def _ways(members: Sequence[Finding]) -> list[list[Finding]]:
    """The members by the old and new values their card's message shows (one default per field), first shown
    first; a message that shows neither (`property {location} removed`) lists them all at once."""
    shown = [key for key in ("old", "new") if key in placeholders(members[0].rule_info.message or "")]
    ways: dict[tuple[str, ...], list[Finding]] = {}
    for member in members:
        values = _values_of(member)
        ways.setdefault(tuple(values[key] for key in shown), []).append(member)
    return list(ways.values())


def _message(members: Sequence[Finding]) -> str:
    """The group's message: its first member's card and values, with the places, operations and values the
    members differ in listed named schemas first, each in the order reports sort places in
    (`Context.place_key`)."""
    first = members[0]
    members = sorted(members, key=lambda m: (m.change.context.schema is None, m.change.context.place_key()))
    spans = first.rule_info.group
    resource = _resource_of(first) if spans == "resource" else None
    if resource is not None:
        return _resource_message(members, *resource)
    if spans == "resource" and _non_resource(first):
        labels = _distinct(m.change.context.operation for m in members)
        gains = "gain" if first.change.kind == "added" else "lose"
        return f"non-resource URLs {gains} {len(labels)} operations: {_joined(labels, cut=False)}"
    if spans == "resource" and _api_resource(first):
        labels = _distinct(m.change.context.operation for m in members)
        gains = "gains" if first.change.kind == "added" else "loses"
        return f"{first.change.context.resource} {gains} {len(labels)} operations: {_joined(labels)}"
    template = first.rule_info.message or first.message
    values = dict(_values_of(first))
    replacements: list[tuple[str, str]] = []
    schemas = _distinct(m.change.context.schema for m in members)
    if len(schemas) > 1 and first.change.context.schema:
        replacements.append((first.change.context.schema, _braced(schemas)))
    for key, value in list(values.items()):
        for old, new in replacements:
            value = value.replace(old, new)
        values[key] = value
    # each member's place as a message names one, named when a branch lists them: a group of one parameter added
    # to 402 operations only asks whether its places differ, which its first two say
    several_names = _several(finding_name(m) for m in members)
    member_operations = [m.change.context.operation for m in members]  # (None for a place outside any operation)
    in_operations = all(member_operations)
    for_many = dict(first.rule_info.group_messages)  # the card's message for members that differ in a value
    if several_names and _only_one(by_type(m.change.context) for m in members):
        values["location"] = by_type(first.change.context)  # one type in several versions, its kinds' paths differ
    elif several_names and not first.change.context.operation:  # several types: each with its group-version
        member_names = [finding_name(m) for m in members]
        names = _distinct(member_names)
        if _scoped([scope(m.change.context) for m in members], member_names):
            names = _distinct(where(m.change.context) for m in members)
        template = for_many.get("location", template)
        in_fields = any(field_path(m.change.context) for m in members)
        template, values["location"] = _named_places(template, names, in_fields)
    if first.change.node in _VALUE_NODES:
        shown = _distinct(literal(m.change.fact("value", m.change.new if m.change.kind == "added" else m.change.old))
                          for m in members)
        if len(shown) > 1:
            values["value"] = _joined(shown, cut=False)
            template = for_many.get("value", template)
    bodies = _distinct(field_path(m.change.context) for m in members) if first.change.context.at_body() else []
    several = len(bodies) > 1  # whether {location} names several bodies or fields, which a verb after it counts
    if several:  # several bodies of the operations (see _BODY): name each
        values["path"] = _joined(bodies, cut=False)
        values["location"] = f"{first.change.context.operation} {values['path']}"
    for key, shown in _facts_that_differ(template, members):  # a CRD change in several versions names each
        values[key] = _joined(shown, cut=False)
        template = for_many.get(key, template)
    places = list({operation: m.change.context for operation, m in zip(member_operations, members, strict=True)
                   if operation}.values())
    place = ""
    fields = _fields(members) if in_operations else ""
    if fields and len(places) == 1 and len(bodies) < 2:  # one `required` list of one operation: its fields, then it
        place = values["operation"] = places[0].operation or ""
        values["location"], several = fields, True
    operations = len(places) > 1 and in_operations  # {operation} names several
    if operations:  # else the type names the place
        place = operations_phrase(places)
        values["operation"] = place
        if first.change.fact("location") is None:  # (a parameter's `location` is where it goes: query, path)
            values["location"] = values["path"] if len(bodies) > 1 else fields or part(first.change.context) or place
            several = several or bool(fields)
        if spans == "name" and len(_distinct(part(m.change.context) for m in members)) > 1:
            # one extension at many places of the operations
            values["location"] = f"{len(_distinct(finding_name(m) for m in members))} places"
    # places in operations and in named schemas alike (an extension written on both): count them all
    elif several_names and first.change.context.operation and not in_operations:
        template, values["location"] = _named_places(template, _distinct(finding_name(m) for m in members),
                                                     fields=True)
    if several and template.startswith(("{location}", "{path}")) or operations and template.startswith("{operation}"):
        template = _verb_for_many(template)  # the message starts with what there are several of
    message = render(template, values)
    if place and place not in message:
        message += f" in {place}"
    return message


def _several(items: Iterable[str]) -> bool:
    """Whether two of the items that are set differ (`len(_distinct(items)) > 1`), read only up to the first
    that differs."""
    seen = ""
    for item in items:
        if item and seen and item != seen:
            return True
        seen = seen or item
    return False


def _only_one(items: Iterable[str]) -> bool:
    """Whether the items that are set are all one (`len(_distinct(items)) == 1`), read only up to the first that
    differs: one type's versions share it, and most groups' places differ from their second."""
    seen = ""
    for item in items:
        if item and seen and item != seen:
            return False
        seen = seen or item
    return bool(seen)


#: the words a message names its place by ("property {location} removed", "{lifecycle} field {location} added")
_NAMED = re.compile(r"^(?P<noun>(?:\{\w+\} )?[a-z][a-z ]*?) \{location\}(?P<rest>.*)$", re.S)
#: verbs a card writes for one place, as they read for several
_PLURAL_VERBS = {"is": "are", "becomes": "become", "has": "have", "changes": "change", "gains": "gain",
                 "loses": "lose", "goes": "go", "spells": "spell", "refers": "refer", "picks": "pick",
                 "accepts": "accept", "sends": "send", "preserves": "preserve", "merges": "merge",
                 "defaults": "default", "returns": "return", "answers": "answer", "lists": "list",
                 "refuses": "refuse"}
#: words a card writes between the places a message starts with and their verb: adverbs, and the operation a
#: body belongs to (`{path} of {operation} is now ...`)
_BEFORE_VERB = frozenset({"now", "no", "longer", "still", "also", "always", "of", "{operation}"})


def _named_places(template: str, names: Sequence[str], fields: bool) -> tuple[str, str]:
    """The template and {location} for several places. A message that names its place by a noun
    ("property {location} removed") counts them by that noun: "2 properties: `a` and `b` removed"; one that
    starts with the place counts places: "2 places: `a` and `b` became optional". Either way the place is the
    subject, so a verb after it is written for many ("are deprecated")."""
    named = _NAMED.match(template)
    if named and PREPOSITIONS.isdisjoint(named["noun"].split()):
        return f"{len(names)} {plural(named['noun'])}: {{location}}{_verb_for_many(named['rest'])}", _joined(names)
    if template.startswith("{location}"):
        template = _verb_for_many(template)
    return template, places_phrase(names, fields)


def _verb_for_many(template: str) -> str:
    """A message whose subject names several places (`{path} of {operation} is now ...`, `{location} now has
    format {new}`), with the verb after it written for many: the first word, past adverbs and the operation."""
    words = template.split(" ")
    for at, word in enumerate(words[1:], 1):
        if word in _PLURAL_VERBS:
            return " ".join([*words[:at], _PLURAL_VERBS[word], *words[at + 1:]])
        if word not in _BEFORE_VERB:
            break  # another subject (`{location}: {version} refuses ...`), or no verb for the places
    return template


def _fields(members: Sequence[Finding]) -> str:
    """The fields inside one part of operations that a group's members differ in, each once: `purpose, channel
    and topic of the request body`; "" when they name one field, or fields of several parts."""
    parts = _distinct(part(m.change.context) for m in members)
    if len(parts) < 2:
        return ""
    split = [text.partition(" of ") for text in parts]
    if all(of and rest == split[0][2] for _, of, rest in split):
        return f"{_joined(_distinct(inside for inside, _, _ in split))} of {split[0][2]}"
    return ""  # fields of several parts: the first member's part names the group, as before


def _scoped(scopes: Sequence[str], names: Sequence[str]) -> bool:
    """Whether a group's places (each member's scope and name) need their group-versions to be told apart: not
    when every place is in every group-version (the same fields of a CRD served in v1 and v1beta1, shown once
    beside the message)."""
    versions, places = len(_distinct(scopes)), len(_distinct(names))
    return versions > 1 and len(set(zip(scopes, names, strict=True))) < versions * places


#: placeholders a group's message writes in its own way: its places, operations and values
_PLACES = frozenset({"location", "operation", "value", "path", "schema", "document", "group_version"})


def _facts_that_differ(template: str, members: Sequence[Finding]) -> list[tuple[str, list[str]]]:
    """The other placeholders of `template` whose value is not the same for every member, each with the
    members' values (`version` of a CRD version no longer served in v1alpha2 and v1alpha3)."""
    keys = dict.fromkeys(key for key in placeholders(template) if key and key not in _PLACES)
    if not keys:
        return []
    each = [_values_of(m) for m in members]
    return [(key, _distinct(values.get(key) for values in each)) for key in keys
            if len({values.get(key) for values in each}) > 1]


def _resource_message(members: Sequence[Finding], group_version: str, resource: str) -> str:
    """"ValidatingAdmissionPolicy (validatingadmissionpolicies) is no longer served by
    admissionregistration.k8s.io/v1beta1: 12 operations: list, watch, ..., patch and delete, with status", as
    Kubernetes' own notes say it; a resource that keeps being served "loses" (or "gains") the operations."""
    own: set[str] = set()
    subresources: dict[str, set[str]] = {}
    for member in members:
        ctx = member.change.context
        method, path = ctx.method or "", ctx.route or ""
        sub = (ctx.resource or "").partition("/")[2]
        if sub:
            subresources.setdefault(sub, set()).add("read" if method == "GET" else _verb(method, path, True))
        else:
            own.add(_verb(method, path, True))
    kind = (members[0].change.context.kind or "").rpartition("/")[2]
    named = f"{kind} ({resource})" if kind else resource
    added = members[0].change.kind == "added"
    if "read" in own or "list" in own:  # the resource itself comes or goes, not only some of its verbs
        what = f"{named} {'is now' if added else 'is no longer'} served by {group_version}:"
    else:
        what = f"{named} in {group_version} {'gains' if added else 'loses'}"
    subs = _joined(sorted(subresources), cut=False) if subresources else ""
    if own:
        verbs = _joined(_ordered(own), cut=False)
        listed = f"{verbs}, with {subs}" if subs else verbs
    else:
        listed = _joined(_ordered(set().union(*subresources.values())), cut=False) + f" of {subs}"
    return f"{what} {len(members)} operations: {listed}"


def _ordered(verbs: set[str]) -> list[str]:
    return [v for v in _VERBS if v in verbs] + sorted(verbs - set(_VERBS))


def operations_phrase(places: Sequence[Context]) -> str:
    """"402 operations: list, watch and deletecollection of 66 resources in 33 group-versions of 21 API groups"
    for Kubernetes resources (as the graph named them on each context), a resource being one whatever the
    versions it is served in (`deployments` of `apps`); "3 operations: GET /a, POST /b and PUT /c" (the first
    few, then how many more) for others."""
    verbs: set[str] = set()
    resources: set[tuple[str, str]] = set()
    versions: set[str] = set()
    discovery = 0
    discovery_path = compiled(_DISCOVERY).match
    for ctx in places:
        method, path = ctx.method or "", ctx.route or ""
        # (a discovery document is at most three segments deep: the pattern is read only for paths that short)
        if method == "GET" and path.count("/") <= _DISCOVERY_SLASHES and discovery_path(path):
            discovery += 1
            continue
        if ctx.group_version is None or not ctx.resource:
            break
        resource, _, sub = ctx.resource.partition("/")
        versions.add(ctx.group_version)
        resources.add((ctx.group_version.rpartition("/")[0], resource))
        verbs.add(_verb(method, path, own=not sub))
    else:
        documents = f"{discovery} discovery document{'s' if discovery > 1 else ''}"
        if not resources:
            return documents
        what = next(iter(resources))[1] if len(resources) == 1 else f"{len(resources)} resources"
        phrase = f"{len(places)} operations: {_joined(_ordered(verbs), cut=False)} of {what}{_where(versions)}"
        return f"{phrase} and {documents}" if discovery else phrase
    return f"{len(places)} operations: {_joined([ctx.operation or '' for ctx in places])}"


#: how a group's message counts the places it starts with, as `places_phrase` writes it ("2 places: `a` and `b`
#: became optional")
COUNTED_PLACES = r"^\d+ places: "


def places_phrase(names: Sequence[str], fields: bool) -> str:
    """"3 places: A.x, B.y and C.z" (fields), "2 schemas: A and B": how many, then the first few."""
    return f"{len(names)} {'places' if fields else 'schemas'}: {_joined(names)}"


def _where(versions: set[str]) -> str:
    """" in 3 versions of resource.k8s.io", " in 2 API groups", " in 33 group-versions of 21 API groups"."""
    groups = {gv.rpartition("/")[0] for gv in versions}
    if len(versions) <= 1:
        return ""
    if len(groups) == 1:
        return f" in {len(versions)} versions of {next(iter(groups))}"
    if len(groups) == len(versions):
        return f" in {len(groups)} API groups"
    return f" in {len(versions)} group-versions of {len(groups)} API groups"

#: the API server's discovery documents: `/api/`, `/apis/`, `/apis/GROUP/`, `/api/VERSION/`, `/apis/GROUP/VERSION/`
_DISCOVERY = rf"^/(?:api(?:/{_VERSION.pattern})?|apis(?:/[^/{{}}]+(?:/{_VERSION.pattern})?)?)/?$"
_DISCOVERY_SLASHES = 4  # `/apis/GROUP/VERSION/`
_VERBS = ("list", "watch", "deletecollection", "read", "create", "replace", "patch", "delete")


def _verb(method: str, path: str, own: bool) -> str:
    """The Kubernetes action of an operation, from its method and path (the `x-kubernetes-action` vocabulary)."""
    if "/watch/" in path:
        return "watch"
    if method in _ON_ITEM:
        item, collection = _ON_ITEM[method]
        return item if own and path.rstrip("/").endswith("}") else collection
    return _ACTIONS.get(method, method.lower())


#: the actions of a method that acts on one item (its path ends with the item's name) or on the collection
_ON_ITEM = {"GET": ("read", "list"), "DELETE": ("delete", "deletecollection")}
#: the actions of the other methods
_ACTIONS = {"POST": "create", "PUT": "replace", "PATCH": "patch"}


def _unversioned(name: str | None) -> str:
    return _VERSION.sub("{}", name) if name else ""


def _braced(names: Sequence[str]) -> str:
    """`io.k8s.api.resource.{v1,v1beta2}.DeviceClaim`: the names with their version segments listed once."""
    first = names[0]
    found = _VERSION.search(first)
    if found is None or any(_unversioned(n) != _unversioned(first) for n in names):
        return f"{len(names)} schemas: {_joined(list(names))}"
    versions = _distinct(m.group(0) for n in names for m in [_VERSION.search(n)] if m)
    return f"{first[:found.start()]}{{{','.join(versions)}}}{first[found.end():]}"


def _joined(items: Sequence[str], cut: bool = True) -> str:
    """"a, b and c"; past a few items, "a, b, c and 5 more" unless `cut` is off."""
    if cut and len(items) > _LISTED + 1:
        items = [*items[:_LISTED], f"{len(items) - _LISTED} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def group_by_ecosystem(findings: Iterable[Finding], ecosystem: Ecosystem, copies: InlinedCopies | None = None,
                       uses: TypeUses | None = None) -> list[Finding]:
    """The findings of one logical change as one, the way the ecosystem's specs write a change (`group`): an
    OpenAPI spec's lists read as one and its moved references with what they bring (`with_moves`); the objects
    an API server serves, one kind's edits together."""
    openapi = ecosystem.spec == "openapi"
    found = group(findings, copies, lists=openapi, uses=uses, kinds=ecosystem.kubernetes_served,
                  api_server=ecosystem.api_server)
    return sorted(with_moves(found), key=Finding.sort_key) if openapi else found


def with_moves(findings: Sequence[Finding]) -> list[Finding]:
    """The findings, with what a reference moved to a schema that differs brings folded into the move's finding:
    `repository` becoming `minimal-repository` where a field names it is one change, however many properties,
    types and markers the swap changes below it (each a member, marked `moved_with` by the differ). The move
    takes its most severe member's level and reason, keeps its own fingerprint, and names what it holds."""
    moves = {member.change.pointer: finding for finding in findings if finding.change.attribute == "$ref"
             for member in (finding.members or (finding,))}
    brought: dict[int, list[Finding]] = {}
    for finding in findings:
        move = _move_of(finding, moves)
        if move is not None and move is not finding:
            brought.setdefault(id(move), []).append(finding)
    folded_in = {id(finding) for found in brought.values() for finding in found}
    return [_move_holding(finding, brought[id(finding)]) if id(finding) in brought else finding
            for finding in findings if id(finding) not in folded_in]


def _move_of(finding: Finding, moves: dict[str, Finding]) -> Finding | None:
    """The outermost move whose swap brought every change of `finding` (a move inside a move is brought by it)."""
    move: Finding | None = None
    while True:
        tags = {member.change.fact("moved_with") for member in (finding.members or (finding,))}
        outer = moves.get(tags.pop()) if len(tags) == 1 and None not in tags else None
        if outer is None or outer is move or outer is finding:
            return move
        move = finding = outer


def _move_holding(move: Finding, brought: list[Finding]) -> Finding:
    """The move holding what its swap brought, at the level and reason of the most severe."""
    worst = min(brought, key=lambda finding: finding.level.rank)
    level, reason = (worst.level, worst.reason) if worst.level.rank < move.level.rank else (move.level, move.reason)
    counts: dict[str, int] = {}
    for finding in sorted(brought, key=lambda finding: finding.level.rank):
        for member in finding.members or (finding,):  # (one edit brought may hold several rules)
            title = member.rule_info.title or member.rule
            counts[title] = counts.get(title, 0) + 1
    held = ", ".join(f"{title.lower()} ({count})" for title, count in counts.items())
    return replace(_holding(move, brought, f"; the swap brings: {held}"), level=level, reason=reason)


def with_edits(findings: list[Finding], known: _Known, kinds: bool, markers: bool) -> list[Finding]:
    """The findings, with those one edit made joined whatever their rules or levels (`_edit_of`): a property
    that became both optional and nullable, which a reader meets as one missing value. With `kinds` (objects an
    API server serves), the same change in each served version, judged once as alpha and once as stable, is one
    change; with `markers` too (an API server's own types, whose `required` lists are generated from each Go
    field's marker), so are the markers one release set on the fields of one kind (PodDisruptionBudget's status
    losing its `required` list, a spec field made required where two others became optional). The group is
    shown at its most severe finding, which keeps its fingerprint; the same rule's findings fold as one
    (`folded`), and each other rule's is said after it and kept as members."""
    first_of: dict[tuple[Any, ...], int] = {}
    parent = list(range(len(findings)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, finding in enumerate(findings):
        for key in _edit_of(finding, known, kinds, markers):
            j = first_of.setdefault(key, i)
            parent[max(root(i), root(j))] = min(root(i), root(j))
    joined: dict[int, list[int]] = {}
    for i in range(len(findings)):
        joined.setdefault(root(i), []).append(i)
    out: dict[int, Finding] = {}
    for at, indices in joined.items():
        same = [findings[i] for i in indices]
        out[at] = _one_edit_of(same, known) if len(same) > 1 else same[0]
    return [out[i] for i in range(len(findings)) if i in out]


def _edit_of(finding: Finding, known: _Known, kinds: bool, markers: bool) -> list[tuple[Any, ...]]:
    """What makes findings one edit: values a reader may now find missing, by the places they are at (`_absent`:
    a group of two fields made optional and a finding that one of them became nullable stay apart);
    with `kinds`, the same change at the same place of each version, judged alike but for the version's stability
    (`group_key` with the level left out and the reason a stable version's would have, `Finding.stable_reason`);
    with `markers`, a `required` marker set or dropped (or a required field added) in the types one kind holds, by
    the kind's group and name, apart from the markers that only document what the server already enforced (judged
    safe)."""
    members = finding.members or (finding,)
    keys: list[tuple[Any, ...]] = []
    if all(_absent(member.change) for member in members):  # findings of the same places, not a few of them
        keys.append(("absent", frozenset((m.change.context.document, m.change.context.place_key()) for m in members)))
    for member in members:
        change, ctx = member.change, member.change.context
        if kinds and member.rule_info.group == "place":
            rule, _, reason, *rest = known.key(member)
            keys.append(("versions", rule, member.stable_reason or reason, *rest))
        kind = ctx.gvk or ctx.kind
        marker = (change.node, change.attribute) == ("property", "required") or (
            change.node == "property" and change.kind == "added" and bool(change.fact("required")))
        if markers and kind and marker:  # a marker judged safe writes down what was enforced: an edit of its own
            keys.append(("markers", ctx.document, _unversioned(kind), member.level is Level.SAFE))
    return keys


def _absent(change: Change) -> bool:
    """Whether the change lets a reader meet no value where there always was one: the field became optional, or
    its value nullable."""
    shape = change.node, change.attribute
    return change.kind == "modified" and (shape == ("property", "required") and change.new is False
                                          or shape == ("schema", "nullable") and change.new is True)


def _one_edit_of(findings: list[Finding], known: _Known) -> Finding:
    """One finding for the findings of one edit: each rule's members folded, the most severe rule's shown."""
    by_rule: dict[str, list[Finding]] = {}
    for finding in sorted(findings, key=lambda finding: finding.level.rank):  # (a stable sort keeps report order)
        by_rule.setdefault(finding.rule, []).extend(finding.members or (finding,))
    parts = [folded(_shown_first(members), known) if len(members) > 1 else members[0]
             for members in by_rule.values()]
    host, others = parts[0], parts[1:]  # (said after the host, a rule's places need no count before them)
    said = "".join(f"; {compiled(COUNTED_PLACES).sub('', other.message)}" for other in others)
    return _holding(host, others, said) if others else host
