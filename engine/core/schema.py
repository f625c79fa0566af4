"""The small subset of JSON Schema that decisions use, validated with the standard library.

Supported: ``type`` (object, integer, boolean, string, array), ``properties``,
``required``, ``additionalProperties: false``, ``minimum``/``maximum``, ``enum``,
``items``, ``minItems``/``maxItems``, ``uniqueItems``; ``default``, ``title`` and
``description`` annotate and are not checked.  Anything else in a schema is a
programming error of the game, reported loudly.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core.errors import BadArguments

_KNOWN = {
    "type", "properties", "required", "additionalProperties", "minimum", "maximum",
    "enum", "items", "minItems", "maxItems", "uniqueItems", "description", "title", "default",
}


def validate(schema: Mapping[str, Any], value: Any, path: str = "args") -> None:
    """Raise :class:`BadArguments` naming the first place where ``value`` breaks ``schema``."""
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"unsupported schema keywords {sorted(unknown)} at {path}")
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, Mapping):
            raise BadArguments(f"{path} must be an object")
        props = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                raise BadArguments(f"{path}.{name} is required")
        if schema.get("additionalProperties") is False:
            extra = set(value) - set(props)
            if extra:
                raise BadArguments(f"{path} has unknown fields {sorted(extra)}")
        for name, sub in props.items():
            if name in value:
                validate(sub, value[name], f"{path}.{name}")
    elif kind == "integer":
        if type(value) is not int:
            raise BadArguments(f"{path} must be an integer")
    elif kind == "boolean":
        if type(value) is not bool:
            raise BadArguments(f"{path} must be true or false")
    elif kind == "string":
        if not isinstance(value, str):
            raise BadArguments(f"{path} must be a string")
    elif kind == "array":
        if not isinstance(value, list):
            raise BadArguments(f"{path} must be a list")
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise BadArguments(f"{path} needs at least {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise BadArguments(f"{path} takes at most {schema['maxItems']} items")
        if schema.get("uniqueItems") and len({repr(v) for v in value}) != len(value):
            raise BadArguments(f"{path} must not repeat items")
        if "items" in schema:
            for i, item in enumerate(value):
                validate(schema["items"], item, f"{path}[{i}]")
    elif kind is not None:
        raise ValueError(f"unsupported schema type {kind!r} at {path}")
    if "enum" in schema and value not in schema["enum"]:
        raise BadArguments(f"{path} must be one of {schema['enum']}")
    if "minimum" in schema and value < schema["minimum"]:
        raise BadArguments(f"{path} must be at least {schema['minimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        raise BadArguments(f"{path} must be at most {schema['maximum']}")


def sample(schema: Mapping[str, Any], rng: Any) -> Any:
    """A random value satisfying ``schema``, drawn from ``rng`` (a ``random.Random``).

    Used by the generic bot; the engine never calls it with a generator of its own.
    """
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return {k: sample(v, rng) for k, v in props.items() if k in required or rng.random() < 0.5}
    if kind == "integer":
        lo = schema.get("minimum", 0)
        hi = schema.get("maximum", lo + 10)
        return rng.randint(lo, hi)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        return ""
    if kind == "array":
        lo = schema.get("minItems", 0)
        hi = schema.get("maxItems", lo + 3)
        item = schema.get("items", {})
        n = rng.randint(lo, hi)
        if schema.get("uniqueItems") and "enum" in item:
            return rng.sample(list(item["enum"]), min(n, len(item["enum"])))
        return [sample(item, rng) for _ in range(n)]
    raise ValueError(f"cannot sample schema {schema!r}")
