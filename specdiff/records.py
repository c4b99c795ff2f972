"""The immutable records that flow through the pipeline: Change, Finding, Report."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import field, replace
from dataclasses import field as declared  # (Context has a field named `field`)
from enum import StrEnum
from functools import cache, total_ordering
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

from specdiff.frozen import record


class Level(StrEnum):
    """How much a change hurts existing users; ordered from worst to mildest."""

    BREAKING = "breaking"
    DANGEROUS = "dangerous"
    SAFE = "safe"

    @property
    def rank(self) -> int:
        return _LEVEL_RANK[self]


_LEVEL_RANK = {Level.BREAKING: 0, Level.DANGEROUS: 1, Level.SAFE: 2}
#: the one spelling of each small vocabulary the stages and the command line share
LEVELS = tuple(level.value for level in Level)
FAIL_ON = (*LEVELS, "never")  # --fail-on: the mildest level that fails the run
POLICIES = ("kubernetes", "openapi")  # how cards judge a change; `auto` picks one from the specs

#: Where a schema is met: sent by clients, returned to them, or both.
DIRECTIONS = ("request", "response", "both")
#: How clients read responses: `validating` (generated clients that check a response against the spec, with
#: pydantic or Bean Validation, and fail on a value outside it) or `tolerant` (readers that take what comes); a
#: card's level may key on it, and the configuration's `response-readers` chooses (default: by policy)
READERS = ("validating", "tolerant")
DEFAULT_READERS = {"openapi": "validating", "kubernetes": "tolerant"}
#: the direction of a plain OpenAPI schema that no operation, webhook or callback reaches on either side: cards
#: judge it as `both`, and classify caps the verdict at dangerous (nothing on the wire carries it)
UNUSED = "unused"
#: the direction of a plain OpenAPI schema that the old spec's operations reached and no new one does (or, for a
#: removed schema, that only removed operations reached): every use went, each reported where it went (the
#: operation, the property, the reference), so classify lowers what is found inside it to safe
CUT_OFF = "cut off"
#: the direction of a plain OpenAPI schema that no operation of the old spec reached and one of the new spec does
#: (a message sent all along, documented only now), followed by the direction the new spec uses it in
#: (`first used: response`): no existing client met it through the spec, so classify caps the verdict at
#: dangerous, as for an unused one
FIRST_USED = "first used"


def unreached(direction: str) -> bool:
    """Whether a change's direction says no operation reaches its schema on one side or the other."""
    return direction in (UNUSED, CUT_OFF) or direction.startswith(FIRST_USED)


def judged_direction(direction: str) -> str:
    """The direction cards judge a change in: read and written for a schema no operation reaches on one side,
    the new spec's direction for one first used there."""
    if direction.startswith(FIRST_USED):
        return direction.removeprefix(FIRST_USED + ": ")
    return "both" if direction in (UNUSED, CUT_OFF) else direction


@record(frozen=True, slots=True)
class Part:
    """The part of the spec a place is in outside any named schema, as data: a part of an operation (its request
    body, a response, a response's header, a parameter), or of the document (the document itself, its `info`, a
    path item, a security scheme). Sorting, grouping and predicates read these fields; `part_text` writes one
    as fingerprints hash it and the notation shows it (`request body`, `response 200 header X-Rate`, `query
    parameter limit`, `security scheme oauth`)."""

    #: request body | response | response header | parameter | document | info | paths | path | security scheme |
    #: tag | server
    kind: str
    status: str = ""  # the response's status code (a response and its headers)
    name: str = ""  # the header's, parameter's or security scheme's name; the path item's path
    location: str = ""  # the parameter's location: query, path, header, cookie
    #: the body's media type, named where the body lists several whose schemas differ (one may gain what another
    #: loses); fingerprints leave it out, so they stay those of earlier versions
    media_type: str = ""

    @property
    def body(self) -> bool:
        """A request or response body (what a field path inside it starts from), not a parameter or header."""
        return self.kind in ("request body", "response")


