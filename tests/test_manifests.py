"""`specdiff manifests OLD NEW PATH...`: which of a user's objects break on an upgrade, run as users run it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cmarkgfm
import pytest
import yaml
from click.testing import CliRunner
from cmarkgfm.cmark import Options
from conftest import corpus

from specdiff.cli import main


def crd(versions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "frobs.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Frob", "plural": "frobs"},
                     "versions": versions}}


def version(name: str, spec: dict[str, Any], served: bool = True, storage: bool = False,
            **extra: Any) -> dict[str, Any]:
    return {"name": name, "served": served, "storage": storage, **extra,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
                "spec": spec}}}}


OLD_SPEC = {"type": "object", "properties": {
    "mode": {"type": "string", "enum": ["Fast", "Slow", "Auto"]}, "size": {"type": "integer"},
    "name": {"type": "string"}, "label": {"type": "string"}, "replicas": {"type": "integer"}}}
NEW_SPEC = {"type": "object", "required": ["name"], "properties": {
    "mode": {"type": "string", "enum": ["Fast", "Slow"]}, "name": {"type": "string"},
    "label": {"type": "string", "maxLength": 5}, "replicas": {"type": "integer"}},
    "x-kubernetes-validations": [{"rule": "self.replicas <= 10", "message": "at most 10 replicas"},
                                 {"rule": "self.name == oldSelf.name", "message": "name is immutable"},
                                 # Kubernetes' strings library, which cel-python lacks
                                 {"rule": "!has(self.mode) || self.mode.lowerAscii() != 'turbo'"}]}

OBJECTS = """\
apiVersion: example.com/v1alpha1
kind: Frob
metadata: {name: early, namespace: lab}
spec: {mode: Auto, size: 3}
---
apiVersion: example.com/v1
kind: Frob
metadata: {name: busy, namespace: lab}
spec:
  mode: Auto
  size: 3
  label: toolong
  replicas: 12
---
apiVersion: example.com/v1
kind: Frob
metadata: {name: fine, namespace: lab}
spec: {mode: Fast, name: fine, replicas: 2}
---
apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Frob
  metadata: {name: listed}
  spec: {name: listed, replicas: 11}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: other}
