"""The declared change vocabulary: every kind of change the differ may emit, and the one way to build one.

This is the contract between diff/ and rules/. A change is a node kind (what changed: a property, a parameter,
a CRD version), a change kind (added, removed, modified), an attribute (which part of the node: `required`,
`maxLength`; "" for the node itself) and typed facts (what a rule or its message needs beyond old and new).
The differ builds changes only through `change(...)`, which refuses anything undeclared here; the card loader
refuses a card that matches, renders or tests anything undeclared here. Adding a kind of change means adding
it here first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from specdiff.frozen import record
from specdiff.records import Change, Context, Part

KINDS = ("added", "removed", "modified")
#: the keywords a schema change may name, beyond the scalar keywords below
SCALAR_KEYWORDS = ("format", "default", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                   "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
                   "minProperties", "maxProperties", "readOnly", "writeOnly", "deprecated")
#: JSON Schema 2020-12 keywords (specdiff.diff.jsonschema2020)
KEYWORDS_2020 = ("if", "then", "else", "contains", "minContains", "maxContains", "propertyNames", "contentSchema",
                 "contentMediaType", "contentEncoding", "unevaluatedProperties", "unevaluatedItems", "prefixItems",
                 "patternProperties", "dependentSchemas", "dependentRequired", "$defs")
#: an attribute ending in `*` stands for every attribute with that prefix
ANY_EXTENSION = "x-*"

#: placeholders every change offers a message, whatever its node (see classify.message_values)
COMMON_VALUES = ("old", "new", "attribute", "operation", "schema", "path", "location", "document", "direction",
                 "stability", "group_version")

_OPTIONAL_STR = (str, type(None))
_ANY = (object,)


@record(frozen=True)
class Node:
    """One node kind: the change kinds and attributes it comes in, and the facts it may carry (name -> types)."""

    kinds: tuple[str, ...]
    attributes: tuple[str, ...]
    facts: Mapping[str, tuple[type, ...]] = field(default_factory=dict)

    def has_attribute(self, attribute: str) -> bool:
        return attribute in self.attributes or any(
            a.endswith("*") and attribute.startswith(a[:-1]) for a in self.attributes)


_CRD_VERSION = {"crd": (str,), "version": (str,)}
#: what a deprecation says about when the element goes (specdiff.diff.openapi_extensions): whether it is (was,
#: for a removal) deprecated, and its `x-sunset` or Sunset header date, `YYYY-MM-DD` or as written when it is no
#: date; how far away that is, classify decides against the reference date
_SUNSET = {"deprecated": (bool,), "sunset": (str,)}
#: vendor extensions plain OpenAPI specs write, compared by what they mean
OPENAPI_EXTENSIONS = ("x-sunset", "x-stability-level")
#: what a client does with a security scheme, as OpenAPI 3 names it (`flow`: an OAuth flow; `scope`: one it offers)
SECURITY_SCHEME_ATTRIBUTES = ("type", "in", "name", "scheme", "bearerFormat", "flow", "authorizationUrl",
                              "tokenUrl", "refreshUrl", "deviceAuthorizationUrl", "scope", "openIdConnectUrl",
                              "oauth2MetadataUrl", "deprecated")
#: keywords that only document, compared with --include-docs
DOC_ATTRIBUTES = ("summary", "description", "tags", "title", "example", "examples", "externalDocs")
#: an operation's code samples, as Redoc and Redocly write them: documentation, compared with --include-docs
CODE_SAMPLES = ("x-codeSamples", "x-code-samples")

VOCABULARY: dict[str, Node] = {
    "operation": Node(KINDS, ("", "deprecated", "operationId", *OPENAPI_EXTENSIONS, *DOC_ATTRIBUTES, *CODE_SAMPLES),
                      {**_SUNSET, "non_resource": (bool,)}),
    "parameter": Node(KINDS, ("", "name", "in", "required", "style", "explode", "collectionFormat", "content",
                              "deprecated", "type",
                              "x-sunset", "example", "examples"),
                      {"location": (str,), "name": (str,), "required": (bool,), "said_deprecated": (bool,),
                       **_SUNSET}),
    # `deprecated`: the operation that loses its body was marked deprecated in the old spec
    "request-body": Node(KINDS, ("", "required"), {"required": (bool,), "deprecated": (bool,)}),
    # a media type added or removed, its schema or item schema set or dropped; with --include-docs, its examples
    "media-type": Node(KINDS, ("request", "response", "schema", "itemSchema", "example", "examples"),
                       {"media_type": (str,), "others": (str,), "renamed_to": (str,)}),
    # modified "status": the one success status an operation answered became another (202 -> 200); with
    # --include-docs, a response's summary (OpenAPI 3.2) or description rewritten
    "response": Node(KINDS, ("", "status", "summary", "description"), {"status": (str,)}),
    # a media type's `encoding` entry for one field (`property`) of its body, added or removed with the field, or
    # written for a field that only holds plain values (`plain`: strings, numbers, booleans)
    "encoding": Node(("added", "removed"), ("",), {"property": (str,), "media_type": (str,), "plain": (bool,)}),
    "header": Node(KINDS, ("", "required"), {"name": (str,), "required": (bool,)}),
    # `collectionFormat`: how a Swagger 2.0 list is written where it is no parameter's own (items of a list, a
    # form field, a response header)
    "schema": Node(KINDS, ("", "name", "$ref", "type", "nullable", "enum", "items", "not", "additionalProperties",
                           "allOf", "oneOf", "anyOf", "discriminator", "collectionFormat", *SCALAR_KEYWORDS,
                           *KEYWORDS_2020,
                           *OPENAPI_EXTENSIONS, *DOC_ATTRIBUTES),
                   {"member": (str,), "overlaps": (bool,), "position": (int,), "key": (str,), "closed": (bool,),
                    "had_properties": (bool,), "with_items": (bool,), "plain_format": (str,), "scalar_forms": (bool,),
                    "old_kind": _OPTIONAL_STR, "new_kind": _OPTIONAL_STR, "own_kind": (bool,),
                    "enforced": (bool,), "only_in_parameters": (bool,), "constrains": (bool,), "condition": (str,),
                    "implied": (bool,), "same_wire": (bool,), "alias_of": (str,), "enum_within": (bool,),
                    "expansion": (bool,), "as_text": (bool,), "every_value": (bool,), "kind_of_plain": (bool,),
                    "example_shows": (bool,),
                    "open": (bool,), "in_deprecated": (bool,),
                    # the words that already said what a keyword written down now says (specdiff.diff.evidence)
                    "evidence": _OPTIONAL_STR, **_SUNSET}),
    "enum-value": Node(("added", "removed"), ("enum", "x-extensible-enum"),
                       {"value": _ANY, "deprecated": (bool,), "open": (bool,), "example_shows": (bool,)}),
    "property": Node(KINDS, ("", "required"),
                     {"name": (str,), "required": (bool,), "read_only": (bool,), "was_read_only": (bool,),
                      "already_required": (bool,),
                      "lifecycle": (str,), "in_deprecated": (bool,), "in_other_branch": (str,),
                      "moved_to_union": (str,),
                      "undefined": (bool,),
                      # the old spec's words that already said what a changed `required` marker now says
                      "evidence": _OPTIONAL_STR,
                      "feature_gate": _OPTIONAL_STR, "min_version": _OPTIONAL_STR, **_SUNSET}),
    # `name`: the extension's own name, when the change is somewhere inside it (`x-github` of `x-github/previews`)
    "extension": Node(KINDS, (ANY_EXTENSION,),
                      {"old_type": (str,), "new_type": (str,), "old_strategy": (list,), "new_strategy": (list,),
                       "value_kind": (str,), "predates_topology": (bool,), "name": (str,),
                       # a struct whose fields the old descriptions call mutually exclusive (specdiff.diff.evidence)
                       "evidence": _OPTIONAL_STR}),
    "lifecycle": Node(("added", "modified"), ("marker", "status", "minVersion", "featureGate"),
                      {"problems": (str,), "status": _OPTIONAL_STR, "feature_gate": _OPTIONAL_STR,
                       "old_min_version": _OPTIONAL_STR, "new_min_version": _OPTIONAL_STR}),
    "validation": Node(KINDS, ("rule", "message"),
                       {"transition": (bool,), "message": _ANY, "rule": _ANY, "fields": (str,), "loosened": (bool,),
                        "on_new_fields": (bool,), "proof": _OPTIONAL_STR, "compile_error": _OPTIONAL_STR,
                        # the API server's cost check of a CRD's new or changed rule (specdiff.diff.cel_cost):
                        # the estimate, what budget it exceeds with the figures, or that it cannot be estimated
                        "cost": (int, type(None)), "cost_overrun": _OPTIONAL_STR, "cost_unchecked": (bool,),
                        # an added rule the old description already stated (specdiff.diff.evidence.said_rule):
                        # the sentence quoted, and whether the rule also reads fields the old schema lacked
                        "evidence": _OPTIONAL_STR, "partly": (bool,)}),
    "union": Node(KINDS, ("", "member"), {"discriminator": _ANY, "value": _ANY, "member": (str,)}),
    # security (specdiff.diff.security): an operation's whole requirement going from anonymous to authenticated
    # or back; one alternative of it (a requirement object) and the schemes and scopes it asks for; a scheme
    # definition by what a client does with it. `scheme` names the security scheme.
    "security": Node(("added", "removed"), ("",), {"schemes": (str,)}),
    "security-requirement": Node(("added", "removed"), ("", "scheme", "scope"),
                                 {"scheme": (str,), "scopes": (str,), "requirement": (str,), "still_met": (bool,)}),
    "security-scheme": Node(KINDS, ("", *SECURITY_SCHEME_ATTRIBUTES),
                            {"scheme": (str,), "flow": (str,), "in_use": (bool,), "operations": (tuple,),
                             "used_by": (str,), "scopes": (str,)}),
    # servers (specdiff.diff.servers): a base URL an operation is called at, added or removed as a whole; its
    # origin (`url`) or base path (`path`) changed; one of its variables, the variable's default or its values
    # the document's tags (only with --include-docs): added, removed, or what one says changed
    "tag": Node(KINDS, ("", "summary", "description", "parent", "kind", "externalDocs"), {"name": (str,)}),
    "server": Node(KINDS, ("", "url", "path", "variable", "default", "enum", "name"),
                   {"url": (str,), "variable": (str,), "value": (str,), "scheme_written": (bool,)}),
    # the document's own `info.version`, what release notes are titled by
    "info": Node(KINDS, ("version",)),
    # what no family models (specdiff.diff.residue), compared as data: the attribute is the path inside the
    # node that changed (`xml/name`) and `name` the keyword's own (`xml`); vendor extensions come as `extension`
    # changes the same way
    # `xml_body`: a body of an XML media type carries the schema whose `xml` object changed
    "keyword": Node(KINDS, ("*",), {"name": (str,), "xml_body": (bool,)}),
    # a file the spec reaches through `$ref` that differs where no other change points (specdiff.diff.files):
    # `file` is its path inside the spec's folder, `places` where it differs
    "file": Node(("modified",), ("",), {"file": (str,), "places": (str,)}),
    "crd": Node(KINDS, ("", "scope", "conversion", "storage"), {"versions": (int,)}),
    "crd-version": Node(KINDS, ("", "served", "deprecated", "deprecationWarning"),
                        {**_CRD_VERSION, "served": (bool,), "storage": (bool,), "deprecated": (bool,),
                         "stored": (bool,)}),
    "crd-names": Node(KINDS, ("kind", "plural", "singular", "listKind", "shortNames", "categories"),
                      {"name": (str,)}),
    "crd-subresource": Node(KINDS, ("status", "scale"), {**_CRD_VERSION, "key": (str,)}),
    "crd-printer-column": Node(KINDS, ("", "jsonPath", "type", "format", "priority"),
                               {**_CRD_VERSION, "column": (str,), "json_path": _ANY}),
    "crd-selectable-field": Node(("added", "removed"), ("",), {**_CRD_VERSION, "field": (str,)}),
    "crd-round-trip": Node(("added",), ("",), {**_CRD_VERSION, "field": (str,), "missing_in": (str,),
                                              "conversion": (str,)}),
    # a field that two served versions type differently: `types` says which versions give which type
    "crd-type-clash": Node(("added",), ("type",), {**_CRD_VERSION, "field": (str,), "types": (str,),
                                                    "conversion": (str,)}),
    "crd-enum-clash": Node(("added",), ("enum",), {**_CRD_VERSION, "field": (str,), "values": (str,),
                                                    "wider": (str,), "conversion": (str,)}),
    # the release gate (specdiff.classify.release_gate, --check-version): the version a release declares
    # (`info.version`; for Kubernetes, the group-version a change is in) against what its findings need
    "release": Node(("modified",), ("version", "version-format", "api-version"),
                    {"required": (str,), "declared": (str,), "because": (str,), "value": (str,)}),
    "group-version": Node(("added", "removed"), ("",),
                          {"definition_count": (int,), "definitions": (tuple,), "kinds": (str,),
                           "operation_count": (int,), "operations": (tuple,)}),
}


class VocabularyError(TypeError):
    """The differ built a change this module does not declare: a bug in specdiff, not in the input."""


@record(frozen=True)
class Where:
    """The shared location of a pair being compared: the context and the direction it is read in."""

    context: Context
    direction: str
    #: "core/v1/Pod": the kind the operation being compared names in its own `x-kubernetes-group-version-kind`
    #: (a subresource's `Scale`), so a body can be told to be that kind; `Context.kind` is the kind its
    #: resource serves (`Deployment`), what a reader files the change under
    operation_kind: str | None = None
    #: the body being compared is (or shares its schema with) one of an XML media type
    xml: bool = False
    #: the body being compared is a form (`application/x-www-form-urlencoded`, `multipart/form-data`) under each
    #: of its media types: its fields are written as text
    form: bool = False
    #: the value the old spec's example of a response body shows at this place, as a one-item tuple (empty when
    #: it shows none): what the server was documented to send, whatever the schema said
    example: tuple[Any, ...] = field(default=(), compare=False)

    def at(self, path_suffix: str) -> Where:
        return Where(self.context.at(path_suffix), self.direction, self.operation_kind, self.xml, self.form,
                     _example_at(self.example, path_suffix))

    def within(self, part: Part) -> Where:
        """The same operation, in one of its parts: its request body, a response, a header, a parameter."""
        return Where(self.context.within(part), self.direction, self.operation_kind, self.xml, self.form)


def _example_at(example: tuple[Any, ...], path_suffix: str) -> tuple[Any, ...]:
    """What an example shows at a property (`.ok`) of the place it showed; nothing past any other step."""
    name = path_suffix[1:] if path_suffix.startswith(".") else None
    if example and isinstance(example[0], dict) and name is not None and name in example[0]:
        return (example[0][name],)
    return ()


def change(kind: str, node: str, attribute: str = "", *, where: Where, old: Any = None, new: Any = None,
           old_pointer: str | None = None, new_pointer: str | None = None, **facts: Any) -> Change:
    """A declared change; refuses an undeclared node, kind, attribute or fact, or a fact of the wrong type."""
    declared = VOCABULARY.get(node)
    if declared is None or kind not in declared.kinds or not declared.has_attribute(attribute):
        raise VocabularyError(f"undeclared change: {kind} {node} {attribute!r}")
    for name, value in facts.items():
        types = declared.facts.get(name)
        if types is None or (value is not None and not isinstance(value, types)):
            raise VocabularyError(f"undeclared fact {name}={value!r} on {node}")
    return Change(kind, node, attribute, old, new, where.direction, where.context, old_pointer, new_pointer,
                  tuple(sorted(facts.items())))
