"""The graph's records built by `specdiff.frozen.filled_at_once` behave as the frozen dataclasses they are."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from specdiff.frozen import filled_at_once
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
    media = MediaType("application/json", {"type": "string"}, "/paths/~1a/get/responses/200/schema",
                      written=Written({"description": "ok"}, "/x"))
    same = MediaType("application/json", {"type": "string"}, "/paths/~1a/get/responses/200/schema",
                     written=Written({"description": "ok"}, "/y"))
    assert media == same and Written({}, "/a") == Written({}, "/b")
    assert pickle.loads(pickle.dumps(media)) == media
    assert media.document is None and media.item_schema is None
