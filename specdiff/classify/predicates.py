"""Named predicates: the logic a rule card's match table cannot say, one small function each."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any, TypeVar

from specdiff.classify.calendar import Calendar
from specdiff.diff.openapi_extensions import changes_the_wire
from specdiff.graph.lifecycle import version_key
from specdiff.graph.model import group_version_of_path
from specdiff.graph.stability import DECLARED, STABILITIES, declared_rank, rank
from specdiff.graph.sunset import sunset_date
from specdiff.patterns import compiled
from specdiff.records import UNUSED, Change

Predicate = Callable[[Change], bool]
#: a predicate that also reads the reference date and the notice configured (`dated`)
DatedPredicate = Callable[[Change, Calendar], bool]
#: every predicate by name, each asked about a change on a calendar
PREDICATES: dict[str, DatedPredicate] = {}
#: the facts each predicate reads, so the card loader can check that the changes a card matches carry them
READS: dict[str, tuple[str, ...]] = {}
AnyPredicate = TypeVar("AnyPredicate", Predicate, DatedPredicate)


def predicate(func: Predicate) -> Predicate:
    PREDICATES[func.__name__] = lambda change, _calendar: func(change)
    return func


def dated(func: DatedPredicate) -> DatedPredicate:
    """A predicate that compares the dates a change records with the reference date: decided here, in
    classify, so that the differ's facts stay the same whatever day it is."""
    PREDICATES[func.__name__] = func
    return func


def reads(*facts: str) -> Callable[[AnyPredicate], AnyPredicate]:
    def declare(func: AnyPredicate) -> AnyPredicate:
        READS[func.__name__] = facts
        return func
    return declare


def _flag(name: str, fact: str, doc: str) -> None:
    """A predicate that holds when the change carries the boolean fact `fact` (set by the differ)."""
    def test(change: Change) -> bool:
        return bool(change.fact(fact))
    test.__name__, test.__doc__ = name, doc
    predicate(reads(fact)(test))


#: (predicate, fact, what it means): the predicates that only read one boolean fact of the change
for _name, _fact, _doc in (
    ("required", "required", "The added or removed thing is required."),
    ("was_deprecated", "deprecated", "The removed element was marked deprecated in the old spec."),
    ("transition_rule", "transition", "A CEL rule that uses `oldSelf`, so it only runs on updates."),
    ("rule_loosened", "loosened", "The new CEL rule accepts every object the old schema allows that the old one did."),
    ("rule_on_new_fields", "on_new_fields", "The added CEL rule holds on every object valid under the old schema."),
    ("union_with_discriminator", "discriminator", "The union has a discriminator: readers can tell its members apart."),
    ("overlapping_branch", "overlaps", "An added `oneOf` alternative that a value may match along with another."),
    ("constraining_union", "constrains",
     "A `oneOf` or `anyOf` beside the schema's own type or properties, each branch only narrowing that schema."),
    ("implied_branch", "implied", "An added `anyOf` condition one of whose branches the old schema already demanded."),
    ("values_left_open", "open",
     "An enum in an `anyOf` branch beside a branch that takes any value of its type: it lists known values."),
    ("still_met", "still_met", "The clients of a changed security alternative still meet another alternative."),
    ("still_stored", "stored", "Objects are still stored in the CRD version: `status.storedVersions` lists it."),
    ("enforced", "enforced", "The API server validates writes with the keyword itself (a CRD's `enum`)."),
    ("partly_stated", "partly",
     "The added CEL rule enforces what the old description stated, and also reads fields the old schema lacked."),
    ("was_read_only", "was_read_only", "A required property that was read-only, so requests never carried it."),
    ("already_required", "already_required",
     "The added property was already named in the old schema's `required`, which now gains its schema."),
    ("plain_field", "plain", "An `encoding` entry for a field that only ever holds a string, number or boolean."),
    ("read_only_field", "read_only", "The property is (was, for a removal) marked read-only: requests never carry it."),
    ("scheme_written", "scheme_written",
     "The same host and path, with a scheme written where the document's own was meant, or the other way round."),
    ("inside_deprecated", "in_deprecated",
     "A property marked deprecated, in the old spec or the new one, is or holds the changed place."),
    ("deprecated_alias", "alias_of",
     "The removed schema was a deprecated alias (\"Deprecated. Please use X instead.\", only a `$ref` to X or the "
     "same schema) of one that stays, and no operation used it."),
    ("same_on_the_wire", "same_wire",
     "The schemas a reference moved between send and accept the same JSON: only the type's name changes."),
    ("enum_within_old_bound", "enum_within",
     "A bound dropped or widened where the schema's `enum` now lists every value, each within the old bound."),
    ("kind_of_the_object", "kind_of_plain",
     "A branch of the union a plain object became whose values the old object described: the properties both "
     "name have the same types, the old required ones are there, and the old object took the others."),
    ("kept_by_another_branch", "in_other_branch",
     "The plain object became a union of its kinds, and another branch than the one compared carries the property."),
    ("kind_moved_out", "moved_to_union",
     "The plain object became a union of its kinds, and the kind that carried the property is now a branch of "
     "another union new to the spec, which shares kinds with it."),
    ("expanded_on_request", "expansion",
     "An added branch is an object the field is only sent as when a request asks to expand it (Stripe's "
     "`x-expansionResources`), on a field no request could expand before."),
    ("carried_as_xml", "xml_body",
     "A body of an XML media type carries the schema (directly or inside another), where `xml` names the elements."),
    ("media_type_renamed", "renamed_to",
     "The same JSON body is offered under another JSON media type that replaces the removed one."),
    ("lists_every_value", "every_value",
     "The enum lists every value its type has (`true` and `false` of a boolean): it allows what the type does."),
    ("deprecated_in_words", "said_deprecated",
     "The removed element's old description opened by calling it deprecated, though no marker said so."),
    ("never_defined", "undefined",
     "The old `required` list named a property the schema never defined, though it defined others."),
    ("example_shown", "example_shows",
     "The old response example already held, at the place, the value the schema now lists and used to leave out."),
    ("only_in_parameters", "only_in_parameters",
     "Requests carry the schema only as parameter values, never in a body, where `readOnly` would govern it."),
):
    _flag(_name, _fact, _doc)