@record(frozen=True)
class Context:
    """Where a change sits, as data: the operation (method and route), its part, the field path as a tuple of
    steps; the schema, group-version and kind. Nothing here is text made for a reader: the place fingerprints
    hash is written from these fields here (`operation`, `field_path`), the labels a reader sees by
    specdiff/notation.py."""

    schema: str | None = None  # named schema (definition) the change is inside
    gvk: str | None = None  # "apps/v1/Deployment"
    group_version: str | None = None  # "apps/v1"
    stability: str = "stable"  # alpha | beta | stable
    document: str | None = None  # per-group document or CRD name the change is in
    #: what the change is about as the graph found it: the Kubernetes resource an operation acts on
    #: ("deployments", "pods/status"; for other APIs the operation's tag, else its path's first segment) ...
    resource: str | None = None
    #: ... and the kind it serves, or the kind that holds a schema ("apps/v1/Deployment")
    kind: str | None = None
    method: str | None = None  # the operation's HTTP method: "GET"
    route: str | None = None  # the operation's path template as the new spec writes it: "/api/v1/pods/{name}"
    part: Part | None = None  # the part of the operation or document the place is in
    field: tuple[str, ...] = ()  # the steps from the schema or part to the place: (".spec", ".containers", "[]")
    #: the operations the change reaches (its own, or those using the schema it is in), set before classify
    operations: tuple[str, ...] = ()
    #: the kinds whose fields reach the schema, each with the shortest steps from it, set before classify
    #: (`(("policy/v1/PodDisruptionBudget", (".status",)),)`): what a reader's notation names the place by; display
    #: only, so fingerprints, baselines, ignores, sort order and equality never read it (nor hash it: a
    #: type many kinds use has a long one)
    held_by: tuple[tuple[str, tuple[str, ...]], ...] = declared(default=(), compare=False)
    #: the change is a named schema's own addition or removal: the type is the subject, named by its Go type even
    #: where one kind's fields reach it (its place in that kind is a field, reported on its own); display only
    whole_type: bool = declared(default=False, compare=False)

    def at(self, step: str) -> Context:
        """This context one step further along the field path.

        Called for every field and parameter a comparison passes, changed or not, so it passes the fields by
        position instead of going through `dataclasses.replace`, which costs four times more, or by keyword,
        which costs a third more (tests/test_records.py checks that no field is left behind or misplaced).
        """
        return Context(self.schema, self.gvk, self.group_version, self.stability, self.document, self.resource,
                       self.kind, self.method, self.route, self.part, (*self.field, step), self.operations,
                       self.held_by)

    def within(self, part: Part) -> Context:
        """This operation's context in one of its parts (a response's header within that response), with no
        field path yet."""
        return Context(self.schema, self.gvk, self.group_version, self.stability, self.document, self.resource,
                       self.kind, self.method, self.route, part, (), self.operations, self.held_by)

    def reaching(self, operations: tuple[str, ...], held_by: tuple[tuple[str, tuple[str, ...]], ...]) -> Context:
        """This context with the operations the change reaches and the kinds holding its schema (the pipeline's,
        before classify)."""
        return Context(self.schema, self.gvk, self.group_version, self.stability, self.document, self.resource,
                       self.kind, self.method, self.route, self.part, self.field, operations, held_by,
                       self.whole_type)

    @property
    def operation(self) -> str | None:
        """The operation as reports and the reached-operation lists name it, `GET /pets`, as the graph labels
        operations; None outside one."""
        return f"{self.method} {self.route}" if self.method is not None and self.route is not None else None

    def place_key(self) -> tuple[str | tuple[str, ...], ...]:
        """The place as data, in the order a report reads it: by document, then group-version; in one of those,
        its own changes first, then its operations (by route, then method, then part: parameters and the
        request body before the responses, each response before its headers), then its named schemas by name;
        in each, the whole before the fields inside it, by their steps. What findings sort by, so the places of
        one schema or operation stay together whatever words the notation shows."""
        part = self.part
        return (self.document or "", self.group_version or "", self.schema or "", self.route or "",
                self.method or "", ("", "", "", "", "") if part is None else (part.status, part.kind, part.location,
                                                                              part.name, part.media_type), self.field)

    def at_body(self) -> bool:
        """Whether this is a whole request or response body ("request body", "response 200"), not a field; for a
        response, the items of a list or map it is made of count as the body too (`response 200[]`: a list of
        `Issue` that becomes a list of `Event` is one type swapped for another)."""
        if self.part is None or not self.part.body:
            return False
        if self.part.kind == "request body":
            return not any(self.field)
        return not any("." in step or " " in step for step in self.field)


