"""How a report names a place, in the notation of its ecosystem; the one place that decides it.

- Kubernetes and CRD schemas: the kind, then the field path from it, when one kind's fields reach the type
  (`PodDisruptionBudget.status.currentHealthy`, `HTTPRoute.spec.rules[].filters`), and so a change to the type
  itself too (`Ingress.spec.defaultBackend.service.port becomes atomic`), though not its addition or removal;
  the Go type name, then the field path, with the kinds that use it, when several do (`RoleRef.apiGroup (used
  by 2 kinds: ClusterRoleBinding, RoleBinding)`) or none (`PodSpec.workloadRef`). The group-version (the
  kind's) is the scope, given once by a heading or before the name where a format has none (`core/v1
  PodSpec.workloadRef`).
- OpenAPI operations: the operation, then the part of it and the field path after a colon
  (`POST /pets request body: name`, `GET /pets response 200: items[].id`, `GET /pets query parameter limit`).
- OpenAPI named schemas: the schema's name, then the field path (`Pet.name`).

The full names stay on the context (and in the JSON report's location), so nothing is lost for machines; only
what a person reads is shortened.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from specdiff.graph.stability import is_version
from specdiff.patterns import compiled
from specdiff.records import Context, Finding, field_path, part_text

if TYPE_CHECKING:
    from specdiff.graph.kind_paths import Holders


def _inside(ctx: Context) -> str:
    """The field path inside a body or a response header, without its leading dot; "" for the part itself or a
    parameter (whose field path is written on, `query parameter filter.name`)."""
    if ctx.part is None or ctx.part.kind == "parameter":
        return ""
    rest = "".join(ctx.field)
    return rest[1:] if rest.startswith(".") else rest


def name(ctx: Context) -> str:
    """The place without its scope: what a message names, once."""
    return _name(ctx, ctx.held_by) + used_by(ctx)


def finding_name(finding: Finding) -> str:
    """`name` of the finding's place, as classify worked it out (`Finding.place`), else worked out now."""
    return finding.place or name(finding.change.context)


def bare(ctx: Context) -> str:
    """The place without its scope or the kinds that use its type: what a code span shows of it."""
    return _name(ctx, ctx.held_by)


def _name(ctx: Context, held: Holders) -> str:
    """The place named from the one kind in `held` that reaches it, else by its type."""
    operation = ctx.operation
    if operation:
        inside = _inside(ctx)
        if inside and ctx.part is not None:
            return f"{operation} {part_text(ctx.part)}: {inside}"
        path = field_path(ctx)
        return f"{operation} {path.strip()}" if path else operation
    path = field_path(ctx) or ""
    if _from_kind(ctx, held):
        gvk, steps = held[0]
        head, path = gvk.rpartition("/")[2], "".join(steps) + path
    else:
        head = type_name(ctx) or ctx.document or ctx.group_version or ""
    if path and head and path[:1].isalnum():
        return f"{head} {path}"
    return head + path


def used_by(ctx: Context) -> str:
    """` (used by 9 kinds: CronJob, DaemonSet, Deployment, ...)` for a type several kinds use (a kind is counted
    once however many group-versions serve it), ` (used by ResourceSlice in 3 group-versions)` for one kind's
    versions; "" for a type one kind or none uses."""
    held = ctx.held_by
    if len(held) < 2 or ctx.operation:
        return ""
    kinds = distinct(gvk.rpartition("/")[2] for gvk, _ in held)
    if len(kinds) == 1:
        return f" (used by {kinds[0]} in {len(held)} group-versions)"
    more = ", ..." if len(kinds) > _LISTED else ""
    return f" (used by {len(kinds)} kinds: {', '.join(kinds[:_LISTED])}{more})"


#: how many of the kinds using a type its name lists
_LISTED = 3


