"""The `__init__` of each record class (specdiff/frozen.py), by its text: written by `make docs`, not edited by hand.
The names they read are given when a record class is made."""
# mypy: ignore-errors

from types import CodeType

COMPILED: dict[str, CodeType] = {}


def __init__(self, absent, present, fields, items, values, enum, fielded, keys, min_items, max_items):
    if fields is _MISSING:
        fields = _factory_fields()
    _set(self, '__dict__', {'absent': absent, 'present': present, 'fields': fields, 'items': items, 'values': values, 'enum': enum, 'fielded': fielded, 'keys': keys, 'min_items': min_items, 'max_items': max_items})


COMPILED["def __init__(self, absent, present, fields, items, values, enum, fielded, keys, min_items, max_items):\n    if fields is _MISSING:\n        fields = _factory_fields()\n    _set(self, '__dict__', {'absent': absent, 'present': present, 'fields': fields, 'items': items, 'values': values, 'enum': enum, 'fielded': fielded, 'keys': keys, 'min_items': min_items, 'max_items': max_items})\n\n"] = __init__.__code__


def __init__(self, alternatives, pointer, stated):
    _set(self, '__dict__', {'alternatives': alternatives, 'pointer': pointer, 'stated': stated})


COMPILED["def __init__(self, alternatives, pointer, stated):\n    _set(self, '__dict__', {'alternatives': alternatives, 'pointer': pointer, 'stated': stated})\n\n"] = __init__.__code__


def __init__(self, color, fail_on, annotate_level, old_doc, new_doc, summary_only):
    _set(self, '__dict__', {'color': color, 'fail_on': fail_on, 'annotate_level': annotate_level, 'old_doc': old_doc, 'new_doc': new_doc, 'summary_only': summary_only})


COMPILED["def __init__(self, color, fail_on, annotate_level, old_doc, new_doc, summary_only):\n    _set(self, '__dict__', {'color': color, 'fail_on': fail_on, 'annotate_level': annotate_level, 'old_doc': old_doc, 'new_doc': new_doc, 'summary_only': summary_only})\n\n"] = __init__.__code__


def __init__(self, context, direction, operation_kind, xml, form, example):
    _set(self, '__dict__', {'context': context, 'direction': direction, 'operation_kind': operation_kind, 'xml': xml, 'form': form, 'example': example})


COMPILED["def __init__(self, context, direction, operation_kind, xml, form, example):\n    _set(self, '__dict__', {'context': context, 'direction': direction, 'operation_kind': operation_kind, 'xml': xml, 'form': form, 'example': example})\n\n"] = __init__.__code__


def __init__(self, data, pointer):
    if data is _MISSING:
        data = _factory_data()
    _set(self, '__dict__', {'data': data, 'pointer': pointer})


COMPILED["def __init__(self, data, pointer):\n    if data is _MISSING:\n        data = _factory_data()\n    _set(self, '__dict__', {'data': data, 'pointer': pointer})\n\n"] = __init__.__code__


def __init__(self, document, graph):
    _set(self, '__dict__', {'document': document, 'graph': graph})


COMPILED["def __init__(self, document, graph):\n    _set(self, '__dict__', {'document': document, 'graph': graph})\n\n"] = __init__.__code__


def __init__(self, document, operations, schemas, graph, crds, part_keys, notes, evidence, security_schemes, written, read_through, referred_parameters, parameter_lists, _normal, _reach, _in_xml, _stabilities, _field_stabilities, _places, _caps, _labels, _component, _summed):
    if crds is _MISSING:
        crds = _factory_crds()
    if part_keys is _MISSING:
        part_keys = _factory_part_keys()
    if security_schemes is _MISSING:
        security_schemes = _factory_security_schemes()
    if written is _MISSING:
        written = _factory_written()
    if referred_parameters is _MISSING:
        referred_parameters = _factory_referred_parameters()
    if parameter_lists is _MISSING:
        parameter_lists = _factory_parameter_lists()
    if _reach is _MISSING:
        _reach = _factory__reach()
    if _stabilities is _MISSING:
        _stabilities = _factory__stabilities()
    if _field_stabilities is _MISSING:
        _field_stabilities = _factory__field_stabilities()
    if _places is _MISSING:
        _places = _factory__places()
    if _caps is _MISSING:
        _caps = _factory__caps()
    if _labels is _MISSING:
        _labels = _factory__labels()
    if _component is _MISSING:
        _component = _factory__component()
    if _summed is _MISSING:
        _summed = _factory__summed()
    _set(self, '__dict__', {'document': document, 'operations': operations, 'schemas': schemas, 'graph': graph, 'crds': crds, 'part_keys': part_keys, 'notes': notes, 'evidence': evidence, 'security_schemes': security_schemes, 'written': written, 'read_through': read_through, 'referred_parameters': referred_parameters, 'parameter_lists': parameter_lists, '_normal': _normal, '_reach': _reach, '_in_xml': _in_xml, '_stabilities': _stabilities, '_field_stabilities': _field_stabilities, '_places': _places, '_caps': _caps, '_labels': _labels, '_component': _component, '_summed': _summed, '_derived': _factory__derived()})


