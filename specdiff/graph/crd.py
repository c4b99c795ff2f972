"""CustomResourceDefinitions as a SpecGraph: one named schema per version, the CRDs themselves beside them.

A file may hold one CRD, several YAML documents, a JSON array or a `kind: List`; every pointer kept here
is written the way that file is laid out (`/spec/...`, `/1/spec/...`, `/items/1/spec/...`), so findings
locate in the file as the user wrote it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from specdiff.errors import InputError
from specdiff.frozen import record
from specdiff.graph.model import NamedSchema, Schema, SpecGraph
from specdiff.graph.references import References
from specdiff.graph.stability import most_stable, of_version
from specdiff.load.document import Document
from specdiff.load.sourcemap import join_pointer


@record(frozen=True)
class CrdVersion:
    """One entry of `spec.versions`, and the identity of its schema."""

    name: str
    pointer: str  # of the version object in its file
    raw: dict[str, Any]
    served: bool
    storage: bool
    deprecated: bool
    schema: Schema  # openAPIV3Schema ({} when the version has none)
    schema_name: str  # "httproutes.gateway.networking.k8s.io/v1"
    gvk: str  # "gateway.networking.k8s.io/v1/HTTPRoute"
    group_version: str
    stability: str

    @property
    def schema_pointer(self) -> str:
        return self.pointer + "/schema/openAPIV3Schema"

    def at(self, key: str) -> str:
        """Pointer of one of the version's keys, or of the version when the key is absent."""
        return f"{self.pointer}/{key}" if key in self.raw else self.pointer


@record(frozen=True)
class Crd:
    name: str  # metadata.name: "<plural>.<group>"
    pointer: str  # of the CRD object in its file: "", "/1" or "/items/1"
    spec: dict[str, Any]
    group: str
    kind: str
    versions: dict[str, CrdVersion]
    #: `status.storedVersions`: the versions objects were ever persisted in, as the cluster the file was read
    #: from recorded them (a CRD written for a repository leaves it empty)
    stored_versions: tuple[str, ...] = ()
    #: what was assumed of flags the CRD leaves out (graph notes)
    assumed: tuple[str, ...] = ()

    @property
    def names(self) -> dict[str, Any]:
        names = self.spec.get("names")
        return names if isinstance(names, dict) else {}

    @property
    def stability(self) -> str:
        """As stable as the most stable version it serves (all its versions when it serves none): a CRD that
        serves only v1alpha1 may break, one that also serves v1 may not."""
        versions = [v for v in self.versions.values() if v.served] or list(self.versions.values())
        return most_stable(*(v.stability for v in versions))

    @property
    def direction(self) -> str:
        """How the CRD and every part of its versions' schemas are used: both written and read.

        Clients write the object (metadata, spec) and read it back; its controller reads spec and writes status
        (through the status subresource when one is declared), and clients read that status. So every part has
        a writer that a tighter schema rejects and a reader that a wider one surprises; the API server also
        validates the whole stored object on each write, so a tighter status fails a client's next update of
        spec, and a controller is often upgraded apart from its CRD. Unlike an operation's body, no part of a
        custom resource is only request or only response.
        """
        return "both"

    @property
    def about(self) -> str:
        """The kind a CRD-wide change is about, at the version it stores (else its first): what the report
        files it under ("cert-manager.io/v1/Certificate")."""
        version = self.storage_version or next(iter(self.versions))
        return f"{self.group}/{version}/{self.kind}"

    @property
    def storage_version(self) -> str | None:
        return next((v.name for v in self.versions.values() if v.storage), None)

    def at(self, *tokens: str) -> str:
        return self.pointer + join_pointer(tokens)


def build_crd_graph(doc: Document) -> SpecGraph:
    crds: dict[str, Crd] = {}
    for pointer, raw in crd_objects(doc.data):
        crd = _crd(doc, pointer, raw)
        if crd.name in crds:
            raise _error(doc, f"CustomResourceDefinition {crd.name} appears twice", crd.at("metadata", "name"))
        crds[crd.name] = crd
    schemas = {v.schema_name: NamedSchema(v.schema_name, v.schema, v.schema_pointer, doc, v.gvk, v.group_version,
                                          v.stability)
               for crd in crds.values() for v in crd.versions.values()}
    graph = References()
    graph.add_nodes_from(("schema", name) for name in schemas)
    return SpecGraph(doc, {}, schemas, graph, crds=crds, notes=tuple(n for crd in crds.values() for n in crd.assumed),
                     evidence=next(iter(crds)) if len(crds) == 1 else f"{len(crds)} of them")


