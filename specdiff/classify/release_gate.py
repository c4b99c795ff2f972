"""The release gate (`--check-version`): does the version a release declares match what its changes need?

- OpenAPI: `info.version` read as a semantic version. A breaking finding needs a major bump (a minor one below
  1.0, where semver lets minor releases break); a non-breaking addition needs a minor bump; anything else any
  bump at all. A version that is no semantic version cannot be checked, and says so.
- Kubernetes: the version is the group-version. A breaking change inside a served beta or GA group-version
  needs a new API version (the deprecation policy: `v1beta1` to `v1beta2`, never `v1beta1` changed in place);
  the removal or addition of a whole version is the versioning itself, and alpha may change.

The gate emits `release` changes for the rule cards (rules/release/) to classify, so its verdicts, reasons and
messages are cards like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from specdiff.diff.vocabulary import Where, change
from specdiff.records import Change, Context, Finding, Level

#: semver 2.0.0, with the leading `v` that tags often carry
_SEMVER = re.compile(r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$",
                     re.ASCII)
BUMPS = ("none", "patch", "minor", "major")
#: nodes whose change is the versioning itself: a group-version or CRD version added, removed, (un)served
_VERSIONING = ("group-version", "crd", "crd-version", "release", "info")
_POINTER = "/info/version"
_ZERO = (1, "0")


def gate(findings: Sequence[Finding], policy: str, old_version: str | None, new_version: str | None,
         served: Callable[[str], bool]) -> list[Change]:
    """The `release` changes the findings call for: none when the declared versions suffice.

    `served(group_version)` says whether the old spec serves a group-version (a CRD version may be listed and
    no longer served)."""
    if policy == "kubernetes":
        return _api_versions(findings, served)
    required, because = needed(findings)
    if required == "none":
        return []
    where = Where(Context(), "both")
    old, new = semver(old_version), semver(new_version)
    if old is None or new is None:
        value = new_version if old is not None else old_version
        return [change("modified", "release", "version-format", where=where, old=old_version, new=new_version,
                       old_pointer=_POINTER, new_pointer=_POINTER, value=str(value) if value is not None else "",
                       required=required, because=because)]
    declared = declared_bump(old, new)
    enough = BUMPS.index(declared) >= BUMPS.index(required) or (
        old[0] == _ZERO and required == "major" and declared == "minor")
    if enough:
        return []
    return [change("modified", "release", "version", where=where, old=old_version, new=new_version,
                   old_pointer=_POINTER, new_pointer=_POINTER,
                   required="minor" if old[0] == _ZERO and required == "major" else required,
                   declared=_DECLARED[declared], because=because)]


#: what a declared bump is, in the words of the rule's message: a version that did not go up is no release
_DECLARED = {"major": "a major release", "minor": "a minor release", "patch": "a patch release",
             "none": "not a higher version"}


def needed(findings: Sequence[Finding]) -> tuple[str, str]:
    """The smallest bump the findings allow, and the first finding that asks for it, as a reason."""
    counted = [f for f in findings if f.change.node not in ("release", "info")]
    for required, chosen in (("major", [f for f in counted if f.level is Level.BREAKING]),
                             ("minor", [f for f in counted if f.change.kind == "added"]),
                             ("patch", counted)):
        if chosen:
            more = f" and {len(chosen) - 1} more" if len(chosen) > 1 else ""
            return required, f"{chosen[0].message}{more}"
    return "none", ""


#: a version number as it compares: by its count of digits, then digit by digit (semver writes no leading zero), so
#: a number of any length compares in time linear in it, without the conversion to int that Python refuses past
#: 4,300 digits
Number = tuple[int, str]
Semver = tuple[Number, Number, Number]


def declared_bump(old: Semver, new: Semver) -> str:
    if new[0] > old[0]:
        return "major"
    if new[0] == old[0] and new[1] > old[1]:
        return "minor"
    if new[:2] == old[:2] and new[2] > old[2]:
        return "patch"
    return "none"


def semver(version: str | None) -> Semver | None:
    found = _SEMVER.match(version.strip()) if isinstance(version, str) else None
    if not found:
        return None
    major, minor, patch = ((len(digits), digits) for digits in found.groups()[:3])
    return major, minor, patch


def _versioning(found: Change) -> bool:
    """Whether a change is the versioning itself: a group-version or CRD version added, removed or (un)served,
    or a resource (its operations, its type) removed from a group-version under the deprecation policy."""
    whole = found.kind == "removed" and found.attribute == "" and found.node in ("operation", "schema")
    return whole or found.node in _VERSIONING


def _api_versions(findings: Sequence[Finding], served: Callable[[str], bool]) -> list[Change]:
    """One change per served beta or GA group-version that a breaking finding changes in place."""
    inside: dict[str, list[Finding]] = {}
    for finding in findings:
        for member in finding.members or (finding,):
            ctx = member.change.context
            if (member.level is Level.BREAKING and ctx.group_version and ctx.stability in ("beta", "stable")
                    and not _versioning(member.change) and served(ctx.group_version)):
                inside.setdefault(ctx.group_version, []).append(member)
    changes = []
    for group_version in sorted(inside):
        found = sorted(inside[group_version], key=Finding.sort_key)
        first = found[0]
        more = f" and {len(found) - 1} more" if len(found) > 1 else ""
        where = Where(Context(group_version=group_version, stability=first.change.context.stability), "both")
        changes.append(change("modified", "release", "api-version", where=where, old=group_version,
                              new=group_version, old_pointer=first.change.old_pointer,
                              new_pointer=first.change.new_pointer, because=f"{first.message}{more}"))
    return changes