COMPILED["def __init__(self, document, operations, schemas, graph, crds, part_keys, notes, evidence, security_schemes, written, read_through, referred_parameters, parameter_lists, _normal, _reach, _in_xml, _stabilities, _field_stabilities, _places, _caps, _labels, _component, _summed):\n    if crds is _MISSING:\n        crds = _factory_crds()\n    if part_keys is _MISSING:\n        part_keys = _factory_part_keys()\n    if security_schemes is _MISSING:\n        security_schemes = _factory_security_schemes()\n    if written is _MISSING:\n        written = _factory_written()\n    if referred_parameters is _MISSING:\n        referred_parameters = _factory_referred_parameters()\n    if parameter_lists is _MISSING:\n        parameter_lists = _factory_parameter_lists()\n    if _reach is _MISSING:\n        _reach = _factory__reach()\n    if _stabilities is _MISSING:\n        _stabilities = _factory__stabilities()\n    if _field_stabilities is _MISSING:\n        _field_stabilities = _factory__field_stabilities()\n    if _places is _MISSING:\n        _places = _factory__places()\n    if _caps is _MISSING:\n        _caps = _factory__caps()\n    if _labels is _MISSING:\n        _labels = _factory__labels()\n    if _component is _MISSING:\n        _component = _factory__component()\n    if _summed is _MISSING:\n        _summed = _factory__summed()\n    _set(self, '__dict__', {'document': document, 'operations': operations, 'schemas': schemas, 'graph': graph, 'crds': crds, 'part_keys': part_keys, 'notes': notes, 'evidence': evidence, 'security_schemes': security_schemes, 'written': written, 'read_through': read_through, 'referred_parameters': referred_parameters, 'parameter_lists': parameter_lists, '_normal': _normal, '_reach': _reach, '_in_xml': _in_xml, '_stabilities': _stabilities, '_field_stabilities': _field_stabilities, '_places': _places, '_caps': _caps, '_labels': _labels, '_component': _component, '_summed': _summed, '_derived': _factory__derived()})\n\n"] = __init__.__code__


def __init__(self, file, line, column, removed):
    _set(self, 'file', file)
    _set(self, 'line', line)
    _set(self, 'column', column)
    _set(self, 'removed', removed)


COMPILED["def __init__(self, file, line, column, removed):\n    _set(self, 'file', file)\n    _set(self, 'line', line)\n    _set(self, 'column', column)\n    _set(self, 'removed', removed)\n\n"] = __init__.__code__


def __init__(self, file, place):
    _set(self, '__dict__', {'file': file, 'place': place})


COMPILED["def __init__(self, file, place):\n    _set(self, '__dict__', {'file': file, 'place': place})\n\n"] = __init__.__code__


def __init__(self, file, pointer, line, data, source):
    _set(self, '__dict__', {'file': file, 'pointer': pointer, 'line': line, 'data': data, 'source': source})


COMPILED["def __init__(self, file, pointer, line, data, source):\n    _set(self, '__dict__', {'file': file, 'pointer': pointer, 'line': line, 'data': data, 'source': source})\n\n"] = __init__.__code__


def __init__(self, findings, notes):
    _set(self, 'findings', findings)
    _set(self, 'notes', notes)


COMPILED["def __init__(self, findings, notes):\n    _set(self, 'findings', findings)\n    _set(self, 'notes', notes)\n\n"] = __init__.__code__


def __init__(self, fingerprint, comment, origin):
    _set(self, 'fingerprint', fingerprint)
    _set(self, 'comment', comment)
    _set(self, 'origin', origin)


COMPILED["def __init__(self, fingerprint, comment, origin):\n    _set(self, 'fingerprint', fingerprint)\n    _set(self, 'comment', comment)\n    _set(self, 'origin', origin)\n\n"] = __init__.__code__


def __init__(self, group, kind, shared):
    _set(self, 'group', group)
    _set(self, 'kind', kind)
    _set(self, 'shared', shared)


COMPILED["def __init__(self, group, kind, shared):\n    _set(self, 'group', group)\n    _set(self, 'kind', kind)\n    _set(self, 'shared', shared)\n\n"] = __init__.__code__


def __init__(self, gvk, schema, served, deprecated):
    _set(self, '__dict__', {'gvk': gvk, 'schema': schema, 'served': served, 'deprecated': deprecated})


COMPILED["def __init__(self, gvk, schema, served, deprecated):\n    _set(self, '__dict__', {'gvk': gvk, 'schema': schema, 'served': served, 'deprecated': deprecated})\n\n"] = __init__.__code__


def __init__(self, id, level, title, reason):
    _set(self, '__dict__', {'id': id, 'level': level, 'title': title, 'reason': reason})


COMPILED["def __init__(self, id, level, title, reason):\n    _set(self, '__dict__', {'id': id, 'level': level, 'title': title, 'reason': reason})\n\n"] = __init__.__code__


def __init__(self, id, title, level, match, message, reason, docs, predicate, area, path, source, keep_in_alpha, when, aliases, section, reasons, group, group_message):
    _set(self, '__dict__', {'id': id, 'title': title, 'level': level, 'match': match, 'message': message, 'reason': reason, 'docs': docs, 'predicate': predicate, 'area': area, 'path': path, 'source': source, 'keep_in_alpha': keep_in_alpha, 'when': when, 'aliases': aliases, 'section': section, 'reasons': reasons, 'group': group, 'group_message': group_message})


COMPILED["def __init__(self, id, title, level, match, message, reason, docs, predicate, area, path, source, keep_in_alpha, when, aliases, section, reasons, group, group_message):\n    _set(self, '__dict__', {'id': id, 'title': title, 'level': level, 'match': match, 'message': message, 'reason': reason, 'docs': docs, 'predicate': predicate, 'area': area, 'path': path, 'source': source, 'keep_in_alpha': keep_in_alpha, 'when': when, 'aliases': aliases, 'section': section, 'reasons': reasons, 'group': group, 'group_message': group_message})\n\n"] = __init__.__code__


