"""A JSON pointer (RFC 6901) names the same node of parsed data wherever specdiff follows one."""

from __future__ import annotations

from specdiff.load.sourcemap import split_pointer


def test_an_empty_first_token_names_the_empty_key() -> None:
    assert split_pointer("//x") == ["", "x"]
    assert split_pointer("/") == [""]
