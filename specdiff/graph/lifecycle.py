"""Field lifecycle (KEP-2558): the `x-kubernetes-api-lifecycle` marker on schemas and fields.

The marker maps a component to `{minVersion, status, featureGate}`; for built-in types the component is always
`kubernetes`. A field without a marker is stable. Its status caps the stability of everything inside the field the
way an alpha API version does, so changes inside an alpha field are judged as alpha changes (graph/stability.py).
"""

from __future__ import annotations

from typing import Any

from specdiff.frozen import record
from specdiff.patterns import compiled

Schema = dict[str, Any]

LIFECYCLE = "x-kubernetes-api-lifecycle"
COMPONENT = "kubernetes"
STATUSES = ("alpha", "beta", "deprecated")
#: digits bounded: a release number is small, and a longer one would not even convert to an int
MIN_VERSION = r"^v[1-9][0-9]{0,5}\.(0|[1-9][0-9]{0,5})$"


@record(frozen=True)
class Lifecycle:
    """What the `kubernetes` entry of a marker says; each part is None when it is missing or malformed."""

    status: str | None  # alpha | beta | deprecated | stable (no marker at all)
    min_version: str | None
    feature_gate: str | None


STABLE = Lifecycle("stable", None, None)


def lifecycle_of(schema: Schema) -> Lifecycle:
    """The `kubernetes` lifecycle of a schema or field: stable when it carries no marker for that component."""
    marker = schema.get(LIFECYCLE)
    if marker is None:
        return STABLE
    entry = marker.get(COMPONENT) if isinstance(marker, dict) else None
    if entry is None and isinstance(marker, dict):
        return STABLE  # only other components speak: for Kubernetes the field is stable
    if not isinstance(entry, dict):
        return Lifecycle(None, None, None)
    status, version, gate = entry.get("status"), entry.get("minVersion"), entry.get("featureGate")
    return Lifecycle(status if status in STATUSES else None,
                     version if isinstance(version, str) and compiled(MIN_VERSION).match(version) else None,
                     gate if isinstance(gate, str) and gate else None)


def marker_problems(marker: Any, builtin: bool) -> list[str]:
    """How a marker breaks KEP-2558's constraints; empty when it is valid."""
    if not isinstance(marker, dict) or not marker:
        return ["the marker must map a component to {minVersion, status, featureGate}"]
    problems = []
    for component, entry in sorted(marker.items(), key=lambda item: str(item[0])):
        if not isinstance(entry, dict):
            problems.append(f"component {component} must map to {{minVersion, status, featureGate}}")
        elif component != COMPONENT:
            if builtin:
                problems.append(f"component {component} is not allowed on built-in types (only {COMPONENT})")
        else:
            problems += _entry_problems(entry)
    return problems


def _entry_problems(entry: dict[str, Any]) -> list[str]:
    problems = []
    version = entry.get("minVersion")
    if not (isinstance(version, str) and compiled(MIN_VERSION).match(version)):
        problems.append(f"minVersion {version!r} is not a Kubernetes release such as v1.30")
    if entry.get("status") not in STATUSES:
        problems.append(f"status {entry.get('status')!r} is not one of {', '.join(STATUSES)}")
    gate = entry.get("featureGate")
    if not (isinstance(gate, str) and gate.strip()):
        problems.append("featureGate is missing or empty")
    return problems


def version_key(version: str | None) -> tuple[int, int] | None:
    """`v1.30` -> (1, 30), for ordering minVersions; None when it is not a valid minVersion."""
    if version is None or not compiled(MIN_VERSION).match(version):
        return None
    major, minor = version[1:].split(".")
    return int(major), int(minor)