def __init__(self, key, method, path, pointer, parameters, body, responses, deprecated, operation_id, tags, group_version, stability, lifecycle, document, reversed, sunset, declared_stability, summary, description, kind, security, servers, raw, callbacks):
    if raw is _MISSING:
        raw = _factory_raw()
    if callbacks is _MISSING:
        callbacks = _factory_callbacks()
    _set(self, '__dict__', {'key': key, 'method': method, 'path': path, 'pointer': pointer, 'parameters': parameters, 'body': body, 'responses': responses, 'deprecated': deprecated, 'operation_id': operation_id, 'tags': tags, 'group_version': group_version, 'stability': stability, 'lifecycle': lifecycle, 'document': document, 'reversed': reversed, 'sunset': sunset, 'declared_stability': declared_stability, 'summary': summary, 'description': description, 'kind': kind, 'security': security, 'servers': servers, 'raw': raw, 'callbacks': callbacks})


COMPILED["def __init__(self, key, method, path, pointer, parameters, body, responses, deprecated, operation_id, tags, group_version, stability, lifecycle, document, reversed, sunset, declared_stability, summary, description, kind, security, servers, raw, callbacks):\n    if raw is _MISSING:\n        raw = _factory_raw()\n    if callbacks is _MISSING:\n        callbacks = _factory_callbacks()\n    _set(self, '__dict__', {'key': key, 'method': method, 'path': path, 'pointer': pointer, 'parameters': parameters, 'body': body, 'responses': responses, 'deprecated': deprecated, 'operation_id': operation_id, 'tags': tags, 'group_version': group_version, 'stability': stability, 'lifecycle': lifecycle, 'document': document, 'reversed': reversed, 'sunset': sunset, 'declared_stability': declared_stability, 'summary': summary, 'description': description, 'kind': kind, 'security': security, 'servers': servers, 'raw': raw, 'callbacks': callbacks})\n\n"] = __init__.__code__


def __init__(self, kind, node, attribute, old, new, direction, context, old_pointer, new_pointer, detail):
    _set(self, '__dict__', {'kind': kind, 'node': node, 'attribute': attribute, 'old': old, 'new': new, 'direction': direction, 'context': context, 'old_pointer': old_pointer, 'new_pointer': new_pointer, 'detail': detail})


COMPILED["def __init__(self, kind, node, attribute, old, new, direction, context, old_pointer, new_pointer, detail):\n    _set(self, '__dict__', {'kind': kind, 'node': node, 'attribute': attribute, 'old': old, 'new': new, 'direction': direction, 'context': context, 'old_pointer': old_pointer, 'new_pointer': new_pointer, 'detail': detail})\n\n"] = __init__.__code__


def __init__(self, kind, size, min_size, fields, elem, least):
    if fields is _MISSING:
        fields = _factory_fields()
    _set(self, '__dict__', {'kind': kind, 'size': size, 'min_size': min_size, 'fields': fields, 'elem': elem, 'least': least})


COMPILED["def __init__(self, kind, size, min_size, fields, elem, least):\n    if fields is _MISSING:\n        fields = _factory_fields()\n    _set(self, '__dict__', {'kind': kind, 'size': size, 'min_size': min_size, 'fields': fields, 'elem': elem, 'least': least})\n\n"] = __init__.__code__


def __init__(self, kind, status, name, location, media_type):
    _set(self, 'kind', kind)
    _set(self, 'status', status)
    _set(self, 'name', name)
    _set(self, 'location', location)
    _set(self, 'media_type', media_type)


COMPILED["def __init__(self, kind, status, name, location, media_type):\n    _set(self, 'kind', kind)\n    _set(self, 'status', status)\n    _set(self, 'name', name)\n    _set(self, 'location', location)\n    _set(self, 'media_type', media_type)\n\n"] = __init__.__code__


def __init__(self, kinds, attributes, facts):
    if facts is _MISSING:
        facts = _factory_facts()
    _set(self, '__dict__', {'kinds': kinds, 'attributes': attributes, 'facts': facts})


COMPILED["def __init__(self, kinds, attributes, facts):\n    if facts is _MISSING:\n        facts = _factory_facts()\n    _set(self, '__dict__', {'kinds': kinds, 'attributes': attributes, 'facts': facts})\n\n"] = __init__.__code__


def __init__(self, label, introduced, deprecated, unserved, removed):
    _set(self, 'label', label)
    _set(self, 'introduced', introduced)
    _set(self, 'deprecated', deprecated)
    _set(self, 'unserved', unserved)
    _set(self, 'removed', removed)


COMPILED["def __init__(self, label, introduced, deprecated, unserved, removed):\n    _set(self, 'label', label)\n    _set(self, 'introduced', introduced)\n    _set(self, 'deprecated', deprecated)\n    _set(self, 'unserved', unserved)\n    _set(self, 'removed', removed)\n\n"] = __init__.__code__


def __init__(self, label, source, error):
    _set(self, 'label', label)
    _set(self, 'source', source)
    _set(self, 'error', error)


COMPILED["def __init__(self, label, source, error):\n    _set(self, 'label', label)\n    _set(self, 'source', source)\n    _set(self, 'error', error)\n\n"] = __init__.__code__


def __init__(self, limit, measure, where):
    _set(self, '__dict__', {'limit': limit, 'measure': measure, 'where': where})


