"""A JSON pointer (RFC 6901) names the same node of parsed data wherever specdiff follows one."""

from __future__ import annotations

from typing import Any

from specdiff.load.sourcemap import NOTHING, at_pointer, nodes_along, split_pointer

DATA: dict[str, Any] = {
    "paths": {"/pets/{id}": {"get": {"tags": ["a", "b"], "default": None}}},
    "a~b": {"": 1},
    "list": [{"x": 0}, [10, 11]],
}


def test_a_pointer_leads_through_mappings_and_lists() -> None:
    assert at_pointer(DATA, "/paths/~1pets~1{id}/get/tags/1") == "b"
    assert at_pointer(DATA, "/list/1/0") == 10
    assert at_pointer(DATA, "/list/0/x") == 0


def test_escaped_tokens_name_keys_with_a_tilde_or_a_slash() -> None:
    assert at_pointer(DATA, "/a~0b/") == 1  # `~0` is `~`; the last token is the empty key
    assert at_pointer(DATA, "/a~01") is NOTHING  # `~01` is `~1`, not `/`


def test_tokens_already_split_are_followed_as_they_are() -> None:
    assert at_pointer(DATA, ["paths", "/pets/{id}", "get", "tags", "0"]) == "a"
    assert at_pointer(DATA, ["a~b", ""]) == 1


def test_the_empty_pointer_names_the_whole_document() -> None:
    assert at_pointer(DATA, "") is DATA
    assert at_pointer(DATA, []) is DATA
    assert at_pointer(None, "") is None


def test_a_stored_null_is_not_nothing() -> None:
    assert at_pointer(DATA, "/paths/~1pets~1{id}/get/default") is None
    assert at_pointer(DATA, "/paths/~1pets~1{id}/get/examples") is NOTHING
    assert at_pointer(DATA, "/paths/~1pets~1{id}/get/default/x") is NOTHING


def test_an_index_names_an_item_only_within_the_list_and_without_a_leading_zero() -> None:
    assert at_pointer(DATA, "/list/2") is NOTHING
    assert at_pointer(DATA, "/list/01") is NOTHING
    assert at_pointer(DATA, "/list/-") is NOTHING
    assert at_pointer(DATA, "/list/²") is NOTHING
    assert at_pointer(DATA, "/list/1/-1") is NOTHING


def test_a_token_leads_nowhere_below_a_scalar() -> None:
    assert at_pointer(DATA, "/paths/~1pets~1{id}/get/tags/0/0") is NOTHING


def test_an_empty_first_token_names_the_empty_key() -> None:
    assert split_pointer("//x") == ["", "x"]
    assert split_pointer("/") == [""]
    assert at_pointer({"": {"x": 1}, "x": 2}, "//x") == 1


def test_the_nodes_along_a_pointer_are_each_token_s_node_up_to_where_it_leads_nowhere() -> None:
    get = DATA["paths"]["/pets/{id}"]["get"]
    assert list(nodes_along(DATA, "/paths/~1pets~1{id}/get/tags/1")) == [
        DATA["paths"], DATA["paths"]["/pets/{id}"], get, get["tags"], "b"]
    assert list(nodes_along(DATA, "/list/1/5/x")) == [DATA["list"], DATA["list"][1]]
    assert list(nodes_along(DATA, "")) == []
