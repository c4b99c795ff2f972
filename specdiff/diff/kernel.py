"""The differ's kernel: what every keyword family compares with, and what a family may ask of the differ.

Each family (core keywords and properties in diff/schemas.py, 2020-12 keywords, OpenAPI extensions, Kubernetes
extensions) states facts the same way: a keyword on one side only is `added` or `removed` (`presence`), pointed
at where it is written, else at the schema (`keyword_pointer`); values are compared in canonical form; lists of
named things (enum values, members, keys) by their keys (`keyed_difference`, graphql-core's `dict_diff`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Protocol, TypeVar

from specdiff.diff.vocabulary import Where
from specdiff.frozen import record
from specdiff.graph.model import Schema
from specdiff.load.document import Document
from specdiff.load.sourcemap import pointer_token
from specdiff.records import FLAT_TYPES, Change, ordering_text

#: one definition of "the same value", for every family: canonical JSON
canonical = ordering_text

#: a keyword that is not written (`None` is a value a spec may hold)
MISSING: Any = object()

Emit = Callable[[Change], None]
Key = TypeVar("Key", bound=Hashable)
Item = TypeVar("Item")


@record(frozen=True)
class Side:
    """One side of a comparison: the schema, where it is, and the document its refs resolve in; an `allOf`
    read as one schema also says in which part each keyword and property is written (`places`, by the pointer
    inside the joined schema: `/required`, `/properties/name`). `text` is what the object that writes the
    schema says of it, for a schema without a description of its own: a parameter's description."""

    schema: Schema
    pointer: str
    document: Document
    places: Mapping[str, str] | None = None
    text: str = ""

    def described(self) -> Schema:
        """The schema with the words written about it: its own description, else `text`."""
        return {**self.schema, "description": self.text} if self.text and "description" not in self.schema \
            else self.schema

    def place(self, *tokens: str) -> str:
        """Where a keyword (`required`) or a place inside it (`properties`, `name`) is written."""
        inside = "".join(map(pointer_token, tokens))  # (each token escaped once a run: the same few keys)
        if self.places is not None and inside in self.places:
            return self.places[inside]
        return self.pointer + inside

    def property_pointer(self, name: str) -> str:
        """Where the property `name` is written."""
        return self.place("properties", name)


class Differ(Protocol):
    """What a keyword family may ask of the schema differ: to state a fact, and to compare what it holds."""

    emit: Emit

    def compare(self, old: Side, new: Side, where: Where) -> None:
        """Compare two subschemas, reporting their changes at `where`."""

    def value(self, keyword: str, old_value: Any, new_value: Any, old: Side, new: Side, where: Where,
              node: str = "schema") -> None:
        """State a plain keyword's change (MISSING for a side that does not write it)."""

    def single(self, keyword: str, suffix: str, old: Side, new: Side, where: Where, presence: bool = True) -> None:
        """Compare a keyword holding one subschema, or state that it appeared or went."""


def presence(old_value: Any, new_value: Any, absent: Any = MISSING) -> str:
    """`added`, `removed` or `modified`, from which side holds `absent` (MISSING, or None where None cannot be
    a value)."""
    if old_value is absent:
        return "added"
    return "removed" if new_value is absent else "modified"


def keyword_pointer(side: Side, keyword: str) -> str:
    """The keyword on a side that writes it, else the schema."""
    return side.place(keyword) if keyword in side.schema else side.pointer


def keyed_difference(old: Mapping[Key, Item], new: Mapping[Key, Item]
                     ) -> tuple[list[Key], list[Key], list[Key]]:
    """(added, removed, kept) keys of two keyed collections, each in its side's order."""
    return ([key for key in new if key not in old], [key for key in old if key not in new],
            [key for key in new if key in old])


def same_value(old: Any, new: Any) -> bool:
    """Whether two values are the same in canonical form. Most of those a comparison meets are strings or absent,
    told apart here without writing each out as JSON (an encoder made for each value, for every keyword compared),
    as are lists of them (`required`, `enum`: lists of names)."""
    if old is new:
        return True
    if type(old) in FLAT_TYPES and type(new) in FLAT_TYPES:
        return type(old) is type(new) and bool(old == new)
    if type(old) is list and type(new) is list:
        kinds = list(map(type, old))
        if FLAT_TYPES.issuperset(kinds):
            return bool(old == new) and kinds == list(map(type, new))
    return canonical(old) == canonical(new)


def by_value(values: list[Any]) -> dict[Any, int]:
    """A list's values keyed by canonical form, with their index: enum values compare by meaning, not spelling."""
    return {canonical(value): i for i, value in enumerate(values)}


def mapping(value: Any) -> dict[str, Any]:
    """A keyword's value when it is a mapping, else none (a wrong-typed keyword holds nothing to compare)."""
    return value if isinstance(value, dict) else {}
