"""Release-note sections, the API group/version/kind each finding belongs to, and its one-line wording.

Shared by release-notes and html (which groups the same way), and by the formats that print one sentence per
finding (github, sarif, junit).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from specdiff.classify.cards import UNCLASSIFIED, card
from specdiff.graph.model import METHODS, group_version_of_path
from specdiff.records import Finding, Level, Report

if TYPE_CHECKING:
    from specdiff.load.document import Document


def _declared(finding: Finding) -> str:
    """The section the finding's rule card declares (`section:`)."""
    found = card(finding.rule)
    return found.section if found is not None else "other"


#: The one table that sorts findings into release-note sections; the first row that matches wins.
#: Breaking comes first because it needs action whatever else it is; then the section the rule card
#: declares, where new features are the safe findings of cards in `features` (a dangerous addition is
#: another change); everything else is another change.
SECTIONS: tuple[tuple[str, str, Callable[[Finding], bool]], ...] = (
    ("breaking", "Breaking changes (action required)", lambda f: f.level is Level.BREAKING),
    ("deprecations", "Deprecations", lambda f: _declared(f) == "deprecations"),
    ("features", "New features", lambda f: f.level is Level.SAFE and _declared(f) == "features"),
    ("other", "Other changes", lambda f: True),
)


def section_of(finding: Finding) -> tuple[str, str]:
    """(key, title) of the release-note section a finding belongs in."""
    return next((key, title) for key, title, test in SECTIONS if test(finding))


@dataclass(frozen=True, order=True, slots=True)
class Subject:
    """What a finding is about, as a reader groups it: "frobs.example.com/v6" and "Frobber" for Kubernetes;
    a tag (or a path's first segment) and no kind for other APIs."""

    group: str
    kind: str = ""

    def title(self) -> str:
        return f"{self.group} {self.kind}".strip()


SHARED = "Shared types"  # schemas reached from several groups
GENERAL = "General"  # changes outside operations and schemas
_PARAMETER = re.compile(r"\{[^}]*\}$")
_PLAIN_WORD = re.compile(r"[a-z]+ ")  # a message that starts with a word, not a name: "operation ... removed"


class Subjects:
    """Finds each finding's subject from what the documents say about their operations.

    Kubernetes operations are keyed by group/version and resource (`/apis/G/V/namespaces/{ns}/frobbers/...`);
    a resource's kind is the kind its operations return (`x-kubernetes-group-version-kind` on the operation,
    else on the schema of the success response; a `FooList` names `Foo`). Other operations go under their
    first tag, else their path's first segment. A schema belongs where the operations that use it are.
    """

    def __init__(self, docs: Iterable[Document | None], kubernetes: bool = True) -> None:
        """`kubernetes`: whether the policy is Kubernetes; an ordinary API's `/api/v1/users` is no group/version."""
        self._kubernetes = kubernetes
        self._operations: dict[str, Subject] = {}
        kinds: dict[tuple[str, str], set[str]] = {}
        located: list[tuple[str, str, str]] = []  # (label, group_version, resource)
        for doc in _documents(docs):
            paths = doc.data.get("paths") if isinstance(doc.data, dict) else None
            for path, item in paths.items() if isinstance(paths, dict) else ():
                if not isinstance(item, dict):
                    continue
                gv, resource, own = _kubernetes_resource(str(path)) if kubernetes else (None, None, False)
                for method in METHODS:
                    operation = item.get(method)
                    if not isinstance(operation, dict):
                        continue
                    label = f"{method.upper()} {path}"
                    if gv:  # a Kubernetes path: its resource, or the group/version itself (discovery)
                        located.append((label, gv, resource or ""))
                        kind = _returned_kind(doc.data, operation) if resource and own else None
                        if resource and kind:
                            kinds.setdefault((gv, resource), set()).add(kind)
                    elif label not in self._operations:
                        self._operations[label] = Subject(_tag_or_segment(operation, str(path)))
        for label, gv, resource in located:
            found = _kind_of(kinds.get((gv, resource), set()))
            self._operations.setdefault(label, Subject(gv, found or resource))

    def of(self, finding: Finding) -> Subject:
        if finding.members:  # a group belongs where all its members do, else among the general changes
            places = {self.of(member) for member in finding.members}
            if len(places) == 1:
                return places.pop()
            groups = {p.group.rpartition("/")[0] for p in places}
            kinds = {p.kind for p in places}
            if len(groups) == 1 and len(kinds) == 1 and "" not in groups:  # one kind in several versions
                versions = ", ".join(sorted(p.group.rpartition("/")[2] for p in places))
                return Subject(f"{groups.pop()}/{{{versions}}}", kinds.pop())
            return Subject(GENERAL)
        ctx = finding.change.context
        if finding.change.node == "group-version" and ctx.group_version:
            return Subject(ctx.group_version)  # a whole API version, with every kind in it
        if ctx.gvk:
            group, _, kind = ctx.gvk.rpartition("/")
            return Subject(group, _kind_of({kind}) or kind)
        if ctx.operation:
            return self._operations.get(ctx.operation) or _from_label(ctx.operation, self._kubernetes)
        users = {self._operations.get(op) or _from_label(op, self._kubernetes) for op in finding.operations}
        if len(users) == 1:
            return users.pop()
        if ctx.schema and ctx.group_version:  # a Kubernetes type used by several kinds: its own group
            return Subject(ctx.group_version, ctx.schema.rsplit(".", 1)[-1])
        if ctx.schema:
            return Subject(SHARED, ctx.schema)
        return Subject(GENERAL)