@predicate
@reads("compile_error")
def does_not_compile(change: Change) -> bool:
    """The CEL rule does not compile: the API server refuses the schema that holds it."""
    return change.fact("compile_error") is not None


@predicate
@reads("cost_overrun")
def over_cost_budget(change: Change) -> bool:
    """The CRD rule's estimated cost exceeds the per-rule or the per-CRD budget: the API server refuses it."""
    return change.fact("cost_overrun") is not None


@predicate
@reads("cost_unchecked")
def cost_unchecked(change: Change) -> bool:
    """The CRD rule's cost could not be estimated: whether the API server accepts it is not known."""
    return bool(change.fact("cost_unchecked"))


@predicate
@reads("required")
def optional(change: Change) -> bool:
    return not change.fact("required")


@predicate
def bodiless_response(change: Change) -> bool:
    """A 204 or 304 response, which HTTP sends without a body (RFC 9110): content written under it described
    nothing a client ever received."""
    part = change.context.part
    return part is not None and part.kind == "response" and part.status in ("204", "304")


@predicate
@reads("others")
def error_body_undocumented(change: Change) -> bool:
    """An error response (4xx or 5xx) left with no body documented at all: no request is refused and no success
    changes; what goes is the description of what a failure carries (its code and message)."""
    part = change.context.part
    return (part is not None and part.kind == "response" and str(part.status)[:1] in ("4", "5")
            and not change.fact("others"))


@predicate
@reads("evidence")
def old_text_agrees(change: Change) -> bool:
    """The old spec's own words already said what the changed `required` marker now says
    (specdiff.diff.evidence): the marker restates the API server's behaviour, it does not change it."""
    return change.fact("evidence") is not None


@predicate
@reads("enforced", "evidence")
def enforced_as_documented(change: Change) -> bool:
    """The API server now enforces what the old description already gave as the field's only values: writes
    outside them were accepted, but documented as invalid."""
    return bool(change.fact("enforced")) and change.fact("evidence") is not None


def _extension(change: Change) -> str:
    return str(change.fact("name") or change.attribute.partition("/")[0])


