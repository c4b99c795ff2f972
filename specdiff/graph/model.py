"""The normalised model both dialects load into, and the reference graph over it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from functools import cached_property, lru_cache
from itertools import takewhile
from typing import Any, TypeVar, cast

from specdiff.frozen import record
from specdiff.graph.normalise import Normaliser
from specdiff.graph.references import References, ancestors_beyond, components_from
from specdiff.graph.refs import Resolver
from specdiff.graph.schemas import Schema as Schema
from specdiff.graph.schemas import may_hold_refs, refs_in
from specdiff.graph.stability import STABILITIES, is_version, least_stable, marked, may_be_marked, most_stable, rank
from specdiff.load.document import Document
from specdiff.load.sourcemap import at_pointer, nodes_along, split_pointer, unescape_token
from specdiff.patterns import compiled

#: the HTTP methods an OpenAPI path item may hold, in the order routes are read
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: OpenAPI 3.2 adds `query` (the QUERY method) and `additionalOperations`, a map of operations under any other
#: method, keyed by the method as it is sent
METHODS_32 = (*METHODS, "query")
ADDITIONAL_OPERATIONS = "additionalOperations"
ITEM_SCHEMA = "itemSchema"
#: what `SpecGraph.derived` makes
Made = TypeVar("Made")
#: what is above a node (`SpecGraph._above`): the keys of the operations above it, those and its own (an
#: operation's node), and the directions the operations above it use it in (request, parameter, response)
Above = tuple[frozenset[str], frozenset[str], frozenset[str]]
_NOT_REACHED: Above = (frozenset(), frozenset(), frozenset())


@record(frozen=True)
class Written:
    """An object as the spec writes it (its `$ref` followed) and where: what no family models in it is compared
    from here as data (specdiff.diff.residue), and a difference there makes the objects differ."""

    data: Schema = field(default_factory=dict)
    pointer: str = field(default="", compare=False)


@record(frozen=True)
class MediaType:
    """What a body carries as one media type, named by its key in the body's `media`: Swagger lists a body's
    media types around one schema, and they share one record (a Kubernetes list is produced as seven)."""

    schema: Schema | None
    pointer: str  # pointer of the schema (or of the media type when it has none)
    #: the document `pointer` points into and the schema's refs resolve in (None: the operation's)
    document: Document | None = field(default=None, compare=False)
    written: Written = Written()
    #: OpenAPI 3.2 `itemSchema`: the schema of each item of a sequential or streamed body (JSON Lines, server-sent
    #: events, multipart parts), written at `item_pointer`
    item_schema: Schema | None = None

    @property
    def item_pointer(self) -> str:
        return self.written.pointer + "/" + ITEM_SCHEMA


@record(frozen=True)
class Parameter:
    location: str  # query | header | path | cookie | querystring (OpenAPI 3.2: the whole query string)
    name: str
    required: bool
    schema: Schema | None
    pointer: str
    deprecated: bool = False
    style: str | None = None
    explode: bool | None = None
    sunset: str | None = None  # `x-sunset`: the date it may be removed, YYYY-MM-DD
    #: the document `pointer` points into and the schema's refs resolve in (None: the operation's)
    document: Document | None = field(default=None, compare=False)
    written: Written = Written()

    @property
    def media_type(self) -> str | None:
        """The media type an OpenAPI 3 parameter's `content` serialises its value as (the one entry it may hold;
        OpenAPI 3.2's `in: querystring` parameter always has one), None for one described by `schema` and style."""
        content = self.written.data.get("content")
        return min(map(str, content), default=None) if isinstance(content, dict) else None


#: a list of parameters as written, its records by key (a later item of a key taking its place), and the key and
#: record of each item in order
ReadList = tuple[list[Any], dict[tuple[str, str], Parameter], tuple[tuple[tuple[str, str], Parameter], ...]]


@record(frozen=True)
class RequestBody:
    required: bool
    media: dict[str, MediaType]
    pointer: str
    written: Written = Written()
    #: a Swagger 2 form, read from its `formData` parameters: required only because one of its fields is, which
    #: the field's own `required` says, so the body's flag is never a change of its own
    form_fields: bool = False


@record(frozen=True)
class Response:
    status: str
    media: dict[str, MediaType]
    headers: dict[str, Parameter]
    pointer: str
    written: Written = Written()