COMPILED["def __init__(self, limit, measure, where):\n    _set(self, '__dict__', {'limit': limit, 'measure': measure, 'where': where})\n\n"] = __init__.__code__


def __init__(self, location, name, required, schema, pointer, deprecated, style, explode, sunset, document, written):
    _set(self, '__dict__', {'location': location, 'name': name, 'required': required, 'schema': schema, 'pointer': pointer, 'deprecated': deprecated, 'style': style, 'explode': explode, 'sunset': sunset, 'document': document, 'written': written})


COMPILED["def __init__(self, location, name, required, schema, pointer, deprecated, style, explode, sunset, document, written):\n    _set(self, '__dict__', {'location': location, 'name': name, 'required': required, 'schema': schema, 'pointer': pointer, 'deprecated': deprecated, 'style': style, 'explode': explode, 'sunset': sunset, 'document': document, 'written': written})\n\n"] = __init__.__code__


def __init__(self, match_paths, exclude_paths, tags, exclude_tags, exclude_extensions):
    _set(self, 'match_paths', match_paths)
    _set(self, 'exclude_paths', exclude_paths)
    _set(self, 'tags', tags)
    _set(self, 'exclude_tags', exclude_tags)
    _set(self, 'exclude_extensions', exclude_extensions)


COMPILED["def __init__(self, match_paths, exclude_paths, tags, exclude_tags, exclude_extensions):\n    _set(self, 'match_paths', match_paths)\n    _set(self, 'exclude_paths', exclude_paths)\n    _set(self, 'tags', tags)\n    _set(self, 'exclude_tags', exclude_tags)\n    _set(self, 'exclude_extensions', exclude_extensions)\n\n"] = __init__.__code__


def __init__(self, max_bytes, max_depth, max_alias_nodes, max_changes, max_versions, allow_remote_refs, remote_timeout):
    _set(self, '__dict__', {'max_bytes': max_bytes, 'max_depth': max_depth, 'max_alias_nodes': max_alias_nodes, 'max_changes': max_changes, 'max_versions': max_versions, 'allow_remote_refs': allow_remote_refs, 'remote_timeout': remote_timeout})
    self.__post_init__()


COMPILED["def __init__(self, max_bytes, max_depth, max_alias_nodes, max_changes, max_versions, allow_remote_refs, remote_timeout):\n    _set(self, '__dict__', {'max_bytes': max_bytes, 'max_depth': max_depth, 'max_alias_nodes': max_alias_nodes, 'max_changes': max_changes, 'max_versions': max_versions, 'allow_remote_refs': allow_remote_refs, 'remote_timeout': remote_timeout})\n    self.__post_init__()\n\n"] = __init__.__code__


def __init__(self, name, data, dialect, format, base, sourcemap, parts, reader, limits, notes):
    _set(self, '__dict__', {'name': name, 'data': data, 'dialect': dialect, 'format': format, 'base': base, 'sourcemap': sourcemap, 'parts': parts, 'reader': reader, 'limits': limits, 'notes': notes})
    self.__post_init__()


COMPILED["def __init__(self, name, data, dialect, format, base, sourcemap, parts, reader, limits, notes):\n    _set(self, '__dict__', {'name': name, 'data': data, 'dialect': dialect, 'format': format, 'base': base, 'sourcemap': sourcemap, 'parts': parts, 'reader': reader, 'limits': limits, 'notes': notes})\n    self.__post_init__()\n\n"] = __init__.__code__


def __init__(self, name, default, enum, pointer):
    _set(self, '__dict__', {'name': name, 'default': default, 'enum': enum, 'pointer': pointer})


COMPILED["def __init__(self, name, default, enum, pointer):\n    _set(self, '__dict__', {'name': name, 'default': default, 'enum': enum, 'pointer': pointer})\n\n"] = __init__.__code__


def __init__(self, name, dialect, title, version):
    _set(self, 'name', name)
    _set(self, 'dialect', dialect)
    _set(self, 'title', title)
    _set(self, 'version', version)


COMPILED["def __init__(self, name, dialect, title, version):\n    _set(self, 'name', name)\n    _set(self, 'dialect', dialect)\n    _set(self, 'title', title)\n    _set(self, 'version', version)\n\n"] = __init__.__code__


def __init__(self, name, pointer, authorization_url, token_url, refresh_url, scopes, device_authorization_url):
    _set(self, '__dict__', {'name': name, 'pointer': pointer, 'authorization_url': authorization_url, 'token_url': token_url, 'refresh_url': refresh_url, 'scopes': scopes, 'device_authorization_url': device_authorization_url})


COMPILED["def __init__(self, name, pointer, authorization_url, token_url, refresh_url, scopes, device_authorization_url):\n    _set(self, '__dict__', {'name': name, 'pointer': pointer, 'authorization_url': authorization_url, 'token_url': token_url, 'refresh_url': refresh_url, 'scopes': scopes, 'device_authorization_url': device_authorization_url})\n\n"] = __init__.__code__


def __init__(self, name, pointer, raw, served, storage, deprecated, schema, schema_name, gvk, group_version, stability):
    _set(self, '__dict__', {'name': name, 'pointer': pointer, 'raw': raw, 'served': served, 'storage': storage, 'deprecated': deprecated, 'schema': schema, 'schema_name': schema_name, 'gvk': gvk, 'group_version': group_version, 'stability': stability})