@predicate
@reads("name")
def documenting_extension(change: Change) -> bool:
    """A whole vendor extension written or dropped that is not known to change the wire: documentation, or
    metadata for code generators and portals (`x-oaiMeta`, `x-expandableFields`, `x-github`)."""
    return change.attribute == _extension(change) and not changes_the_wire(_extension(change))


@predicate
@reads("name")
def documenting_extension_edited(change: Change) -> bool:
    """Such an extension written on both sides, changed somewhere inside (an item added to its list is an edit
    of the extension, not an extension added)."""
    whole = change.kind != "modified" and change.attribute == _extension(change)
    return not whole and not changes_the_wire(_extension(change))


#: what a document or schema writes only for its readers: who to contact, under which licence and terms, and a
#: schema's `$comment` (JSON Schema: "MUST NOT be used to form validation results")
METADATA_KEYWORDS = frozenset({"contact", "license", "termsOfService", "$comment"})


@predicate
@reads("name")
def metadata_keyword(change: Change) -> bool:
    """A keyword that only documents the API (`METADATA_KEYWORDS`)."""
    return change.fact("name") in METADATA_KEYWORDS


@predicate
def became_true(change: Change) -> bool:
    return change.old is not True and change.new is True


@predicate
def default_mapping_set(change: Change) -> bool:
    """A discriminator gains an OpenAPI 3.2 `defaultMapping` and is otherwise unchanged: values that leave out the
    property (or carry an unmapped one) now select a member."""
    old, new = change.old, change.new
    return (isinstance(old, dict) and isinstance(new, dict) and "defaultMapping" not in old
            and "defaultMapping" in new and {k: v for k, v in new.items() if k != "defaultMapping"} == old)


@predicate
def became_false(change: Change) -> bool:
    return change.old is True and change.new is not True


@predicate
@reads("served", "deprecated")
def unserved_and_deprecated(change: Change) -> bool:
    """A CRD version that was already out of service, with notice given, before it went."""
    return change.fact("served") is False and change.fact("deprecated") is True


@predicate
@reads("served")
def already_unserved(change: Change) -> bool:
    """A CRD version the old CRD no longer served: no client reached it, and the API server refuses the removal
    only while `status.storedVersions` lists it."""
    return change.fact("served") is False


@predicate
@reads("conversion")
def converted_by_webhook(change: Change) -> bool:
    """The CRD converts between its versions with a webhook, which can convert a value between types."""
    return bool(change.fact("conversion") == "Webhook")


@predicate
@reads("versions")
def single_version(change: Change) -> bool:
    """The new CRD has one version only, so nothing is ever converted."""
    return bool(change.fact("versions") == 1)


#: for each constraint, whether a larger value accepts more (True) or fewer (False) values
_UPPER_BOUNDS = {"maximum": True, "maxLength": True, "maxItems": True, "maxProperties": True, "maxContains": True,
                 "minimum": False, "minLength": False, "minItems": False, "minProperties": False, "minContains": False}
#: keywords whose value is false (nothing more allowed), a schema (some), or true/absent (anything)
_OPEN_ENDED = ("additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items")


#: regular expressions that match every string, so a `pattern` of one says nothing
_MATCH_ALL = frozenset({"", ".*", "^.*$", "^.*", ".*$", "(.*)", "^(.*)$", "[\\s\\S]*", "^[\\s\\S]*$"})
#: keywords whose two different values cannot in general be ordered: a `const` replaced, a `pattern` rewritten,
#: a `multipleOf` step that neither divides nor is divided by the old one (5 -> 4 refuses 5 and admits 4)
UNORDERED = ("const", "pattern", "if", "multipleOf")