@record(frozen=True)
class Requirement:
    """One alternative of a security requirement (one requirement object): a client must present every scheme
    it names, each with at least its scopes. `{}` names none: anonymous access."""

    schemes: tuple[tuple[str, frozenset[str]], ...]  # (scheme name, scopes), sorted by name
    pointer: str = field(default="", compare=False)

    def names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.schemes)

    def within(self, other: Requirement) -> bool:
        """Whether a client that meets `other` meets this alternative too: no scheme or scope beyond its own."""
        held = dict(other.schemes)
        return all(name in held and scopes <= held[name] for name, scopes in self.schemes)


@record(frozen=True)
class Security:
    """An operation's effective security: the alternatives (OR) it accepts, each an AND of schemes; its own
    `security`, else the document's. No alternative, or an empty one, lets anonymous clients in."""

    alternatives: tuple[Requirement, ...] = ()
    pointer: str = field(default="", compare=False)  # where it is written: `.../get/security`, `/security`, ""
    #: False when neither the operation nor its document writes `security` although the document defines
    #: schemes: what that says depends on what the specs are, decided from both (graph.security.settled)
    stated: bool = True

    @property
    def open(self) -> bool:
        return not self.alternatives or any(not alternative.schemes for alternative in self.alternatives)

    def required(self) -> tuple[Requirement, ...]:
        """The alternatives that ask for credentials (every one but the anonymous `{}`)."""
        return tuple(alternative for alternative in self.alternatives if alternative.schemes)


@record(frozen=True)
class OAuthFlow:
    """One OAuth 2 flow of a scheme, in OpenAPI 3 terms (Swagger 2.0's `accessCode` is `authorizationCode`)."""

    name: str
    pointer: str = field(default="", compare=False)  # the flow object (Swagger 2.0: the scheme holding it)
    authorization_url: str | None = None
    token_url: str | None = None
    refresh_url: str | None = None
    scopes: frozenset[str] = frozenset()
    #: OpenAPI 3.2's `deviceAuthorization` flow: where a device asks for its user code (RFC 8628)
    device_authorization_url: str | None = None


@record(frozen=True)
class SecurityScheme:
    """What a client must do to present one credential, in OpenAPI 3 terms whatever the dialect wrote: Swagger
    2.0's `basic` is `http` with scheme `basic`, its single OAuth flow one of `flows`."""

    name: str
    type: str  # apiKey | http | oauth2 | openIdConnect | mutualTLS
    pointer: str
    location: str | None = None  # apiKey: `in` (header, query, cookie)
    parameter: str | None = None  # apiKey: `name` of the header, query parameter or cookie
    scheme: str | None = None  # http: the authorization scheme, lower-cased (RFC 9110 ignores its case)
    bearer_format: str | None = None
    flows: tuple[OAuthFlow, ...] = ()  # sorted by name
    open_id_connect_url: str | None = None
    #: OpenAPI 3.2: the OAuth 2 authorization server's metadata (RFC 8414), where clients discover its endpoints
    oauth2_metadata_url: str | None = None
    deprecated: bool = False  # OpenAPI 3.2


@record(frozen=True)
class ServerVariable:
    """A `{name}` in a server URL: the value a client uses unless it chooses one, and the values it may choose
    from (None: any)."""

    name: str
    default: str | None
    enum: tuple[str, ...] | None
    pointer: str = field(default="", compare=False)


@record(frozen=True)
class Server:
    """A base URL an operation is called at (graph.servers): OpenAPI 3's server, or Swagger 2.0's scheme, host
    and base path joined."""

    url: str  # as written, `{variables}` included
    variables: tuple[ServerVariable, ...]  # sorted by name
    pointer: str = field(default="", compare=False)  # the `url` (Swagger 2.0: `basePath`, else `host`)


