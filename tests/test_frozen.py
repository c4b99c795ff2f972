"""Records made by `specdiff.frozen` (`record`, `filled_at_once`) behave as the dataclasses they are."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from specdiff.frozen import filled_at_once, record
from specdiff.graph.model import MediaType, Written


@filled_at_once
@dataclasses.dataclass(frozen=True)
class _Record:
    name: str
    data: dict[str, int] = dataclasses.field(default_factory=dict)
    pointer: str = dataclasses.field(default="", compare=False)
    label: str = dataclasses.field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", self.name.upper())


def test_defaults_factories_and_post_init_are_the_dataclass_s() -> None:
    record = _Record("a")
    assert (record.name, record.data, record.pointer, record.label) == ("a", {}, "", "A")
    assert record.data is not _Record("b").data
    assert _Record("a", {"x": 1}, "/p") == _Record("a", {"x": 1}, "/q")  # (pointer is not compared)
    assert dataclasses.replace(record, name="b").label == "B"
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.name = "b"  # type: ignore[misc]
    with pytest.raises(TypeError):
        _Record()  # type: ignore[call-arg]


def test_graph_records_hash_compare_and_pickle_as_before() -> None:
    media = MediaType({"type": "string"}, "/paths/~1a/get/responses/200/schema",
                      written=Written({"description": "ok"}, "/x"))
    same = MediaType({"type": "string"}, "/paths/~1a/get/responses/200/schema",
                     written=Written({"description": "ok"}, "/y"))
    assert media == same and Written({}, "/a") == Written({}, "/b")
    assert pickle.loads(pickle.dumps(media)) == media
    assert media.document is None and media.item_schema is None


def _both(options: dict[str, bool], own: str = "") -> tuple[type, type]:
    """The same class made by `record` and by `dataclass`; `own` is a method the class writes itself."""
    made = []
    for decorate in (record, dataclasses.dataclass):
        body: dict[str, object] = {"__annotations__": {"name": "str", "data": "dict[str, int]", "note": "str"},
                                   "data": dataclasses.field(default_factory=dict, hash=False),
                                   "note": dataclasses.field(default="", compare=False, repr=False)}
        if own == "__eq__":
            body["__eq__"] = lambda self, other: True
        if own == "__hash__":
            body["__hash__"] = lambda self: 7
        if own == "__repr__":
            body["__repr__"] = lambda self: "mine"
        made.append(decorate(type("Shape", (), body), **options))  # type: ignore[call-overload]
    return made[0], made[1]


@pytest.mark.parametrize("options", [{"frozen": True}, {"frozen": True, "slots": True}, {"frozen": True, "eq": False},
                                     {}, {"eq": False}, {"repr": False, "frozen": True}])
@pytest.mark.parametrize("own", ["", "__eq__", "__hash__", "__repr__"])
def test_a_record_compares_hashes_and_shows_as_the_dataclass(options: dict[str, bool], own: str) -> None:
    ours, theirs = _both(options, own)
    values = [("a", {}, ""), ("a", {}, "other note"), ("a", {"x": 1}, ""), ("b", {}, "")]
    for left in values:
        for right in values:
            assert (ours(*left) == ours(*right)) == (theirs(*left) == theirs(*right)), (left, right)
            assert (ours(*left) != ours(*right)) == (theirs(*left) != theirs(*right)), (left, right)
    assert ours(*values[0]) != theirs(*values[0]) or own == "__eq__"  # (another class: never equal)
    assert (ours.__hash__ is None) == (theirs.__hash__ is None)
    if ours.__hash__ is not None:
        frozen = [("a", None, ""), ("a", None, "x"), ("b", None, "")]
        assert [hash(ours(*v)) for v in frozen] == [hash(theirs(*v)) for v in frozen]
    shown = [repr(made("a", {"x": 1}, "n")).split(" object at ")[0] for made in (ours, theirs)]  # (repr=False: its id)
    assert shown[0] == shown[1]
    assert list(map(repr, dataclasses.fields(ours))) == list(map(repr, dataclasses.fields(theirs)))
