"""The reference graph's own directed graph (specdiff/graph/digraph.py): edges with data, removal, copies, and
strongly connected components."""

from __future__ import annotations

import random

import pytest

from specdiff.graph.digraph import DiGraph, components


def _schema(name: str) -> tuple[str, str]:
    return ("schema", name)


def test_edges_carry_their_data_and_removal_keeps_both_directions_in_step() -> None:
    graph = DiGraph()
    graph.add_edges_from([(("op", "GET /a"), _schema("A"), {"directions": {"response"}}), (_schema("A"), _schema("B"))])
    assert list(graph.out_edges([("op", "GET /a")], data="directions")) == [
        (("op", "GET /a"), _schema("A"), {"response"})]
    assert list(graph.successors(_schema("A"))) == [_schema("B")]
    copy = graph.copy()
    copy.remove_nodes_from([_schema("A")])
    assert (_schema("A") in copy, list(copy.succ[("op", "GET /a")]), list(copy.pred[_schema("B")])) == (False, [], [])
    assert list(graph.pred[_schema("B")]) == [_schema("A")]  # the original is whole
    graph.remove_edges_from([(_schema("A"), _schema("B"))])
    assert (list(graph.succ[_schema("A")]), list(graph.pred[_schema("B")])) == ([], [])


def test_schemas_that_refer_to_each_other_are_one_component() -> None:
    graph = DiGraph()
    graph.add_edges_from([(_schema("A"), _schema("B")), (_schema("B"), _schema("C")), (_schema("C"), _schema("B")),
                          (_schema("C"), _schema("D"))])
    found = components(graph)
    assert sorted(sorted(name for _, name in members) for members in found.members) == [["A"], ["B", "C"], ["D"]]
    cycle = found.of[_schema("B")]
    assert found.of[_schema("C")] == cycle
    assert found.pred[cycle] == {found.of[_schema("A")]}
    assert found.pred[found.of[_schema("D")]] == {cycle}


def test_a_long_chain_is_walked_without_recursion() -> None:
    graph = DiGraph()
    graph.add_edges_from((_schema(str(i)), _schema(str(i + 1))) for i in range(50_000))
    assert len(components(graph).members) == 50_001


@pytest.mark.parametrize("seed", range(20))
def test_components_agree_with_networkx(seed: int) -> None:
    nx = pytest.importorskip("networkx")
    rng = random.Random(seed)
    edges = [(_schema(str(rng.randrange(30))), _schema(str(rng.randrange(30)))) for _ in range(rng.randrange(10, 60))]
    graph, reference = DiGraph(), nx.DiGraph()
    graph.add_edges_from(edges)
    reference.add_edges_from(edges)
    assert sorted(map(sorted, components(graph).members)) == sorted(
        map(sorted, nx.strongly_connected_components(reference)))