@record(frozen=True)
class Operation:
    key: str  # "GET /pets/{}": method and path template with parameter names erased
    method: str
    path: str
    pointer: str
    parameters: dict[tuple[str, str], Parameter]  # (in, name); path parameters keyed by position
    body: RequestBody | None
    responses: dict[str, Response]
    deprecated: bool = False
    operation_id: str | None = None
    tags: tuple[str, ...] = ()
    group_version: str | None = None
    stability: str = "stable"
    lifecycle: Any = None
    document: Document | None = None  # the document `pointer` points into (a directory's part); None: the spec's
    #: a webhook or callback: the API sends the request and the client writes the response
    reversed: bool = False
    sunset: str | None = None  # `x-sunset`, else the date a documented `Sunset` response header gives
    declared_stability: str | None = None  # `x-stability-level` as written (draft, alpha, beta, stable, or another)
    summary: str | None = None
    description: str | None = None
    #: "core/v1/Pod": the kind the operation acts on, as its `x-kubernetes-group-version-kind` names it
    kind: str | None = None
    security: Security = Security()
    #: the base URLs it is called at, its own `servers` first, then its path item's, then the document's
    servers: tuple[Server, ...] = ()
    #: the operation object as written, for what no family models (specdiff.diff.residue)
    raw: Schema = field(default_factory=dict, compare=False, repr=False)
    #: its callback objects by name, as written (their path items are operations of their own; what else they
    #: write, extensions, is compared from here as data)
    callbacks: Mapping[str, Written] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def label(self) -> str:
        """"GET /pets/{id}": read for every operation that reaches each changed schema, so made once (on first
        use, so that a record is copied with `refilled`)."""
        return f"{self.method.upper()} {self.path}"

    def sent(self, part: str) -> str:
        """The direction of the operation's `request` or `response` part: a webhook's request is what the API
        sends (read by the client), its response what the client writes."""
        if not self.reversed:
            return part
        return "response" if part == "request" else "request"


@record(frozen=True)
class NamedSchema:
    name: str
    schema: Schema
    pointer: str
    document: Document
    gvk: str | None = None
    group_version: str | None = None
    stability: str = "stable"


class Walked:
    """The level a walk down from the operations found for each schema it passed (`_reach_stabilities`), made for
    the ancestors of the schemas asked about so far (`ancestors_beyond`): a comparison asks about the few dozen
    schemas that changed."""

    __slots__ = ("nodes", "found")

    def __init__(self) -> None:
        self.nodes: set[Any] = set()  # the nodes walked: every ancestor of each is among them
        self.found: dict[str, str] = {}


