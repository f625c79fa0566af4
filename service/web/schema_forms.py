"""HTML forms from the JSON schemas games use, and the typed values read back from them.

A decision whose answers cannot be listed comes with a JSON schema of its arguments, and
a game type describes its creation options the same way; both become forms here, one
field per property, so a new game needs no new page code:

=============================================  ==========================================
schema                                         field
=============================================  ==========================================
``enum``                                       ``select`` (card ids shown as card names)
``integer`` (``minimum``/``maximum``)          ``integer``: a number box with its bounds
``boolean``                                    ``boolean``: a checkbox
``string``                                     ``string``: a text box
array of enum, ``uniqueItems`` and             ``ordered``: one select per position
``minItems == maxItems``                       (an order of all or some values)
other array of enum                            ``multi``: checkboxes, with min/max items
array of strings without enum                  ``lines``: one value per line
``object`` with ``properties``                 ``object``: its own fields, nested
anything else                                  ``json``: a text box read as JSON
=============================================  ==========================================

Field names are dotted paths (``plan.wound_order``) posted as ``arg.<path>``; enum values
travel as JSON text so that ``2`` and ``"2"`` stay apart.  Reading a form back checks
only what the form itself can get wrong (an unreadable number); whether the values obey
the schema and the rules is the service's job, exactly as for the API.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping, Optional

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from service.plumbing.errors import InvalidInput, ServiceError
from service.plumbing.json_input import read_json

#: ``label_of(value, key)`` -> how an enum value of argument ``key`` is shown.
Labeller = Callable[[Any, str], str]


def schema_fields(schema: Mapping[str, Any], defaults: Mapping[str, Any], cards: Any = None, *,
                  label_of: Optional[Labeller] = None, prefix: str = "") -> list[dict]:
    """One field per property of an object ``schema``; anything else is one JSON field.

    ``defaults`` pre-fill the fields; ``cards`` (card id -> card or name) names card
    ids in choices, unless ``label_of`` says how to show enum values.
    """
    label_of = label_of or _card_labeller(cards or {})
    props = schema.get("properties") if schema.get("type") == "object" else None
    if not isinstance(props, Mapping):
        return [{"name": "__json__", "kind": "json", "label": _("Answer (JSON)"),
                 "value": json.dumps(dict(defaults)), "help": "", "required": True}]
    required = set(schema.get("required") or ())
    return [_field(prefix + str(name), str(name), sub, defaults.get(name), name in defaults, name in required,
                   label_of) for name, sub in props.items() if isinstance(sub, Mapping)]


def _field(path: str, key: str, sub: Mapping[str, Any], value: Any, given: bool, required: bool,
           label_of: Labeller) -> dict:
    field = {"name": path, "key": key, "label": sub.get("title") or key.replace("_", " "),
             "help": sub.get("description", ""), "required": required, "value": value}
    kind = sub.get("type")
    items = sub.get("items") if isinstance(sub.get("items"), Mapping) else {}
    if "enum" in sub:
        field.update(kind="select", choices=_choices(sub["enum"], key, label_of), value=json.dumps(value))
    elif kind == "integer":
        field.update(kind="integer", min=sub.get("minimum"), max=sub.get("maximum"))
    elif kind == "boolean":
        field.update(kind="boolean")
    elif kind == "string":
        field.update(kind="string")
    elif kind == "array" and "enum" in items:
        chosen = value if isinstance(value, list) else []
        low, high = sub.get("minItems"), sub.get("maxItems")
        # Games offer ``[""]`` where there is nothing to choose (a schema needs an enum).
        choices = _choices([v for v in items["enum"] if v != ""], key, label_of)
        if sub.get("uniqueItems") and isinstance(high, int) and high > 0 and low == high:
            field.update(kind="ordered", choices=choices,
                         positions=[json.dumps(chosen[i]) if i < len(chosen) else "" for i in range(high)])
        else:
            field.update(kind="multi", choices=choices, chosen={json.dumps(v) for v in chosen},
                         min_items=low, max_items=high)
    elif kind == "array" and items.get("type") == "string":
        field.update(kind="lines", value="\n".join(str(v) for v in value) if isinstance(value, list) else "",
                     min_items=sub.get("minItems"), max_items=sub.get("maxItems"))
    elif kind == "object" and isinstance(sub.get("properties"), Mapping):
        inner = value if isinstance(value, Mapping) else {}
        field.update(kind="object", fields=schema_fields(sub, inner, label_of=label_of, prefix=path + "."))
    else:
        field.update(kind="json", value=json.dumps(value) if given else "")
    return field


def _choices(values: Iterable[Any], key: str, label_of: Labeller) -> list[tuple[str, str]]:
    return [(json.dumps(v), label_of(v, key)) for v in values]


def _card_labeller(cards: Mapping[str, Any]) -> Labeller:
    def label(value: Any, _key: str) -> str:
        known = cards.get(str(value))
        if isinstance(known, Mapping):
            return str(known.get("name") or value)
        return str(known) if known else str(value)
    return label


def values_from_form(fields: Iterable[dict], form: MultiDict) -> Any:
    """The typed arguments a form of ``fields`` posted (see the module's table).

    Empty fields are left out (the schema says whether that is allowed), an unticked
    checkbox is ``false``, and an unreadable value is an :class:`InvalidInput` naming it.
    """
    args: dict[str, Any] = {}
    for field in fields:
        key, kind, name = f"arg.{field['name']}", field["kind"], field.get("key", field["name"])
        if kind == "json" and field["name"] == "__json__":
            return _json_value(form.get(key, ""), "answer")
        if kind == "boolean":
            args[name] = key in form
        elif kind == "multi":
            args[name] = [_json_value(v, field["label"]) for v in form.getlist(key)]
        elif kind == "ordered":
            picked = [form.get(f"{key}.{i}", "") for i in range(len(field["positions"]))]
            if any(picked):
                args[name] = [_json_value(v, field["label"]) for v in picked if v != ""]
        elif kind == "object":
            inner = values_from_form(field["fields"], form)
            if any(f["kind"] != "boolean" and f.get("key", f["name"]) in inner for f in field["fields"]) \
                    or field["required"]:
                args[name] = inner
        elif kind == "lines":
            lines = [line.strip() for line in form.get(key, "").splitlines() if line.strip()]
            if lines or key in form:
                args[name] = lines
        elif form.get(key, "") == "":
            continue
        elif kind == "select":
            args[name] = _json_value(form[key], field["label"])
        elif kind == "integer":
            try:
                args[name] = int(form[key].strip())
            except ValueError:
                raise InvalidInput(_("%(field)s must be a whole number.", field=field["label"]), code="bad_form",
                                   details={"field": field["name"]}) from None
        elif kind == "string":
            args[name] = form[key]
        else:
            args[name] = _json_value(form[key], field["label"])
    return args


def _json_value(text: str, label: str) -> Any:
    try:
        return read_json(text, what=label)
    except ServiceError:
        raise InvalidInput(_("%(field)s: not a readable value.", field=label), code="bad_form",
                           details={"field": label}) from None


def refill(fields: Iterable[dict], form: MultiDict) -> list[dict]:
    """``fields`` showing what ``form`` posted, so a refused form comes back as it was sent."""
    out = []
    for field in fields:
        field = dict(field)
        key, kind = f"arg.{field['name']}", field["kind"]
        if kind == "boolean":
            field["value"] = key in form
        elif kind == "multi":
            field["chosen"] = set(form.getlist(key))
        elif kind == "ordered":
            field["positions"] = [form.get(f"{key}.{i}", "") for i in range(len(field["positions"]))]
        elif kind == "object":
            field["fields"] = refill(field["fields"], form)
        else:
            field["value"] = form.get(key, "")
        out.append(field)
    return out
