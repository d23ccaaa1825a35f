"""Reading request bodies and query strings into validated values (marshmallow)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import request
from marshmallow import Schema, ValidationError

from webapp.errors import InvalidRequest

_MISSING = "Missing data for required field."
_UNKNOWN = "Unknown field."
# JSON's whitespace (RFC 8259). bytes.strip() would also drop \f and \v, making a body of
# those an "empty" one although it is not JSON (found by the schemathesis run).
_JSON_WHITESPACE = b" \t\n\r"


def json_body(*, optional: bool = False) -> dict[str, Any]:
    """The request body as a JSON object.

    :raises InvalidRequest: not JSON, not an object, or (unless optional) empty.
    """
    raw = request.get_data(cache=True)
    if not raw.strip(_JSON_WHITESPACE):
        if optional:
            return {}
        raise InvalidRequest("The request needs a JSON object body.", code="body_missing")
    mimetype = request.mimetype
    if mimetype and mimetype != "application/json" and not mimetype.endswith("+json"):
        raise InvalidRequest("Content-Type must be application/json.", code="invalid_content_type")
    try:
        value = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise InvalidRequest("The request body is not valid JSON.", code="invalid_json") from None
    if not isinstance(value, dict):
        raise InvalidRequest("The request body must be a JSON object.", code="invalid_json")
    if b"u0000" in raw:  # only then can a string hold U+0000 (JSON escapes control chars)
        _reject_nul(value, "")
    return value


def _reject_nul(value: Any, path: str) -> None:
    """U+0000 is in no name, email or label, and PostgreSQL text cannot store it.

    :raises InvalidRequest: a string (or member name) holds U+0000.
    """
    if isinstance(value, str) and "\x00" in value:
        raise InvalidRequest("Strings must not contain the NUL character (U+0000).",
                             code="parameter_invalid", param=path or None)
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            _reject_nul(key, where)
            _reject_nul(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _reject_nul(item, f"{path}.{index}" if path else str(index))


def _reject_constant(name: str) -> None:
    raise ValueError(name)


def load(schema: Schema, data: dict[str, Any]) -> dict[str, Any]:
    """Validate `data` with `schema`.

    :raises InvalidRequest: the first problem, naming its member in `param`.
    """
    try:
        return schema.load(data)
    except ValidationError as exc:
        param, message = _first(exc.normalized_messages())
        if message == _MISSING:
            code, text = "parameter_missing", f"{param} is required."
        elif message == _UNKNOWN:
            code, text = "parameter_unknown", f"Received unknown parameter: {param}."
        else:
            code, text = "parameter_invalid", f"{param}: {message}"
        raise InvalidRequest(text, code=code, param=param) from None


def _first(messages: Any, prefix: str = "") -> tuple[str, str]:
    if isinstance(messages, dict):
        key = sorted(messages, key=str)[0]
        name = str(key) if not prefix else f"{prefix}.{key}"
        return _first(messages[key], name)
    if isinstance(messages, list) and messages:
        return _first(messages[0], prefix)
    return prefix or "body", str(messages)


def query(schema: Schema) -> dict[str, Any]:
    """Validated query-string parameters (a repeated parameter is an error)."""
    args: dict[str, Any] = {}
    for name in request.args:
        values = request.args.getlist(name)
        if len(values) > 1:
            raise InvalidRequest(f"{name} may be given once.", param=name)
        _reject_nul(name, name)
        _reject_nul(values[0], name)
        args[name] = values[0]
    return load(schema, args)


def fingerprint() -> str:
    """Method, path and SHA-256 of the canonical JSON body (raw bytes if it is not JSON)."""
    raw = request.get_data(cache=True)
    try:
        canonical = json.dumps(json.loads(raw, parse_constant=_reject_constant), sort_keys=True,
                               separators=(",", ":"), ensure_ascii=False).encode()
    except (ValueError, RecursionError):
        canonical = raw
    digest = hashlib.sha256(canonical if raw.strip(_JSON_WHITESPACE) else b"").hexdigest()
    return hashlib.sha256(f"{request.method} {request.path} {digest}".encode()).hexdigest()