"""


@pytest.fixture
def cluster(tmp_path: Path) -> tuple[Path, Path, Path]:
    """OLD serves v1alpha1 and v1; NEW stops serving v1alpha1, narrows v1 and adds two rules."""
    old, new, objects = tmp_path / "old.yaml", tmp_path / "new.yaml", tmp_path / "app" / "frobs.yaml"
    old.write_text(yaml.safe_dump(crd([version("v1alpha1", OLD_SPEC), version("v1", OLD_SPEC, storage=True)])))
    new.write_text(yaml.safe_dump(crd([version("v1alpha1", OLD_SPEC, served=False),
                                       version("v1", NEW_SPEC, storage=True)])))
    objects.parent.mkdir()
    objects.write_text(OBJECTS)
    return old, new, objects


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["manifests", *args], input=stdin)
    return done.exit_code, done.stdout, done.stderr


def findings(stdout: str) -> list[tuple[str, str, str, str | None, int | None]]:
    return [(f["rule"], f["object"]["name"], f["level"], f["field"], f["line"]) for f in json.loads(stdout)["findings"]]


def test_each_object_gets_what_breaks_it_with_its_line(cluster: tuple[Path, Path, Path]) -> None:
    old, new, objects = cluster
    code, out, err = run(str(old), str(new), str(objects), "--format", "json", "--no-config")
    assert (code, err) == (1, "")
    assert findings(out) == [
        ("manifest.version-not-served", "early", "breaking", None, 1),
        ("manifest.required-missing", "busy", "breaking", ".spec", 9),
        ("manifest.rule-refused", "busy", "breaking", ".spec", 9),  # `self.name == oldSelf.name` without a name
        ("manifest.rule-refused", "busy", "breaking", ".spec", 9),  # `self.replicas <= 10`
        ("manifest.rule-unchecked", "busy", "dangerous", ".spec", 9),  # lowerAscii()
        ("manifest.value-refused", "busy", "breaking", ".spec.mode", 10),
        ("manifest.field-removed", "busy", "breaking", ".spec.size", 11),
        ("manifest.value-refused", "busy", "breaking", ".spec.label", 12),
        ("manifest.rule-unchecked", "fine", "dangerous", ".spec", 18),
        ("manifest.rule-refused", "listed", "breaking", ".spec", 26),
    ]
    report = json.loads(out)
    early = report["findings"][0]
    assert (early["replacement"], early["changes"]) == (
        "example.com/v1", ["remove .spec.size (not in example.com/v1)", "lacks .spec.name, which is required",
                           ".spec.mode: Auto is not one of the allowed values (Fast, Slow)",
                           ".spec: make the rule `self.replicas <= 10` hold (at most 10 replicas)",
                           ".spec: make the rule `self.name == oldSelf.name` hold (name is immutable)"])
    busy = {f["field"]: f["message"] for f in report["findings"] if f["object"]["name"] == "busy"}
    assert busy[".spec.label"] == ".spec.label: is longer than 5 characters"
    assert busy[".spec.mode"] == ".spec.mode: Auto is not one of the allowed values (Fast, Slow)"
    assert [f["message"] for f in report["findings"] if f["object"]["name"] == "busy"][1:5] == [
        ".spec would be refused by the new rule `self.name == oldSelf.name` (name is immutable): it reads 'name', "
        "which the object does not set",
        ".spec would be refused by the new rule `self.replicas <= 10` (at most 10 replicas)",
        ".spec: the new rule `!has(self.mode) || self.mode.lowerAscii() != 'turbo'` is unchecked (cel-python has no "
        "lowerAscii(), one of Kubernetes' own CEL functions)",
        ".spec.mode: Auto is not one of the allowed values (Fast, Slow)"]
    assert report["unchecked"] == [{"apiVersion": "example.com/v1", "kind": "Gadget", "namespace": None,
                                    "name": "other", "file": str(objects), "line": 28,
                                    "reason": "neither side describes this kind"}]
    assert report["summary"] == {"objects": 5, "checked": 4, "files": 1, "breaking": 8, "dangerous": 2, "safe": 0}


def test_a_folder_stdin_and_the_exit_codes(cluster: tuple[Path, Path, Path]) -> None:
    old, new, objects = cluster
    (objects.parent / "values.yaml").write_text("replicas: 3\n")  # a chart's values: no object, passed over
    folder = run(str(old), str(new), str(objects.parent), "--format", "json", "--no-config")
    piped = run(str(old), str(new), "-", "--format", "json", "--no-config", stdin=objects.read_text())
    assert folder[0] == piped[0] == 1
    assert findings(folder[1]) == findings(piped[1])
    assert json.loads(piped[1])["unchecked"][0]["file"] == "<stdin>"
    assert run(str(old), str(new), str(objects), "--fail-on", "never", "--no-config")[0] == 0
    code, out, _ = run(str(old), str(new), str(objects), "--ignore", "manifest.rule-refused", "--select",
                       "manifest.value-refused", "--select", "manifest.rule-refused", "--format", "json",
                       "--no-config")
    assert [rule for rule, *_ in findings(out)] == ["manifest.value-refused", "manifest.value-refused"]
    assert run(str(old), str(new), str(objects), "--ignore", "schema.removed", "--no-config")[0] == 2


def test_a_baseline_of_fingerprints_accepts_what_it_lists(cluster: tuple[Path, Path, Path], tmp_path: Path) -> None:
    old, new, objects = cluster
    report = json.loads(run(str(old), str(new), str(objects), "--format", "json", "--no-config")[1])
    baseline = tmp_path / "baseline.txt"
    baseline.write_text("".join(f["fingerprint"] + "\n" for f in report["findings"] if f["level"] == "breaking"))
    code, out, _ = run(str(old), str(new), str(objects), "--baseline", str(baseline), "--format", "json",
                       "--no-config")
    assert (code, [rule for rule, *_ in findings(out)]) == (0, ["manifest.rule-unchecked"] * 2)


def test_a_clean_object_gives_nothing_and_a_deprecated_version_warns(tmp_path: Path) -> None:
    old, new, objects = tmp_path / "old.yaml", tmp_path / "new.yaml", tmp_path / "frob.yaml"
    old.write_text(yaml.safe_dump(crd([version("v1", OLD_SPEC, storage=True)])))
    new.write_text(yaml.safe_dump(crd([version("v1", OLD_SPEC, storage=True, deprecated=True,
                                               deprecationWarning="example.com/v1 Frob is going; use v2"),
                                       version("v2", OLD_SPEC)])))
    objects.write_text("apiVersion: example.com/v1\nkind: Frob\nmetadata: {name: a}\nspec: {mode: Fast}\n")
    code, out, _ = run(str(old), str(new), str(objects), "--format", "json", "--no-config")
    assert code == 0
    [warning] = json.loads(out)["findings"]
    assert (warning["rule"], warning["level"], warning["message"], warning["fix"]) == (
        "manifest.version-deprecated", "dangerous",
        "example.com/v1 Frob is deprecated: example.com/v1 Frob is going; use v2", "Move to example.com/v2.")
    assert run(str(old), str(old), str(objects), "--format", "json", "--no-config")[1].count('"rule"') == 0


def test_every_format_escapes_what_the_manifest_says(cluster: tuple[Path, Path, Path]) -> None:
    old, new, _ = cluster
    hostile = ("apiVersion: example.com/v1\nkind: Frob\nmetadata: {name: \"@everyone [x](https://evil.example) "
               "`\\u001b[31m\", namespace: lab}\nspec: {mode: Auto, name: a}\n")
    code, markdown, _ = run(str(old), str(new), "-", "--format", "markdown", "--no-config", stdin=hostile)
    assert code == 1 and markdown.startswith("<!-- specdiff manifests -->\n")
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    assert "<a " not in html and "\x1b" not in html and "<pre" not in html
    _, text, _ = run(str(old), str(new), "-", "--no-config", stdin=hostile)
    assert "\x1b" not in text and "\\x1b[31m" in text
    _, github, _ = run(str(old), str(new), "-", "--format", "github", "--no-config", stdin=hostile)
    assert [line.split("::")[1] for line in github.splitlines()] == [
        "error file=<stdin>,line=4,title=manifest.rule-refused (breaking)",  # spec.replicas is not set
        "error file=<stdin>,line=4,title=manifest.value-refused (breaking)",
        "warning file=<stdin>,line=4,title=manifest.rule-unchecked (dangerous)"]
    _, sarif, _ = run(str(old), str(new), "-", "--format", "sarif", "--no-config", stdin=hostile)
    results = json.loads(sarif)["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]) for r in results] == [
        ("manifest.rule-refused", {"startLine": 4}), ("manifest.value-refused", {"startLine": 4}),
        ("manifest.rule-unchecked", {"startLine": 4})]


@pytest.mark.parametrize(("text", "message"), [
    ("a: &a [1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
     "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
     "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n",
     "specdiff: error: <stdin>: YAML aliases expand to more than 1000 nodes (alias budget exceeded, --max-aliases)\n"),
    ("kind: [\n", "specdiff: error: <stdin>:2:1: malformed YAML: did not find expected node content\n"),
])
def test_hostile_manifests_end_in_one_line_naming_the_input(cluster: tuple[Path, Path, Path], text: str,
                                                            message: str) -> None:
    old, new, _ = cluster
    assert run(str(old), str(new), "-", "--no-config", "--max-aliases", "1000", stdin=text) == (2, "", message)


def test_no_path_is_a_usage_error(cluster: tuple[Path, Path, Path]) -> None:
    old, new, _ = cluster
    assert run(str(old), str(new))[0] == 2


# -- real releases -----------------------------------------------------------------------------------
#: Kubernetes' deprecation guide (kubernetes.io/docs/reference/using-api/deprecation-guide): each kind whose
#: group-version was removed between 1.11 and 1.28 and that 1.11 served, with the replacement it names
#: (None: no replacement is served)
DEPRECATION_GUIDE = {
    "extensions/v1beta1 Deployment": "apps/v1", "apps/v1beta1 Deployment": "apps/v1",
    "apps/v1beta2 Deployment": "apps/v1", "extensions/v1beta1 DaemonSet": "apps/v1",
    "apps/v1beta2 DaemonSet": "apps/v1", "extensions/v1beta1 ReplicaSet": "apps/v1",
    "apps/v1beta2 ReplicaSet": "apps/v1", "apps/v1beta1 StatefulSet": "apps/v1",
    "apps/v1beta2 StatefulSet": "apps/v1", "extensions/v1beta1 NetworkPolicy": "networking.k8s.io/v1",
    "extensions/v1beta1 PodSecurityPolicy": None, "policy/v1beta1 PodSecurityPolicy": None,
    "extensions/v1beta1 Ingress": "networking.k8s.io/v1",
    "admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration": "admissionregistration.k8s.io/v1",
    "admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration": "admissionregistration.k8s.io/v1",
    "apiextensions.k8s.io/v1beta1 CustomResourceDefinition": "apiextensions.k8s.io/v1",
    "apiregistration.k8s.io/v1beta1 APIService": "apiregistration.k8s.io/v1",
    "authentication.k8s.io/v1beta1 TokenReview": "authentication.k8s.io/v1",
    "authorization.k8s.io/v1beta1 SubjectAccessReview": "authorization.k8s.io/v1",
    "authorization.k8s.io/v1beta1 LocalSubjectAccessReview": "authorization.k8s.io/v1",
    "authorization.k8s.io/v1beta1 SelfSubjectAccessReview": "authorization.k8s.io/v1",
    "authorization.k8s.io/v1beta1 SelfSubjectRulesReview": "authorization.k8s.io/v1",
    "certificates.k8s.io/v1beta1 CertificateSigningRequest": "certificates.k8s.io/v1",
    "rbac.authorization.k8s.io/v1beta1 ClusterRole": "rbac.authorization.k8s.io/v1",
    "rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding": "rbac.authorization.k8s.io/v1",
    "rbac.authorization.k8s.io/v1beta1 Role": "rbac.authorization.k8s.io/v1",
    "rbac.authorization.k8s.io/v1beta1 RoleBinding": "rbac.authorization.k8s.io/v1",
    "scheduling.k8s.io/v1beta1 PriorityClass": "scheduling.k8s.io/v1",
    "storage.k8s.io/v1beta1 StorageClass": "storage.k8s.io/v1",
    "storage.k8s.io/v1beta1 VolumeAttachment": "storage.k8s.io/v1",
    "batch/v1beta1 CronJob": "batch/v1", "events.k8s.io/v1beta1 Event": "events.k8s.io/v1",
    "autoscaling/v2beta1 HorizontalPodAutoscaler": "autoscaling/v2",
    "policy/v1beta1 PodDisruptionBudget": "policy/v1",
}


def test_every_removal_the_deprecation_guide_lists_between_1_11_and_1_28_with_its_replacement(
        tmp_path: Path) -> None:
    old, new = corpus("kubernetes/v2/swagger-v1.11.json"), corpus("kubernetes/v2/swagger-v1.28.json")
    objects = [{"apiVersion": label.split()[0], "kind": label.split()[1], "metadata": {"name": "x"}}
               for label in DEPRECATION_GUIDE]
    manifest = tmp_path / "objects.yaml"
    manifest.write_text(yaml.safe_dump_all(objects))
    code, out, _ = run(str(old), str(new), str(manifest), "--format", "json", "--no-config",
                       "--select", "manifest.version-not-served")
    assert code == 1
    found = {f"{f['object']['apiVersion']} {f['object']['kind']}": f["replacement"]
             for f in json.loads(out)["findings"]}
    assert found == DEPRECATION_GUIDE


def api_server(spec_properties: dict[str, Any]) -> dict[str, Any]:
    """An API server's spec of one kind, Frob, whose `spec` refers to the first of a list of schemas."""
    frob = {"$ref": "#/definitions/com.example.v1.Frob"}
    return {"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1"},
            "paths": {"/apis/example.com/v1/namespaces/{namespace}/frobs": {"post": {
                "parameters": [{"name": "body", "in": "body", "schema": frob}],
                "responses": {"200": {"description": "ok", "schema": frob}}}}},
            "definitions": {
                "com.example.v1.Frob": {
                    "type": "object",
                    "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Frob"}],
                    "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                                   "metadata": {"type": "object"},
                                   "spec": {"$ref": "#/definitions/com.example.v1.FrobSpecs/x-variants/0"}}},
                "com.example.v1.FrobSpecs": {"x-variants": [{"type": "object", "properties": spec_properties}]}}}


