"""Who uses whom: the directed graph of operations and named schemas that a SpecGraph carries.

It keeps its edges as networkx's `DiGraph` does (`succ` and `pred`, a mapping of mappings to each edge's
attributes) and answers the same calls the run makes of it, so `to_networkx()` gives the same graph to anyone who
wants networkx's algorithms. The run itself needs one algorithm, strongly connected components, and importing
networkx costs more than a small pair's whole comparison (its algorithms, generators and readers load with the
package, and its backends are looked up among every installed distribution's entry points): see
docs/performance.md.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping
from typing import Any

Node = Any  # ("op", key) or ("schema", name) in a SpecGraph


class References:
    """A directed graph with attributes on its edges; nodes and edges iterate in the order they were added."""

    __slots__ = ("succ", "pred")

    def __init__(self) -> None:
        self.succ: dict[Node, dict[Node, dict[str, Any]]] = {}
        self.pred: dict[Node, dict[Node, dict[str, Any]]] = {}

    def __contains__(self, node: object) -> bool:
        return node in self.succ

    def __len__(self) -> int:
        return len(self.succ)

    def add_node(self, node: Node) -> None:
        if node not in self.succ:
            self.succ[node] = {}
            self.pred[node] = {}

    def add_nodes_from(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            self.add_node(node)

    def add_edge(self, source: Node, target: Node, **attributes: Any) -> None:
        self.add_edges_from(((source, target, attributes),))

    def add_edges_from(self, edges: Iterable[tuple[Node, Node, dict[str, Any]]]) -> None:
        succ, pred = self.succ, self.pred
        for source, target, attributes in edges:
            out = succ.get(source)
            if out is None:
                out = succ[source] = {}
                pred[source] = {}
            data = out.get(target)
            if data is None:
                if target not in succ:
                    succ[target], pred[target] = {}, {}
                data = out[target] = pred[target][source] = {}
            data.update(attributes)

    def remove_edges_from(self, edges: Iterable[tuple[Node, Node]]) -> None:
        for source, target in edges:
            if target in self.succ.get(source, ()):
                del self.succ[source][target]
                del self.pred[target][source]

    def remove_nodes_from(self, nodes: Iterable[Node]) -> None:
        for node in list(nodes):
            if node not in self.succ:
                continue
            for target in self.succ.pop(node):
                del self.pred[target][node]
            for source in self.pred.pop(node):
                del self.succ[source][node]

    def successors(self, node: Node) -> Iterator[Node]:
        return iter(self.succ[node])

    def out_edges(self, nodes: Node | Iterable[Node], data: str | None = None) -> list[tuple[Any, ...]]:
        """(source, target) of each edge out of one node or of several, or with `data`, (source, target, that
        attribute of the edge or None)."""
        try:
            single = nodes in self.succ
        except TypeError:  # a list of nodes
            single = False
        sources = [nodes] if single else [node for node in nodes if node in self.succ]
        if data is None:
            return [(source, target) for source in sources for target in self.succ[source]]
        return [(source, target, attributes.get(data)) for source in sources
                for target, attributes in self.succ[source].items()]

    def copy(self) -> References:
        """Another graph with the same nodes and edges, each edge's attributes copied."""
        other = References()
        other.succ = {node: {} for node in self.succ}
        other.pred = {node: {} for node in self.succ}
        for source, targets in self.succ.items():
            for target, attributes in targets.items():
                other.succ[source][target] = other.pred[target][source] = dict(attributes)
        return other

    def to_networkx(self) -> Any:
        """The same graph as a networkx `DiGraph`, for its algorithms."""
        import networkx as nx

        graph = nx.DiGraph()
        graph.add_nodes_from(self.succ)
        graph.add_edges_from((source, target, dict(attributes)) for source, targets in self.succ.items()
                             for target, attributes in targets.items())
        return graph


def ancestors_beyond(graph: References, start: Node, walked: set[Node]) -> list[Node]:
    """The ancestors of `start` (itself included) that `walked` does not hold, which takes them in. `walked`
    holds every ancestor of each node in it, so the walk stops there: a fact that follows from the paths down to a
    node (the most stable level a path to it keeps) is worked out for the new ones alone, from what the walked ones
    right above them were found to have."""
    if start in walked or start not in graph:
        return []
    pred = graph.pred
    walked.add(start)
    found = [start]
    for node in found:  # (grows as it is read)
        for parent in pred[node]:
            if parent not in walked:
                walked.add(parent)
                found.append(parent)
    return found


def components_from(edges: Mapping[Node, Iterable[Node]], roots: Iterable[Node],
                    finished: Container[Node] = ()) -> list[set[Node]]:
    """The strongly connected components of the nodes `edges` lead to from `roots`, but for the nodes of
    components found before (`finished`), each listed after every component it leads to: given the edges
    reversed (`References.pred`) and one node, the components above it, each after those above it, so that a
    caller can sum each up from the ones before; asked again for another node, only what is new is walked.

    Tarjan's algorithm, without recursion: a chain of schemas may be longer than the interpreter's stack."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    components: list[set[Node]] = []
    for root in roots:
        if root in index or root in finished:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(edges[root]))]
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    if target in finished:
                        continue
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(edges[target])))
                    break
                if target in on_stack and index[target] < low[node]:
                    low[node] = index[target]
            else:
                work.pop()
                if work and low[node] < low[work[-1][0]]:
                    low[work[-1][0]] = low[node]
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
    return components