@record
class SpecGraph:
    """Operations, named schemas and the graph of who uses whom, in which direction.

    Nodes are ("op", key) and ("schema", name); an edge op -> schema carries the directions in which the
    operation uses it (request, response, or parameter: a request's parameter values, apart from its body);
    schema -> schema edges mean "refers to".
    """

    document: Document
    operations: dict[str, Operation]
    schemas: dict[str, NamedSchema]
    graph: References
    crds: dict[str, Any] = field(default_factory=dict)
    part_keys: dict[Document, str] = field(default_factory=dict)  # directory input: each document -> its key
    notes: tuple[str, ...] = ()  # remarks about the input itself, e.g. documents that disagree on a schema
    evidence: str | None = None  # what marks the spec as Kubernetes, in words for the report header
    security_schemes: dict[str, SecurityScheme] = field(default_factory=dict)
    #: the document's root (""), its `info` and each path item (`/paths/~1pets`) as data compared as data: their
    #: own keys, past the object's `$ref`s and with what the graph does not read followed through its `$ref`s
    written: dict[str, Written] = field(default_factory=dict)
    #: the places of its document the builder read through a `$ref` (shared objects, data compared as data, places
    #: inside named schemas; not a named schema a schema refers to by name): what the graph of the next version
    #: checks before it takes this one's records (graph.reuse)
    read_through: frozenset[str] = frozenset()
    #: the parameter records it read through a `$ref`, by the place they are written: the graph of the next
    #: version takes them where they read alike (graph.reuse), so both name one record in every operation
    referred_parameters: dict[str, Parameter] = field(default_factory=dict)
    #: each list of parameters it read in its own document, by where it is written and the names of its path's
    #: parameters: the graph of the next version takes the records of a list, or of its items, written alike there
    #: (graph.reuse), so both name one record for each parameter
    parameter_lists: dict[tuple[str, tuple[str, ...]], ReadList] = field(default_factory=dict)
    _normal: Normaliser | None = None  # how its references resolve (graph.normalise), made when first asked
    _reach: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _in_xml: frozenset[str] | None = None  # the named schemas XML bodies carry (`carried_as_xml`)
    #: the levels paths to each schema keep (`_reach_stabilities`)
    _stabilities: Walked = field(default_factory=Walked)
    _field_stabilities: Walked = field(default_factory=Walked)
    _places: dict[tuple[Document, str], tuple[Any, str, bool, bool]] = field(default_factory=dict)
    #: the named schemas each one reaches only through alpha or beta fields (`_field_caps`), read once for both
    #: of `_reach_stabilities`' walks
    _caps: dict[str, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)
    #: the sorted labels of each set of operations some schema is used by: many schemas share one set (Stripe:
    #: 819 schemas, 69 sets), so each is sorted once
    _labels: dict[frozenset[str], tuple[str, ...]] = field(default_factory=dict)
    #: the strongly connected components found above the schemas asked about (`_above`): each node's component,
    #: and for each component what the operations above it are and how they use it (`Above`)
    _component: dict[Any, int] = field(default_factory=dict)
    _summed: list[Above] = field(default_factory=list)
    #: what the modules that read the whole graph made of it (`derived`), by the function that made it
    _derived: dict[Callable[[SpecGraph], Any], Any] = field(default_factory=dict, init=False, repr=False,
                                                            compare=False)

    def derived(self, make: Callable[[SpecGraph], Made]) -> Made:
        """What `make` works out from the whole graph, made when first asked and kept: what an operation or a
        schema is about (graph.subjects), the kinds holding each schema (graph.kind_paths). The modules that
        work it out import the graph, not the other way round; a graph with other operations starts without."""
        if make not in self._derived:
            self._derived[make] = make(self)
        return cast(Made, self._derived[make])

    @property
    def normal(self) -> Normaliser:
        """The normalisation stage of this spec: every spelling of a reference to one node identity."""
        if self._normal is None:
            self._normal = Normaliser(Resolver(self.document), self.part_keys)
        return self._normal

    def with_operations(self, operations: dict[str, Operation]) -> SpecGraph:
        """The same spec with other operations: the caches that follow from the operations start empty; the fields'
        caps and the normaliser follow from the schemas alone."""
        return SpecGraph(self.document, operations, self.schemas, self.graph, self.crds, self.part_keys, self.notes,
                         self.evidence, self.security_schemes, self.written, self.read_through,
                         self.referred_parameters, self.parameter_lists, _normal=self._normal,
                         _caps=self._caps)

    def document_of(self, op: Operation) -> Document:
        return op.document or self.document

    def part_of(self, doc: Document) -> str | None:
        """The key (group-version) of a directory's document, None for a single-document spec."""
        return self.part_keys.get(doc)

    def direction(self, schema: str) -> str:
        """request, response or both: how the operations that reach a named schema use it."""
        return _direction(self._above(schema)[2])

    def reached(self, schema: str) -> bool:
        """Whether any operation, webhook or callback uses a named schema, directly or through other schemas."""
        return bool(self._above(schema)[2])

    def only_parameters_write(self, schema: str) -> bool:
        """Whether requests carry a named schema only as parameter values, never in a body: `readOnly` governs
        the properties of bodies, so a schema written only there may gain it without a writer noticing."""
        directions = self._above(schema)[2]
        return "parameter" in directions and "request" not in directions

    def carried_as_xml(self, schema: str) -> bool:
        """Whether a body of an XML media type carries a named schema, directly or through other schemas: there
        its `xml` names are the element and attribute names on the wire."""
        if self._in_xml is None:
            used = self.graph.out_edges([("op", key) for key in self.operations], data="xml")
            frontier = [target for _, target, xml in used if xml]
            seen: set[Any] = set()
            while frontier:
                node = frontier.pop()
                if node not in seen:
                    seen.add(node)
                    frontier.extend(self.graph.successors(node))
            self._in_xml = frozenset(name for _, name in seen)
        return schema in self._in_xml

    def stability(self, schema: str) -> str:
        """alpha, beta or stable: a named schema's own group-version, else the most stable operation reaching it.

        Paths through alpha or beta fields (KEP-2558 markers) only carry their own level, and a marker on the
        schema itself caps the result, so a type used only by alpha operations or alpha fields is alpha.
        """
        named = self.schemas[schema]
        if named.group_version or named.stability != "stable":
            own = _own_stability(named)
            return least_stable(own, self._reach_stabilities(schema, fields_only=True).get(schema, own))
        return self._reach_stabilities(schema).get(schema) or _own_stability(named)

    def located(self, doc: Document, pointer: str) -> tuple[str, bool, bool]:
        """What the markers on the way from a document's root to a place say about everything inside it:
        (the least stable level an `x-kubernetes-api-lifecycle` or `x-stability-level` there gives, whether a
        read-only field holds it, whether a write-only one does). Each place is read once, from its parent's."""
        return self._place(doc, pointer)[1:]

    def _place(self, doc: Document, pointer: str) -> tuple[Any, str, bool, bool]:
        """The node at a place, with what `located` says of it."""
        found = self._places.get((doc, pointer))
        if found is None:
            if pointer:
                parent, _, token = pointer.rpartition("/")
                holder, level, read_only, write_only = self._place(doc, parent)
                node = at_pointer(holder, (unescape_token(token),))
            else:
                node, level, read_only, write_only = doc.data, "stable", False, False
            if isinstance(node, dict) and node:
                # (most places carry no marker and name no object: the level is only compared when one does)
                own = marked(node) if may_be_marked(node) else "stable"
                serving = self._serving(node)
                if own != "stable" or serving != "stable":
                    level = least_stable(level, own, serving)
                # (`is True`: the map of a type's properties may hold one named `readOnly`, whose schema says nothing
                # of the fields beside it)
                read_only = read_only or node.get("readOnly") is True
                write_only = write_only or node.get("writeOnly") is True
            found = self._places[(doc, pointer)] = (node, level, read_only, write_only)
        return found

    def _serving(self, node: dict[str, Any]) -> str:
        """alpha for a field whose description names an object of a kind only alpha group-versions serve ("a
        reference to the Workload object"): it works only with that alpha API; else stable. It is read at the
        field's own place, not as a cap on a named type the field refers to: the caps follow from the schemas
        alone (a graph with other operations keeps them), and this follows from the operations too."""
        description = node.get("description")
        if not isinstance(description, str) or " object" not in description:
            return "stable"
        alpha_kinds = self.derived(alpha_only_kinds)
        # (the pattern is tried at every position of a description, a few thousand steps each: only one that names
        # such a kind is searched)
        if not any(kind in description for kind in alpha_kinds):
            return "stable"
        named = compiled(_NAMED_OBJECT).findall(description)
        return "alpha" if any(kind in alpha_kinds for kind in named) else "stable"

    def deprecated_at(self, doc: Document, pointer: str) -> bool:
        """Whether a property marked `deprecated: true` holds a place, read in the text from the document's root
        down: a field inside a deprecated one goes with it."""
        tokens = split_pointer(pointer)
        return any(before == "properties" and isinstance(node, dict) and node.get("deprecated") is True
                   for before, node in zip(["", *tokens], nodes_along(doc.data, tokens), strict=False))

    def _reach_stabilities(self, schema: str, fields_only: bool = False) -> dict[str, str]:
        """Each schema walked so far (`schema` among them) an operation reaches, with the most stable level any path
        to it keeps: the least stable of the operation's, each schema's own on the way and each field's cap
        (`_field_caps`).

        With `fields_only` only alpha or beta fields on the way count, not the operations' or schemas' own
        levels: a `core/v1` type that only an alpha field holds is alpha, one that alpha operations also use is not.
        One walk, the most stable level first (a list of schemas waiting at each level): a schema is settled the
        first time it is taken out, so each is read once whatever the number of levels. It goes through the
        ancestors of the schemas asked about only, each walked once (`Walked`)."""
        walked = self._field_stabilities if fields_only else self._stabilities
        found, nodes = walked.found, walked.nodes
        new = ancestors_beyond(self.graph, ("schema", schema), nodes)
        if not new:
            return found
        top = len(STABILITIES) - 1
        waiting: list[list[tuple[str, str]]] = [[] for _ in STABILITIES]  # by rank
        caps = self._caps
        for node in new:  # where paths enter the new nodes: from an operation, or below a schema walked before
            for parent in self.graph.pred[node]:
                if parent[0] == "op":
                    op = self.operations.get(parent[1])
                    if op is not None:
                        waiting[top if fields_only else rank(op.stability)].append(node)
                elif parent[1] in found:  # (nothing is found for a new one yet)
                    waiting[min(rank(found[parent[1]]), rank(caps[parent[1]].get(node[1], "stable")))].append(node)
        for at_least in range(top, -1, -1):
            frontier = waiting[at_least]
            while frontier:
                node = frontier.pop()
                named = self.schemas.get(node[1])
                if named is None or named.name in found:
                    continue
                own = top if fields_only else rank(_own_stability(named))
                if own < at_least:
                    waiting[own].append(node)  # (reached at its own level, later)
                    continue
                found[named.name] = STABILITIES[at_least]
                targets = self.graph.succ[node]
                if not targets:
                    continue  # a type that refers to no other (most): no field of it to read for caps
                if named.name not in caps:
                    caps[named.name] = self._field_caps(named)
                capped = caps[named.name]
                for target in targets:
                    if target in nodes:  # (new, or not walked: not one of the ancestors asked about)
                        waiting[min(at_least, rank(capped.get(target[1], "stable")))].append(target)
        return found

    def _field_caps(self, named: NamedSchema) -> dict[str, str]:
        """Named schemas this one reaches only through alpha or beta fields (by marker or description), with the most
        stable such level."""
        properties = named.schema.get("properties")
        if not isinstance(properties, dict) or not any(isinstance(p, dict) and may_hold_refs(p) and may_be_marked(p)
                                                       for p in properties.values()):
            return {}  # (only a field that holds a `$ref` can cap what it refers to)
        resolver = self.normal.resolver  # its loaded files and resolved refs; a new one would read them again
        capped: dict[str, str] = {}
        free: set[str] = set()
        for tokens, ref in refs_in(named.schema):
            target = resolver.named(ref, named.document, named.pointer) if ref.startswith("#") else None
            if target is None:
                continue
            prop = properties.get(tokens[1]) if len(tokens) > 1 and tokens[0] == "properties" else None
            level = marked(prop)
            if level == "stable":
                free.add(target)
            else:
                capped[target] = most_stable(capped.get(target, "alpha"), level)
        return {target: level for target, level in capped.items() if target not in free}

    def operations_reaching(self, schema: str) -> tuple[str, ...]:
        """Labels of the operations that use a named schema, directly or through other schemas (sorted)."""
        found = self._reach.get(schema)
        if found is None:
            users = self._above(schema)[0]
            found = self._labels.get(users)
            if found is None:
                found = self._labels[users] = tuple(sorted(self.operations[key].label for key in users))
            self._reach[schema] = found
        return found

    def _above(self, schema: str) -> Above:
        """What the operations above a named schema are, and how they use it (`Above`).

        Each strongly connected component (schemas that refer to each other) is summed up once from the
        components right above it: a walk up the graph per schema was quadratic on a long chain of schemas. Only
        the components above the schemas asked about are found: a comparison asks about the few that changed."""
        start = ("schema", schema)
        if start not in self.graph:
            return _NOT_REACHED
        placed, summed = self._component, self._summed
        if start not in placed:
            pred = self.graph.pred
            for members in components_from(_Upward(pred), (start,), placed):  # each after those above it
                number = len(summed)
                placed.update(dict.fromkeys(members, number))
                parents: set[int] = set()
                tops: list[str] = []  # the operations right above it with nothing above them (most)
                used: set[str] = set()  # (an operation's edge says how it uses the schema it leads to)
                for node in members:
                    for parent, edge in pred[node].items():
                        if parent[0] == "op":
                            used.update(edge["directions"])
                            if not pred[parent]:
                                tops.append(parent[1])
                                continue
                        parents.add(placed[parent])
                parents.discard(number)
                above = frozenset(tops).union(*(summed[parent][1] for parent in parents))
                used.update(*(summed[parent][2] for parent in parents))
                own = [key for kind, key in members if kind == "op"]
                summed.append((above, above.union(own) if own else above, frozenset(used)))
        return summed[placed[start]]