def _narrows(change: Change) -> bool | None:
    """True if the change accepts fewer values than before, False if more, None if it cannot tell.

    A keyword that appears constrains (items, not, const, pattern, a bound); one that goes away frees. A pattern
    that matches everything (`.*`) counts as no pattern.
    """
    attribute, old, new = change.attribute, change.old, change.new
    if attribute in _OPEN_ENDED and (isinstance(old, bool) or isinstance(new, bool)):  # false < a schema < true
        return _openness(new) < _openness(old)
    if attribute == "patternProperties" and change.fact("closed"):  # beside additionalProperties: false
        return change.kind == "removed"
    if attribute == "dependentRequired" and change.kind == "modified":
        before, after = set(map(str, old or ())), set(map(str, new or ()))
        return True if after > before else False if after < before else None
    if attribute == "pattern":
        old_all, new_all = _matches_all(old), _matches_all(new)
        if old_all or new_all:
            return old_all and not new_all
    if change.kind == "added":
        return True
    if change.kind == "removed":
        return False
    if attribute in _UPPER_BOUNDS and _number(old) and _number(new):
        grows = new > old
        return not grows if _UPPER_BOUNDS[attribute] else grows
    if attribute in ("exclusiveMinimum", "exclusiveMaximum"):
        if isinstance(old, bool) and isinstance(new, bool):
            return new and not old
        if _number(old) and _number(new):
            return bool(new > old) if attribute == "exclusiveMinimum" else bool(new < old)
    if attribute == "uniqueItems":
        return bool(new) and not bool(old)
    if attribute == "multipleOf" and _number(old) and _number(new) and old > 0 and new > 0:
        # every value stays valid iff the old step is a whole multiple of the new one; exact fractions of the
        # written decimals (0.1 is 1/10), since float remainders misjudge them (0.3 % 0.1 is not 0)
        from fractions import Fraction  # (with decimal) only when a multipleOf changes

        ratio = Fraction(str(new)) / Fraction(str(old))
        if ratio.denominator == 1:
            return True  # every multiple of the new step was a multiple of the old one
        if ratio.numerator == 1:
            return False
    return None


def _matches_all(pattern: Any) -> bool:
    """No pattern, or one that every string matches; a malformed (non-string) pattern is neither."""
    return pattern is None or (isinstance(pattern, str) and pattern in _MATCH_ALL)


def _openness(value: Any) -> int:
    return 0 if value is False else 1 if isinstance(value, dict) else 2


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@predicate
def tightened(change: Change) -> bool:
    """Fewer values are valid than before (a change that cannot be ordered counts as tightening, except a
    `const` or `pattern` replaced, which is its own finding)."""
    narrows = _narrows(change)
    return narrows is True or (narrows is None and change.attribute not in UNORDERED)


@predicate
def unordered(change: Change) -> bool:
    """A value replaced by another that is neither provably wider nor narrower (two different regexes)."""
    return change.kind == "modified" and _narrows(change) is None and not pattern_respelled(change)


@predicate
def loosened(change: Change) -> bool:
    return _narrows(change) is False


def _status(change: Change) -> str:
    return str(change.fact("status") or change.old or change.new)


@predicate
@reads("status")
def success_status(change: Change) -> bool:
    """A 2xx response: the one a client's normal path is written for."""
    return _status(change).startswith("2")


@predicate
@reads("status")
def other_status(change: Change) -> bool:
    """An error, redirect, informational or `default` response."""
    return not success_status(change)


def _types(value: Any) -> frozenset[str] | None:
    """A type keyword as a set, with integer inside number; None when any type is allowed."""
    if value is None:
        return None
    types = {value} if isinstance(value, str) else {str(v) for v in value}
    return frozenset(types | ({"integer"} if "number" in types else set()))


#: the scalar types whose values a parameter spells as text that is also a string (`page=1`, `all=true`)
_SPELLED = frozenset({"integer", "number", "boolean", "string"})


@predicate
@reads("as_text")
def type_widened(change: Change) -> bool:
    """The new types include every old one and more (integer -> number, string -> [string, integer]); or a
    parameter (query, path, header, cookie) or a form field, whose value is text on the wire, becomes a string,
    which every value it took before still is."""
    old, new = _types(change.old), _types(change.new)
    if old is not None and new == frozenset({"string"}) and old <= _SPELLED and _spelled_as_text(change):
        return True
    return old is not None and (new is None or old < new)


def _spelled_as_text(change: Change) -> bool:
    """The value of a parameter or of the items of a parameter's list: text in the URL, a header or a cookie; or
    of a form's field (`as_text`)."""
    if change.fact("as_text"):
        return True
    part = change.context.part
    return part is not None and part.kind == "parameter" and all(step == "[]" for step in change.context.field)


@predicate
@reads("overlaps")
def union_narrowed(change: Change) -> bool:
    """An `anyOf` became a `oneOf` whose branches a value may match two of: such a value is now refused."""
    return bool(change.fact("overlaps")) and change.new == "oneOf"