def part_text(part: Part) -> str:
    """A part of an operation or of the document in words: `request body`, `response 200`, `response 200 header
    X-Rate`, `query parameter limit`; `the document`, `info`, `path /pets`, `security scheme oauth`."""
    if part.kind == "parameter":
        return f"{part.location} parameter {part.name}"
    if part.kind == "response header":
        return f"response {part.status} header {part.name}"
    if part.kind == "response":
        return f"response {part.status}" + (f" ({part.media_type})" if part.media_type else "")
    if part.kind == "request body" and part.media_type:
        return f"request body ({part.media_type})"
    if part.kind == "document":
        return "the document"
    return f"{part.kind} {part.name}" if part.name else part.kind


def field_path(ctx: Context) -> str | None:
    """The place inside its schema, operation or document as one string, its part then its field steps:
    `.spec.containers[].name`, `response 200.items[].id`, `query parameter limit`, `security`, `security scheme
    oauth`; None for a whole schema or operation. What fingerprints have always hashed (`hashed_place`), and
    JSON reports give as the location's `path`."""
    steps = "".join(ctx.field)
    if ctx.part is not None:
        return part_text(ctx.part) + steps
    return steps if ctx.field else None


@record(frozen=True)
class Change:
    """A neutral structural fact about two specs; never a verdict."""

    kind: str  # added | removed | modified
    node: str  # operation, parameter, request-body, response, media-type, schema, property, enum-value, ...
    attribute: str  # the attribute that changed ("type", "required", "maxLength"); "" for the node itself
    old: Any
    new: Any
    direction: str  # request | response | both | unused | cut off | first used
    context: Context
    old_pointer: str | None = None
    new_pointer: str | None = None
    detail: tuple[tuple[str, Any], ...] = ()  # extra facts for predicates and messages (name, value) pairs

    @property
    def pointer(self) -> str:
        """RFC 6901 pointer into the document the change is visible in (new, else old)."""
        return self.new_pointer if self.new_pointer is not None else (self.old_pointer or "")

    def with_context(self, context: Context) -> Change:
        """This change at another context (the pipeline's, which adds what the change reaches), by position as
        `Context.at` is: `dataclasses.replace` costs five times more, for each of thousands of changes."""
        return Change(self.kind, self.node, self.attribute, self.old, self.new, self.direction, context,
                      self.old_pointer, self.new_pointer, self.detail)

    def fact(self, name: str, default: Any = None) -> Any:
        for key, value in self.detail:
            if key == name:
                return value
        return default


#: the rule of a change no card claims
UNCLASSIFIED = "specdiff.unclassified"


@record(frozen=True, slots=True)
class RuleInfo:
    """What grouping and reports read about the card that judged a finding: carried on the finding, so no stage
    after classify reopens the catalogue."""

    title: str = ""
    section: str = "other"  # release notes: deprecations, features, corrections or unnoticed (when safe), or other
    group: str = "place"  # what one logical change spans: place, rule, release, resource, name or referrer
    message: str = ""  # the card's message template: a group renders it again for all its places
    #: (placeholder, message) for a group whose members differ in that placeholder ("enum values {value} ...")
    group_messages: tuple[tuple[str, str], ...] = ()
    reason: str = ""  # the card's default reason, as its documentation gives it
    levels: str = ""  # the default level in words: one level, or how it varies by policy and direction
    docs: tuple[tuple[str, str], ...] = ()  # (what, ...), (why, ...), (example, ...) as the card writes them