COMPILED["def __init__(self, name, pointer, raw, served, storage, deprecated, schema, schema_name, gvk, group_version, stability):\n    _set(self, '__dict__', {'name': name, 'pointer': pointer, 'raw': raw, 'served': served, 'storage': storage, 'deprecated': deprecated, 'schema': schema, 'schema_name': schema_name, 'gvk': gvk, 'group_version': group_version, 'stability': stability})\n\n"] = __init__.__code__


def __init__(self, name, pointer, spec, group, kind, versions, stored_versions, assumed):
    _set(self, '__dict__', {'name': name, 'pointer': pointer, 'spec': spec, 'group': group, 'kind': kind, 'versions': versions, 'stored_versions': stored_versions, 'assumed': assumed})


COMPILED["def __init__(self, name, pointer, spec, group, kind, versions, stored_versions, assumed):\n    _set(self, '__dict__', {'name': name, 'pointer': pointer, 'spec': spec, 'group': group, 'kind': kind, 'versions': versions, 'stored_versions': stored_versions, 'assumed': assumed})\n\n"] = __init__.__code__


def __init__(self, name, schema, pointer, document, gvk, group_version, stability):
    _set(self, '__dict__', {'name': name, 'schema': schema, 'pointer': pointer, 'document': document, 'gvk': gvk, 'group_version': group_version, 'stability': stability})


COMPILED["def __init__(self, name, schema, pointer, document, gvk, group_version, stability):\n    _set(self, '__dict__', {'name': name, 'schema': schema, 'pointer': pointer, 'document': document, 'gvk': gvk, 'group_version': group_version, 'stability': stability})\n\n"] = __init__.__code__


def __init__(self, name, type, pointer, location, parameter, scheme, bearer_format, flows, open_id_connect_url, oauth2_metadata_url, deprecated):
    _set(self, '__dict__', {'name': name, 'type': type, 'pointer': pointer, 'location': location, 'parameter': parameter, 'scheme': scheme, 'bearer_format': bearer_format, 'flows': flows, 'open_id_connect_url': open_id_connect_url, 'oauth2_metadata_url': oauth2_metadata_url, 'deprecated': deprecated})


COMPILED["def __init__(self, name, type, pointer, location, parameter, scheme, bearer_format, flows, open_id_connect_url, oauth2_metadata_url, deprecated):\n    _set(self, '__dict__', {'name': name, 'type': type, 'pointer': pointer, 'location': location, 'parameter': parameter, 'scheme': scheme, 'bearer_format': bearer_format, 'flows': flows, 'open_id_connect_url': open_id_connect_url, 'oauth2_metadata_url': oauth2_metadata_url, 'deprecated': deprecated})\n\n"] = __init__.__code__


def __init__(self, object, rule, message, fix, field, line, replacement, changes):
    _set(self, '__dict__', {'object': object, 'rule': rule, 'message': message, 'fix': fix, 'field': field, 'line': line, 'replacement': replacement, 'changes': changes})


COMPILED["def __init__(self, object, rule, message, fix, field, line, replacement, changes):\n    _set(self, '__dict__', {'object': object, 'rule': rule, 'message': message, 'fix': fix, 'field': field, 'line': line, 'replacement': replacement, 'changes': changes})\n\n"] = __init__.__code__


def __init__(self, old, new, _validators, _rules, _verdicts):
    if _validators is _MISSING:
        _validators = _factory__validators()
    if _rules is _MISSING:
        _rules = _factory__rules()
    if _verdicts is _MISSING:
        _verdicts = _factory__verdicts()
    _set(self, '__dict__', {'old': old, 'new': new, '_validators': _validators, '_rules': _rules, '_verdicts': _verdicts})
    self.__post_init__()


COMPILED["def __init__(self, old, new, _validators, _rules, _verdicts):\n    if _validators is _MISSING:\n        _validators = _factory__validators()\n    if _rules is _MISSING:\n        _rules = _factory__rules()\n    if _verdicts is _MISSING:\n        _verdicts = _factory__verdicts()\n    _set(self, '__dict__', {'old': old, 'new': new, '_validators': _validators, '_rules': _rules, '_verdicts': _verdicts})\n    self.__post_init__()\n\n"] = __init__.__code__


def __init__(self, old, new, findings, checked, skipped, files):
    _set(self, '__dict__', {'old': old, 'new': new, 'findings': findings, 'checked': checked, 'skipped': skipped, 'files': files})


COMPILED["def __init__(self, old, new, findings, checked, skipped, files):\n    _set(self, '__dict__', {'old': old, 'new': new, 'findings': findings, 'checked': checked, 'skipped': skipped, 'files': files})\n\n"] = __init__.__code__


def __init__(self, old, new, policy, findings, notes, policy_reason, spec, today, readers, readers_configured):
    _set(self, 'old', old)
    _set(self, 'new', new)
    _set(self, 'policy', policy)
    _set(self, 'findings', findings)
    _set(self, 'notes', notes)
    _set(self, 'policy_reason', policy_reason)
    _set(self, 'spec', spec)
    _set(self, 'today', today)
    _set(self, 'readers', readers)
    _set(self, 'readers_configured', readers_configured)


COMPILED["def __init__(self, old, new, policy, findings, notes, policy_reason, spec, today, readers, readers_configured):\n    _set(self, 'old', old)\n    _set(self, 'new', new)\n    _set(self, 'policy', policy)\n    _set(self, 'findings', findings)\n    _set(self, 'notes', notes)\n    _set(self, 'policy_reason', policy_reason)\n    _set(self, 'spec', spec)\n    _set(self, 'today', today)\n    _set(self, 'readers', readers)\n    _set(self, 'readers_configured', readers_configured)\n\n"] = __init__.__code__


