"""Operation comparison: routes, parameters, request bodies and responses."""

from __future__ import annotations

from typing import Any

from specdiff.diff.kernel import Side, presence
from specdiff.diff.parameters import scalar_became_list
from specdiff.diff.residue import residue
from specdiff.diff.schemas import SchemaDiffer
from specdiff.diff.security import requirement_changes
from specdiff.diff.servers import server_changes
from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import MediaType, Operation, Parameter, RequestBody, Response, SpecGraph
from specdiff.graph.sunset import unreadable
from specdiff.records import Context

#: the operation keywords this differ and the graph compare (callbacks are operations of their own; Swagger 2.0's
#: consumes, produces and schemes are media types and servers); specdiff.diff.residue compares the rest as data
HANDLES = frozenset({"parameters", "requestBody", "responses", "deprecated", "operationId", "summary", "description",
                     "tags", "externalDocs", "security", "servers", "callbacks", "consumes", "produces", "schemes",
                     "x-sunset", "x-stability-level"})


class OperationDiffer:
    def __init__(self, old: SpecGraph, new: SpecGraph, schemas: SchemaDiffer) -> None:
        self.old, self.new, self.schemas = old, new, schemas
        self.emit = schemas.emit
        self.old_doc, self.new_doc = old.document, new.document  # the documents of the pair being compared

    def run(self) -> None:
        for key, new_op in self.new.operations.items():
            old_op = self.old.operations.get(key)
            if old_op is None:
                self.emit(change("added", "operation", new=new_op.label, where=_where(new_op, self.new),
                                 new_pointer=new_op.pointer, deprecated=new_op.deprecated,
                                 **_non_resource(new_op, self.schemas.ecosystem.api_server)))
                if unreadable(new_op.sunset):
                    self.emit(change("added", "operation", "x-sunset", new=new_op.sunset,
                                     where=_where(new_op, self.new), new_pointer=new_op.pointer,
                                     sunset=new_op.sunset, deprecated=new_op.deprecated))
            else:
                self._operation(old_op, new_op)
        for key, old_op in self.old.operations.items():
            if key not in self.new.operations:
                self.emit(change("removed", "operation", old=old_op.label, where=_where(old_op, self.old),
                                 old_pointer=old_op.pointer, deprecated=old_op.deprecated, sunset=old_op.sunset,
                                 **_non_resource(old_op, self.schemas.ecosystem.api_server)))

    def _operation(self, old: Operation, new: Operation) -> None:
        if self.schemas.include_docs:
            for attribute, old_text, new_text in (("summary", old.summary, new.summary),
                                                  ("description", old.description, new.description),
                                                  ("tags", list(old.tags), list(new.tags)),
                                                  ("externalDocs", old.raw.get("externalDocs"),
                                                   new.raw.get("externalDocs"))):
                if old_text != new_text:
                    kind = "added" if not old_text else "removed" if not new_text else "modified"
                    self.emit(change(kind, "operation", attribute, old=old_text or None, new=new_text or None,
                                     where=_where(new, self.new), old_pointer=old.pointer, new_pointer=new.pointer))
        if old.security != new.security and not new.reversed:  # a webhook's receiver sets its own security
            for found in requirement_changes(old.security, new.security,
                                             Where(_where(new, self.new).context, "request")):
                self.emit(found)
        if old.raw is not new.raw:  # x-kubernetes-* on an operation describe it for the graph (its verb and kind),
            # and an API server's spec that starts writing them changes nothing a client does
            for found in residue(old.raw, new.raw, HANDLES, old.pointer, new.pointer, _where(new, self.new),
                                 prefix="x-kubernetes-"):
                self.emit(found)
        if old.servers != new.servers:
            for found in server_changes(old.servers, new.servers, Where(_where(new, self.new).context, "request")):
                self.emit(found)
        if self.schemas.equal_means_unchanged and _same_contract(old, new):
            return  # equal parameters, body and responses all the way down (the schema differ's own shortcut)
        self.operation = new
        where = _where(new, self.new)
        self.old_doc, self.new_doc = self.old.document_of(old), self.new.document_of(new)
        for attribute, old_value, new_value in (("deprecated", old.deprecated, new.deprecated),
                                                ("operationId", old.operation_id, new.operation_id),
                                                ("x-sunset", old.sunset, new.sunset),
                                                ("x-stability-level", old.declared_stability,
                                                 new.declared_stability)):
            if old_value != new_value:
                self.emit(change(_kind(attribute, old_value, new_value), "operation", attribute, old=old_value,
                                 new=new_value, where=where, old_pointer=old.pointer, new_pointer=new.pointer,
                                 sunset=new.sunset, deprecated=new.deprecated))
        self._parameters(old, new, where)
        self._body(old.body, new.body, old, new, where)
        self._responses(old, new, where)

    # -- directions: the graph's (a webhook or callback is sent by the API and answered by the client) -----
    operation: Operation | None = None

    def _request(self, where: Where) -> Where:
        return Where(where.context, self.operation.sent("request") if self.operation else "request",
                     where.operation_kind)

    def _response_side(self, where: Where) -> Where:
        return Where(where.context, self.operation.sent("response") if self.operation else "response",
                     where.operation_kind)

    # -- parameters ---------------------------------------------------------------------------------
    def _parameters(self, old: Operation, new: Operation, where: Where) -> None:
        request = self._request(where)
        #: equal schemas compare equal and one dialect serialises equal settings alike: only where it is written
        #: may differ, which moves when a parameter is added before it
        moved_only = self.schemas.equal_means_unchanged and self.old.document.dialect == self.new.document.dialect
        for key, param in new.parameters.items():
            previous = old.parameters.get(key)
            if previous is None:
                self.emit(change("added", "parameter", new=param.name, where=request.at(_label(param)),
                                 new_pointer=param.pointer, location=param.location, name=param.name,
                                 required=param.required))
                if unreadable(param.sunset):
                    self.emit(change("added", "parameter", "x-sunset", new=param.sunset,
                                     where=request.at(_label(param)), new_pointer=param.pointer, sunset=param.sunset,
                                     deprecated=param.deprecated, location=param.location, name=param.name))
            elif not (moved_only and _same_but_place(previous, param)):
                self._parameter(previous, param, request.at(_label(param)))
        for key, param in old.parameters.items():
            if key not in new.parameters:
                self.emit(change("removed", "parameter", old=param.name,
                                 where=request.at(_label(param)),
                                 old_pointer=param.pointer, location=param.location, name=param.name,
                                 required=param.required, deprecated=param.deprecated, sunset=param.sunset))

    def _parameter(self, old: Parameter, new: Parameter, where: Where) -> None:
        detail = {"location": new.location, "name": new.name}
        old_style, old_explode = serialisation(old, self.old.document.dialect)
        new_style, new_explode = serialisation(new, self.new.document.dialect)
        structured = _structured(old.schema) or _structured(new.schema)
        if not structured and not {old_style, new_style} & {"label", "matrix"}:
            old_style, old_explode, new_style, new_explode = "", False, "", False  # one value reads the same
        old_name = old.name.lower() if old.location == "header" else old.name  # header names ignore case
        new_name = new.name.lower() if new.location == "header" else new.name
        for attribute, old_value, new_value in (("name", old_name, new_name), ("required", old.required, new.required),
                                                ("style", old_style, new_style), ("explode", old_explode, new_explode),
                                                ("deprecated", old.deprecated, new.deprecated),
                                                ("x-sunset", old.sunset, new.sunset)):
            if old_value != new_value:
                self.emit(change(_kind(attribute, old_value, new_value), "parameter", attribute, old=old_value,
                                 new=new_value, where=where, old_pointer=old.pointer, new_pointer=new.pointer,
                                 sunset=new.sunset, deprecated=new.deprecated, **detail))
        if scalar_became_list(new.location, old.schema, new.schema, new_style, new_explode):
            assert old.schema is not None and new.schema is not None
            self.emit(change("modified", "parameter", "type", old=old.schema.get("type"), new="array", where=where,
                             old_pointer=old.pointer, new_pointer=new.pointer + "/type", **detail))
            self._schema(old.schema, new.schema["items"], old, new, where, "/items")
            return
        self._schema(old.schema, new.schema, old, new, where)

    def _schema(self, old: dict[str, Any] | None, new: dict[str, Any] | None, old_part: Parameter | MediaType,
                new_part: Parameter | MediaType, where: Where, new_suffix: str = "") -> None:
        """Compare two schemas where their parameter, media type or header writes them: in the document it names,
        else in its operation's."""
        if old is not None and new is not None:
            self.schemas.compare(Side(old, old_part.pointer, old_part.document or self.old_doc),
                                 Side(new, new_part.pointer + new_suffix, new_part.document or self.new_doc), where)

    # -- request bodies -----------------------------------------------------------------------------
    def _body(self, old: RequestBody | None, new: RequestBody | None, old_op: Operation, new_op: Operation,
              where: Where) -> None:
        request = self._request(where).at("request body")
        if old is None and new is None:
            return
        if old is None and new is not None:
            self.emit(change("added", "request-body", new=sorted(new.media), where=request, new_pointer=new.pointer,
                             required=new.required))
            return
        if new is None and old is not None:
            self.emit(change("removed", "request-body", old=sorted(old.media), where=request, old_pointer=old.pointer,
                             required=old.required))
            return
        assert old is not None and new is not None
        if old.required != new.required:
            self.emit(change("modified", "request-body", "required", old=old.required, new=new.required, where=request,
                             old_pointer=old.pointer, new_pointer=new.pointer))
        self._media(old.media, new.media, old.pointer, new.pointer, request, "request")

    def _media(self, old: dict[str, MediaType], new: dict[str, MediaType], old_pointer: str, new_pointer: str,
               where: Where, part: str) -> None:
        compared: set[tuple[int, int]] = set()
        for name, media in new.items():
            if name not in old:
                self.emit(change("added", "media-type", part, new=name, where=where, new_pointer=media.pointer,
                                 media_type=name, others=", ".join(old)))
                continue
            previous = old[name]
            if previous.schema is None or media.schema is None:
                if previous.schema is not media.schema:  # a schema appeared or went under the same media type
                    self.emit(change("added" if previous.schema is None else "removed", "media-type", "schema",
                                     old=previous.schema, new=media.schema, where=where, old_pointer=previous.pointer,
                                     new_pointer=media.pointer, media_type=name))
                continue
            pair = (id(previous.schema), id(media.schema))
            if pair not in compared:  # Swagger repeats one schema for every listed media type
                compared.add(pair)
                self._schema(previous.schema, media.schema, previous, media, where)
        for name, media in old.items():
            if name not in new:
                self.emit(change("removed", "media-type", part, old=name, where=where, old_pointer=media.pointer,
                                 media_type=name, others=", ".join(new)))

    # -- responses ----------------------------------------------------------------------------------
    def _responses(self, old: Operation, new: Operation, where: Where) -> None:
        response_where = self._response_side(where)
        for status, response in new.responses.items():
            at = response_where.at(f"response {status}")
            if status not in old.responses:
                self.emit(change("added", "response", new=status, where=at, new_pointer=response.pointer,
                                 status=status))
            else:
                self._response(old.responses[status], response, at)
        for status, response in old.responses.items():
            if status not in new.responses:
                self.emit(change("removed", "response", old=status, where=response_where.at(f"response {status}"),
                                 old_pointer=response.pointer, status=status))

    def _response(self, old: Response, new: Response, where: Where) -> None:
        self._media(old.media, new.media, old.pointer, new.pointer, where, "response")
        for name, header in new.headers.items():
            if name not in old.headers:
                self.emit(change("added", "header", new=header.name, where=where, new_pointer=header.pointer,
                                 name=header.name, required=header.required))
            else:
                previous = old.headers[name]
                if previous.required != header.required:
                    self.emit(change("modified", "header", "required", old=previous.required, new=header.required,
                                     where=where, old_pointer=previous.pointer, new_pointer=header.pointer,
                                     name=header.name))
                self._schema(previous.schema, header.schema, previous, header,
                             where.at(f" header {header.name}"))
        for name, header in old.headers.items():
            if name not in new.headers:
                self.emit(change("removed", "header", old=header.name, where=where, old_pointer=header.pointer,
                                 name=header.name, required=header.required))