@record(frozen=True)
class Finding:
    """A classified change: rule, level, one-sentence reason, and what it reaches."""

    rule: str
    level: Level
    message: str
    reason: str
    change: Change
    operations: tuple[str, ...] = ()
    #: a group (one logical change at many places) lists its members, each a finding of its own ...
    members: tuple[Finding, ...] = ()
    #: ... and has its own fingerprint, hashed from what the members share (specdiff/group.py)
    group: str | None = None
    first_id: str = ""  # the rule's first id when it was renamed: fingerprints survive the rename
    rule_info: RuleInfo = RuleInfo()
    #: the reason the change would have in a stable version, where the version's stability changed it (an alpha
    #: version's `reason` wraps it); empty where `reason` is that already. Grouping joins the same change in each
    #: served version by it.
    stable_reason: str = ""
    #: the values the card's message was written from (`classify.message_values`), as classify worked them out: a
    #: group writes its card's message again from its members' values, so none is worked out twice. Not what the
    #: finding says (never compared, shown or written out); empty on a finding made by hand.
    values: Mapping[str, str] = declared(default_factory=dict, compare=False, repr=False)
    #: the place as the notation names it (`notation.name` of the change's context), as classify worked it out:
    #: grouping and the reports name each finding's place again, and read it here (`notation.finding_name`). Display
    #: only, never compared; empty on a finding made by hand.
    place: str = declared(default="", compare=False, repr=False)

    @property
    def fingerprint(self) -> str:
        """Stable id from structured fields only (never message text): survives rewording and renaming."""
        return self.group or fingerprint(self.first_id or self.rule, self.change)

    def sort_key(self) -> tuple[Any, ...]:
        """Most severe first, then by place as data (`Context.place_key`), pointer and rule; then by what
        changed there, so that two findings at one place (an item added to a list at the index where another
        item changed) come out in one order whatever order they were found in: the order is total, reports are
        the same bytes on every run."""
        change = self.change
        return (self.level.rank, change.context.place_key(), change.pointer, self.rule, change.kind,
                change.attribute, change.old_pointer or "", InOrder(change.old), InOrder(change.new))


@total_ordering
class InOrder:
    """A value ordered by its canonical JSON (`ordering_text`), encoded only when a comparison reaches it: findings
    seldom tie on everything a sort key puts before their values (`Finding.sort_key`, the member a group is shown
    at), so most are never encoded for ordering."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InOrder) and ordering_text(self.value) == ordering_text(other.value)

    def __lt__(self, other: InOrder) -> bool:
        return ordering_text(self.value) < ordering_text(other.value)

    def __hash__(self) -> int:
        return hash(ordering_text(self.value))


def fingerprint(rule: str, change: Change) -> str:
    """The first 16 hex digits of the SHA-256 of the rule, what changed and where (`hashed_place`) and the
    values: the same bytes for the same change whatever version of specdiff wrote the baseline."""
    return hashed([rule, change.kind, change.node, change.attribute, *hashed_place(change.context),
                   _plain(change.old), _plain(change.new)])


def hashed(value: Any) -> str:
    """A fingerprint: the first 16 hex digits of the SHA-256 of a value's canonical JSON."""
    return _sha256(_COMPACT(value))[:16]


#: the types whose values are told apart by their type and equality alone, as their canonical JSON tells them:
#: not floats (`0.0 == -0.0`, written apart), nor dates (written as the string they read as). What a memo of
#: written values may key on, and what compares without being written
FLAT_TYPES = frozenset({str, int, bool, type(None)})


def _canonical(item_separator: str, key_separator: str) -> Callable[[Any], str]:
    """Canonical JSON of a value, what `json.dumps(value, sort_keys=True, default=str, separators=...)` writes,
    by `json.JSONEncoder(...).encode`'s own C encoder, called directly:
    `encode` makes a Python closure and the encoder for each value, and ordering, fingerprints, grouping and
    messages encode a value or two per change. A fresh circular-reference memo each call, as `encode` has, so
    a value that failed leaves none behind and threads never share one."""
    if c_make_encoder is None:  # (an interpreter without json's C accelerator)
        return json.JSONEncoder(sort_keys=True, default=str, separators=(item_separator, key_separator)).encode

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return encode_basestring_ascii(value)
        return "".join(c_make_encoder({}, str, encode_basestring_ascii, None, key_separator, item_separator, True,
                                      False, True)(value, 0))
    return encode