@predicate
@reads("overlaps")
def union_widened(change: Change) -> bool:
    """A `oneOf` became an `anyOf` whose branches a value may match two of: such a value is now taken."""
    return bool(change.fact("overlaps")) and change.new == "anyOf"


@predicate
def type_narrowed(change: Change) -> bool:
    old, new = _types(change.old), _types(change.new)
    return new is not None and (old is None or new < old)


#: formats whose values all fit in a wider one
_WIDER_FORMATS = {"int32": ("int64",), "float": ("double",)}


@predicate
def format_widened(change: Change) -> bool:
    return change.new in _WIDER_FORMATS.get(str(change.old), ())


# -- field lifecycle (KEP-2558) -----------------------------------------------------------------------
def _lifecycle_rank(status: Any) -> int:
    """A lifecycle status in the one stability order; a deprecated field has been stable (or beta) and is on its
    way out, a status that is no level counts as alpha."""
    status = "stable" if status == "deprecated" else status
    return rank(status) if status in STABILITIES else 0


def _lifecycle_step(change: Change) -> int:
    return _lifecycle_rank(change.new) - _lifecycle_rank(change.old)


@predicate
def lifecycle_promoted(change: Change) -> bool:
    """alpha -> beta, alpha -> stable, beta -> stable."""
    return change.new != "deprecated" and _lifecycle_step(change) > 0


@predicate
def lifecycle_regressed(change: Change) -> bool:
    """stable -> beta or alpha, beta -> alpha (and deprecated -> alpha or beta)."""
    return change.new != "deprecated" and _lifecycle_step(change) < 0


@predicate
def lifecycle_deprecated(change: Change) -> bool:
    return bool(change.new == "deprecated")


@predicate
def lifecycle_undeprecated(change: Change) -> bool:
    return bool(change.old == "deprecated" and change.new == "stable")


@predicate
def min_version_moved_back(change: Change) -> bool:
    """minVersion now names an earlier release than before (`v1.31` -> `v1.30`)."""
    old, new = version_key(change.old), version_key(change.new)
    return old is not None and new is not None and new < old


@predicate
@reads("lifecycle", "required")
def gated_optional_field(change: Change) -> bool:
    """An optional field whose marker says it is alpha or beta behind a feature gate."""
    return change.fact("lifecycle") in ("alpha", "beta") and not change.fact("required")


#: a description saying the server never sets the field and ignores it when written, or always clears it
#: (ObjectMeta.clusterName, in its two wordings)
_SAID_IGNORED = re.compile(r"\b(?:not set anywhere|never set)\b[^.]*\bignored?\b|\balways cleared by the system\b",
                           re.IGNORECASE)


@predicate
def said_ignored(change: Change) -> bool:
    """The removed field's description says the server never sets it and ignores (or clears) it: no stored object or
    response carries it, only typed clients and strict field validation notice it is gone."""
    description = change.old.get("description") if isinstance(change.old, dict) else None
    return isinstance(description, str) and bool(_SAID_IGNORED.search(description))


@predicate
@reads("lifecycle")
def beta_field(change: Change) -> bool:
    return bool(change.fact("lifecycle") == "beta")


@predicate
@reads("lifecycle")
def deprecated_field(change: Change) -> bool:
    return bool(change.fact("lifecycle") == "deprecated")


# -- x-kubernetes-* topology, patches, validation rules, unions ---------------------------------------
@predicate
@reads("old_type", "new_type")
def topology_restated(change: Change) -> bool:
    """The marker changed but server-side apply sees the same list or map type (absent means the default)."""
    return bool(change.fact("old_type") == change.fact("new_type"))


#: list and map types that server-side apply merges element by element
_GRANULAR = ("set", "map", "granular")


@predicate
@reads("old_type", "new_type")
def topology_made_atomic(change: Change) -> bool:
    return change.fact("old_type") in _GRANULAR and change.fact("new_type") == "atomic"


@predicate
@reads("old_type", "new_type")
def topology_made_granular(change: Change) -> bool:
    return change.fact("old_type") == "atomic" and change.fact("new_type") in _GRANULAR


@predicate
@reads("predates_topology")
def topology_first_published(change: Change) -> bool:
    """The old spec is a Kubernetes API server's that published no server-side apply topology anywhere
    (`specdiff.diff.kubernetes.predates_topology`): a marker appearing is the spec starting to publish them, not
    a change it describes."""
    return change.fact("predates_topology") is True


