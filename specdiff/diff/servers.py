"""Server comparison: the base URLs an operation is called at, judged by what a configured client must change.

Servers are paired by what a client calls, in turn: the same URL with every variable at its default (a URL
rewritten as a template of itself is the same server); the same template (a default moved); the same host and
path with a scheme written on one side only (Swagger 2's `schemes` added); the same origin (the base path
moved); and, when one server is left on each side, that one (the host moved). What stays unpaired was added or
removed. A variable is compared only on servers paired by URL or template, where its meaning held.
"""

from __future__ import annotations

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
    for same in (_by_url, _by_template):
        for o, n in _paired(old_left, new_left, same):
            yield from _variables(o, n, where)
    for o, n in _paired(old_left, new_left, _scheme_written):
        yield _moved("url", o, n, where, scheme_written=True)
    for o, n in _paired(old_left, new_left, lambda a, b: origin(resolved(a)) == origin(resolved(b))):
        yield _moved("path", o, n, where)
    if len(old_left) == 1 and len(new_left) == 1:
        yield _moved("url", old_left.pop(), new_left.pop(), where)
    for server in new_left:
        yield change("added", "server", new=resolved(server), where=where, new_pointer=server.pointer,
                     url=resolved(server))
    for server in old_left:
        yield change("removed", "server", old=resolved(server), where=where, old_pointer=server.pointer,
                     url=resolved(server))


def _by_url(a: Server, b: Server) -> bool:
    return resolved(a) == resolved(b)


def _by_template(a: Server, b: Server) -> bool:
    return a.url == b.url


def _scheme_written(a: Server, b: Server) -> bool:
    """The same host and path, one side writing no scheme (called with the one the document was fetched with:
    Swagger 2 without `schemes`), the other writing one (`schemes: [https]` added to the same host)."""
    first, second = resolved(a), resolved(b)
    return first != second and (second.startswith("//") and first.endswith(":" + second)
                                or first.startswith("//") and second.endswith(":" + first))


def _paired(old: list[Server], new: list[Server], same: Callable[[Server, Server], bool]
            ) -> list[tuple[Server, Server]]:
    """Pairs that `same` matches, first come first paired; taken out of `old` and `new`."""
    pairs = []
    for o in list(old):
        n = next((n for n in new if same(o, n)), None)
        if n is not None:
            old.remove(o)
            new.remove(n)
            pairs.append((o, n))
    return pairs


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
        for value in n.enum:
            if value not in o.enum:
                yield change("added", "server", "enum", new=value, where=where, old_pointer=o.pointer,
                             new_pointer=n.pointer, url=url, variable=name, value=value)
        for value in o.enum:
            if value not in n.enum:
                yield change("removed", "server", "enum", old=value, where=where, old_pointer=o.pointer,
                             new_pointer=n.pointer, url=url, variable=name, value=value)
