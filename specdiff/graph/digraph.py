"""The reference graph's shape: a directed graph of hashable nodes with data on its edges, and its strongly
connected components. These few calls are all specdiff asks of a graph; networkx, which gave them before,
took a third of a small run's start-up to import (its algorithms and readers load with the package)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

#: ("op", operation key) or ("schema", schema name)
Node = tuple[str, str]


class DiGraph:
    """Successors and predecessors as dicts keyed in insertion order (a walk visits them in the order the spec
    wrote them); each edge's data is one dict shared by both."""

    __slots__ = ("succ", "pred")

    def __init__(self) -> None:
        self.succ: dict[Node, dict[Node, dict[str, Any]]] = {}
        self.pred: dict[Node, dict[Node, dict[str, Any]]] = {}

    def __contains__(self, node: object) -> bool:
        return node in self.succ

    def add_node(self, node: Node) -> None:
        if node not in self.succ:
            self.succ[node] = {}
            self.pred[node] = {}

    def add_nodes_from(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            self.add_node(node)

    def add_edge(self, source: Node, target: Node, **data: Any) -> None:
        self.add_node(source)
        self.add_node(target)
        found = self.succ[source].get(target)
        if found is None:
            found = self.succ[source][target] = self.pred[target][source] = {}
        found.update(data)

    def add_edges_from(self, edges: Iterable[tuple[Node, Node] | tuple[Node, Node, dict[str, Any]]]) -> None:
        """Edges as (source, target) or (source, target, data)."""
        for edge in edges:
            self.add_edge(edge[0], edge[1], **(edge[2] if len(edge) > 2 else {}))

    def remove_edges_from(self, edges: Iterable[tuple[Node, ...]]) -> None:
        for source, target, *_ in edges:
            if target in self.succ.get(source, {}):
                del self.succ[source][target]
                del self.pred[target][source]

    def remove_nodes_from(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if node not in self.succ:
                continue
            for target in self.succ.pop(node):
                del self.pred[target][node]
            for source in self.pred.pop(node):
                del self.succ[source][node]

    def successors(self, node: Node) -> Iterator[Node]:
        return iter(self.succ[node])

    def out_edges(self, nodes: Iterable[Node], data: str = "") -> Iterator[tuple[Node, Node, Any]]:
        """(source, target, the edge's `data` value or None) for the edges leaving `nodes` in the graph."""
        for source in nodes:
            for target, found in self.succ.get(source, {}).items():
                yield source, target, found.get(data)

    def copy(self) -> DiGraph:
        """The same nodes and edges, each edge's data copied: removing from the copy leaves this one whole."""
        twin = DiGraph()
        twin.add_nodes_from(self.succ)
        for source, targets in self.succ.items():
            for target, found in targets.items():
                twin.add_edge(source, target, **found)
        return twin


@dataclass(frozen=True, slots=True)
class Components:
    """The graph's strongly connected components (schemas that refer to each other are one), numbered, with the
    components that point into each."""

    of: dict[Node, int]  # node -> its component
    members: list[frozenset[Node]]  # component -> its nodes
    pred: dict[int, set[int]]  # component -> the components with an edge into it


def components(graph: DiGraph) -> Components:
    """Tarjan's algorithm, walked with an explicit stack: a chain of thousands of `$ref`s recurses no deeper."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    of: dict[Node, int] = {}
    members: list[frozenset[Node]] = []

    def visit(node: Node) -> tuple[Node, Iterator[Node]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return node, iter(graph.succ[node])

    for root in graph.succ:
        if root in index:
            continue
        work = [visit(root)]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    work.append(visit(child))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group: set[Node] = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        of[member] = len(members)
                        group.add(member)
                        if member == node:
                            break
                    members.append(frozenset(group))
    pred: dict[int, set[int]] = {component: set() for component in range(len(members))}
    for source, targets in graph.succ.items():
        for target in targets:
            if of[source] != of[target]:
                pred[of[target]].add(of[source])
    return Components(of, members, pred)
