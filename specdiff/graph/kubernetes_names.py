"""How Kubernetes names its types: the group/version/kinds a schema or operation declares, and the short name
by which a v3 document (`core.v1.ConfigMap`) meets a v2 one (`io.k8s.api.core.v1.ConfigMap`). One module, so every
stage that needs a name asks it instead of parsing names again."""

from __future__ import annotations

from typing import Any

from specdiff.graph.stability import is_version

GVK = "x-kubernetes-group-version-kind"


def declared_gvks(node: dict[str, Any]) -> list[tuple[str, str]]:
    """[("group/version", "Kind")] from x-kubernetes-group-version-kind; the core group is called `core`."""
    listed = node.get(GVK)
    if isinstance(listed, dict):
        listed = [listed]
    if not isinstance(listed, list):
        return []
    return [(_group_version(item), str(item.get("kind"))) for item in listed if isinstance(item, dict)]


def _group_version(item: dict[str, Any]) -> str:
    return f"{item.get('group') or 'core'}/{item.get('version')}"


def group_version_kinds(node: dict[str, Any]) -> list[str]:
    """["core/v1/Pod"]: what `x-kubernetes-group-version-kind` on a schema or an operation names."""
    return [f"{gv}/{kind}" for gv, kind in declared_gvks(node)]


def first_kind(node: dict[str, Any]) -> str | None:
    """The first of `group_version_kinds`, read straight where one is named, as Kubernetes writes it on each of
    its operations (the list of every one is made for each of thousands of operations otherwise)."""
    listed = node.get(GVK)
    if isinstance(listed, dict):
        return f"{_group_version(listed)}/{listed.get('kind')}"
    return next(iter(group_version_kinds(node)), None) if listed is not None else None


def short_name(name: str) -> str | None:
    """`io.k8s.api.core.v1.ConfigMap` -> `core.v1.ConfigMap`: the segment before the version, the version, the rest."""
    parts = name.split(".")
    for i in range(len(parts) - 2, 0, -1):
        if is_version(parts[i]):
            return ".".join(parts[i - 1:])
    return None