def __init__(self, old, new, report, error):
    _set(self, 'old', old)
    _set(self, 'new', new)
    _set(self, 'report', report)
    _set(self, 'error', error)


COMPILED["def __init__(self, old, new, report, error):\n    _set(self, 'old', old)\n    _set(self, 'new', new)\n    _set(self, 'report', report)\n    _set(self, 'error', error)\n\n"] = __init__.__code__


def __init__(self, opening, findings, closing, shared):
    _set(self, '__dict__', {'opening': opening, 'findings': findings, 'closing': closing, 'shared': shared})


COMPILED["def __init__(self, opening, findings, closing, shared):\n    _set(self, '__dict__', {'opening': opening, 'findings': findings, 'closing': closing, 'shared': shared})\n\n"] = __init__.__code__


def __init__(self, path, policy, fail_on, annotate_level, response_readers, levels, extensions, select, ignore, ignores, baseline, baseline_path, deprecation_days, check_version, selection):
    if levels is _MISSING:
        levels = _factory_levels()
    if extensions is _MISSING:
        extensions = _factory_extensions()
    if deprecation_days is _MISSING:
        deprecation_days = _factory_deprecation_days()
    _set(self, 'path', path)
    _set(self, 'policy', policy)
    _set(self, 'fail_on', fail_on)
    _set(self, 'annotate_level', annotate_level)
    _set(self, 'response_readers', response_readers)
    _set(self, 'levels', levels)
    _set(self, 'extensions', extensions)
    _set(self, 'select', select)
    _set(self, 'ignore', ignore)
    _set(self, 'ignores', ignores)
    _set(self, 'baseline', baseline)
    _set(self, 'baseline_path', baseline_path)
    _set(self, 'deprecation_days', deprecation_days)
    _set(self, 'check_version', check_version)
    _set(self, 'selection', selection)
    self.__post_init__()


COMPILED["def __init__(self, path, policy, fail_on, annotate_level, response_readers, levels, extensions, select, ignore, ignores, baseline, baseline_path, deprecation_days, check_version, selection):\n    if levels is _MISSING:\n        levels = _factory_levels()\n    if extensions is _MISSING:\n        extensions = _factory_extensions()\n    if deprecation_days is _MISSING:\n        deprecation_days = _factory_deprecation_days()\n    _set(self, 'path', path)\n    _set(self, 'policy', policy)\n    _set(self, 'fail_on', fail_on)\n    _set(self, 'annotate_level', annotate_level)\n    _set(self, 'response_readers', response_readers)\n    _set(self, 'levels', levels)\n    _set(self, 'extensions', extensions)\n    _set(self, 'select', select)\n    _set(self, 'ignore', ignore)\n    _set(self, 'ignores', ignores)\n    _set(self, 'baseline', baseline)\n    _set(self, 'baseline_path', baseline_path)\n    _set(self, 'deprecation_days', deprecation_days)\n    _set(self, 'check_version', check_version)\n    _set(self, 'selection', selection)\n    self.__post_init__()\n\n"] = __init__.__code__


def __init__(self, pieces, last):
    _set(self, 'pieces', pieces)
    _set(self, 'last', last)


COMPILED["def __init__(self, pieces, last):\n    _set(self, 'pieces', pieces)\n    _set(self, 'last', last)\n\n"] = __init__.__code__


def __init__(self, policy, config, today, grouped, include_docs, limits, trace, repo):
    _set(self, 'policy', policy)
    _set(self, 'config', config)
    _set(self, 'today', today)
    _set(self, 'grouped', grouped)
    _set(self, 'include_docs', include_docs)
    _set(self, 'limits', limits)
    _set(self, 'trace', trace)
    _set(self, 'repo', repo)


COMPILED["def __init__(self, policy, config, today, grouped, include_docs, limits, trace, repo):\n    _set(self, 'policy', policy)\n    _set(self, 'config', config)\n    _set(self, 'today', today)\n    _set(self, 'grouped', grouped)\n    _set(self, 'include_docs', include_docs)\n    _set(self, 'limits', limits)\n    _set(self, 'trace', trace)\n    _set(self, 'repo', repo)\n\n"] = __init__.__code__


def __init__(self, release, kind, text, level):
    _set(self, 'release', release)
    _set(self, 'kind', kind)
    _set(self, 'text', text)
    _set(self, 'level', level)


COMPILED["def __init__(self, release, kind, text, level):\n    _set(self, 'release', release)\n    _set(self, 'kind', kind)\n    _set(self, 'text', text)\n    _set(self, 'level', level)\n\n"] = __init__.__code__


def __init__(self, required, media, pointer, written, form_fields):
    _set(self, '__dict__', {'required': required, 'media': media, 'pointer': pointer, 'written': written, 'form_fields': form_fields})


COMPILED["def __init__(self, required, media, pointer, written, form_fields):\n    _set(self, '__dict__', {'required': required, 'media': media, 'pointer': pointer, 'written': written, 'form_fields': form_fields})\n\n"] = __init__.__code__


def __init__(self, rule, level, message, reason, change, operations, members, group, first_id, rule_info, stable_reason, values, place):
    if values is _MISSING:
        values = _factory_values()
    _set(self, '__dict__', {'rule': rule, 'level': level, 'message': message, 'reason': reason, 'change': change, 'operations': operations, 'members': members, 'group': group, 'first_id': first_id, 'rule_info': rule_info, 'stable_reason': stable_reason, 'values': values, 'place': place})


