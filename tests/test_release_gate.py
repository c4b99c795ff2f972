"""--check-version: the declared version change against what the findings need, for `compare` and `history`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from specdiff.classify.release_gate import declared_bump, needed, semver
from specdiff.cli import main
from tests.conftest import corpus

PETS = {"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/Pet"}}}}}}}}


def pets(version: str, *fields: str) -> str:
    return json.dumps({"openapi": "3.0.3", "info": {"title": "pets", "version": version}, "paths": PETS,
                       "components": {"schemas": {"Pet": {"type": "object", "properties": {
                           name: {"type": "string"} for name in fields}}}}})


@pytest.fixture
def releases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """2.3.0; 2.4.0 removes Pet.tag (too small); 3.0.0 the same removal (enough); 3.0.1 adds Pet.age (too
    small: an addition needs a minor bump); `next` is no version at all."""
    for name, version, fields in (("a", "2.3.0", ("name", "tag")), ("b", "2.4.0", ("name",)),
                                  ("c", "3.0.0", ("name",)), ("d", "3.0.1", ("name", "age")),
                                  ("e", "next", ("name", "age"))):
        (tmp_path / f"{name}.json").write_text(pets(version, *fields), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli(*args: str) -> tuple[int, Any]:
    done = CliRunner().invoke(main, [*args, "--no-config", "--format", "json"])
    return done.exit_code, json.loads(done.stdout) if done.stdout else done.stderr


def gate_findings(envelope: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["pointer"], f["message"]) for f in envelope["findings"] if f["rule"].startswith("release.")]


def test_a_breaking_change_released_as_a_minor_version_fails_naming_why(releases: Path) -> None:
    code, envelope = cli("compare", "a.json", "b.json", "--check-version")
    assert code == 1
    assert gate_findings(envelope) == [(
        "release.version-bump-too-small", "/info/version",
        "info.version 2.3.0 -> 2.4.0 is a minor release, but the changes need a major release: property Pet.tag "
        "removed")]


def test_the_same_change_released_as_a_major_version_passes_the_gate(releases: Path) -> None:
    code, envelope = cli("compare", "a.json", "c.json", "--check-version")
    assert (code, gate_findings(envelope)) == (0, [])
    assert [f["rule"] for f in envelope["findings"]] == ["schema.property.removed", "info.version-changed"]
    assert cli("compare", "a.json", "c.json")[0] == 1  # without the gate the breaking change fails as always


def test_an_addition_needs_a_minor_bump(releases: Path) -> None:
    code, envelope = cli("compare", "c.json", "d.json", "--check-version")
    assert (code, gate_findings(envelope)) == (1, [(
        "release.version-bump-too-small", "/info/version",
        "info.version 3.0.0 -> 3.0.1 is a patch release, but the changes need a minor release: optional property "
        "Pet.age added")])


def test_a_version_that_did_not_go_up_is_said_in_words(releases: Path) -> None:
    (releases / "f.json").write_text(pets("3.0.0", "name", "age"), encoding="utf-8")
    code, envelope = cli("compare", "c.json", "f.json", "--check-version")
    assert (code, gate_findings(envelope)) == (1, [(
        "release.version-bump-too-small", "/info/version",
        "info.version 3.0.0 -> 3.0.0 is not a higher version, but the changes need a minor release: optional "
        "property Pet.age added")])


def test_an_unparsable_version_is_reported_not_a_crash(releases: Path) -> None:
    code, envelope = cli("compare", "c.json", "e.json", "--check-version", "--fail-on", "dangerous")
    assert (code, gate_findings(envelope)) == (1, [(
        "release.version-unparsable", "/info/version",
        "info.version 3.0.0 -> next cannot be checked: `next` is no semantic version (MAJOR.MINOR.PATCH); the "
        "changes need a minor bump: optional property Pet.age added")])


def test_history_gates_every_step(releases: Path) -> None:
    code, envelope = cli("history", "a.json", "b.json", "c.json", "d.json", "--check-version")
    assert code == 1
    assert [(step["new"], [f["rule"] for f in step["findings"] if f["rule"].startswith("release.")])
            for step in envelope["steps"]] == [
        ("b", ["release.version-bump-too-small"]), ("c", []), ("d", ["release.version-bump-too-small"])]
    assert cli("history", "b.json", "c.json", "--check-version")[0] == 0


def test_the_configuration_turns_the_gate_on_and_is_validated(releases: Path) -> None:
    (releases / ".specdiff.yaml").write_text("check-version: true\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["a.json", "b.json", "--format", "json"])
    assert done.exit_code == 1
    assert [f["rule"] for f in json.loads(done.stdout)["findings"]][0] == "release.version-bump-too-small"
    (releases / ".specdiff.yaml").write_text("policy: openapi\ncheck-version: yes please\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["a.json", "c.json"])
    assert (done.exit_code, done.stderr) == (
        2, "specdiff: error: .specdiff.yaml:2: check-version must be true or false, not 'yes please'\n")


@pytest.mark.parametrize(("old", "new", "bump"), [
    ("1.2.3", "2.0.0", "major"), ("1.2.3", "1.3.0", "minor"), ("1.2.3", "1.2.4", "patch"),
    ("1.2.3", "1.2.3", "none"), ("2.0.0", "1.9.9", "none"), ("1.2.3", "1.1.9", "none"),
    ("1.9.0", "1.10.0", "minor"), ("9.0.0", "10.0.0", "major"), ("1.2.10", "1.2.9", "none")])
def test_the_declared_bump(old: str, new: str, bump: str) -> None:
    old_version, new_version = semver(old), semver(new)
    assert old_version is not None and new_version is not None
    assert declared_bump(old_version, new_version) == bump


def test_a_version_number_of_any_length_is_compared_not_a_crash(releases: Path) -> None:
    """5,000 digits: past what Python turns into an int, yet a semantic version; compared as digits."""
    big = "1" + "0" * 5000
    (releases / "f.json").write_text(pets(f"{big}.0.0", "name"), encoding="utf-8")
    (releases / "g.json").write_text(pets(f"{big}.1.0", "name", "age"), encoding="utf-8")
    (releases / "h.json").write_text(pets(f"{big}.1.1", "name"), encoding="utf-8")
    assert cli("compare", "f.json", "g.json", "--check-version")[0] == 0
    code, envelope = cli("compare", "g.json", "h.json", "--check-version")
    assert (code, [rule for rule, _, _ in gate_findings(envelope)]) == (1, ["release.version-bump-too-small"])
    assert gate_findings(envelope)[0][2].endswith("is a patch release, but the changes need a major release: property "
                                                 "Pet.age removed")
    assert semver("1.\u0661.0") is None  # digits are ASCII digits, as semver writes them


def test_nothing_changed_needs_no_bump() -> None:
    assert needed([]) == ("none", "")


def test_gateway_api_releases_that_changed_a_served_version_in_place() -> None:
    """HTTPRoute v1.4.0 made `.status.parents[].conditions` required and v1.6.1 added CORS to the filter types in
    the served v1 and v1beta1: Kubernetes' versioning asks for a new API version for either. v1.0.0 and v1.1.0
    only add versions and fields."""
    folder = corpus("crds/gateway-api")
    names = ["v1.0.0", "v1.1.0", "v1.2.0", "v1.4.0", "v1.6.1"]
    files = [str(folder / f"httproutes.standard.{name}.yaml") for name in names]
    code, envelope = cli("history", *files, "--check-version", "--jobs", "2")
    assert code == 1
    gw = "gateway.networking.k8s.io"
    assert [(step["new"], [(f["rule"], f["location"]["group_version"]) for f in step["findings"]
                           if f["rule"].startswith("release.")]) for step in envelope["steps"]] == [
        ("v1.1.0", []), ("v1.2.0", []),
        ("v1.4.0", [("release.api-version-needed", f"{gw}/v1"), ("release.api-version-needed", f"{gw}/v1beta1")]),
        ("v1.6.1", [("release.api-version-needed", f"{gw}/v1"), ("release.api-version-needed", f"{gw}/v1beta1")])]