def scope(ctx: Context) -> str:
    """The group-version a Kubernetes type belongs to, which its short name leaves out (the kind's, when the place
    is named from its kind); "" elsewhere (an operation's path carries its own version, and OpenAPI names are
    written whole)."""
    if _from_kind(ctx, ctx.held_by):
        return ctx.held_by[0][0].rpartition("/")[0]
    return _type_scope(ctx)


def _from_kind(ctx: Context, held: Holders) -> bool:
    """Whether a place is named from the one kind that reaches its type: a field of the type, or the type where
    that kind holds it (`Ingress.spec.defaultBackend.service.port becomes atomic`), but not the type's own
    addition or removal (`Schema ImageVolumeStatus added` names a type; its place in `Pod` is a field, reported
    on its own)."""
    return len(held) == 1 and not ctx.operation and not ctx.whole_type


def _type_scope(ctx: Context) -> str:
    return ctx.group_version or "" if ctx.schema and not ctx.operation and _short(ctx) else ""


def part(ctx: Context) -> str:
    """The place inside its operation, for a message that names several operations: `name of the request body`,
    `items[].id of response 200`, `query parameter limit`."""
    if not ctx.operation:
        return name(ctx)
    inside = _inside(ctx)
    if not inside or ctx.part is None:
        return (field_path(ctx) or "").strip()
    return f"{inside} of {'the ' if ctx.part.kind == 'request body' else ''}{part_text(ctx.part)}"


def where(ctx: Context) -> str:
    """The place with its scope, for formats without a heading that gives it: `core/v1 PodSpec.workloadRef`."""
    return f"{scope(ctx)} {name(ctx)}".strip()


def type_where(ctx: Context) -> str:
    """The place by its type, as versions before the kind notation wrote it (`policy/v1
    PodDisruptionBudgetStatus.currentHealthy`): what baseline comments keep, what scoped ignores written then
    name, and how a group picks the member earlier versions showed it at (specdiff/group.py)."""
    return f"{_type_scope(ctx)} {by_type(ctx)}".strip()


def long_where(ctx: Context) -> str:
    """The place with full names, as versions before the short notation wrote it (`io.k8s.api.core.v1.PodSpec
    .workloadRef`, `GET /pets response 200.items[].id`): what scoped ignores written then name."""
    head = ctx.operation or ctx.schema or ctx.document or ctx.group_version or ""
    path = field_path(ctx)
    return f"{head} {path}".strip() if path else head


def by_type(ctx: Context) -> str:
    """The place without its scope by its type, not its kind (`DeviceAttribute.bools`): what one type's versions,
    reached by different paths from their kinds, share."""
    return _name(ctx, ())


def outline(ctx: Context) -> str:
    """The place at a glance, for a table's where column beside a message that names it in full: the scope of a
    Kubernetes type (`core/v1`); a Kubernetes resource's operation by group-version and resource (`apps/v1
    deployments/scale`); any other operation as it is written (`POST /pets`); a whole CRD by its kind
    (`HTTPRoute`); a schema by its name; a group-version or document by itself; a place known only by its
    path (`security scheme oauth`) by that."""
    if scope(ctx):
        return scope(ctx)
    if ctx.operation:
        return f"{ctx.group_version} {ctx.resource}" if ctx.group_version and ctx.resource else ctx.operation
    if ctx.kind and not ctx.schema:
        return ctx.kind.rpartition("/")[2]
    return type_name(ctx) or ctx.group_version or ctx.document or (field_path(ctx) or "").strip()


def beside(text: str, ctx: Context) -> str:
    """`text` for a reader who sees the place's outline beside it (a table's where column) when that outline is
    the operation, so the row names the operation once: "Query parameter limit of GET /pets became required"
    -> "Query parameter limit became required", "Pattern of GET /pets query parameter q loosened" -> "Pattern
    of query parameter q loosened"."""
    operation = ctx.operation
    if not operation or outline(ctx) != operation:
        return text
    located = name(ctx)
    if located != operation and located in text:  # the part inside the operation stays
        shorter = text.replace(located, located[len(operation):].strip(), 1)
    else:
        shorter = _operation_named(operation).sub("", text, count=1).strip()
    if shorter == text or not shorter or operation in shorter:
        return text
    return shorter[:1].upper() + shorter[1:] if compiled(_PLAIN_WORD).match(shorter) else shorter


