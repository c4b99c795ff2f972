"""What the two specs are and which policy judges them: decided once, from both graphs, for every later stage.

Two questions that must not be mixed. What the spec is (a Kubernetes API server's, CustomResourceDefinitions, a
plain OpenAPI document) is a fact about the server behind it: the objects a Kubernetes API server serves are read
into Go structs, where a missing field decodes to its zero value, so an added `default: 0` says nothing there; its
paths name group-versions; its built-in types keep their JSON forms across releases. Which compatibility policy
applies (`kubernetes` or `openapi`) is the user's
choice, defaulting to `kubernetes` when either spec carries any Kubernetes marker. The differ reads the first,
the rule cards the second, and every report's header names both with the evidence that decided them.
"""

from __future__ import annotations

from dataclasses import replace

from specdiff.frozen import record
from specdiff.graph.evidence import api_server
from specdiff.graph.model import SpecGraph, v3_document_of_path
from specdiff.graph.stability import DECLARED

#: what a spec can be, and how report headers name it
SPEC_NAMES = {"api-server": "Kubernetes API server", "crd": "CustomResourceDefinitions", "openapi": "OpenAPI"}


@record(frozen=True, slots=True)
class Ecosystem:
    """The ecosystem decision: `spec` is what the documents are (a key of SPEC_NAMES), `evidence` the markers
    that say so ("x-kubernetes-group-version-kind on 412 schemas", None when there are none), `builtin_types`
    whether both sides are an API server's own types (group-version-kind markers or `io.k8s.*` names, not merely
    `x-kubernetes-*` extensions); `policy` the compatibility policy in force and `configured` whether the user
    chose it (else it follows the evidence)."""

    spec: str
    evidence: str | None
    policy: str
    configured: bool = False
    builtin_types: bool = False

    @property
    def api_server(self) -> bool:
        """An OpenAPI document a Kubernetes API server publishes: its paths name group-versions, and the paths
        outside /api and /apis are its non-resource URLs."""
        return self.spec == "api-server"

    @property
    def kubernetes_served(self) -> bool:
        """Objects a Kubernetes API server stores and serves (its own types or custom resources), which clients
        read into Go structs: a field left out reads as its zero value."""
        return self.spec != "openapi"

    @property
    def schema_validates(self) -> bool:
        """The API server validates every write against the published schema itself: a CRD's schema is its
        validation. A built-in type's schema is generated from Go, and its validation lives in code, so a keyword
        appearing there (an enum) may only document a check the server always made."""
        return self.spec == "crd"

    @property
    def spec_label(self) -> str:
        """`Kubernetes API server (x-kubernetes-group-version-kind on 6 schemas)`, `OpenAPI (no Kubernetes markers)`."""
        return f"{SPEC_NAMES[self.spec]} ({self.evidence or 'no Kubernetes markers'})"

    @property
    def policy_reason(self) -> str:
        """Why this policy: the user's choice, or what the evidence made the default."""
        if self.configured:
            return "as configured"
        return "Kubernetes markers" if self.policy == "kubernetes" else "no Kubernetes markers"


#: an ecosystem for code that compares graphs outside a whole run (tests, tools): a plain OpenAPI pair
PLAIN = Ecosystem("openapi", None, "openapi")


def decide(old: SpecGraph, new: SpecGraph, policy: str = "auto") -> Ecosystem:
    """The one decision, from both graphs and the policy asked for (`auto`, `kubernetes` or `openapi`).

    CRDs on either side make a CRD comparison; any Kubernetes marker in either OpenAPI document (graph.evidence:
    group-version-kinds, `io.k8s.*` names, `x-kubernetes-*` extensions such as `x-kubernetes-action`) an API
    server's; none a plain OpenAPI one. The policy follows the same evidence unless the user chose one.
    """
    evidence = new.evidence or (f"{old.evidence} in the old spec" if old.evidence else None)
    spec = "crd" if old.crds or new.crds else "api-server" if evidence else "openapi"
    builtin = spec == "api-server" and api_server(old) and api_server(new)
    chosen = policy if policy != "auto" else "kubernetes" if evidence else "openapi"
    return Ecosystem(spec, evidence, chosen, configured=policy != "auto", builtin_types=builtin)


def as_served(graph: SpecGraph, ecosystem: Ecosystem) -> SpecGraph:
    """The graph as the server the ecosystem names reads its paths. Only a Kubernetes API server's paths name
    group-versions: elsewhere `/api/v1beta1/users` is no beta API, and a new `/api/v2/...` no API version to fold,
    so a plain spec's operations take their stability from their own markers alone."""
    if ecosystem.api_server or not any(op.group_version for op in graph.operations.values()):
        return graph
    operations = {key: replace(op, group_version=None, stability=DECLARED.get(op.declared_stability or "", "stable"))
                  if op.group_version else op for key, op in graph.operations.items()}
    return graph.with_operations(operations)


def described_alike(old: SpecGraph, new: SpecGraph) -> tuple[SpecGraph, SpecGraph]:
    """A whole-server document against a per-group v3 folder: the folder describes discovery (`/api/`,
    `/apis/apps/`) and non-resource URLs (`/version/`, `/logs/`) only in documents of their own, which folders
    often leave out. Such operations of the document, when the folder has no document for them, are not
    compared (a note says so); every operation of a group-version still is, so a group-version removed shows."""
    if bool(old.part_keys) == bool(new.part_keys):
        return old, new
    folder, whole = (old, new) if old.part_keys else (new, old)
    held = set(folder.part_keys.values())
    kept = {key: op for key, op in whole.operations.items()
            if op.group_version is not None or v3_document_of_path(op.path) in held}
    if len(kept) == len(whole.operations):
        return old, new
    left_out = sorted(op.label for key, op in whole.operations.items() if key not in kept)
    shown = ", ".join(left_out[:3]) + (f" and {len(left_out) - 3} more" if len(left_out) > 3 else "")
    note = (f"{len(left_out)} operations described in no document of the v3 folder {folder.document.name} "
            f"(discovery and non-resource URLs: {shown}) are not compared")
    references = whole.graph.copy()
    references.remove_nodes_from(("op", key) for key in whole.operations if key not in kept)
    trimmed = replace(whole.with_operations(kept), graph=references, notes=(*whole.notes, note))
    return (trimmed, new) if whole is old else (old, trimmed)