def test_a_field_removed_behind_a_ref_through_a_list_index_is_found(tmp_path: Path) -> None:
    old, new, objects = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "frob.yaml"
    old.write_text(json.dumps(api_server({"size": {"type": "integer"}, "name": {"type": "string"}})))
    new.write_text(json.dumps(api_server({"name": {"type": "string"}})))
    objects.write_text("apiVersion: example.com/v1\nkind: Frob\nmetadata: {name: a}\nspec: {size: 3, name: a}\n")
    code, out, _ = run(str(old), str(new), str(objects), "--format", "json", "--no-config")
    assert (code, findings(out)) == (1, [("manifest.field-removed", "a", "breaking", ".spec.size", 4)])


def test_a_pod_setting_workload_ref_breaks_on_1_36_and_one_without_it_does_not(tmp_path: Path) -> None:
    old, new = corpus("kubernetes/v2/swagger-v1.35.json"), corpus("kubernetes/v2/swagger-v1.36.json")
    manifest = tmp_path / "pods.yaml"
    manifest.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: gang}\nspec:\n  workloadRef: {name: w}\n"
                        "  containers: [{name: c, image: busybox}]\n---\napiVersion: v1\nkind: Pod\n"
                        "metadata: {name: plain}\nspec:\n  containers: [{name: c, image: busybox}]\n")
    code, out, _ = run(str(old), str(new), str(manifest), "--format", "json", "--no-config")
    assert (code, findings(out)) == (1, [("manifest.field-removed", "gang", "breaking", ".spec.workloadRef", 5)])