_COMPACT = _canonical(",", ":")
_SPACED = _canonical(", ", ": ")


def hashed_place(ctx: Context) -> tuple[str | None, str | None, str | None, str | None]:
    """The place as fingerprints hash it, written from the structured fields: (document, operation label, named
    schema, field path as one string), the four values earlier versions stored as text."""
    if ctx.part is not None and ctx.part.media_type:
        ctx = replace(ctx, part=replace(ctx.part, media_type=""))
    return ctx.document, ctx.operation, ctx.schema, field_path(ctx)


def spaced_text(value: Any) -> str:
    """A value as canonical JSON spaced as `json.dumps(value, sort_keys=True, default=str)` writes it, with the
    encoder made once (`dumps` makes one a call): how a message shows a structure, what fingerprints hash."""
    return _SPACED(value)


def ordering_text(value: Any) -> str:
    """A value as canonical JSON, to order findings that tie on everything else by their values."""
    return _COMPACT(value)


def _plain(value: Any) -> Any:
    """Values small enough to fingerprint; large subtrees are summarised by their JSON hash. None, the side an
    addition or a removal does not have (half of what a release changes), is written without the encoder."""
    if value is None:
        return "null"
    text = _SPACED(value)  # (`spaced_text` without its call: grouping writes the values of every change)
    return text if len(text) <= 200 else _sha256(text)


def _sha256(text: str) -> str:
    """The hex SHA-256 of a text, by the interpreter's own SHA-256 where it has one: hashlib loads OpenSSL (10 M
    instructions, 3.5 ms, at each start) for the few kB of large values a comparison hashes (30 kB for the
    Kubernetes pair, 185 kB for Stripe's 1,968 findings), which the builtin hashes at 4.4 ms a MiB against
    OpenSSL's 0.8 ms: the builtin is the quicker below about 1 MiB a run. The digests are the same bytes."""
    digest: str = _sha256_type()(text.encode()).hexdigest()
    return digest


@cache
def _sha256_type() -> Callable[[bytes], Any]:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # (Python 3.11)
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found]  # (Python 3.12 on)
        except ImportError:  # (an interpreter built without them)
            from hashlib import sha256
    made: Callable[[bytes], Any] = sha256
    return made


@record(frozen=True, slots=True)
class SourceInfo:
    """What a report says about one input."""

    name: str
    dialect: str
    title: str | None = None
    version: str | None = None


@record(frozen=True, slots=True)
class Report:
    """Everything a formatter needs: the two inputs, the policy, the sorted findings."""

    old: SourceInfo
    new: SourceInfo
    policy: str
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = field(default=())  # policy remarks: expired ignores, unused baseline entries
    policy_reason: str = ""  # why this policy: "as configured", "Kubernetes markers", "no Kubernetes markers"
    #: what the specs are, with the evidence: "Kubernetes API server (x-kubernetes-group-version-kind on 9 schemas)"
    spec: str = ""
    #: the reference date (`YYYY-MM-DD`) sunset dates and ignore expiry were judged against
    today: str = ""
    #: how clients were taken to read responses (READERS): the configuration's `response-readers`, else the
    #: policy's default; several verdicts key on it, so a report names it
    readers: str = ""
    readers_configured: bool = False

    @property
    def policy_label(self) -> str:
        """`spec: OpenAPI (no Kubernetes markers); policy: openapi; response readers: validating; as of
        2026-01-15`: what the specs are, the policy and response readers that judged them (with "as configured"
        when the user chose them) and the reference date sunsets were judged on, as report headers show it: a CI
        run can be repeated with the same settings."""
        policy = f"{self.policy} (as configured)" if self.policy_reason == "as configured" else self.policy
        label = f"spec: {self.spec}; policy: {policy}" if self.spec else f"policy: {policy}"
        if self.readers:
            label += f"; response readers: {self.readers}" + (" (as configured)" if self.readers_configured else "")
        return f"{label}; as of {self.today}" if self.today else label

    def count(self, level: Level) -> int:
        return sum(1 for f in self.findings if f.level is level)

    def summary(self) -> dict[str, int]:
        return {level.value: self.count(level) for level in Level}