class _Upward(dict[Any, list[Any]]):
    """The parents of each node but the operations with nothing above them (most operations): where `_above`'s
    walk goes on. Each such operation is summed up where it is met, as the schema's own (its key and its edge's
    directions), not as a component of its own: a Kubernetes type most resources use has a thousand above it.
    Worked out when asked and not kept: `components_from` asks once for each node it walks."""

    def __init__(self, pred: dict[Any, dict[Any, Any]]) -> None:
        super().__init__()
        self.pred = pred

    def __missing__(self, node: Any) -> list[Any]:
        pred = self.pred
        return [parent for parent in pred[node] if parent[0] != "op" or pred[parent]]


def _direction(directions: frozenset[str]) -> str:
    sides = {"request" if direction == "parameter" else direction for direction in directions}
    if sides == {"request"}:
        return "request"
    if sides == {"response"}:
        return "response"
    return "both"  # read and written, or not reached by any operation (a resource or an unused type)


def _own_stability(named: NamedSchema) -> str:
    """The level a schema's name or kind gives it, capped by its own markers."""
    return least_stable(named.stability, marked(named.schema))


@lru_cache(maxsize=4096)  # (a spec names a handful of media types, on every response; bounded: keyed by its text)
def is_xml(media_type: str) -> bool:
    """`application/xml`, `text/xml` or a `+xml` type (`application/atom+xml`): a body whose element and
    attribute names the schemas' `xml` objects give."""
    essence = media_type.split(";", 1)[0].strip().lower()
    return essence in ("application/xml", "text/xml") or essence.endswith("+xml")


