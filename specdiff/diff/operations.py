"""Operation comparison: routes, parameters, request bodies and responses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from itertools import compress
from operator import is_not
from typing import Any

from specdiff.diff.evidence import said_deprecated
from specdiff.diff.kernel import Side, canonical, presence
from specdiff.diff.parameters import as_item, one_value_reads_the_same, scalar_became_list
from specdiff.diff.residue import residue
from specdiff.diff.schemas import HANDLES as SCHEMA_HANDLES
from specdiff.diff.schemas import KUBERNETES_PREFIX, SchemaDiffer
from specdiff.diff.security import Known, requirement_changes
from specdiff.diff.vocabulary import CODE_SAMPLES, Where, change
from specdiff.graph.model import (
    ADDITIONAL_OPERATIONS,
    ITEM_SCHEMA,
    METHODS_32,
    MediaType,
    Operation,
    Parameter,
    RequestBody,
    Response,
    SpecGraph,
    Written,
    is_form,
    is_json,
    is_xml,
)
from specdiff.graph.normalise import Normaliser
from specdiff.graph.schemas import type_set
from specdiff.graph.subjects import subject
from specdiff.graph.sunset import unreadable
from specdiff.load.document import Document
from specdiff.load.sourcemap import join_pointer, split_pointer
from specdiff.records import Context, Part

#: the operation keywords this differ and the graph compare (callbacks are operations of their own; Swagger 2.0's
#: consumes, produces and schemes are media types and servers); specdiff.diff.residue compares the rest as data
HANDLES = frozenset({"parameters", "requestBody", "responses", "deprecated", "operationId", "summary", "description",
                     "tags", "externalDocs", "security", "servers", "callbacks", "consumes", "produces", "schemes",
                     "x-sunset", "x-stability-level", *CODE_SAMPLES})
#: what the graph and this differ read of the objects inside an operation (Swagger 2.0 writes a parameter's or
#: header's schema keywords on the object itself); specdiff.diff.residue compares the rest of each as data
_DOCUMENTING = ("$ref", "description", "summary", "example", "examples")
PARAMETER_HANDLES = frozenset({"name", "in", "required", "schema", "content", "deprecated", "style", "explode",
                               "collectionFormat", "x-sunset", *_DOCUMENTING, *SCHEMA_HANDLES})
BODY_HANDLES = frozenset({"content", "required", "name", "in", "schema", *_DOCUMENTING})  # (a Swagger body parameter)
MEDIA_TYPE_HANDLES = frozenset({"schema", ITEM_SCHEMA, *_DOCUMENTING})
RESPONSE_HANDLES = frozenset({"content", "headers", "schema", *_DOCUMENTING})
PATH_ITEM_HANDLES = frozenset({"parameters", "servers", *METHODS_32, ADDITIONAL_OPERATIONS, *_DOCUMENTING})
PATH_ITEM_HANDLES_BEFORE_32 = PATH_ITEM_HANDLES - {"query", ADDITIONAL_OPERATIONS}
#: the settings of an `encoding` entry that only shape how an object or a list is written into a form
_SHAPING = frozenset({"style", "explode"})
_PLAIN_TYPES = frozenset({"string", "number", "integer", "boolean"})
_DEEPEST_PLAIN = 8  # nested anyOf/oneOf levels read before a field counts as not plain


class OperationDiffer:
    def __init__(self, old: SpecGraph, new: SpecGraph, schemas: SchemaDiffer) -> None:
        self.old, self.new, self.schemas = old, new, schemas
        self.emit = schemas.emit
        self.old_doc, self.new_doc = old.document, new.document  # the documents of the pair being compared
        self.security_known: Known = {}  # the document's `security` is every operation's: compared once
        #: equal schemas compare equal and one dialect serialises equal settings alike: a parameter written alike
        #: but for its place or its words brings nothing (`_same_but_place`)
        self.moved_only = schemas.equal_means_unchanged and old.document.dialect == new.document.dialect

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
        self._path_items()

    def _operation(self, old: Operation, new: Operation) -> None:
        if old is new and self.schemas.equal_means_unchanged:
            return  # the new graph took the old one's record (graph.reuse): every check below finds it equal
        if self.schemas.include_docs:
            for attribute, old_text, new_text in (("summary", old.summary, new.summary),
                                                  ("description", old.description, new.description),
                                                  ("tags", list(old.tags), list(new.tags)),
                                                  ("externalDocs", old.raw.get("externalDocs"),
                                                   new.raw.get("externalDocs")),
                                                  *((samples, old.raw.get(samples), new.raw.get(samples))
                                                    for samples in CODE_SAMPLES)):
                if old_text != new_text:
                    kind = "added" if not old_text else "removed" if not new_text else "modified"
                    self.emit(change(kind, "operation", attribute, old=old_text or None, new=new_text or None,
                                     where=_where(new, self.new), old_pointer=old.pointer, new_pointer=new.pointer))
        if old.security != new.security and not new.reversed:  # a webhook's receiver sets its own security
            at = Where(_where(new, self.new).context, "request")
            for found in requirement_changes(old.security, new.security, at, self.schemas.ecosystem.api_server,
                                             self.security_known):
                self.emit(found)
        if old.raw is not new.raw and (_beyond(old.raw, HANDLES) or _beyond(new.raw, HANDLES)):
            # x-kubernetes-* on an operation describe it for the graph (its verb and kind), and an API server's
            # spec that starts writing them changes nothing a client does
            for found in residue(old.raw, new.raw, HANDLES, old.pointer, new.pointer, _where(new, self.new),
                                 prefix=KUBERNETES_PREFIX):
                self.emit(found)
        for name in sorted(old.callbacks.keys() & new.callbacks.keys()):  # a callback's own extensions
            before, after = old.callbacks[name], new.callbacks[name]
            expressions = frozenset(k for k in (*before.data, *after.data) if not k.startswith("x-"))
            self._unmodelled(before, after, expressions, _where(new, self.new).within(Part("callback", name=name)))
        if old.servers != new.servers:
            from specdiff.diff.servers import server_changes  # (most pairs change no server)

            for found in server_changes(old.servers, new.servers, Where(_where(new, self.new).context, "request")):
                self.emit(found)
        # equal parameters, body and responses all the way down: the schema differ's own shortcut, part by part
        text_decides = self.schemas.equal_means_unchanged or self._in_unchanged_files(old, new)
        same_parameters = text_decides and _same_parameters(old.parameters, new.parameters, self.moved_only)
        if same_parameters and _same_beyond_parameters(old, new):
            return
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
        # parameters alike but for their places and words bring nothing (`_same_but_place`); read in two dialects,
        # equal ones may still be written apart
        if not (same_parameters and self.moved_only):
            self._parameters(old, new, where)
        self._body(old.body, new.body, old, new, where)
        self._responses(old, new, where)

    def _in_unchanged_files(self, old: Operation, new: Operation) -> bool:
        """Whether each schema of the two operations is written, part for part, in one file of a split spec
        where equal text means equal meaning (`SchemaDiffer.unchanged_files`)."""
        files = self.schemas.unchanged_files
        if not files:
            return False
        written = _written_in(new, self.new)
        return all(key in files for key in written.values()) and _written_in(old, self.old) == written

    def _unmodelled(self, old: Written, new: Written, handles: frozenset[str], where: Where) -> None:
        """What the objects write beyond `handles` (vendor extensions, keywords no family models), as data."""
        if (_beyond(old.data, handles) or _beyond(new.data, handles)) and old.data != new.data:  # keys, then values
            for found in residue(old.data, new.data, handles, old.pointer, new.pointer, where, KUBERNETES_PREFIX):
                self.emit(found)

    def _path_items(self) -> None:
        """What each path item both specs write beyond its operations, parameters and servers, as data (past the
        item's own `$ref`s, its data's `$ref`s followed: `SpecGraph.written`); and the Paths object's own extensions
        (`x-` keys beside the paths)."""
        if self.old.document.parts or self.new.document.parts:
            return
        old_data, new_data = self.old.document.data, self.new.document.data
        old_paths = old_data.get("paths") if isinstance(old_data, dict) else None
        new_paths = new_data.get("paths") if isinstance(new_data, dict) else None
        if isinstance(old_paths, dict) and isinstance(new_paths, dict):
            routes = frozenset(key for key in (*old_paths, *new_paths) if not key.startswith("x-"))
            for found in residue(old_paths, new_paths, routes, "/paths", "/paths",
                                 Where(Context(part=Part("paths")), "both")):
                self.emit(found)
        handles = PATH_ITEM_HANDLES if "openapi-3.2" in (self.old.document.dialect, self.new.document.dialect) \
            else PATH_ITEM_HANDLES_BEFORE_32  # (before 3.2, `query` and `additionalOperations` are no operations)
        for at, item in self.new.written.items():
            before = self.old.written.get(at)
            # (an item the new graph took over is the earlier one; else whether either writes a key beyond
            # `handles` is read before equality: a few keys, where equality reads the whole item, its operations too)
            if before is None or before is item or not at.startswith("/paths/") or not (
                    _beyond(item.data, handles) or _beyond(before.data, handles)) or item == before:
                continue
            path = split_pointer(at)[1]
            self._unmodelled(before, item, handles, Where(Context(part=Part("path", name=path)), "both"))

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
        moved_only = self.moved_only  # (only where it is written may differ, which moves when one is added before it)
        before_all, now = old.parameters, new.parameters
        # a record the graph took from the earlier one (graph.reuse) is that one: most of an operation written
        # alike but for one added parameter, left out before the loop reads them one by one
        differing = _not_taken(before_all, now) if moved_only else now
        gone = not before_all.keys() <= now.keys()
        relocated = _relocated(before_all, now) if gone else {}
        for key in differing:
            param, previous = now[key], before_all.get(key)
            if moved_only and previous is not None and key not in relocated and _same_but_place(previous, param):
                continue  # only where it is written moved
            at = request.within(_part(param.name, param.location))
            if key in relocated:
                before = old.parameters[relocated[key]]
                self.emit(change("modified", "parameter", "in", old=before.location, new=param.location,
                                 where=at, old_pointer=before.pointer, new_pointer=param.pointer,
                                 location=param.location, name=param.name, required=param.required))
                self._parameter(before, param, at)
            elif previous is None:
                self.emit(change("added", "parameter", new=param.name, where=at, new_pointer=param.pointer,
                                 location=param.location, name=param.name, required=param.required))
                if unreadable(param.sunset):
                    self.emit(change("added", "parameter", "x-sunset", new=param.sunset, where=at,
                                     new_pointer=param.pointer, sunset=param.sunset, deprecated=param.deprecated,
                                     location=param.location, name=param.name))
            else:
                self._parameter(previous, param, at)
        moved_from = set(relocated.values())
        for key, param in before_all.items() if gone else ():
            if key not in now and key not in moved_from:
                self.emit(change("removed", "parameter", old=param.name,
                                 where=request.within(_part(param.name, param.location)),
                                 old_pointer=param.pointer, location=param.location, name=param.name,
                                 required=param.required, deprecated=param.deprecated, sunset=param.sunset,
                                 said_deprecated=said_deprecated(param.written.data)))

    def _parameter(self, old: Parameter, new: Parameter, where: Where) -> None:
        """Compare one parameter's settings and schema; `old` may be the one it moved from (query to header)."""
        detail = {"location": new.location, "name": new.name}
        old_style, old_explode = serialisation(old, self.old.document.dialect)
        new_style, new_explode = serialisation(new, self.new.document.dialect)
        became_list = scalar_became_list(old.schema, new.schema, old_style, new_style, new_explode)
        if became_list or not (_structured(old.schema) or _structured(new.schema)):
            old_explode = new_explode = False  # one value is written alike whatever explode says
            if one_value_reads_the_same(old_style, new_style):
                old_style = new_style = ""
        formats = _collection_formats(old, new, (old_style, old_explode) != (new_style, new_explode),
                                      self.old.document.dialect, self.new.document.dialect)
        old_name = old.name.lower() if old.location == "header" else old.name  # header names ignore case
        new_name = new.name.lower() if new.location == "header" else new.name
        written = (("collectionFormat", *formats),) if formats else (("style", old_style, new_style),
                                                                    ("explode", old_explode, new_explode))
        for attribute, old_value, new_value in (("name", old_name, new_name), ("required", old.required, new.required),
                                                *written,
                                                ("content", *_written_as(old, new, self.old.document.dialect,
                                                                         self.new.document.dialect)),
                                                ("deprecated", old.deprecated, new.deprecated),
                                                ("x-sunset", old.sunset, new.sunset)):
            if old_value != new_value:
                self.emit(change(_kind(attribute, old_value, new_value), "parameter", attribute, old=old_value,
                                 new=new_value, where=where, old_pointer=old.pointer, new_pointer=new.pointer,
                                 sunset=new.sunset, deprecated=new.deprecated, **detail))
        if became_list:
            assert old.schema is not None and new.schema is not None
            self.emit(change("modified", "parameter", "type", old=old.schema.get("type"), new="array", where=where,
                             old_pointer=old.pointer, new_pointer=new.pointer + "/type", **detail))
            self._schema(as_item(old.schema, new.schema["items"]), new.schema["items"], old, new, where, "/items")
        else:
            self._schema(old.schema, new.schema, old, new, where)
        if self.schemas.include_docs:
            for attribute, before, after in _examples(old.written, new.written):
                self.emit(change(presence(before, after, None), "parameter", attribute, old=before, new=after,
                                 where=where, old_pointer=old.pointer, new_pointer=new.pointer, **detail))
        self._unmodelled(old.written, new.written, PARAMETER_HANDLES, where)

    def _schema(self, old: dict[str, Any] | None, new: dict[str, Any] | None, old_part: Parameter | MediaType,
                new_part: Parameter | MediaType, where: Where, new_suffix: str = "") -> None:
        """Compare two schemas where their parameter, media type or header writes them: in the document it names,
        else in its operation's."""
        if old is not None and new is not None:
            self.schemas.compare(Side(old, old_part.pointer, old_part.document or self.old_doc, text=_text(old_part)),
                                 Side(new, new_part.pointer + new_suffix, new_part.document or self.new_doc,
                                      text=_text(new_part)), where)

    # -- request bodies -----------------------------------------------------------------------------
    def _body(self, old: RequestBody | None, new: RequestBody | None, old_op: Operation, new_op: Operation,
              where: Where) -> None:
        if old is None and new is None:
            return
        request = self._request(where).within(Part("request body"))
        if old is None and new is not None:
            self.emit(change("added", "request-body", new=sorted(new.media), where=request, new_pointer=new.pointer,
                             required=new.required))
            return
        if new is None and old is not None:
            self.emit(change("removed", "request-body", old=sorted(old.media), where=request, old_pointer=old.pointer,
                             required=old.required, deprecated=old_op.deprecated))
            return
        assert old is not None and new is not None
        if self.schemas.equal_means_unchanged and old == new:
            return  # equal in everything, its media types' schemas and what no family models included
        if old.required != new.required and not (old.form_fields and new.form_fields):  # (then a field's change)
            self.emit(change("modified", "request-body", "required", old=old.required, new=new.required, where=request,
                             old_pointer=old.pointer, new_pointer=new.pointer))
        self._media(old.media, new.media, old.pointer, new.pointer, request, "request")
        self._unmodelled(old.written, new.written, BODY_HANDLES, request)

    def _media(self, old: dict[str, MediaType], new: dict[str, MediaType], old_pointer: str, new_pointer: str,
               where: Where, part: str, swagger_examples: Any = None) -> None:
        """The media types of a request body or a response (with a Swagger 2 response's `examples`, by media
        type), each one's schema compared with what the old response's example shows."""
        if self.schemas.equal_means_unchanged and old == new:
            return  # (a body that only became required: each media type equal, its schema all the way down)
        compared: set[tuple[int, int]] = set()
        # a schema Swagger repeats for every media type is compared once, as XML when any of them is
        xml = {(id(old[name].schema), id(media.schema)) for name, media in new.items()
               if name in old and is_xml(name)}
        # a form's fields are text, unless a media type that is no form shares its schema
        shared = [(id(old[name].schema), id(media.schema), is_form(name)) for name, media in new.items() if name in old]
        form = {(a, b) for a, b, _ in shared} - {(a, b) for a, b, text in shared if not text}
        # where the media types hold schemas of their own, a change to one is named with its media type
        named = len(new) > 1 and len({canonical(media.schema) for media in new.values()}) > 1
        body = where.context.part
        for name, media in new.items():
            if name not in old:
                self.emit(change("added", "media-type", part, new=name, where=where, new_pointer=media.pointer,
                                 media_type=name, others=", ".join(old)))
                continue
            previous = old[name]
            if self.schemas.include_docs:
                self._examples(previous, media, name, where)
            self._unmodelled(*self._field_encodings(previous, media, name, where), MEDIA_TYPE_HANDLES, where)
            self._item_schemas(previous, media, name, where)
            if previous.schema is None or media.schema is None:
                if previous.schema is not media.schema:  # a schema appeared or went under the same media type
                    self.emit(change("added" if previous.schema is None else "removed", "media-type", "schema",
                                     old=previous.schema, new=media.schema, where=where, old_pointer=previous.pointer,
                                     new_pointer=media.pointer, media_type=name))
                continue
            pair = (id(previous.schema), id(media.schema))
            if pair not in compared:  # Swagger repeats one schema for every listed media type
                compared.add(pair)
                inside = where.within(replace(body, media_type=name)) if named and body is not None else where
                shown = _shown(previous, name, swagger_examples) if part == "response" else ()
                self._schema(previous.schema, media.schema, previous, media,
                             replace(inside, xml=pair in xml, form=pair in form, example=shown))
        for name, media in old.items():
            if name not in new:
                renamed = next((other for other, now in new.items() if other not in old and is_json(other)
                                and now.schema is not None and now.schema == media.schema), None) \
                    if is_json(name) else None
                self.emit(change("removed", "media-type", part, old=name, where=where, old_pointer=media.pointer,
                                 media_type=name, others=", ".join(new),
                                 **({"renamed_to": renamed} if renamed else {})))

    def _examples(self, old: MediaType, new: MediaType, name: str, where: Where) -> None:
        """A media type's `example` or `examples`, which only document: with --include-docs."""
        for attribute, before, after in _examples(old.written, new.written):
            old_at, new_at = f"{old.written.pointer}/{attribute}", f"{new.written.pointer}/{attribute}"
            self.emit(change(presence(before, after, None), "media-type", attribute, old=before, new=after,
                             where=where, old_pointer=None if before is None else old_at,
                             new_pointer=None if after is None else new_at, media_type=name))

    def _item_schemas(self, old: MediaType, new: MediaType, name: str, where: Where) -> None:
        """OpenAPI 3.2 `itemSchema`, the schema of each item of a streamed or sequential body, compared as a body's
        schema is: a property each event loses is a response field removed."""
        if old.item_schema is None and new.item_schema is None:
            return
        if old.item_schema is None or new.item_schema is None:
            self.emit(change("added" if old.item_schema is None else "removed", "media-type", ITEM_SCHEMA,
                             old=old.item_schema, new=new.item_schema, where=where,
                             old_pointer=None if old.item_schema is None else old.item_pointer,
                             new_pointer=None if new.item_schema is None else new.item_pointer, media_type=name))
            return
        self.schemas.compare(Side(old.item_schema, old.item_pointer, old.document or self.old_doc),
                             Side(new.item_schema, new.item_pointer, new.document or self.new_doc), where)

    def _field_encodings(self, old: MediaType, new: MediaType, name: str, where: Where
                         ) -> tuple[Written, Written]:
        """An `encoding` entry written for a field the body gains, or dropped with a field it loses, says how that
        field is sent (Stripe writes `deepObject` for each new object field of a form): one change of its own,
        beside the field's; so is a `style` written for a field that only ever holds a plain value, which it
        cannot change (`plain`). The media types are handed back without those entries, for the residue to
        compare the rest as data."""
        o, n = (side.written.data.get("encoding") for side in (old, new))
        if o == n or not isinstance(o or {}, dict) or not isinstance(n or {}, dict):
            return old.written, new.written
        o, n = o or {}, n or {}
        old_fields, new_fields = self._fields(old, self.schemas.old_normal, self.old_doc), self._fields(
            new, self.schemas.new_normal, self.new_doc)
        gained = [key for key in n if key not in o and key in new_fields and key not in old_fields]
        lost = [key for key in o if key not in n and key in old_fields and key not in new_fields]
        plain = [key for key in n if key not in o and key in old_fields and key in new_fields
                 and isinstance(n[key], dict) and n[key].keys() <= _SHAPING
                 and self._sends_plain_value(old_fields[key], old, self.schemas.old_normal, self.old_doc)
                 and self._sends_plain_value(new_fields[key], new, self.schemas.new_normal, self.new_doc)]
        for key in [*gained, *plain]:
            self.emit(change("added", "encoding", new=n[key], where=where,
                             new_pointer=new.written.pointer + join_pointer(("encoding", key)), property=key,
                             media_type=name, plain=key in plain))
        gained += plain
        for key in lost:
            self.emit(change("removed", "encoding", old=o[key], where=where,
                             old_pointer=old.written.pointer + join_pointer(("encoding", key)), property=key,
                             media_type=name))
        if not gained and not lost:
            return old.written, new.written
        kept_old = {key: value for key, value in o.items() if key not in lost}
        kept_new = {key: value for key, value in n.items() if key not in gained}

        both = "encoding" in old.written.data and "encoding" in new.written.data

        def without(written: Written, kept: dict[str, Any]) -> Written:
            """(an `encoding` left empty stays only where both sides write one, so that it is no difference)"""
            data = {key: value for key, value in written.data.items() if key != "encoding"}
            return Written({**data, "encoding": kept} if kept or both else data, written.pointer)

        return without(old.written, kept_old), without(new.written, kept_new)

    def _fields(self, media: MediaType, normal: Normaliser, doc: Document) -> dict[str, Any]:
        """The fields a body's schema writes, by name, past its `$ref` and through its `allOf` parts."""
        if media.schema is None:
            return {}
        schema = normal.target(media.schema, media.pointer, media.document or doc)
        parts = [schema, *(normal.target(part, media.pointer, media.document or doc)
                           for part in schema.get("allOf") or [] if isinstance(part, dict))]
        return {name: field for part in parts if isinstance(part.get("properties"), dict)
                for name, field in part["properties"].items()}

    def _sends_plain_value(self, schema: Any, media: MediaType, normal: Normaliser, doc: Document,
                           depth: int = 0) -> bool:
        """Whether every value a field admits is a string, number or boolean (each branch of an `anyOf` or
        `oneOf`, an `enum` of such values): a form sends it as `name=value` whatever `style` and `explode` say,
        which shape objects and lists only."""
        if not isinstance(schema, dict) or depth > _DEEPEST_PLAIN:
            return False
        schema = normal.target(schema, media.pointer, media.document or doc)
        branches = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(branches, list) and branches:
            return all(self._sends_plain_value(branch, media, normal, doc, depth + 1) for branch in branches)
        types = type_set(schema, (media.document or doc).dialect)
        if not types:
            values = schema.get("enum")
            return isinstance(values, list) and bool(values) and all(
                isinstance(value, str | int | float | bool) for value in values)
        return types <= _PLAIN_TYPES

    # -- responses ----------------------------------------------------------------------------------
    def _responses(self, old: Operation, new: Operation, where: Where) -> None:
        if old.responses is new.responses and self.schemas.equal_means_unchanged:
            return  # the graph took the earlier record's responses (graph.reuse): each is equal to itself
        response_where = self._response_side(where)
        swapped = _swapped_success(old, new)
        for status, response in new.responses.items():
            before = old.responses.get(status)
            if before is not None and self.schemas.equal_means_unchanged and before == response:
                continue  # equal: nothing inside can differ
            at = response_where.within(Part("response", status))
            if swapped and status == swapped[1]:
                self.emit(change("modified", "response", "status", old=swapped[0], new=status, where=at,
                                 old_pointer=old.responses[swapped[0]].pointer, new_pointer=response.pointer,
                                 status=status))
            elif before is None:
                self.emit(change("added", "response", new=status, where=at, new_pointer=response.pointer,
                                 status=status))
            else:
                self._response(before, response, at)
        for status, response in old.responses.items():
            if status not in new.responses and not (swapped and status == swapped[0]):
                self.emit(change("removed", "response", old=status,
                                 where=response_where.within(Part("response", status)),
                                 old_pointer=response.pointer, status=status))

    def _response(self, old: Response, new: Response, where: Where) -> None:
        if self.schemas.include_docs:
            for attribute in ("summary", "description"):
                before, after = old.written.data.get(attribute), new.written.data.get(attribute)
                if before != after:
                    self.emit(change(presence(before, after, None), "response", attribute, old=before, new=after,
                                     where=where, old_pointer=old.pointer, new_pointer=new.pointer,
                                     status=new.status))
        self._unmodelled(old.written, new.written, RESPONSE_HANDLES, where)
        self._media(old.media, new.media, old.pointer, new.pointer, where, "response", old.written.data.get("examples"))
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
                status = where.context.part.status if where.context.part else ""
                header_where = where.within(Part("response header", status, header.name))
                self._schema(previous.schema, header.schema, previous, header, header_where)
                self._unmodelled(previous.written, header.written, PARAMETER_HANDLES, header_where)
        for name, header in old.headers.items():
            if name not in new.headers:
                self.emit(change("removed", "header", old=header.name, where=where, old_pointer=header.pointer,
                                 name=header.name, required=header.required))


