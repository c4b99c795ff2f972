"""DigitalOcean's public API, a root file that reaches about 2,900 files through `$ref`s, compared commit by
commit as users run it (`specdiff REV^:root REV:root` inside the clone): changes written only in referenced
files are reported with their verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from specdiff.cli import main

ROOT = "specification/DigitalOcean-public.v2.yaml"


#: the findings of 7c1300c and of 8c740d3, each against its parent
DISK_TYPE_REPLACED = [
    ("schema.enum.value-added", "breaking",
     "enum value `boot` added to GET /v2/droplets response 200: droplets[].disk_info[].type"),
    ("schema.enum.value-removed", "dangerous",
     "enum value `remote` removed from GET /v2/droplets response 200: droplets[].disk_info[].type"),
]
ISOLATED_WORKERS = [
    ("schema.property.added", "safe", "optional property kubernetes_clusters[].isolated_workers of response 200 "
     "added in 2 operations: GET /v2/kubernetes/clusters and POST /v2/kubernetes/clusters"),
]


def commit(clone: Path, rev: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[tuple[str, str, str]]]:
    """The exit code and (rule, level, message) of each finding of one commit against its parent."""
    monkeypatch.chdir(clone)
    result = CliRunner().invoke(main, ["compare", "--format", "json", "--no-config", f"{rev}^:{ROOT}",
                                       f"{rev}:{ROOT}"])
    assert result.stderr == ""
    report = json.loads(result.stdout)
    return result.exit_code, [(f["rule"], f["level"], f["message"]) for f in report["findings"]]


def test_an_enum_member_replaced_in_a_referenced_schema(digitalocean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """7c1300c replaces `remote` with `boot` in resources/sizes/models/disk_info.yml, and nothing else."""
    assert commit(digitalocean, "7c1300c", monkeypatch) == (1, DISK_TYPE_REPLACED)


def test_a_documented_new_field(digitalocean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """8c740d3 adds `isolated_workers` to resources/kubernetes/models/cluster.yml (and cluster_read.yml), with
    examples and code samples that show it: one optional property, sent and read; the samples are documentation."""
    assert commit(digitalocean, "8c740d3", monkeypatch) == (0, ISOLATED_WORKERS)


def test_a_field_and_a_parameter_written_in_shared_files(digitalocean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """6fd6c99 adds the `sso` field to the cluster model and a query parameter, written in the shared parameters
    file and referred to from the operation's file: both are reported, and no file is left unexplained."""
    assert commit(digitalocean, "6fd6c99", monkeypatch) == (0, [
        ("schema.property.added", "safe", "optional property kubernetes_clusters[].sso of response 200 added in 3 "
         "operations: GET /v2/kubernetes/clusters, POST /v2/kubernetes/clusters and PUT "
         "/v2/kubernetes/clusters/{cluster_id}"),
        ("parameter.optional-added", "safe",
         "optional query parameter type added to GET /v2/kubernetes/clusters/{cluster_id}/kubeconfig"),
    ])


def test_an_enum_given_to_a_response_field_and_a_field_added(digitalocean: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert commit(digitalocean, "fb6f08f", monkeypatch) == (0, [
        ("schema.enum.introduced", "dangerous", "GET /v2/droplets/autoscale/{autoscale_pool_id}/members response "
         "200: droplets[].health_status becomes an enum of `[\"healthy\", \"unhealthy\"]`"),
        ("schema.property.added", "safe", "optional property GET /v2/droplets/autoscale/{autoscale_pool_id}/members "
         "response 200: droplets[].unhealthy_reason added"),
    ])


def test_a_commit_that_only_rewrites_documentation_in_referenced_files(digitalocean: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """220cd98 rewrites descriptions and adds examples in six referenced files: nothing a client does changes."""
    assert commit(digitalocean, "220cd98", monkeypatch) == (0, [])


def test_a_history_has_the_commits_that_changed_only_referenced_files(digitalocean: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Of 87e82da, 8c740d3 and 7c1300c only the first touches the root; the history has all three, and each step
    has the findings `specdiff REV^:root REV:root` gives."""
    monkeypatch.chdir(digitalocean)
    result = CliRunner().invoke(main, ["history", "--no-config", "--quiet", "--format", "json", "--jobs", "1", ROOT,
                                       "--revs", "87e82da^..7c1300c"])
    assert result.stderr == ""
    train = json.loads(result.stdout)
    labels = [v["label"] for v in train["versions"]]  # the date and subject of each commit, and its hash
    assert labels[0] == "2026-07-30 teamgroups api list and create team openapi spec (#1204) (52d8d9c)"
    assert [label.rpartition(" (")[2].rstrip(")") for label in labels] == ["52d8d9c", "87e82da", "8c740d3",
                                                                           "7c1300c"]
    assert train["notes"] == []
    steps = [[(f["rule"], f["level"], f["message"]) for f in step["findings"]] for step in train["steps"]]
    assert steps[1:] == [ISOLATED_WORKERS, DISK_TYPE_REPLACED]