def is_json(media_type: str) -> bool:
    """`application/json`, or a vendor type with the `+json` suffix (`application/vnd.api+json`)."""
    return media_type.split(";", 1)[0].strip().lower().endswith(("/json", "+json"))


def is_form(media_type: str) -> bool:
    """`application/x-www-form-urlencoded` or `multipart/form-data`: a body whose fields are written as text."""
    essence = media_type.split(";", 1)[0].strip().lower()
    return essence in ("application/x-www-form-urlencoded", "multipart/form-data")


#: "the Workload object", "a ResourceClaim object": a kind named as the object a field is about (compiled when
#: first used: 0.7 M instructions at each start, and only a Kubernetes document with alpha-only kinds needs it)
_NAMED_OBJECT = r"\b(?:[Tt]he|[Aa]n?)\s+([A-Z][A-Za-z0-9]+)\s+objects?\b"


def alpha_only_kinds(graph: SpecGraph) -> frozenset[str]:
    """The kinds whose every operation is in an alpha group-version."""
    levels: dict[str, set[str]] = {}
    # (each group/version/kind and level once: a kind's operations, a dozen a resource, share them)
    for kind, stability in {(op.kind, op.stability) for op in graph.operations.values() if op.kind}:
        levels.setdefault(kind.rpartition("/")[2], set()).add(stability)
    return frozenset(kind for kind, found in levels.items() if found == {"alpha"})