def test_httproute_v1alpha2_objects_against_the_gateway_api_releases_that_stop_serving_it(tmp_path: Path) -> None:
    manifest = tmp_path / "route.yaml"
    manifest.write_text("apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: HTTPRoute\n"
                        "metadata: {name: r, namespace: default}\nspec:\n  parentRefs: [{name: gw}]\n"
                        "  rules:\n  - backendRefs: [{name: svc, port: 80}]\n")
    steps = {}
    for old, new in (("v0.6.0", "v0.8.0"), ("v0.8.0", "v1.0.0")):
        code, out, _ = run(str(corpus(f"crds/gateway-api/httproutes.standard.{old}.yaml")),
                           str(corpus(f"crds/gateway-api/httproutes.standard.{new}.yaml")), str(manifest),
                           "--format", "json", "--no-config")
        steps[new] = [(f["rule"], f["replacement"], f["changes"]) for f in json.loads(out)["findings"]]
    assert steps == {"v0.8.0": [("manifest.version-not-served", "gateway.networking.k8s.io/v1beta1", [])],
                     "v1.0.0": [("manifest.version-not-served", "gateway.networking.k8s.io/v1beta1", [])]}


def test_evaluating_rules_leaves_the_recursion_limit_as_it_was(cluster: tuple[Path, Path, Path]) -> None:
    """cel-python sets the process's recursion limit when it makes an environment; the depth bounds of later
    comparisons in the same process (the Python API, a test run) must not inherit it."""
    import sys

    old, new, objects = cluster
    before = sys.getrecursionlimit()
    assert run(str(old), str(new), str(objects), "--no-config")[0] == 1
    assert sys.getrecursionlimit() == before


