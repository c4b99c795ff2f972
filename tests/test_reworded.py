"""A pair of named schemas that differs only in the words of its descriptions is not walked
(`SchemaDiffer._worded_apart`): most named pairs that differ between two Kubernetes releases are that; and a
pair of schemas apart only in keywords whose family reads nothing else is compared by those families alone
(`SchemaDiffer._apart_in_own_keywords`). What the words or the values beside them still say is found as the
whole walk finds it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import real_graphed

from specdiff.diff import diff
from specdiff.diff.schemas import SchemaDiffer
from specdiff.load import load_text
from specdiff.pipeline import compare_graphed, graphed


def _spec(schemas: dict[str, Any]) -> str:
    """A response naming `Thing`, with `schemas` as the named schemas."""
    ok = {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                       "paths": {"/things": {"get": {"responses": {"200": ok}}}}, "components": {"schemas": schemas}})


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str | None, Any, Any]]:
    found = diff(graphed(load_text(_spec(old), "old.json", None)).graph,
                 graphed(load_text(_spec(new), "new.json", None)).graph)
    return [(c.kind, c.node, c.attribute, c.old, c.new) for c in found]


def _thing(words: str, **beside: Any) -> dict[str, Any]:
    """`Thing`, whose field `a` says `words`, its items refer to `Part` beside other words, and `beside` more."""
    return {"Thing": {"type": "object", "description": words, "properties": {
        "a": {"type": "string", "description": words, **beside},
        "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Part", "description": words}}}},
        "Part": {"type": "object", "properties": {"b": {"type": "integer"}}}}


def test_a_pair_reworded_is_not_walked(monkeypatch: Any) -> None:
    walked: list[str] = []
    keywords = SchemaDiffer._keywords

    def counted(differ: SchemaDiffer, *args: Any, **kwargs: Any) -> None:
        walked.append(args[0].pointer)
        keywords(differ, *args, **kwargs)

    monkeypatch.setattr(SchemaDiffer, "_keywords", counted)
    assert _changes(_thing("Old words."), _thing("New words.")) == []
    assert walked == []
    assert _changes(_thing("Old words.", maxLength=3), _thing("New words.", maxLength=2)) == [
        ("modified", "schema", "maxLength", 3, 2)]
    assert walked == ["/components/schemas/Thing", "/components/schemas/Thing/properties/a",
                      "/components/schemas/Thing/properties/parts"]


def test_what_reworded_descriptions_still_say_is_found() -> None:
    """The values a Kubernetes enum lists in its description; a value of another type beside the words (`1` and
    `true` are equal in Python); a change of the schema a reference beside the words names, found at that
    schema."""
    listed = "Kind.\n\nPossible enum values:\n - `\"A\"` one.\n - `\"B\"` two."
    assert _changes(_thing(listed), _thing(listed.replace(" - `\"B\"` two.", ""))) == [
        ("removed", "enum-value", "enum", "B", None)] * 2  # (`Thing` and its field `a`)
    assert _changes(_thing("Old words.", default=1), _thing("New words.", default=True)) == [
        ("modified", "schema", "default", 1, True)]
    old, new = _thing("Old words."), _thing("New words.")
    new["Part"]["properties"]["b"]["type"] = "string"
    assert _changes(old, new) == [("modified", "schema", "type", "integer", "string")]


def test_a_field_apart_only_in_its_own_keywords_is_compared_by_their_families_alone(monkeypatch: Any) -> None:
    """A field that gains a Kubernetes list type and a limit, beside reworded words: only the families that
    read those keywords are asked; a change beside them that another family reads (an enum) is still found."""
    asked: list[str] = []
    composition = SchemaDiffer._composition

    def counted(differ: SchemaDiffer, keyword: str, *args: Any) -> dict[str, str]:
        asked.append(keyword)
        return composition(differ, keyword, *args)

    monkeypatch.setattr(SchemaDiffer, "_composition", counted)
    old = _thing("Old words.", maxLength=3)
    new = _thing("New words.", maxLength=2, **{"x-kubernetes-list-type": "atomic"})
    assert _changes(old, new) == [("modified", "schema", "maxLength", 3, 2),
                                  ("modified", "extension", "x-kubernetes-list-type", None, "atomic")]
    assert asked == []
    old["Thing"]["properties"]["a"]["enum"], new["Thing"]["properties"]["a"]["enum"] = ["x", "y"], ["x"]
    assert _changes(old, new) == [("modified", "schema", "maxLength", 3, 2),
                                  ("removed", "enum-value", "enum", "y", None),
                                  ("modified", "extension", "x-kubernetes-list-type", None, "atomic")]


def test_a_removed_schema_the_words_call_a_deprecated_alias_names_what_it_stood_for() -> None:
    """The words are read only when they hold the word: "DEPRECATED - use Part instead." in any case."""
    old, new = _thing("Words."), _thing("Words.")
    old["OldPart"] = {"$ref": "#/components/schemas/Part", "description": "  DEPRECATED - use Part instead."}
    found = diff(graphed(load_text(_spec(old), "old.json", None)).graph,
                 graphed(load_text(_spec(new), "new.json", None)).graph)
    assert [(c.kind, c.old, c.fact("alias_of")) for c in found] == [("removed", "OldPart", "Part")]


@pytest.mark.parametrize(("old", "new"), [
    ("kubernetes/v2/swagger-v1.32.json", "kubernetes/v2/swagger-v1.35.json"),
    ("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json"),
    ("kubernetes/v3/v1.27/apis__apps__v1_openapi.json", "kubernetes/v3/v1.30/apis__apps__v1_openapi.json")])
def test_on_real_releases_passing_over_pairs_finds_what_the_whole_walk_finds(old: str, new: str,
                                                                           monkeypatch: Any) -> None:
    """Both passes vouch for a pair from what the walk reads: a rule that comes to read more (words of a
    description, a keyword family) makes them skip what it would find, and this tells."""
    passing = compare_graphed(real_graphed(old), real_graphed(new))
    monkeypatch.setattr(SchemaDiffer, "_worded_apart", lambda *_: False)
    monkeypatch.setattr(SchemaDiffer, "_apart_in_own_keywords", lambda *_: False)
    walking = compare_graphed(real_graphed(old), real_graphed(new))
    assert passing.findings == walking.findings
    assert passing.findings  # (each pair brings changes of its own)
