"""Security compared by what a client must present.

An operation's requirement is an OR of alternatives, each an AND of schemes with scopes (graph/security.py
resolves it per operation). A client holds the credentials of one old alternative; it keeps working when some
new alternative asks for no scheme or scope beyond them (`Requirement.within`), which the `still_met` fact says
of every change to an alternative. Alternatives are paired before they are compared, so a scope added to one
alternative is that, not one alternative removed and another added. Schemes are compared by name, each by what
a client does with it: where it sends the key, which HTTP scheme, which OAuth flows and URLs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import Any

from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import OAuthFlow, Requirement, Security, SecurityScheme, SpecGraph
from specdiff.graph.security import settled
from specdiff.load.sourcemap import join_pointer
from specdiff.records import Change, Context, Part

# -- requirements ---------------------------------------------------------------------------------
#: a change to a requirement as every operation with that pair of requirements states it: kind, node,
#: attribute and what it says, less where (the operation's)
Said = tuple[str, str, str, dict[str, Any]]
#: the changes found for a pair of requirements, by the pair and where each is written: a document's `security`
#: is every operation's, so thousands of operations share one pair, compared once
Known = dict[tuple[str, str, Security, Security, bool], list[Said]]


def requirement_changes(old: Security, new: Security, where: Where, api_server: bool,
                        known: Known | None = None) -> Iterator[Change]:
    """What changed in an operation's effective security: anonymous access taken away or given, then each
    alternative that asks for credentials on both sides. A side that does not state its security (in a
    Kubernetes API server's spec, `api_server`: graph.security.settled) is not compared. `known` keeps what
    pairs already compared found."""
    key = (old.pointer, new.pointer, old, new, api_server)
    said = known.get(key) if known is not None else None
    if said is None:
        said = list(_requirement_changes(old, new, api_server))
        if known is not None:
            known[key] = said
    at = where.at("security")
    for kind, node, attribute, facts in said:
        yield change(kind, node, attribute, where=at, **facts)


def _requirement_changes(old: Security, new: Security, api_server: bool) -> Iterator[Said]:
    """`requirement_changes` for one pair of requirements, wherever it is met."""
    old, new = settled(old, api_server), settled(new, api_server)
    if old == new or not (old.stated and new.stated):
        return
    if old.open != new.open:
        kind, side = ("added", new) if old.open else ("removed", old)
        listed = phrase(side.required()) or "no scheme"
        yield kind, "security", "", {"old": None if old.open else listed, "new": listed if old.open else None,
                                     "old_pointer": old.pointer or None, "new_pointer": new.pointer or None,
                                     "schemes": listed}
    before, after = old.required(), new.required()
    if not before or not after:
        return  # one side asks for nothing: the change above says it all
    kept, still_listed = set(before), set(after)
    fresh, offered = _Alternatives([b for b in after if b not in kept]), _Alternatives(list(after))
    anyone = new.open  # worked out once: it reads every alternative
    for alternative in before:
        if alternative in still_listed:
            continue
        met = anyone or offered.any_within(alternative)
        partner = fresh.partner(alternative)
        if partner is None:
            yield "removed", "security-requirement", "", {
                "old": phrase((alternative,)), "old_pointer": alternative.pointer,
                "requirement": phrase((alternative,)), "still_met": met}
            continue
        yield from _alternative(alternative, partner, met)
    for alternative in fresh.left():
        yield "added", "security-requirement", "", {"new": phrase((alternative,)), "new_pointer": alternative.pointer,
                                                    "requirement": phrase((alternative,))}


#: up to how many schemes an alternative's subsets are looked up one by one (2^6 - 1 lookups at most)
_FEW_SCHEMES = 6


class _Alternatives:
    """New alternatives indexed by the schemes they name, so that the one an old alternative became, and whether
    some new alternative asks for no more than an old one, are found among the alternatives sharing its schemes
    rather than by trying every new alternative for every old one."""

    def __init__(self, alternatives: list[Requirement]) -> None:
        self._items = alternatives
        self._left = set(range(len(alternatives)))
        self._naming: dict[str, list[int]] = {}  # scheme -> the alternatives naming it, in order
        self._by_names: dict[frozenset[str], list[int]] = {}
        for i, alternative in enumerate(alternatives):
            for name, _ in alternative.schemes:
                self._naming.setdefault(name, []).append(i)
            self._by_names.setdefault(alternative.names(), []).append(i)

    def _inside(self, names: frozenset[str]) -> list[int]:
        """The alternatives that name only schemes among `names`, in order: looked up by each set of those
        names when they are few (an alternative names one to three schemes), so that a scheme every alternative
        names does not make each lookup read them all; else counted from the alternatives naming each."""
        if len(names) <= _FEW_SCHEMES:
            ordered = sorted(names)
            return sorted(i for size in range(1, len(ordered) + 1) for chosen in combinations(ordered, size)
                          for i in self._by_names.get(frozenset(chosen), ()))
        counts: dict[int, int] = {}
        for name in names:
            for i in self._naming.get(name, ()):
                counts[i] = counts.get(i, 0) + 1
        return sorted(i for i, count in counts.items() if count == len(self._items[i].schemes))

    def _around(self, names: frozenset[str]) -> list[int]:
        """The alternatives that name every scheme in `names`, in order."""
        postings = sorted((self._naming.get(name, []) for name in names), key=len)
        rest = [set(p) for p in postings[1:]]
        return [i for i in postings[0] if all(i in p for p in rest)] if postings else []

    def any_within(self, old: Requirement) -> bool:
        """Whether a client that meets `old` meets some alternative (`Requirement.within`)."""
        return any(self._items[i].within(old) for i in self._inside(old.names()))

    def partner(self, old: Requirement) -> Requirement | None:
        """The alternative the old one became, taken out: the first with the same schemes, else with more of
        them, else with fewer."""
        names = old.names()
        found = next((i for i in self._by_names.get(names, ()) if i in self._left), None)
        if found is None:
            found = next((i for i in self._around(names)
                          if i in self._left and len(self._items[i].schemes) > len(names)), None)
        if found is None:
            found = next((i for i in self._inside(names)
                          if i in self._left and len(self._items[i].schemes) < len(names)), None)
        if found is None:
            return None
        self._left.discard(found)
        return self._items[found]

    def left(self) -> list[Requirement]:
        """The alternatives no old one became, in order."""
        return [self._items[i] for i in sorted(self._left)]


def _alternative(old: Requirement, new: Requirement, met: bool) -> Iterator[Said]:
    """Schemes and scopes one alternative gained or lost; `met`: its clients are still let in."""
    held, wanted = dict(old.schemes), dict(new.schemes)
    facts: dict[str, Any] = {"requirement": phrase((old,)), "still_met": met}
    for name in sorted(wanted.keys() - held.keys()):
        yield "added", "security-requirement", "scheme", {
            "new": _one(name, wanted[name]), "new_pointer": new.pointer + join_pointer((name,)), "scheme": name,
            **facts}
    for name in sorted(held.keys() - wanted.keys()):
        yield "removed", "security-requirement", "scheme", {
            "old": _one(name, held[name]), "old_pointer": old.pointer + join_pointer((name,)), "scheme": name,
            **facts}
    for name in sorted(held.keys() & wanted.keys()):
        gained, lost = sorted(wanted[name] - held[name]), sorted(held[name] - wanted[name])
        if gained:
            yield "added", "security-requirement", "scope", {
                "new": gained, "new_pointer": new.pointer + join_pointer((name,)), "scheme": name,
                "scopes": _listing(gained), **facts}
        if lost:
            yield "removed", "security-requirement", "scope", {
                "old": lost, "old_pointer": old.pointer + join_pointer((name,)), "scheme": name,
                "scopes": _listing(lost), **facts}


def phrase(alternatives: Iterable[Requirement]) -> str:
    """`api_key or petstore_auth (read:pets, write:pets)`: alternatives with or, the schemes of one with and."""
    return " or ".join(" and ".join(_one(name, scopes) for name, scopes in a.schemes) for a in alternatives)


def _one(name: str, scopes: frozenset[str]) -> str:
    return f"{name} ({', '.join(sorted(scopes))})" if scopes else name


def _listing(scopes: list[str]) -> str:
    """`scope write:pets`, `scopes read:pets and write:pets`."""
    if len(scopes) == 1:
        return f"scope {scopes[0]}"
    return f"scopes {', '.join(scopes[:-1])} and {scopes[-1]}"


# -- schemes ------------------------------------------------------------------------------------------
def scheme_changes(old: SpecGraph, new: SpecGraph) -> Iterator[Change]:
    """Schemes added, removed or changed, each with the operations that ask for it (the old ones for a scheme no
    operation names any more)."""
    if old.security_schemes == new.security_schemes:
        return  # (most pairs: then who uses each scheme, a walk over every operation, is not asked)
    old_users, new_users = users(old), users(new)
    for name, scheme in new.security_schemes.items():
        before = old.security_schemes.get(name)
        facts: dict[str, Any] = {"scheme": name, "in_use": name in new_users, "operations": new_users.get(name, ()),
                                 "used_by": _used_by(new_users.get(name, ()))}
        if before is None:
            yield change("added", "security-scheme", where=_where(name), new=name, new_pointer=scheme.pointer,
                         **facts)
        elif before != scheme:
            yield from _scheme(before, scheme, _where(name), facts)
    for name, scheme in old.security_schemes.items():
        if name not in new.security_schemes:
            reached = new_users.get(name) or old_users.get(name, ())
            yield change("removed", "security-scheme", where=_where(name), old=name, old_pointer=scheme.pointer,
                         scheme=name, in_use=name in new_users, operations=reached,
                         used_by=_used_by(new_users.get(name, ())))


def users(graph: SpecGraph) -> dict[str, tuple[str, ...]]:
    """Scheme name -> the operations whose effective security names it (sorted labels); the API's own, not the
    webhooks and callbacks it sends."""
    found: dict[str, set[str]] = {}
    for op in graph.operations.values():
        if not op.reversed:
            for alternative in op.security.alternatives:
                for name, _ in alternative.schemes:
                    found.setdefault(name, set()).add(op.label)
    return {name: tuple(sorted(labels)) for name, labels in found.items()}


def _used_by(labels: tuple[str, ...]) -> str:
    """`GET /pets and POST /pets`, `GET /a, GET /b, GET /c and 397 more operations`, `no operation`."""
    if not labels:
        return "no operation"
    if len(labels) > 4:
        return f"{', '.join(labels[:3])} and {len(labels) - 3} more operations"
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def _where(name: str) -> Where:
    return Where(Context(part=Part("security scheme", name=name)), "request")


def _scheme(old: SecurityScheme, new: SecurityScheme, where: Where, facts: dict[str, Any]) -> Iterator[Change]:
    if old.type != new.type:  # the rest describes another kind of credential
        yield change("modified", "security-scheme", "type", where=where, old=old.type, new=new.type,
                     old_pointer=old.pointer + "/type", new_pointer=new.pointer + "/type", **facts)
        return
    header = old.location == new.location == "header"  # header names ignore case
    for attribute, before, after in (("in", old.location, new.location),
                                     ("name", _case(old.parameter, header), _case(new.parameter, header)),
                                     ("scheme", old.scheme, new.scheme), ("bearerFormat", old.bearer_format,
                                                                          new.bearer_format),
                                     ("openIdConnectUrl", old.open_id_connect_url, new.open_id_connect_url),
                                     ("oauth2MetadataUrl", old.oauth2_metadata_url, new.oauth2_metadata_url)):
        if before != after:
            shown = (old.parameter, new.parameter) if attribute == "name" else (before, after)
            yield _value(attribute, *shown, old.pointer, new.pointer, where, facts)
    if old.deprecated != new.deprecated:
        yield change("modified", "security-scheme", "deprecated", where=where, old=old.deprecated,
                     new=new.deprecated, old_pointer=old.pointer, new_pointer=new.pointer, **facts)
    old_flows, new_flows = {f.name: f for f in old.flows}, {f.name: f for f in new.flows}
    for name, flow in new_flows.items():
        if name not in old_flows:
            yield change("added", "security-scheme", "flow", where=where, new=name, new_pointer=flow.pointer,
                         flow=name, **facts)
        else:
            yield from _flow(old_flows[name], flow, where, {**facts, "flow": name})
    for name, flow in old_flows.items():
        if name not in new_flows:
            yield change("removed", "security-scheme", "flow", where=where, old=name, old_pointer=flow.pointer,
                         flow=name, **facts)


def _flow(old: OAuthFlow, new: OAuthFlow, where: Where, facts: dict[str, Any]) -> Iterator[Change]:
    for attribute, before, after in (("authorizationUrl", old.authorization_url, new.authorization_url),
                                     ("tokenUrl", old.token_url, new.token_url),
                                     ("refreshUrl", old.refresh_url, new.refresh_url),
                                     ("deviceAuthorizationUrl", old.device_authorization_url,
                                      new.device_authorization_url)):
        if before != after:
            yield _value(attribute, before, after, old.pointer, new.pointer, where, facts)
    gained, lost = sorted(new.scopes - old.scopes), sorted(old.scopes - new.scopes)
    if gained:
        yield change("added", "security-scheme", "scope", where=where, new=gained,
                     new_pointer=new.pointer + "/scopes", scopes=_listing(gained), **facts)
    if lost:
        yield change("removed", "security-scheme", "scope", where=where, old=lost,
                     old_pointer=old.pointer + "/scopes", scopes=_listing(lost), **facts)


def _value(attribute: str, old: str | None, new: str | None, old_at: str, new_at: str, where: Where,
           facts: dict[str, Any]) -> Change:
    """One value of a scheme or flow set, dropped or replaced; pointers at the value where it is written."""
    kind = "added" if old is None else "removed" if new is None else "modified"
    return change(kind, "security-scheme", attribute, where=where, old=old, new=new,
                  old_pointer=None if old is None else f"{old_at}/{attribute}",
                  new_pointer=None if new is None else f"{new_at}/{attribute}", **facts)


def _case(value: str | None, fold: bool) -> str | None:
    return value.lower() if fold and value is not None else value
