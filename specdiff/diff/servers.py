"""Server comparison: the base URLs an operation is called at, judged by what a configured client must change.

Servers are paired by what a client calls, in turn: the same URL with every variable at its default (a URL
rewritten as a template of itself is the same server); the same template (a default moved); the same host and
path with a scheme written on one side only (Swagger 2's `schemes` added); the same origin (the base path
moved); and, when one server is left on each side, that one (the host moved). What stays unpaired was added or
removed. A variable is compared only on servers paired by URL or template, where its meaning held.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

from specdiff.diff.kernel import keyed_difference
from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import Server
from specdiff.graph.servers import origin, resolved
from specdiff.records import Change


def server_changes(old: tuple[Server, ...], new: tuple[Server, ...], where: Where) -> Iterator[Change]:
    """The changes between two operations' effective servers (`where` is the new operation's, as a request)."""
    if old == new or not old or not new:
        return
    old_left, new_left = list(old), list(new)
    url = {id(server): resolved(server) for server in (*old, *new)}  # each server's URL worked out once
    for key in (lambda s: url[id(s)], lambda s: s.url):  # the same URL, then the same template
        for o, n in _paired(old_left, new_left, key):
            yield from _variables(o, n, where)
    for o, n in _scheme_written(old_left, new_left, url):
        yield _moved("url", o, n, where, scheme_written=True)
    for o, n in _paired(old_left, new_left, lambda s: origin(url[id(s)])):
        yield _moved("path", o, n, where)
    if len(old_left) == 1 and len(new_left) == 1:
        yield _moved("url", old_left.pop(), new_left.pop(), where)
    for server in new_left:
        yield change("added", "server", new=url[id(server)], where=where, new_pointer=server.pointer,
                     url=url[id(server)])
    for server in old_left:
        yield change("removed", "server", old=url[id(server)], where=where, old_pointer=server.pointer,
                     url=url[id(server)])


def _paired(old: list[Server], new: list[Server], key: Callable[[Server], str | None],
            new_key: Callable[[Server], str | None] | None = None) -> list[tuple[Server, Server]]:
    """Pairs with the same `key` (`new_key` for the new servers, when it differs), first come first paired;
    taken out of `old` and `new`; a server keyed None pairs with none. Linear: the new servers are indexed by
    key, not searched once per old server."""
    waiting: dict[str, deque[int]] = {}
    for i, server in enumerate(new):
        found = (new_key or key)(server)
        if found is not None:
            waiting.setdefault(found, deque()).append(i)
    pairs, taken, kept = [], set(), []
    for o in old:
        wanted = key(o)
        queue = waiting.get(wanted) if wanted is not None else None
        if queue:
            i = queue.popleft()
            taken.add(i)
            pairs.append((o, new[i]))
        else:
            kept.append(o)
    old[:] = kept
    new[:] = [server for i, server in enumerate(new) if i not in taken]
    return pairs


def _scheme_written(old: list[Server], new: list[Server], url: dict[int, str]) -> list[tuple[Server, Server]]:
    """Pairs with the same host and path where one side writes no scheme (called with the one the document was
    fetched with: Swagger 2 without `schemes`) and the other writes one (`schemes: [https]` added to the same
    host); taken out of `old` and `new`."""
    def bare(server: Server) -> str | None:
        return url[id(server)] if url[id(server)].startswith("//") else None

    def schemeless(server: Server) -> str | None:
        _, colon, rest = url[id(server)].partition(":")
        return rest if colon and rest.startswith("//") else None

    return _paired(old, new, bare, schemeless) + _paired(old, new, schemeless, bare)


def _moved(attribute: str, old: Server, new: Server, where: Where, **facts: bool) -> Change:
    return change("modified", "server", attribute, old=resolved(old), new=resolved(new), where=where,
                  old_pointer=old.pointer, new_pointer=new.pointer, url=resolved(new), **facts)


def _variables(old: Server, new: Server, where: Where) -> Iterator[Change]:
    url = resolved(new)
    before = {v.name: v for v in old.variables}
    after = {v.name: v for v in new.variables}
    added, removed, kept = keyed_difference(before, after)
    for name in added:
        yield change("added", "server", "variable", new=name, where=where, new_pointer=after[name].pointer,
                     url=url, variable=name)
    for name in removed:
        yield change("removed", "server", "variable", old=name, where=where, old_pointer=before[name].pointer,
                     url=url, variable=name)
    for name in kept:
        o, n = before[name], after[name]
        if o.default != n.default:
            yield change("modified", "server", "default", old=o.default, new=n.default, where=where,
                         old_pointer=o.pointer, new_pointer=n.pointer, url=url, variable=name)
        if (o.enum is None) != (n.enum is None):  # any value became a list or the reverse: no card judges it yet
            yield change("modified", "server", "enum", old=o.enum and list(o.enum), new=n.enum and list(n.enum),
                         where=where, old_pointer=o.pointer, new_pointer=n.pointer, url=url, variable=name)
        if o.enum is None or n.enum is None:
            continue
        before_values, after_values = set(o.enum), set(n.enum)  # tens of thousands of values: no list search
        for value in n.enum:
            if value not in before_values:
                yield change("added", "server", "enum", new=value, where=where, old_pointer=o.pointer,
                             new_pointer=n.pointer, url=url, variable=name, value=value)
        for value in o.enum:
            if value not in after_values:
                yield change("removed", "server", "enum", old=value, where=where, old_pointer=o.pointer,
                             new_pointer=n.pointer, url=url, variable=name, value=value)