def group_version_of_name(name: str) -> str | None:
    """`io.k8s.api.apps.v1.Deployment` -> `apps/v1`; names without a version segment give None."""
    if not name.startswith("io.k8s."):
        return None
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if is_version(parts[i]):
            return f"{parts[i - 1]}/{parts[i]}"
    return None


@lru_cache(maxsize=4096)  # (a path's methods share it; bounded: keyed by a spec's text)
def group_version_of_path(path: str) -> str | None:
    """`/apis/apps/v1/...` -> `apps/v1`; `/api/v1/...` -> `core/v1`."""
    parts = path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] == "api" and is_version(parts[1]):
        return f"core/{parts[1]}"
    if len(parts) >= 3 and parts[0] == "apis" and is_version(parts[2]):
        return f"{parts[1]}/{parts[2]}"
    return None


def v3_document_of_path(path: str) -> str:
    """The per-group OpenAPI v3 document an API server describes a path in, by the key a folder gives it
    (load.group_version_of_file): `apps/v1` for `/apis/apps/v1/...`, `core` for the discovery path `/api/`,
    `apps` for `/apis/apps/`, `apis` for `/apis/`, `version` for `/version/`, `logs` for `/logs/{logpath}`."""
    group_version = group_version_of_path(path)
    if group_version is not None:
        return group_version
    literal = list(takewhile(lambda part: not part.startswith("{"), filter(None, path.split("/"))))
    if literal[:1] == ["api"]:
        return "core"
    if literal[:1] == ["apis"]:
        return "/".join(literal[1:]) or "apis"
    return "/".join(literal)