@predicate
def map_keys_extended(change: Change) -> bool:
    """Every old key is still a key, and there are more."""
    old, new = set(change.old or ()), set(change.new or ())
    return old < new


@predicate
@reads("value_kind", "old_strategy", "new_strategy")
def merge_strategy_dropped(change: Change) -> bool:
    """A list stops merging under strategic merge patch (on maps and structs merging is the default anyway)."""
    return (change.fact("value_kind") == "list" and "merge" in (change.fact("old_strategy") or ())
            and "merge" not in (change.fact("new_strategy") or ()))


@predicate
@reads("value_kind")
def on_scalar(change: Change) -> bool:
    return bool(change.fact("value_kind") == "scalar")


@predicate
def value_replaced(change: Change) -> bool:
    """A value that was there is replaced by another (not set, not dropped)."""
    return change.kind == "modified"


@predicate
def inner_value_replaced(change: Change) -> bool:
    """One plain value inside a keyword compared as data (`encoding/avatar/contentType`) replaced by another: not
    the keyword rewritten whole, nor a value set or dropped."""
    return (change.kind == "modified" and "/" in change.attribute
            and not isinstance(change.old, (dict, list)) and not isinstance(change.new, (dict, list)))


@predicate
def value_set(change: Change) -> bool:
    """A value set where the spec wrote none."""
    return change.kind == "added"


@predicate
@reads("in_use")
def scheme_unused(change: Change) -> bool:
    """No operation of the new spec asks for the security scheme, so no client presents it."""
    return not change.fact("in_use")


# -- deprecation, sunset and x-stability-level (plain OpenAPI) ---------------------------------------
@dated
@reads("sunset")
def removed_before_sunset(change: Change, calendar: Calendar) -> bool:
    """Removed although its announced sunset date (`x-sunset`, a `Sunset` header) has not come yet."""
    days = calendar.days_to(change.fact("sunset"))
    return days is not None and days > 0


@predicate
@reads("sunset")
def sunset_unreadable(change: Change) -> bool:
    """The sunset the element announces (the old one, for a removal) is written but is no date: whether it has
    passed cannot be said."""
    sunset = change.fact("sunset")
    return sunset is not None and sunset_date(sunset) is None


@predicate
def sunset_not_a_date(change: Change) -> bool:
    """The new spec writes an `x-sunset` that is no date (a first one, or one changed into it)."""
    return change.new is not None and sunset_date(change.new) is None


@predicate
def sunset_moved_earlier(change: Change) -> bool:
    """Both sides write a date and the new one is earlier, compared as dates whatever their spelling."""
    old, new = sunset_date(change.old), sunset_date(change.new)
    return old is not None and new is not None and new < old


@predicate
@reads("deprecated")
def sunset_dropped_while_deprecated(change: Change) -> bool:
    """The element stays deprecated but no longer says when it goes."""
    return change.kind == "removed" and bool(change.fact("deprecated"))


@dated
@reads("sunset")
def sunset_too_soon(change: Change, calendar: Calendar) -> bool:
    """Deprecated now with less notice than `deprecation-days` asks for its stability (or no sunset date)."""
    minimum = calendar.notice(change.context.stability)
    if change.new is not True or not minimum:
        return False
    days = calendar.days_to(change.fact("sunset"))
    return days is None or days < minimum


def _known(word: Any) -> bool:
    return word is None or word in DECLARED


def _stability_step(change: Change) -> int:
    """How far an `x-stability-level` moved in its order (draft, alpha, beta, stable; none is stable); 0 when
    the new word is not a level (`stability_unknown` claims those)."""
    return declared_rank(change.new) - declared_rank(change.old) if _known(change.new) else 0


@predicate
def stability_unknown(change: Change) -> bool:
    """Either side writes an `x-stability-level` that is not one of draft, alpha, beta, stable."""
    return not (_known(change.old) and _known(change.new))


@predicate
def stability_corrected(change: Change) -> bool:
    """A word that is not a level replaced by one (or dropped): the data is mended, no promise withdrawn."""
    return not _known(change.old) and _known(change.new)