def _operation_named(operation: str) -> re.Pattern[str]:
    """The operation as a message names it: leading (`GET /pets no longer answers 202`, `GET /pets: ...`),
    after a preposition (`... of GET /pets`) or after the word Operation."""
    return re.compile(rf"(?:^|\s(?:of|to|from|by|in)\s|(?<=^Operation)\s){re.escape(operation)}:?(?=\s|$)")


#: a text that starts with a plain word (not a name such as `application/json` or `operationId`)
_PLAIN_WORD = r"[a-z][a-z-]* "


def type_name(ctx: Context) -> str:
    """A Kubernetes type by its kind (`io.k8s.api.core.v1.PodSpec` -> `PodSpec`, a CRD version's schema
    `httproutes.gateway.networking.k8s.io/v1` -> `HTTPRoute`), or by package and name when it has no version
    (`io.k8s.apimachinery.pkg.api.resource.Quantity` -> `resource.Quantity`); any other schema by its whole name."""
    if not ctx.schema:
        return ""
    if not ctx.group_version and ctx.schema.startswith("io.k8s."):  # unversioned: as Go names it, `intstr.IntOrString`
        return ".".join(ctx.schema.rsplit(".", 2)[-2:])
    if not _short(ctx):
        return ctx.schema
    if "/" in ctx.schema and ctx.gvk:  # a CRD version: named by plural.group/version, known by its kind
        return ctx.gvk.rpartition("/")[2]
    return ctx.schema.rpartition(".")[2]


def kinds(old: str, new: str) -> tuple[str, str]:
    """Two Kubernetes definitions a change swaps (a field that now refers to another type) by their kinds, when
    the kinds tell them apart (`TypedObjectReference` instead of `TypedLocalObjectReference`); full names when
    only the version differs (`io.k8s.api.policy.v1.Eviction` instead of `io.k8s.api.policy.v1beta1.Eviction`)."""
    if old.startswith("io.k8s.") and new.startswith("io.k8s."):
        old_kind, new_kind = old.rpartition(".")[2], new.rpartition(".")[2]
        if old_kind != new_kind:
            return old_kind, new_kind
    return old, new


def _short(ctx: Context) -> bool:
    """Whether the schema has a Kubernetes name that the short notation may cut to its kind."""
    return bool(ctx.group_version and ctx.schema and (ctx.gvk or "." in ctx.schema))


def finding_scope(finding: Finding) -> str:
    """The scope of a finding; a group's members' scopes folded into one (`resource.k8s.io/{v1, v1beta2}`), or ""
    when they span several groups (its message then names its places itself)."""
    if not finding.members:
        return scope(finding.change.context)
    return folded(distinct(scope(member.change.context) for member in finding.members))


def folded(scopes: Sequence[str]) -> str:
    """Group-versions of one group written once: `apps/{v1, v1beta2}`; "" for several groups or none."""
    if len(scopes) <= 1:
        return scopes[0] if scopes else ""
    groups = {s.rpartition("/")[0] for s in scopes}
    versions = [s.rpartition("/")[2] for s in scopes]
    if len(groups) != 1 or not all(is_version(v) for v in versions):
        return ""
    return f"{groups.pop()}/{{{', '.join(versions)}}}"


def distinct(items: Iterable[str | None]) -> list[str]:
    """The items that are set, each once, in order."""
    return list(dict.fromkeys(item for item in items if item))


#: words a message may put before the place it names that are no noun to make plural ("type of {location}")
PREPOSITIONS = frozenset({"of", "to", "in", "on", "for", "from", "at", "by", "with"})


def plural(noun: str) -> str:
    """The plural of the nouns messages name places with (property, parameter, schema, status, key)."""
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith("s") else "s")
