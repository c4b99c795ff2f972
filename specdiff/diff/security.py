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
from typing import Any

from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import OAuthFlow, Requirement, Security, SecurityScheme, SpecGraph
from specdiff.graph.security import settled
from specdiff.load.sourcemap import join_pointer
from specdiff.records import Change, Context, Part


# -- requirements ---------------------------------------------------------------------------------
def requirement_changes(old: Security, new: Security, where: Where, api_server: bool) -> Iterator[Change]:
    """What changed in an operation's effective security: anonymous access taken away or given, then each
    alternative that asks for credentials on both sides. A side that does not state its security (in a
    Kubernetes API server's spec, `api_server`: graph.security.settled) is not compared."""
    old, new = settled(old, api_server), settled(new, api_server)
    if old == new or not (old.stated and new.stated):
        return
    at = where.at("security")
    if old.open != new.open:
        kind, side = ("added", new) if old.open else ("removed", old)
        listed = phrase(side.required()) or "no scheme"
        yield change(kind, "security", where=at, old=None if old.open else listed, new=listed if old.open else None,
                     old_pointer=old.pointer or None, new_pointer=new.pointer or None, schemes=listed)
    before, after = old.required(), new.required()
    if not before or not after:
        return  # one side asks for nothing: the change above says it all
    fresh = [b for b in after if b not in before]
    for alternative in before:
        if alternative in after:
            continue
        met = new.open or any(b.within(alternative) for b in after)
        partner = _partner(alternative, fresh)
        if partner is None:
            yield change("removed", "security-requirement", where=at, old=phrase((alternative,)),
                         old_pointer=alternative.pointer, requirement=phrase((alternative,)), still_met=met)
            continue
        fresh.remove(partner)
        yield from _alternative(alternative, partner, at, met)
    for alternative in fresh:
        yield change("added", "security-requirement", where=at, new=phrase((alternative,)),
                     new_pointer=alternative.pointer, requirement=phrase((alternative,)))


def _partner(old: Requirement, candidates: list[Requirement]) -> Requirement | None:
    """The new alternative that is the old one changed: the same schemes, else more of them, else fewer."""
    names = old.names()
    for fits in (names.__eq__, names.__lt__, names.__gt__):
        found = next((b for b in candidates if fits(b.names())), None)
        if found is not None:
            return found
    return None


def _alternative(old: Requirement, new: Requirement, where: Where, met: bool) -> Iterator[Change]:
    """Schemes and scopes one alternative gained or lost; `met`: its clients are still let in."""
    held, wanted = dict(old.schemes), dict(new.schemes)
    facts: dict[str, Any] = {"requirement": phrase((old,)), "still_met": met}
    for name in sorted(wanted.keys() - held.keys()):
        yield change("added", "security-requirement", "scheme", where=where, new=_one(name, wanted[name]),
                     new_pointer=new.pointer + join_pointer((name,)), scheme=name, **facts)
    for name in sorted(held.keys() - wanted.keys()):
        yield change("removed", "security-requirement", "scheme", where=where, old=_one(name, held[name]),
                     old_pointer=old.pointer + join_pointer((name,)), scheme=name, **facts)
    for name in sorted(held.keys() & wanted.keys()):
        gained, lost = sorted(wanted[name] - held[name]), sorted(held[name] - wanted[name])
        if gained:
            yield change("added", "security-requirement", "scope", where=where, new=gained,
                         new_pointer=new.pointer + join_pointer((name,)), scheme=name, scopes=_listing(gained),
                         **facts)
        if lost:
            yield change("removed", "security-requirement", "scope", where=where, old=lost,
                         old_pointer=old.pointer + join_pointer((name,)), scheme=name, scopes=_listing(lost), **facts)


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