@predicate
def stability_lowered(change: Change) -> bool:
    return _known(change.old) and _stability_step(change) < 0


@predicate
def stability_raised(change: Change) -> bool:
    return _known(change.old) and _stability_step(change) > 0


def media_range(name: str) -> tuple[str, str, frozenset[str]]:
    """`application/merge-patch+json; charset=utf-8` -> ("application", "merge-patch+json", {"charset=utf-8"})."""
    essence, *parameters = name.split(";")
    kind, _, subtype = essence.strip().lower().partition("/")
    return kind, subtype or "*", frozenset(p.strip().lower().replace(" ", "") for p in parameters if p.strip())


def media_covers(wide: str, narrow: str) -> bool:
    """Whether the range `wide` takes in everything `narrow` names (RFC 9110 media ranges): `*/*` takes all,
    `application/*` every application type, and a type with parameters is still that type (`application/json;
    charset=utf-8` is read as JSON); a `+json` suffix specialises `application/json` only when asked for."""
    wide_type, wide_sub, _ = media_range(wide)
    narrow_type, narrow_sub, _ = media_range(narrow)
    if wide_type == "*":
        return True
    return wide_type == narrow_type and wide_sub in ("*", narrow_sub)


def _specialises(general: str, specific: str) -> bool:
    """`application/vnd.api+json` is JSON: a reader of `application/json` reads it (RFC 6839 suffixes)."""
    general_type, general_sub, _ = media_range(general)
    specific_type, specific_sub, _ = media_range(specific)
    return general_type == specific_type and "+" in specific_sub and specific_sub.rsplit("+", 1)[1] == general_sub


def _others(change: Change) -> list[str]:
    return [name for name in str(change.fact("others") or "").split(", ") if name]


@predicate
@reads("media_type", "others")
def request_range_kept(change: Change) -> bool:
    """A request media type that left the list is still accepted: a listed range takes it in."""
    gone = str(change.fact("media_type") or "")
    return any(media_covers(other, gone) for other in _others(change))


@predicate
@reads("media_type", "others")
def response_range_kept(change: Change) -> bool:
    """A response media type that left the list is still what readers get: every type the response is now
    offered as lies inside the old one (a narrower range, parameters, or a `+json`-style specialisation)."""
    gone = str(change.fact("media_type") or "")
    others = _others(change)
    return bool(others) and all(media_covers(gone, o) or _specialises(gone, o) for o in others)


#: the content types the Kubernetes API server takes for PATCH (apply, JSON, merge and strategic merge patch)
_PATCH_TYPES = ("application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json",
                "application/strategic-merge-patch+json")


@predicate
@reads("media_type", "others")
def kubernetes_patch_types_listed(change: Change) -> bool:
    """A Kubernetes PATCH stops listing `application/json` (which the API server answers with 415) and lists
    the patch types instead."""
    return (change.context.method == "PATCH" and _kubernetes_path(change)
            and media_range(str(change.fact("media_type") or ""))[:2] == ("application", "json")
            and any(media_range(o)[:2] == tuple(t.split("/")) for o in _others(change) for t in _PATCH_TYPES))


@predicate
def kubernetes_write(change: Change) -> bool:
    """A create (POST), replace (PUT) or patch (PATCH) of a Kubernetes resource: the API server has always
    needed a body there."""
    return _kubernetes_path(change) and change.context.method in ("POST", "PUT", "PATCH")


def _kubernetes_path(change: Change) -> bool:
    """`POST /apis/apps/v1/namespaces/{namespace}/deployments`: an operation on a Kubernetes API group."""
    return change.context.route is not None and group_version_of_path(change.context.route) is not None


@predicate
def body_root(change: Change) -> bool:
    """The change is to a whole request or response body, not to a field inside one."""
    return change.context.at_body()


@predicate
def unused_schema(change: Change) -> bool:
    """No operation, webhook or callback of either spec sends or takes the schema (a plain OpenAPI one): no
    request through the API ever left the field out, so a default written there only documents the server."""
    return change.direction == UNUSED


#: the pointer of a keyword written on one branch of a union: `.../stop/oneOf/0/default`
_BRANCH_KEYWORD = r"/(?:oneOf|anyOf)/\d+/[^/]+$"