COMPILED["def __init__(self, rule, level, message, reason, change, operations, members, group, first_id, rule_info, stable_reason, values, place):\n    if values is _MISSING:\n        values = _factory_values()\n    _set(self, '__dict__', {'rule': rule, 'level': level, 'message': message, 'reason': reason, 'change': change, 'operations': operations, 'members': members, 'group': group, 'first_id': first_id, 'rule_info': rule_info, 'stable_reason': stable_reason, 'values': values, 'place': place})\n\n"] = __init__.__code__


def __init__(self, rule, location, reason, expires, origin):
    _set(self, 'rule', rule)
    _set(self, 'location', location)
    _set(self, 'reason', reason)
    _set(self, 'expires', expires)
    _set(self, 'origin', origin)


COMPILED["def __init__(self, rule, location, reason, expires, origin):\n    _set(self, 'rule', rule)\n    _set(self, 'location', location)\n    _set(self, 'reason', reason)\n    _set(self, 'expires', expires)\n    _set(self, 'origin', origin)\n\n"] = __init__.__code__


def __init__(self, schema, gvk, group_version, stability, document, resource, kind, method, route, part, field, operations, held_by, whole_type):
    _set(self, '__dict__', {'schema': schema, 'gvk': gvk, 'group_version': group_version, 'stability': stability, 'document': document, 'resource': resource, 'kind': kind, 'method': method, 'route': route, 'part': part, 'field': field, 'operations': operations, 'held_by': held_by, 'whole_type': whole_type})


COMPILED["def __init__(self, schema, gvk, group_version, stability, document, resource, kind, method, route, part, field, operations, held_by, whole_type):\n    _set(self, '__dict__', {'schema': schema, 'gvk': gvk, 'group_version': group_version, 'stability': stability, 'document': document, 'resource': resource, 'kind': kind, 'method': method, 'route': route, 'part': part, 'field': field, 'operations': operations, 'held_by': held_by, 'whole_type': whole_type})\n\n"] = __init__.__code__


def __init__(self, schema, pointer, document, identity, named, beside, bare, generic):
    _set(self, 'schema', schema)
    _set(self, 'pointer', pointer)
    _set(self, 'document', document)
    _set(self, 'identity', identity)
    _set(self, 'named', named)
    _set(self, 'beside', beside)
    _set(self, 'bare', bare)
    _set(self, 'generic', generic)


COMPILED["def __init__(self, schema, pointer, document, identity, named, beside, bare, generic):\n    _set(self, 'schema', schema)\n    _set(self, 'pointer', pointer)\n    _set(self, 'document', document)\n    _set(self, 'identity', identity)\n    _set(self, 'named', named)\n    _set(self, 'beside', beside)\n    _set(self, 'bare', bare)\n    _set(self, 'generic', generic)\n\n"] = __init__.__code__


def __init__(self, schema, pointer, document, places, text):
    _set(self, '__dict__', {'schema': schema, 'pointer': pointer, 'document': document, 'places': places, 'text': text})


COMPILED["def __init__(self, schema, pointer, document, places, text):\n    _set(self, '__dict__', {'schema': schema, 'pointer': pointer, 'document': document, 'places': places, 'text': text})\n\n"] = __init__.__code__


def __init__(self, schema, pointer, document, written, item_schema):
    _set(self, '__dict__', {'schema': schema, 'pointer': pointer, 'document': document, 'written': written, 'item_schema': item_schema})


COMPILED["def __init__(self, schema, pointer, document, written, item_schema):\n    _set(self, '__dict__', {'schema': schema, 'pointer': pointer, 'document': document, 'written': written, 'item_schema': item_schema})\n\n"] = __init__.__code__


def __init__(self, schemes, pointer):
    _set(self, '__dict__', {'schemes': schemes, 'pointer': pointer})


COMPILED["def __init__(self, schemes, pointer):\n    _set(self, '__dict__', {'schemes': schemes, 'pointer': pointer})\n\n"] = __init__.__code__


def __init__(self, scope, stability, deprecated, served):
    _set(self, 'scope', scope)
    _set(self, 'stability', stability)
    _set(self, 'deprecated', deprecated)
    _set(self, 'served', served)


COMPILED["def __init__(self, scope, stability, deprecated, served):\n    _set(self, 'scope', scope)\n    _set(self, 'stability', stability)\n    _set(self, 'deprecated', deprecated)\n    _set(self, 'served', served)\n\n"] = __init__.__code__


def __init__(self, source, rev, path, toplevel, shadowed):
    _set(self, 'source', source)
    _set(self, 'rev', rev)
    _set(self, 'path', path)
    _set(self, 'toplevel', toplevel)
    _set(self, 'shadowed', shadowed)


COMPILED["def __init__(self, source, rev, path, toplevel, shadowed):\n    _set(self, 'source', source)\n    _set(self, 'rev', rev)\n    _set(self, 'path', path)\n    _set(self, 'toplevel', toplevel)\n    _set(self, 'shadowed', shadowed)\n\n"] = __init__.__code__


def __init__(self, spec, evidence, policy, configured, builtin_types):
    _set(self, 'spec', spec)
    _set(self, 'evidence', evidence)
    _set(self, 'policy', policy)
    _set(self, 'configured', configured)
    _set(self, 'builtin_types', builtin_types)


COMPILED["def __init__(self, spec, evidence, policy, configured, builtin_types):\n    _set(self, 'spec', spec)\n    _set(self, 'evidence', evidence)\n    _set(self, 'policy', policy)\n    _set(self, 'configured', configured)\n    _set(self, 'builtin_types', builtin_types)\n\n"] = __init__.__code__


