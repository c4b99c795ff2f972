"""CRDs built to cost: many served versions, validation rules and short names are compared in near-linear time
(benchmarks measure it); here, that what they report stays exact."""

from __future__ import annotations

from test_crd import compare, crd, dump, version

from specdiff.load import load_text
from specdiff.notation import where


def test_a_field_that_many_versions_lack_is_one_finding_naming_them() -> None:
    lean = {"size": {"type": "integer"}}
    full = {**lean, "color": {"type": "string"}}
    others = [version(f"v1alpha{i}", properties=lean) for i in range(1, 8)]
    old = load_text(dump(crd(versions=[version("v1", storage=True, properties=lean), *others])), "old.yaml", None)
    new = load_text(dump(crd(versions=[version("v1", storage=True, properties=full), *others])), "new.yaml", None)
    trips = [(where(f.change.context), f.change.fact("missing_in"), f.change.pointer)
             for f in compare(old, new).findings if f.rule == "crd.version.round-trip"]
    assert trips == [("example.com/v1 Frob.spec.color", "v1alpha1, v1alpha2, v1alpha3, v1alpha4, v1alpha5 and 2 more",
                      "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/color")]


def test_versions_that_each_add_a_field_give_one_finding_per_field() -> None:
    """A thousand versions, each with a field of its own, were a million pairs to compare (and > 4 GB)."""
    versions = [version(f"v{i}", storage=i == 1, properties={f"f{i}": {"type": "string"}}) for i in range(1, 41)]
    old = load_text(dump(crd(versions=versions[:1])), "old.yaml", None)
    new = load_text(dump(crd(versions=versions)), "new.yaml", None)
    trips = sorted((f.change.fact("field"), f.change.fact("version"), f.change.fact("missing_in").split(",")[0])
                   for f in compare(old, new).findings if f.rule == "crd.version.round-trip")
    assert trips == sorted((f".spec.f{i}", f"v{i}", "v1" if i != 1 else "v10") for i in range(1, 41))


def test_short_names_and_validation_rules_match_by_value() -> None:
    names = [f"f{i}" for i in range(300)]
    rules = [{"rule": f"self.size() > {i}"} for i in range(300)]

    def spec(short: list[str], validations: list[dict[str, str]]) -> str:
        document = crd(versions=[version("v1", storage=True, properties={"a": {"type": "string"}})])
        document["spec"]["names"]["shortNames"] = short
        document["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["x-kubernetes-validations"] = validations
        return dump(document)

    old = load_text(spec(names, rules), "old.yaml", None)
    new = load_text(spec(names[1:] + ["g"], rules[::-1][1:]), "new.yaml", None)
    found = sorted((f.rule, f.change.old_pointer, f.change.pointer) for f in compare(old, new).findings)
    rules_at = "/spec/versions/0/schema/openAPIV3Schema/x-kubernetes-validations"
    assert found == [("crd.names.short-name-added", None, "/spec/names/shortNames/299"),
                     ("crd.names.short-name-removed", "/spec/names/shortNames/0", "/spec/names/shortNames"),
                     ("kubernetes.validation.rule-removed", f"{rules_at}/299", rules_at)]
