"""Records made by `specdiff.frozen.record` behave as the dataclasses they are."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from specdiff.frozen import record, refilled
from specdiff.graph.model import MediaType, Written


@record(frozen=True)
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


def _pair(body: dict[str, object], **options: bool) -> tuple[Any, Any]:
    """The same class made by `record` and by `dataclass` from the same class body."""
    made: list[Any] = []
    for decorate in (record, dataclasses.dataclass):
        fresh = {key: (dataclasses.field(default=value.default, default_factory=value.default_factory,
                                         init=value.init, repr=value.repr, hash=value.hash, compare=value.compare)
                       if isinstance(value, dataclasses.Field) else value) for key, value in body.items()}
        made.append(decorate(type("Shape", (), {"__doc__": "a shape", **fresh}), **options))
    return made[0], made[1]


_BODY: dict[str, object] = {
    "__annotations__": {"name": "str", "size": "int", "tags": "list[str]", "late": "str", "made": "list[int]"},
    "size": 0, "tags": dataclasses.field(default_factory=list),
    "late": dataclasses.field(default="later", init=False), "made": dataclasses.field(default_factory=list, init=False)}


@pytest.mark.parametrize("options", [{"frozen": True}, {"frozen": True, "slots": True}, {},
                                     {"frozen": True, "order": True, "slots": True}])
def test_the_dataclass_functions_and_copying_take_a_record_for_the_dataclass(options: dict[str, bool]) -> None:
    ours, theirs = _pair(_BODY, **options)
    a, b = ours("a", 2, ["x"]), theirs("a", 2, ["x"])
    assert all(map(dataclasses.is_dataclass, (a, b)))
    assert ours.__match_args__ == theirs.__match_args__ == ("name", "size", "tags")
    assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)
    assert dataclasses.asdict(a) == dataclasses.asdict(b) == {"name": "a", "size": 2, "tags": ["x"], "late": "later",
                                                              "made": []}
    assert dataclasses.astuple(ours("b")) == dataclasses.astuple(theirs("b"))
    assert repr(dataclasses.replace(a, size=3)) == repr(dataclasses.replace(b, size=3))
    assert copy.copy(a) == a and copy.deepcopy(a) == a  # (as pickle does: a slotted record by its values)
    assert ours("c").tags is not ours("c").tags
    if not options.get("slots"):  # (the class attributes: the defaults)
        assert [getattr(ours, name, None) for name in ("name", "size", "late")] == [None, 0, "later"]
        assert [getattr(theirs, name, None) for name in ("name", "size", "late")] == [None, 0, "later"]
    if options.get("frozen"):
        for made in (a, b):
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
                made.name = "b"
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'size'"):
                del made.size
    with pytest.raises(TypeError):
        ours()
    with pytest.raises(TypeError):
        ours("a", 1, [], "late")


def test_ordered_records_order_as_the_dataclass() -> None:
    ours, theirs = _pair({"__annotations__": {"group": "str", "kind": "str", "note": "str"}, "kind": "",
                          "note": dataclasses.field(default="", compare=False)}, frozen=True, order=True, slots=True)
    values = [("b", ""), ("a", "Z"), ("a", ""), ("a", "Z", "x"), ("b", "A")]
    assert [v for v in sorted(values, key=lambda v: ours(*v))] == [v for v in sorted(values, key=lambda v: theirs(*v))]
    for left in values:
        for right in values:
            for test in ("__lt__", "__le__", "__gt__", "__ge__"):
                assert getattr(ours(*left), test)(ours(*right)) == getattr(theirs(*left), test)(theirs(*right))
    assert ours("a").__lt__(theirs("a")) is NotImplemented


@pytest.mark.parametrize("body", [
    {"__annotations__": {"tags": "list[str]"}, "tags": []},  # a mutable default
    {"__annotations__": {"size": "int", "name": "str"}, "size": 0},  # a required field after a defaulted one
    {"__annotations__": {}, "loose": dataclasses.field(default=0)},  # a field without annotation
    {"__annotations__": {"count": "ClassVar[int]"}},
    {"__annotations__": {"name": "str", "count": "typing.ClassVar[int]"}},
    {"__annotations__": {"seed": "dataclasses.InitVar[int]"}},
    {"__annotations__": {"_": "KW_ONLY", "name": "str"}},
    {"__annotations__": {"size": "int", "hidden": "int", "name": "str"}, "size": 0,  # (past one `__init__` skips)
     "hidden": dataclasses.field(default=0, init=False)},
    {"__annotations__": {"name": "str"}, "name": dataclasses.field(kw_only=True)},
])
def test_a_record_refuses_what_it_does_not_make(body: dict[str, object]) -> None:
    with pytest.raises((TypeError, ValueError)):
        record(type("Shape", (), body))


def test_refilled_is_replace_without_init() -> None:
    media = MediaType({"type": "string"}, "/a", written=Written({"description": "ok"}, "/a"))
    moved = refilled(media, pointer="/b", written=Written(media.written.data, "/b"))
    assert moved == dataclasses.replace(media, pointer="/b", written=Written(media.written.data, "/b"))
    assert (moved.pointer, moved.written.pointer, media.pointer) == ("/b", "/b", "/a")
    assert moved.schema is media.schema
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.pointer = "/c"  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field 'pointr'"):
        refilled(media, pointr="/b")


def test_the_compiled_inits_are_those_the_record_classes_write() -> None:
    """`record_inits.py` holds the code of each record class's `__init__`, and a class uses it: `make docs` writes
    it again after a record's fields change (a text it lacks is compiled at start, as `_Record`'s is)."""
    from pathlib import Path

    from specdiff import frozen, record_inits

    assert Path(record_inits.__file__).read_text(encoding="utf-8") == frozen.init_texts(), "stale: run `make docs`"
    assert MediaType.__init__.__code__ in record_inits.COMPILED.values()
    assert _Record.__init__.__code__ not in record_inits.COMPILED.values()
    assert MediaType.__init__.__defaults__[:3] == (None, Written(), None)