def grouped(report: Report, subjects: Subjects) -> list[tuple[str, str, list[tuple[Subject, list[Finding]]]]]:
    """[(section key, section title, [(subject, findings)])], sections in table order, subjects sorted,
    findings in report order; empty sections are left out."""
    out = []
    for key, title, _ in SECTIONS:
        chosen = [f for f in report.findings if section_of(f)[0] == key]
        if not chosen:
            continue
        by_subject: dict[Subject, list[Finding]] = {}
        for finding in chosen:
            by_subject.setdefault(subjects.of(finding), []).append(finding)
        out.append((key, title, sorted(by_subject.items(), key=lambda item: _subject_order(item[0]))))
    return out


def sentence(finding: Finding, escape: Callable[[str], str] = str) -> str:
    """The finding's message, led by its location when the message does not name it, each part passed through
    `escape` (a format's own); a group's message names its places itself."""
    message, label = finding.message, finding.change.context.label()
    if label and not finding.members and label not in message:
        return f"{escape(label)}: {escape(message)}"
    if _PLAIN_WORD.match(message):
        message = message[:1].upper() + message[1:]
    return escape(message)


def reason(finding: Finding) -> str:
    """The reason as a sentence: "allowed in alpha: ..." starts with a capital like the others."""
    text = finding.reason
    return text[:1].upper() + text[1:] if _PLAIN_WORD.match(text) and not text.startswith("specdiff") else text


def is_unclassified(finding: Finding) -> bool:
    return finding.rule == UNCLASSIFIED


def _subject_order(subject: Subject) -> tuple[int, str, str]:
    return (subject.group in (SHARED, GENERAL), subject.group, subject.kind)


def _documents(docs: Iterable[Document | None]) -> list[Document]:
    """The new document first (its words win), with the parts of directory inputs."""
    found = []
    for doc in docs:
        if doc is not None:
            found += [part for _, part in doc.parts] if doc.parts else [doc]
    return found


def _kubernetes_resource(path: str) -> tuple[str | None, str | None, bool]:
    """(group/version, resource, whether the path is the resource itself rather than a subresource)."""
    gv = group_version_of_path(path)
    if gv is None:
        return None, None, False
    parts = path.strip("/").split("/")[2 if path.startswith("/api/") else 3:]  # after /api/V or /apis/G/V
    if parts[:1] == ["watch"]:
        parts = parts[1:]
    if parts[:1] == ["namespaces"] and len(parts) >= 3:
        parts = parts[2:]
    if not parts or _PARAMETER.match(parts[0]):
        return gv, None, False
    rest = parts[1:]
    return gv, parts[0], not rest or (len(rest) == 1 and bool(_PARAMETER.match(rest[0])))


def _returned_kind(data: dict[str, Any], operation: dict[str, Any]) -> str | None:
    gvk = operation.get("x-kubernetes-group-version-kind")
    if isinstance(gvk, dict) and isinstance(gvk.get("kind"), str):
        return str(gvk["kind"])
    responses = operation.get("responses")
    for status, response in sorted((responses or {}).items()) if isinstance(responses, dict) else ():
        if not str(status).startswith("2") or not isinstance(response, dict):
            continue
        content = response.get("content")
        media = content.values() if isinstance(content, dict) else ()
        schemas = [response.get("schema")] + [m.get("schema") for m in media if isinstance(m, dict)]
        for schema in schemas:
            kind = _schema_kind(data, schema)
            if kind:
                return kind
    return None


def _schema_kind(data: dict[str, Any], schema: Any) -> str | None:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    target: Any = data
    for token in ref[2:].split("/"):
        target = target.get(token.replace("~1", "/").replace("~0", "~")) if isinstance(target, dict) else None
    gvks = target.get("x-kubernetes-group-version-kind") if isinstance(target, dict) else None
    if isinstance(gvks, list) and gvks and isinstance(gvks[0], dict) and isinstance(gvks[0].get("kind"), str):
        return str(gvks[0]["kind"])
    return None


def _kind_of(kinds: set[str]) -> str | None:
    """The one kind a resource serves: lists name their items' kind (FrobberList -> Frobber)."""
    names = {k[: -len("List")] if k.endswith("List") and len(k) > 4 else k for k in kinds}
    return names.pop() if len(names) == 1 else None


def _tag_or_segment(operation: dict[str, Any], path: str) -> str:
    tags = operation.get("tags")
    if isinstance(tags, list) and tags and isinstance(tags[0], str) and tags[0].strip():
        return tags[0]
    first = path.strip("/").split("/", 1)[0]
    return f"/{first}"


def _from_label(label: str, kubernetes: bool = True) -> Subject:
    """A subject for an operation the documents do not show (a removed one is in the old document, so this is
    rare): its Kubernetes group/version and resource, else its path's first segment."""
    _, _, path = label.partition(" ")
    gv, resource, _ = _kubernetes_resource(path) if kubernetes else (None, None, False)
    if gv:
        return Subject(gv, resource or "")
    return Subject("/" + path.strip("/").split("/", 1)[0])
