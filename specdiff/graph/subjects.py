"""What each operation is about, as a reader groups it: its Kubernetes group/version and kind, else its tag.

The graph stage reads this from the documents so the report layer never has to: a Kubernetes resource's kind
is the kind its operations return (`x-kubernetes-group-version-kind` on the operation, else on the schema of
the success response; a `FooList` names `Foo`); other operations go under their first tag, else their path's
first segment.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from specdiff.graph.model import METHODS, group_version_of_path
from specdiff.load.document import Document

_PARAMETER = re.compile(r"\{[^}]*\}$")


def operation_subjects(docs: Iterable[Document | None], kubernetes: bool) -> tuple[tuple[str, str, str], ...]:
    """(operation label, group, kind) for every operation, sorted by label; the first document's words win.
    `kubernetes`: whether the policy is Kubernetes; an ordinary API's `/api/v1/users` is no group/version."""
    subjects: dict[str, tuple[str, str]] = {}
    kinds: dict[tuple[str, str], set[str]] = {}
    located: list[tuple[str, str, str]] = []  # (label, group_version, resource)
    for doc in _documents(docs):
        paths = doc.data.get("paths") if isinstance(doc.data, dict) else None
        for path, item in paths.items() if isinstance(paths, dict) else ():
            if not isinstance(item, dict):
                continue
            gv, resource, own = kubernetes_resource(str(path)) if kubernetes else (None, None, False)
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
                elif label not in subjects:
                    subjects[label] = (_tag_or_segment(operation, str(path)), "")
    for label, gv, resource in located:
        found = kind_of(kinds.get((gv, resource), set()))
        subjects.setdefault(label, (gv, found or resource))
    return tuple((label, *subject) for label, subject in sorted(subjects.items()))


def _documents(docs: Iterable[Document | None]) -> list[Document]:
    """The new document first (its words win), with the parts of directory inputs."""
    found = []
    for doc in docs:
        if doc is not None:
            found += [part for _, part in doc.parts] if doc.parts else [doc]
    return found


def kubernetes_resource(path: str) -> tuple[str | None, str | None, bool]:
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


def kind_of(kinds: set[str]) -> str | None:
    """The one kind a resource serves: lists name their items' kind (FrobberList -> Frobber)."""
    names = {k[: -len("List")] if k.endswith("List") and len(k) > 4 else k for k in kinds}
    return names.pop() if len(names) == 1 else None


def _tag_or_segment(operation: dict[str, Any], path: str) -> str:
    tags = operation.get("tags")
    if isinstance(tags, list) and tags and isinstance(tags[0], str) and tags[0].strip():
        return tags[0]
    first = path.strip("/").split("/", 1)[0]
    return f"/{first}"