def _shown(media: MediaType, name: str, swagger_examples: Any) -> tuple[Any, ...]:
    """The one example a media type gives of its body (`example`, or a Swagger 2 response's `examples` entry
    for it), as a one-item tuple; empty when it gives none or several (`examples`)."""
    if "example" in media.written.data:
        return (media.written.data["example"],)
    if isinstance(swagger_examples, dict) and name in swagger_examples:
        return (swagger_examples[name],)
    return ()


def _examples(old: Written, new: Written) -> list[tuple[str, Any, Any]]:
    """(attribute, old, new) of the `example` and `examples` two objects write differently (OpenAPI 3.2 examples
    may give a `dataValue` and its `serializedValue`)."""
    return [(attribute, old.data.get(attribute), new.data.get(attribute)) for attribute in ("example", "examples")
            if old.data.get(attribute) != new.data.get(attribute)]


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


def _collection_formats(old: Parameter, new: Parameter, changed: bool, old_dialect: str, new_dialect: str
                        ) -> tuple[str, str] | None:
    """Two Swagger 2.0 parameters' `collectionFormat`s (`csv` when not written), when both documents are Swagger
    2.0 and the list is written another way: said as the documents write it, not in OpenAPI 3 terms."""
    if not changed or old_dialect != "swagger-2.0" or new_dialect != "swagger-2.0":
        return None
    return old.style or "csv", new.style or "csv"


