"""How reports write a place (specdiff/notation.py): each ecosystem's own notation, full names kept on the context."""

from __future__ import annotations

import pytest

from specdiff.notation import folded, name, part, scope, type_name, where
from specdiff.records import Context

POD_SPEC = Context(schema="io.k8s.api.core.v1.PodSpec", path=".workloadRef", group_version="core/v1")
ROUTE = Context(schema="httproutes.gateway.networking.k8s.io/v1", path=".spec.rules[].filters[].type",
                gvk="gateway.networking.k8s.io/v1/HTTPRoute", group_version="gateway.networking.k8s.io/v1",
                document="httproutes.gateway.networking.k8s.io")


@pytest.mark.parametrize(("ctx", "named", "located"), [
    (POD_SPEC, "PodSpec.workloadRef", "core/v1 PodSpec.workloadRef"),
    (ROUTE, "HTTPRoute.spec.rules[].filters[].type",
     "gateway.networking.k8s.io/v1 HTTPRoute.spec.rules[].filters[].type"),
    (Context(schema="io.k8s.apimachinery.pkg.util.intstr.IntOrString"), "intstr.IntOrString", "intstr.IntOrString"),
    (Context(operation="POST /pets", path="request body.name"), "POST /pets request body: name",
     "POST /pets request body: name"),
    (Context(operation="GET /pets", path="response 200.items[].id"), "GET /pets response 200: items[].id",
     "GET /pets response 200: items[].id"),
    (Context(operation="GET /pets", path="response 200[].id"), "GET /pets response 200: [].id",
     "GET /pets response 200: [].id"),
    (Context(operation="GET /pets", path="query parameter filter[name]"), "GET /pets query parameter filter[name]",
     "GET /pets query parameter filter[name]"),
    (Context(operation="GET /api/v1/pods", path="response 200", group_version="core/v1"),
     "GET /api/v1/pods response 200", "GET /api/v1/pods response 200"),  # the path carries the version
    (Context(schema="Pet", path=".name"), "Pet.name", "Pet.name"),
    (Context(schema="com.example.Pet", path=".name"), "com.example.Pet.name", "com.example.Pet.name"),
    (Context(document="frobs.example.com"), "frobs.example.com", "frobs.example.com"),
    (Context(group_version="apps/v1", document="apps/v1"), "apps/v1", "apps/v1"),
])
def test_each_place_in_its_notation(ctx: Context, named: str, located: str) -> None:
    assert (name(ctx), where(ctx), ctx.label()) == (named, located, located)


def test_full_names_stay_on_the_context() -> None:
    assert (POD_SPEC.schema, POD_SPEC.long_label()) == ("io.k8s.api.core.v1.PodSpec",
                                                        "io.k8s.api.core.v1.PodSpec .workloadRef")
    assert (type_name(ROUTE), scope(ROUTE)) == ("HTTPRoute", "gateway.networking.k8s.io/v1")


def test_a_place_inside_one_of_several_operations() -> None:
    assert part(Context(operation="POST /pets", path="request body.owner.name")) == "owner.name of the request body"
    assert part(Context(operation="GET /pets", path="response 200.items[].id")) == "items[].id of response 200"
    assert part(Context(operation="GET /pets", path="query parameter limit")) == "query parameter limit"


def test_group_versions_of_one_group_are_written_once() -> None:
    assert folded(["resource.k8s.io/v1", "resource.k8s.io/v1beta2"]) == "resource.k8s.io/{v1, v1beta2}"
    assert folded(["apps/v1", "batch/v1"]) == ""
    assert folded(["core/v1"]) == "core/v1" and folded([]) == ""
