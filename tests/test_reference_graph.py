"""The graph of who uses whom (specdiff/graph/references.py) keeps networkx's `DiGraph` shape and finds the same
strongly connected components as networkx, which the run no longer imports (docs/performance.md)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from specdiff.graph.references import References, ancestors_beyond, components_from

_EDGES = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=40)


def _graph(nodes: int, edges: list[tuple[int, int]]) -> References:
    graph = References()
    graph.add_nodes_from(range(nodes))
    for source, target in edges:
        graph.add_edge(source, target, directions={"request"})
    return graph


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 13), _EDGES)
def test_strongly_connected_components_are_networkx_s(nodes: int, edges: list[tuple[int, int]]) -> None:
    graph = _graph(nodes, edges)
    ours = sorted(sorted(component) for component in components_from(graph.succ, graph.succ))
    theirs = sorted(sorted(component) for component in nx.strongly_connected_components(graph.to_networkx()))
    assert ours == theirs


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 13), _EDGES, st.lists(st.integers(0, 12), max_size=6))
def test_the_components_above_nodes_asked_one_by_one_are_networkx_s_each_after_those_above_it(
        nodes: int, edges: list[tuple[int, int]], asked: list[int]) -> None:
    graph = _graph(nodes, edges)
    theirs = graph.to_networkx()
    placed: dict[int, int] = {}
    walked: set[int] = set()
    for node in (n for n in asked if n in graph):
        before = set(walked)
        new = ancestors_beyond(graph, node, walked)
        found = components_from(graph.pred, (node,), placed)
        for component in found:
            assert all(parent in placed or parent in component for member in component
                       for parent in graph.pred[member])  # every component above it came before
            placed.update(dict.fromkeys(component, len(placed)))
        above = nx.ancestors(theirs, node) | {node}
        assert sorted(new) == sorted(above - before) and walked == before | above
        assert sorted(sorted(component) for component in found) == sorted(
            sorted(component) for component in nx.strongly_connected_components(theirs.subgraph(above))
            if not component & before)
        assert set(placed) == walked


def test_a_chain_longer_than_the_stack_is_walked_without_recursion() -> None:
    graph = _graph(0, [(i, i + 1) for i in range(20_000)] + [(20_000, 0)])
    assert [len(component) for component in components_from(graph.succ, graph.succ)] == [20_001]


def test_edges_keep_their_attributes_through_a_copy_and_removals() -> None:
    graph = _graph(0, [(0, 1), (0, 2), (1, 2), (2, 0)])
    graph.add_edge(0, 1, directions={"response"})
    copy = graph.copy()
    copy.remove_nodes_from([0])
    graph.remove_edges_from([(1, 2), (5, 6)])
    assert graph.out_edges([0, 1, 9], data="directions") == [(0, 1, {"response"}), (0, 2, {"request"})]
    assert graph.out_edges(2) == [(2, 0)]
    assert list(graph.successors(1)) == [] and list(graph.pred[0]) == [2]
    assert 0 not in copy and copy.out_edges([1, 2]) == [(1, 2)]
    assert dict(copy.pred[2]) == {1: {"directions": {"request"}}}
    assert sorted(graph.to_networkx().edges(data="directions")) == [(0, 1, {"response"}), (0, 2, {"request"}),
                                                                     (2, 0, {"request"})]