def _structured(schema: dict[str, Any] | None) -> bool:
    """Whether a value may be a list or an object, whose serialisation the style decides."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return True
    types = schema.get("type")
    types = {types} if isinstance(types, str) else {t for t in types if isinstance(t, str)} \
        if isinstance(types, list) else set()
    return not types or bool(types & {"array", "object"})


@lru_cache(maxsize=1024)
def _part(name: str, location: str) -> Part:
    """A parameter's part, one record for every operation that writes it (Kubernetes adds one parameter to
    hundreds of list operations at once), so a change of each is not made a `Part` of its own."""
    return Part("parameter", name=name, location=location)


def _kind(attribute: str, old_value: Any, new_value: Any) -> str:
    """A sunset date is set, moved or dropped; the other settings compared beside it always have a value."""
    return presence(old_value, new_value, None) if attribute == "x-sunset" else "modified"


def _written_as(old: Parameter, new: Parameter, old_dialect: str, new_dialect: str) -> tuple[str | None, str | None]:
    """How each side writes a parameter's value, where either names a media type (`content`): that media type,
    else its style (the style alone is compared as `style`)."""
    if old.media_type is None and new.media_type is None:
        return None, None
    return (old.media_type or f"{serialisation(old, old_dialect)[0]} style",
            new.media_type or f"{serialisation(new, new_dialect)[0]} style")


def _same_but_place(old: Parameter, new: Parameter) -> bool:
    """Equal in everything `_parameter` compares; the pointer, the document and the words may differ. The graph
    makes a parameter from what the spec writes for it (its name, schema, style, ... all read from that object),
    so two written alike are alike in everything (`_alike_but_words` for the words)."""
    old_data, new_data = old.written.data, new.written.data
    if old_data and new_data:
        return old_data == new_data or _alike_but_words(old_data, new_data)
    return (old.name == new.name and old.required == new.required and old.style == new.style
            and old.explode == new.explode and old.deprecated == new.deprecated and old.sunset == new.sunset
            and old.schema == new.schema and old.written == new.written)


def _written_in(op: Operation, graph: SpecGraph) -> dict[tuple[str, ...], str | None]:
    """The file each schema of an operation is written in (its key, None for the spec's own documents), by the
    part that holds it: what its `$ref`s resolve against."""
    key, own = graph.normal.resolver.key, graph.document_of(op)
    found: dict[tuple[str, ...], str | None] = {("parameter", *place): key(parameter.document or own)
                                                for place, parameter in op.parameters.items()}
    for name, media in (op.body.media if op.body is not None else {}).items():
        found["body", name] = key(media.document or own)
    for status, response in op.responses.items():
        for name, media in response.media.items():
            found["response", status, name] = key(media.document or own)
        for name, header in response.headers.items():
            found["header", status, name] = key(header.document or own)
    return found


def _alike_but_words(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two parameters are written alike but for their descriptions (Kubernetes rewords `pretty` in every
    operation of a release): `_parameter` reads a parameter's words only as those of its schema where the schema
    differs, and here the schema is written alike."""
    return ("description" in old and "description" in new and old.keys() == new.keys()
            and all(value == new[key] for key, value in old.items() if key != "description"))


def _same_beyond_parameters(old: Operation, new: Operation) -> bool:
    """Whether two operations are equal in their body, responses and settings all the way down."""
    return (old.body == new.body and old.responses == new.responses and old.deprecated == new.deprecated
            and old.operation_id == new.operation_id and old.sunset == new.sunset
            and old.declared_stability == new.declared_stability)


def _same_parameters(old: dict[Any, Parameter], new: dict[Any, Parameter], moved_only: bool) -> bool:
    """Whether two operations' parameters are equal all the way down; with `moved_only`, alike but for their places
    and words, which moved when one was added before them or were reworded (`_same_but_place`)."""
    if not moved_only or len(old) != len(new):
        return old == new
    for key, param in new.items():
        before = old.get(key)
        if before is not param and (before is None or not _same_but_place(before, param)):
            return False
    return True


def _non_resource(op: Operation, api_server: bool) -> dict[str, Any]:
    """`non_resource` for a path of a Kubernetes API server outside /api and /apis (`/version`,
    `/.well-known/openid-configuration/`: what RBAC calls nonResourceURLs), which belongs to no API group."""
    outside = not (op.path in ("/api", "/apis") or op.path.startswith(("/api/", "/apis/")))
    return {"non_resource": True} if api_server and outside else {}


def _where(op: Operation, graph: SpecGraph) -> Where:
    """Where an operation's changes are, with the stability, resource and kind the graph gave it."""
    resource, kind = subject(graph, op)
    return Where(Context(group_version=op.group_version, stability=op.stability,
                         document=graph.part_of(graph.document_of(op)), resource=resource, kind=kind,
                         method=op.method.upper(), route=op.path), "both", op.kind)


def _beyond(data: Mapping[str, Any], handles: frozenset[str]) -> bool:
    """Whether an object writes a key outside `handles` that no other family compares: only then is there
    anything for the residue to find (the check reads keys, where comparing whole operations reads everything)."""
    if data.keys() <= handles:  # most objects: every key modelled (a check that allocates nothing)
        return False
    for key in data.keys() - handles:  # (a loop: a generator costs more than the few keys it would read)
        if not key.startswith(KUBERNETES_PREFIX):
            return True
    return False


def _swapped_success(old: Operation, new: Operation) -> tuple[str, str] | None:
    """(old, new) when the one success status an operation stopped answering was replaced by one it did not
    answer before (202 -> 200): one change of status, not a removal and an unrelated addition."""
    gone = [s for s in old.responses if s not in new.responses and s.startswith("2")]
    came = [s for s in new.responses if s not in old.responses and s.startswith("2")]
    return (gone[0], came[0]) if len(gone) == 1 and len(came) == 1 else None


def _not_taken(before: dict[Any, Parameter], now: dict[Any, Parameter]) -> list[Any]:
    """The keys of `now` whose record is not `before`'s very one under the same key, in `now`'s order (mapped in
    C: an operation lists a dozen parameters, most of them taken over whole)."""
    return list(compress(now, map(is_not, map(before.get, now), now.values())))


def _relocated(old: dict[Any, Parameter], new: dict[Any, Parameter]) -> dict[Any, Any]:
    """New parameter key -> old key, for a parameter that only one side has and that the other has under the same
    name in another location (`q` moved from the query to a header): one parameter moved, not one removed and
    another added. A path parameter is left out: its name is only a template's label."""
    gone = {param.name.lower(): key for key, param in old.items() if key not in new and param.location != "path"}
    if not gone:
        return {}
    found: dict[Any, Any] = {}
    for key, param in new.items():
        was = gone.get(param.name.lower())
        if key not in old and param.location != "path" and was is not None and old[was].location != param.location:
            found[key] = gone.pop(param.name.lower())
    return found


def _text(part: Parameter | MediaType) -> str:
    """A parameter's description, which documents its schema (a media type's says nothing of the schema)."""
    text = part.written.data.get("description") if isinstance(part, Parameter) else None
    return text if isinstance(text, str) else ""
