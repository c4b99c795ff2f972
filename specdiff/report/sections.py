"""Release-note sections, the API group/version/kind each finding belongs to, and its one-line wording.

Shared by release-notes and html (which groups the same way), and by the formats that print one sentence per
finding (github, sarif, junit).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from specdiff.frozen import record
from specdiff.graph.subjects import kind_of
from specdiff.notation import finding_name, finding_scope
from specdiff.records import UNCLASSIFIED, Context, Finding, Level, Report


def _declared(finding: Finding) -> str:
    """The section the finding's rule card declares (`section:`), as classify gave it to the finding."""
    return finding.rule_info.section


#: The one table that sorts findings into release-note sections; the first row that matches wins.
#: Breaking comes first because it needs action whatever else it is; then the section the rule card
#: declares, where new features are the safe findings of cards in `features` (a dangerous addition is
#: another change); everything else is another change.
SECTIONS: tuple[tuple[str, str, Callable[[Finding], bool]], ...] = (
    ("breaking", "Breaking changes (action required)", lambda f: f.level is Level.BREAKING),
    ("deprecations", "Deprecations", lambda f: _declared(f) == "deprecations"),
    ("features", "New features", lambda f: f.level is Level.SAFE and _declared(f) == "features"),
    ("corrections", "Documentation corrections", lambda f: f.level is Level.SAFE and _declared(f) == "corrections"),
    ("other", "Other changes", lambda f: True),
)


def section_of(finding: Finding) -> tuple[str, str]:
    """(key, title) of the release-note section a finding belongs in."""
    return next((key, title) for key, title, test in SECTIONS if test(finding))


@record(frozen=True, order=True, slots=True)
class Subject:
    """What a finding is about, as a reader groups it: "frobs.example.com/v6" and "Frobber" for Kubernetes;
    a tag (or a path's first segment) and no kind for other APIs."""

    group: str
    kind: str = ""
    shared: bool = False  # a Kubernetes type used by several kinds, headed by its own group-version

    def title(self) -> str:
        return f"{self.group} {self.kind}".strip()


SHARED = "Shared types"  # schemas reached from several groups
GENERAL = "General"  # changes outside operations and schemas
#: a message that starts with a word, not a name (`x-label` is one): "operation ... removed"
_PLAIN_WORD = re.compile(r"(?!x-)[a-z][a-z-]* ")


def subject_of(finding: Finding) -> Subject:
    """What a finding is about, from its context: the group-version, resource and kind the graph gave it
    (specdiff/graph/subjects.py); a schema belongs where the operations that use it are."""
    if finding.members:  # a group belongs where all its places do, else among the general changes
        places = {subject_of(member) for member in finding.members if member.rule == finding.rule}  # (not the
        # types that joined the field or resource using them)
        if len(places) == 1:
            return places.pop()
        groups = {p.group.rpartition("/")[0] for p in places}
        kinds = {p.kind for p in places}
        if len(groups) == 1 and len(kinds) == 1 and "" not in groups:  # one kind in several versions
            versions = ", ".join(sorted(p.group.rpartition("/")[2] for p in places))
            return Subject(f"{groups.pop()}/{{{versions}}}", kinds.pop(), all(p.shared for p in places))
        return Subject(GENERAL)
    ctx = finding.change.context
    if finding.change.node == "group-version" and ctx.group_version:
        return Subject(ctx.group_version)  # a whole API version, with every kind in it
    if ctx.gvk:
        group, _, kind = ctx.gvk.rpartition("/")
        return Subject(group, kind_of({kind}) or kind)
    if ctx.operation or ctx.resource or ctx.kind:
        return _about(ctx)
    if ctx.schema and ctx.group_version:  # a Kubernetes type used by several kinds: its own group
        return Subject(ctx.group_version, ctx.schema.rsplit(".", 1)[-1], shared=True)
    if ctx.schema:
        return Subject(SHARED, ctx.schema)
    return Subject(GENERAL)


def _about(ctx: Context) -> Subject:
    """A kind under its group-version; a Kubernetes resource of no known kind under its group-version, by name;
    another API's operations under their tag."""
    if ctx.kind:
        group_version, _, kind = ctx.kind.rpartition("/")
        return Subject(group_version, kind)
    if ctx.group_version:
        return Subject(ctx.group_version, (ctx.resource or "").partition("/")[0])
    return Subject(ctx.resource or GENERAL)


def grouped(report: Report) -> list[tuple[str, str, list[tuple[Subject, list[Finding]]]]]:
    """[(section key, section title, [(subject, findings)])], sections in table order, subjects sorted,
    findings in report order; empty sections are left out."""
    out = []
    for key, title, _ in SECTIONS:
        chosen = [f for f in report.findings if section_of(f)[0] == key]
        if not chosen:
            continue
        by_subject: dict[Subject, list[Finding]] = {}
        for finding in chosen:
            by_subject.setdefault(subject_of(finding), []).append(finding)
        out.append((key, title, sorted(by_subject.items(), key=lambda item: _subject_order(item[0]))))
    return out


def sentence(finding: Finding, escape: Callable[[str], str] = str, scoped: bool = True) -> str:
    """The finding's message, led by its place when the message does not name it, and (`scoped`, for a format
    without a heading that gives it) by its group-version: `core/v1: PodSpec.workloadRef became optional`.
    Each part goes through `escape` (a format's own); a group's message names its operations itself, and the
    place its members share unless the message does."""
    ctx, message = finding.change.context, finding.message
    shared = {finding_name(m) for m in finding.members} or {finding_name(finding)}
    place = shared.pop() if len(shared) == 1 and not (finding.members and ctx.operation) else ""
    if place and ((ctx.operation if not finding.members else None) or place) not in message:
        text = f"{escape(place)}: {escape(message)}"
    else:
        plain = _PLAIN_WORD.match(message) and not (place and message.startswith(place))  # names keep their case
        text = escape(message[:1].upper() + message[1:] if plain else message)
    scope = finding_scope(finding) if scoped else ""
    return f"{escape(scope)}: {text}" if scope else text


def reason(finding: Finding) -> str:
    """The reason as a sentence: "allowed in alpha, not compatible: ..." starts with a capital like the others."""
    text = finding.reason
    return text[:1].upper() + text[1:] if _PLAIN_WORD.match(text) and not text.startswith("specdiff") else text


def headed(subject: Subject) -> bool:
    """Whether a subject's heading gives the group-version of what is under it (shared and general ones do not)."""
    return subject.group not in (SHARED, GENERAL)


def is_unclassified(finding: Finding) -> bool:
    return finding.rule == UNCLASSIFIED


def _subject_order(subject: Subject) -> tuple[int, str, str]:
    return (subject.group in (SHARED, GENERAL), subject.group, subject.kind)