@predicate
def on_union_branch(change: Change) -> bool:
    """The keyword is written on one branch of a `oneOf` or `anyOf`: a value picks its branch, and an omitted
    field has none, so a branch's default never says what leaving the field out means."""
    return compiled(_BRANCH_KEYWORD).search(change.new_pointer or change.old_pointer or "") is not None


@predicate
@reads("old_kind", "own_kind")
def deleted_object_returned(change: Change) -> bool:
    """A DELETE's body was `Status` and is now the kind the operation deletes: it answers the deleted object."""
    return (body_root(change) and change.context.method == "DELETE"
            and change.fact("old_kind") == "Status" and bool(change.fact("own_kind")))


@predicate
@reads("with_items")
def array_type_implied(change: Change) -> bool:
    """`type: array` written or left out on a schema that describes its `items` on both sides: it only ever
    described lists (a value with items to validate that is not a list is not what the schema describes)."""
    stated = (change.old, change.new)
    return stated in ((None, "array"), ("array", None)) and bool(change.fact("with_items"))


@predicate
@reads("had_properties")
def object_type_stated(change: Change) -> bool:
    """`type: object` written on a schema that had no type but had properties: it only ever took objects
    (a value with properties to validate that is not an object is not what the schema describes)."""
    return change.old is None and change.new == "object" and bool(change.fact("had_properties"))


@predicate
@reads("member", "plain_format")
def int_or_string_spelled(change: Change) -> bool:
    """A string with `format: int-or-string` gains the integer branch of a oneOf: the set it always named."""
    return bool(change.fact("member") == "integer" and change.fact("plain_format") == "int-or-string")


@predicate
@reads("scalar_forms")
def scalar_forms_spelled(change: Change) -> bool:
    """A scalar of one type becomes a oneOf of bare scalar types that includes it: the JSON forms one value is
    read in, listed (kube-openapi's one-of types, such as `resource.Quantity`: a string or a number)."""
    return change.fact("scalar_forms") is True


#: the parser `re` itself uses (private modules without type stubs, hence Any)
_SRE_PARSE: Any = importlib.import_module("re._parser")
_SRE_CONSTANTS: Any = importlib.import_module("re._constants")


def _pattern_shape(pattern: str) -> Any:
    """A regular expression's parse tree with each character class as the set of what it takes in, so that
    `[-a-zSA-Z0-9]` and `[-a-zA-Z0-9]` (`S` lies in `A-Z`) come out equal; None when Python cannot parse it."""
    try:
        return _shape(_SRE_PARSE.parse(pattern).data)
    except (re.error, RecursionError, OverflowError):
        return None


def _shape(items: Any) -> Any:
    sre = _SRE_CONSTANTS
    out: list[Any] = []
    for op, arg in items:
        if op is sre.IN:
            spans: list[tuple[int, int]] = []
            other = []
            for kind, value in arg:
                if kind is sre.LITERAL:
                    spans.append((value, value))
                elif kind is sre.RANGE and value[1] - value[0] < 0x10000:
                    spans.append(value)
                else:
                    other.append((str(kind), str(value)))
            out.append(("IN", _merged(spans), tuple(sorted(other))))
        elif op is sre.LITERAL:
            out.append(("IN", ((arg, arg),), ()))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            out.append((str(op), arg[0], arg[1], _shape(arg[2])))
        elif op is sre.SUBPATTERN:
            out.append(("GROUP", _shape(arg[-1])))
        elif op is sre.BRANCH:
            out.append(("BRANCH", tuple(_shape(branch) for branch in arg[1])))
        else:
            out.append((str(op), str(arg)))
    return tuple(out)


def _merged(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The characters a class takes in as sorted, disjoint, non-adjacent ranges: one spelling per set, in
    space that grows with the pattern's text (a set of every character spent megabytes per `[\\x00-\\uffff]`)."""
    out: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        if out and low <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return tuple(out)


@predicate
def pattern_respelled(change: Change) -> bool:
    """Two spellings of one regular expression: the same structure, and character classes that take in the
    same characters (decidable only this far; anything else stays `schema.pattern-changed`)."""
    old, new = change.old, change.new
    if change.attribute != "pattern" or not isinstance(old, str) or not isinstance(new, str):
        return False
    shape = _pattern_shape(old)
    return shape is not None and shape == _pattern_shape(new)