def __init__(self, specs, notes):
    _set(self, 'specs', specs)
    _set(self, 'notes', notes)


COMPILED["def __init__(self, specs, notes):\n    _set(self, 'specs', specs)\n    _set(self, 'notes', notes)\n\n"] = __init__.__code__


def __init__(self, status, media, headers, pointer, written):
    _set(self, '__dict__', {'status': status, 'media': media, 'headers': headers, 'pointer': pointer, 'written': written})


COMPILED["def __init__(self, status, media, headers, pointer, written):\n    _set(self, '__dict__', {'status': status, 'media': media, 'headers': headers, 'pointer': pointer, 'written': written})\n\n"] = __init__.__code__


def __init__(self, status, min_version, feature_gate):
    _set(self, '__dict__', {'status': status, 'min_version': min_version, 'feature_gate': feature_gate})


COMPILED["def __init__(self, status, min_version, feature_gate):\n    _set(self, '__dict__', {'status': status, 'min_version': min_version, 'feature_gate': feature_gate})\n\n"] = __init__.__code__


def __init__(self, target, map):
    _set(self, '__dict__', {'target': target, 'map': map})


COMPILED["def __init__(self, target, map):\n    _set(self, '__dict__', {'target': target, 'map': map})\n\n"] = __init__.__code__


def __init__(self, text, error):
    _set(self, 'text', text)
    _set(self, 'error', error)


COMPILED["def __init__(self, text, error):\n    _set(self, 'text', text)\n    _set(self, 'error', error)\n\n"] = __init__.__code__


def __init__(self, thing, present_in, events, lines):
    _set(self, 'thing', thing)
    _set(self, 'present_in', present_in)
    _set(self, 'events', events)
    _set(self, 'lines', lines)


COMPILED["def __init__(self, thing, present_in, events, lines):\n    _set(self, 'thing', thing)\n    _set(self, 'present_in', present_in)\n    _set(self, 'events', events)\n    _set(self, 'lines', lines)\n\n"] = __init__.__code__


def __init__(self, title, section, group, message, group_messages, reason, levels, docs):
    _set(self, 'title', title)
    _set(self, 'section', section)
    _set(self, 'group', group)
    _set(self, 'message', message)
    _set(self, 'group_messages', group_messages)
    _set(self, 'reason', reason)
    _set(self, 'levels', levels)
    _set(self, 'docs', docs)


COMPILED["def __init__(self, title, section, group, message, group_messages, reason, levels, docs):\n    _set(self, 'title', title)\n    _set(self, 'section', section)\n    _set(self, 'group', group)\n    _set(self, 'message', message)\n    _set(self, 'group_messages', group_messages)\n    _set(self, 'reason', reason)\n    _set(self, 'levels', levels)\n    _set(self, 'docs', docs)\n\n"] = __init__.__code__


def __init__(self, today, notice_days):
    if today is _MISSING:
        today = _factory_today()
    if notice_days is _MISSING:
        notice_days = _factory_notice_days()
    _set(self, '__dict__', {'today': today, 'notice_days': notice_days})


COMPILED["def __init__(self, today, notice_days):\n    if today is _MISSING:\n        today = _factory_today()\n    if notice_days is _MISSING:\n        notice_days = _factory_notice_days()\n    _set(self, '__dict__', {'today': today, 'notice_days': notice_days})\n\n"] = __init__.__code__


def __init__(self, unreadable, steps, presences):
    _set(self, 'unreadable', unreadable)
    _set(self, 'steps', steps)
    _set(self, 'presences', presences)


COMPILED["def __init__(self, unreadable, steps, presences):\n    _set(self, 'unreadable', unreadable)\n    _set(self, 'steps', steps)\n    _set(self, 'presences', presences)\n\n"] = __init__.__code__


def __init__(self, url, token, timeout):
    _set(self, '__dict__', {'url': url, 'token': token, 'timeout': timeout})


COMPILED["def __init__(self, url, token, timeout):\n    _set(self, '__dict__', {'url': url, 'token': token, 'timeout': timeout})\n\n"] = __init__.__code__


def __init__(self, url, variables, pointer):
    _set(self, '__dict__', {'url': url, 'variables': variables, 'pointer': pointer})


COMPILED["def __init__(self, url, variables, pointer):\n    _set(self, '__dict__', {'url': url, 'variables': variables, 'pointer': pointer})\n\n"] = __init__.__code__


def __init__(self, value):
    _set(self, '__dict__', {'value': value})


COMPILED["def __init__(self, value):\n    _set(self, '__dict__', {'value': value})\n\n"] = __init__.__code__


def __init__(self, versions, notes):
    _set(self, 'versions', versions)
    _set(self, 'notes', notes)


COMPILED["def __init__(self, versions, notes):\n    _set(self, 'versions', versions)\n    _set(self, 'notes', notes)\n\n"] = __init__.__code__


def __init__(self, versions, steps, trace, today, notes):
    _set(self, 'versions', versions)
    _set(self, 'steps', steps)
    _set(self, 'trace', trace)
    _set(self, 'today', today)
    _set(self, 'notes', notes)


COMPILED["def __init__(self, versions, steps, trace, today, notes):\n    _set(self, 'versions', versions)\n    _set(self, 'steps', steps)\n    _set(self, 'trace', trace)\n    _set(self, 'today', today)\n    _set(self, 'notes', notes)\n\n"] = __init__.__code__
