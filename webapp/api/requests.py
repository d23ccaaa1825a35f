"""Reading request bodies and query strings into validated values (marshmallow)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import request
from marshmallow import Schema, ValidationError

from webapp.domain.text import printable, problem
from webapp.errors import InvalidRequest, PayloadTooLarge

_MISSING = "Missing data for required field."
_UNKNOWN = "Unknown field."
# JSON's whitespace (RFC 8259). bytes.strip() would also drop \f and \v, making a body of
# those an "empty" one although it is not JSON (found by the schemathesis run).
_JSON_WHITESPACE = b" \t\n\r"
# Bounds on what one JSON body can make the server do: the largest valid template definition
# or pass is a few tens of KiB, so these leave ample room and cut parsing and validation short.
MAX_JSON_BODY = 1024 * 1024
MAX_JSON_DEPTH = 32


def json_body(*, optional: bool = False, max_bytes: int = MAX_JSON_BODY) -> dict[str, Any]:
    """The request body as a JSON object.

    :raises PayloadTooLarge: over `max_bytes` (checked before it is read when the request says
        its length).
    :raises InvalidRequest: not JSON, not an object, (unless optional) empty, nested deeper
        than `MAX_JSON_DEPTH`, or a string that is not text (`webapp.domain.text`).
    """
    if (request.content_length or 0) > max_bytes:
        raise _too_large(request.content_length or 0, max_bytes)
    raw = request.get_data(cache=True)
    if len(raw) > max_bytes:
        raise _too_large(len(raw), max_bytes)
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
    _check_values(value, "", 1)
    return value


def _check_values(value: Any, path: str, depth: int) -> None:
    """Every string (and member name) is text a wallet can show; nesting is bounded.

    :raises InvalidRequest: naming the member (dotted path) that holds the problem.
    """
    if depth > MAX_JSON_DEPTH:
        raise InvalidRequest(f"The request body nests more than {MAX_JSON_DEPTH} levels deep "
                             f"(at {path}).", code="invalid_json", param=path or None)
    if isinstance(value, str):
        _check_text(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            where = _member(path, key)
            _check_text(key, where)
            _check_values(item, where, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_values(item, f"{path}.{index}" if path else str(index), depth + 1)


def _check_text(value: str, path: str) -> None:
    found = problem(value)
    if found is not None:
        name = path or "body"
        raise InvalidRequest(f"{name} {found}.", code="parameter_invalid", param=name)


def _member(path: str, key: object) -> str:
    """The dotted name of a member, fit to be shown: a long or malformed name is shortened."""
    name = printable(str(key))
    if len(name) > 64:
        name = name[:64] + "…"
    return f"{path}.{name}" if path else name


def _too_large(size: int, limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request body is {size:,} bytes; a JSON body can be at most "
                           f"{limit:,} bytes here.", code="body_too_large")


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
        if key == "_schema" and prefix:  # a nested member that is not an object: name it
            return _first(messages[key], prefix)
        return _first(messages[key], _member(prefix, key))
    if isinstance(messages, list) and messages:
        return _first(messages[0], prefix)
    return prefix or "body", str(messages)


def query(schema: Schema) -> dict[str, Any]:
    """Validated query-string parameters (a repeated parameter is an error)."""
    args: dict[str, Any] = {}
    for name in request.args:
        values = request.args.getlist(name)
        shown = _member("", name)
        if len(values) > 1:
            raise InvalidRequest(f"{shown} may be given once.", param=shown)
        _check_text(name, shown)
        _check_text(values[0], shown)
        args[name] = values[0]
    return load(schema, args)


def fingerprint() -> str:
    """Method, path and SHA-256 of the canonical JSON body (the raw bytes if it is not JSON,
    or is a body over `MAX_JSON_BODY`, such as an image upload: not worth parsing twice)."""
    raw = request.get_data(cache=True)
    try:
        if len(raw) > MAX_JSON_BODY:
            raise ValueError(len(raw))
        canonical = json.dumps(json.loads(raw, parse_constant=_reject_constant), sort_keys=True,
                               separators=(",", ":"), ensure_ascii=False).encode()
    except (ValueError, RecursionError):
        canonical = raw
    digest = hashlib.sha256(canonical if raw.strip(_JSON_WHITESPACE) else b"").hexdigest()
    return hashlib.sha256(f"{request.method} {request.path} {digest}".encode()).hexdigest()