def test_objects_that_repeat_a_value_share_its_evaluation(cluster: tuple[Path, Path, Path], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rule is compiled once and evaluated once per value written alike: two objects with the same spec
    cost the three rules once, and each still gets its own findings."""
    from specdiff import manifests

    old, new, _ = cluster
    same = "spec: {mode: Fast, name: x, replicas: 12}"
    objects = tmp_path / "repeated.yaml"
    objects.write_text("\n---\n".join(f"apiVersion: example.com/v1\nkind: Frob\nmetadata: {{name: {name}}}\n{spec}"
                                      for name, spec in (("a", same), ("b", same),
                                                         ("c", "spec: {mode: Fast, name: y, replicas: 2}"))))
    evaluated: list[tuple[str, Any]] = []

    def counted(rule: str, value: Any) -> tuple[bool | None, str]:
        evaluated.append((rule, value))
        return evaluate(rule, value)

    evaluate = manifests.evaluate
    monkeypatch.setattr(manifests, "evaluate", counted)
    code, out, _ = run(str(old), str(new), str(objects), "--format", "json", "--no-config")
    assert (code, findings(out)) == (1, [
        ("manifest.rule-refused", "a", "breaking", ".spec", 4),
        ("manifest.rule-unchecked", "a", "dangerous", ".spec", 4),
        ("manifest.rule-refused", "b", "breaking", ".spec", 9),
        ("manifest.rule-unchecked", "b", "dangerous", ".spec", 9),
        ("manifest.rule-unchecked", "c", "dangerous", ".spec", 14)])
    assert sorted(value["name"] for _, value in evaluated) == ["x", "x", "x", "y", "y", "y"]
    evaluated.clear()
    monkeypatch.setattr(manifests, "MOST_WRITTEN", 10)  # values longer than this are not kept: each is evaluated
    assert run(str(old), str(new), str(objects), "--format", "json", "--no-config")[1] == out
    assert sorted(value["name"] for _, value in evaluated) == ["x"] * 6 + ["y"] * 3


def test_a_compiled_rule_gives_each_value_its_own_verdict() -> None:
    """The program compiled once for a rule keeps nothing of the value it last ran on."""
    from specdiff.manifests import evaluate

    assert [evaluate("self.size > 1", {"size": size})[0] for size in (2, 0, 3, 1)] == [True, False, True, False]
