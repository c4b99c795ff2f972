"""The graph's shortcuts for what Kubernetes writes on every operation give what the general reading gives."""

from __future__ import annotations

from typing import Any

import pytest

from specdiff.graph import servers


@pytest.mark.parametrize("schemes", [["https"], ["HTTP"], ["https", "wss"], [5], ["https", 5], []])
@pytest.mark.parametrize("data", [{"host": "api.example.com", "basePath": "/v1"}, {"basePath": "/v1"}, {}])
def test_one_scheme_reads_as_a_list_of_schemes_does(schemes: list[Any], data: dict[str, Any]) -> None:
    names = tuple(s for s in schemes if isinstance(s, str))
    general = servers._swagger(data.get("host", ""), data.get("basePath", ""), names,
                               "/paths/~1x/get/schemes" if data.get("host") and len(names) > 1 else "")
    assert servers.swagger(data, schemes, "/paths/~1x/get/schemes") == general