#: Swagger 2.0 collectionFormat -> the OpenAPI 3 style that serialises a list the same way
_V2_STYLES = {"ssv": "spaceDelimited", "pipes": "pipeDelimited", "multi": "form"}


def serialisation(param: Parameter, dialect: str) -> tuple[str, bool]:
    """(style, explode) with the defaults filled in, Swagger's collectionFormat in OpenAPI 3 terms."""
    plain = "simple" if param.location in ("path", "header") else "form"
    if dialect == "swagger-2.0":
        fmt = param.style or "csv"
        return (plain if fmt == "csv" else _V2_STYLES.get(fmt, fmt)), fmt == "multi"
    style = param.style or plain
    return style, bool(param.explode) if param.explode is not None else style == "form"


def _structured(schema: dict[str, Any] | None) -> bool:
    """Whether a value may be a list or an object, whose serialisation the style decides."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return True
    types = schema.get("type")
    types = {types} if isinstance(types, str) else {t for t in types if isinstance(t, str)} \
        if isinstance(types, list) else set()
    return not types or bool(types & {"array", "object"})


def _kind(attribute: str, old_value: Any, new_value: Any) -> str:
    """A sunset date is set, moved or dropped; the other settings compared beside it always have a value."""
    return presence(old_value, new_value, None) if attribute == "x-sunset" else "modified"


def _label(param: Parameter) -> str:
    return f"{param.location} parameter {param.name}"


def _same_but_place(old: Parameter, new: Parameter) -> bool:
    """Equal in everything `_parameter` compares; the pointer and document may differ."""
    return (old.name == new.name and old.required == new.required and old.style == new.style
            and old.explode == new.explode and old.deprecated == new.deprecated and old.sunset == new.sunset
            and old.schema == new.schema)


def _same_contract(old: Operation, new: Operation) -> bool:
    return (old.parameters == new.parameters and old.body == new.body and old.responses == new.responses
            and old.deprecated == new.deprecated and old.operation_id == new.operation_id
            and old.sunset == new.sunset and old.declared_stability == new.declared_stability)


def _non_resource(op: Operation, api_server: bool) -> dict[str, Any]:
    """`non_resource` for a path of a Kubernetes API server outside /api and /apis (`/version`,
    `/.well-known/openid-configuration/`: what RBAC calls nonResourceURLs), which belongs to no API group."""
    outside = not (op.path in ("/api", "/apis") or op.path.startswith(("/api/", "/apis/")))
    return {"non_resource": True} if api_server and outside else {}


def _where(op: Operation, graph: SpecGraph) -> Where:
    """Where an operation's changes are, with the stability, resource and kind the graph gave it."""
    resource, kind = graph.subject(op)
    return Where(Context(operation=op.label, group_version=op.group_version, stability=op.stability,
                         document=graph.part_of(graph.document_of(op)), resource=resource, kind=kind), "both",
                 op.kind)
