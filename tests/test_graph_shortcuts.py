"""The graph's shortcuts for what Kubernetes writes on every operation give what the general reading gives."""

from __future__ import annotations

from typing import Any

import pytest

from specdiff.graph import servers
from specdiff.graph.build import _kind
from specdiff.graph.kubernetes_names import group_version_kinds


@pytest.mark.parametrize("declared", [
    {"group": "apps", "version": "v1", "kind": "Deployment"}, {"group": "", "version": "v1", "kind": "Pod"},
    {"version": 1, "kind": 2}, {}, [{"group": "batch", "version": "v1", "kind": "Job"}], [], "Pod", None,
])
def test_an_operations_kind_is_the_first_its_group_version_kind_names(declared: Any) -> None:
    operation = {} if declared is None else {"x-kubernetes-group-version-kind": declared}
    assert _kind(operation) == next(iter(group_version_kinds(operation)), None)


@pytest.mark.parametrize("schemes", [["https"], ["HTTP"], ["https", "wss"], [5], ["https", 5], []])
@pytest.mark.parametrize("data", [{"host": "api.example.com", "basePath": "/v1"}, {"basePath": "/v1"}, {}])
def test_one_scheme_reads_as_a_list_of_schemes_does(schemes: list[Any], data: dict[str, Any]) -> None:
    names = tuple(s for s in schemes if isinstance(s, str))
    general = servers._swagger(data.get("host", ""), data.get("basePath", ""), names,
                               "/paths/~1x/get/schemes" if data.get("host") and len(names) > 1 else "")
    assert servers.swagger(data, schemes, "/paths/~1x/get/schemes") == general