def crd_objects(data: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(pointer, CRD) for each CRD in a document, a multi-document file or JSON array, or a `kind: List`."""
    if isinstance(data, list):
        yield from ((f"/{i}", item) for i, item in enumerate(data))
    elif data.get("kind") == "List":
        yield from ((f"/items/{i}", item) for i, item in enumerate(data["items"]))
    else:
        yield "", data


def _crd(doc: Document, pointer: str, raw: dict[str, Any]) -> Crd:
    metadata = raw.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    if not isinstance(name, str) or not name:
        raise _error(doc, "a CustomResourceDefinition without metadata.name", pointer)
    spec = raw.get("spec")
    if not isinstance(spec, dict):
        raise _error(doc, f"CustomResourceDefinition {name} has no spec", pointer)
    group, names = spec.get("group"), spec.get("names")
    kind = names.get("kind") if isinstance(names, dict) else None
    if not isinstance(group, str) or not isinstance(kind, str):
        raise _error(doc, f"CustomResourceDefinition {name} needs spec.group and spec.names.kind", pointer + "/spec")
    listed = spec.get("versions")
    if not isinstance(listed, list) or not listed:
        hint = " (apiextensions.k8s.io/v1beta1 'spec.version' is not read; convert the CRD to v1)" \
            if "version" in spec else ""
        raise _error(doc, f"CustomResourceDefinition {name} has no spec.versions{hint}",
                     pointer + ("/spec/versions" if "versions" in spec else "/spec"))
    most = doc.limits.max_versions
    if len(listed) > most:  # served versions are compared pairwise for round trips: the work grows as the square
        raise _error(doc, f"CustomResourceDefinition {name} lists {len(listed)} versions, more than {most} "
                     "(--max-versions)", pointer + "/spec/versions")
    versions: dict[str, CrdVersion] = {}
    for i, item in enumerate(listed):
        at = f"{pointer}/spec/versions/{i}"
        version = _version(doc, name, group, kind, at, item)
        if version.name in versions:
            raise _error(doc, f"CustomResourceDefinition {name} lists version {version.name} twice", at + "/name")
        versions[version.name] = version
    versions, assumed = _settle_flags(doc, name, pointer, versions)
    status = raw.get("status")
    stored = status.get("storedVersions") if isinstance(status, dict) else None
    return Crd(name, pointer, spec, group, kind, versions,
               tuple(str(v) for v in stored) if isinstance(stored, list) else (), assumed)


def _settle_flags(doc: Document, crd: str, pointer: str, versions: dict[str, CrdVersion]
                  ) -> tuple[dict[str, CrdVersion], tuple[str, ...]]:
    """The versions as the API server reads their `served` and `storage` flags, and what was assumed.

    The API server reads an unwritten flag as false and refuses a CRD that stores no version, or more than one:
    so is such a CRD refused here. A single version that writes neither flag (as tools that fill in defaults
    leave it) is the one exception: it is read as served and stored, and the assumption is said in a note.
    A version that does not write `served` beside others is read as the API server reads it, not served, and
    said too, since nothing of such a version is compared but its lifecycle."""
    only = next(iter(versions.values()))
    if len(versions) == 1 and "served" not in only.raw and "storage" not in only.raw:
        return {only.name: replace(only, served=True, storage=True)}, (
            f"CustomResourceDefinition {crd} version {only.name} writes neither served nor storage: "
            "read as served and stored, its only version",)
    stores = [v.name for v in versions.values() if v.storage]
    if len(stores) != 1:
        said = f"marks {len(stores)} versions as storage ({', '.join(stores)})" if stores else "stores no version"
        raise _error(doc, f"CustomResourceDefinition {crd} {said}: the API server accepts exactly one version "
                     "with storage: true", pointer + "/spec/versions")
    return versions, tuple(
        f"CustomResourceDefinition {crd} version {v.name} does not write served: read as not served, as the API "
        "server reads it" for v in versions.values() if "served" not in v.raw)


def _version(doc: Document, crd: str, group: str, kind: str, pointer: str, raw: Any) -> CrdVersion:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
        raise _error(doc, f"a version of CustomResourceDefinition {crd} has no name", pointer)
    name = raw["name"]
    holder = raw.get("schema")
    schema = holder.get("openAPIV3Schema", {}) if isinstance(holder, dict) else {}
    if not isinstance(schema, dict):
        raise _error(doc, f"the schema of {crd} version {name} must be a mapping",
                     pointer + "/schema/openAPIV3Schema")
    return CrdVersion(name, pointer, raw, served=raw.get("served") is True, storage=raw.get("storage") is True,
                      deprecated=raw.get("deprecated") is True, schema=schema, schema_name=f"{crd}/{name}",
                      gvk=f"{group}/{name}/{kind}", group_version=f"{group}/{name}", stability=of_version(name))


def _error(doc: Document, message: str, pointer: str) -> InputError:
    """An input error placed at line:column when the source map finds the pointer, else at the pointer."""
    found = doc.locate(pointer)
    return InputError(message, file=doc.name, place=f"{found[0]}:{found[1]}" if found else pointer or "/")
