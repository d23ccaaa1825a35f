"""`GET /v1/openapi.json`: OpenAPI 3.1, built from the marshmallow schemas and the routes.

Every /v1 view wears `@doc(...)`; the document walks the URL map, so a route without a
description is a test failure, not a silent gap.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import current_app, jsonify
from marshmallow import Schema

from webapp.api import bp, schemas

_ERRORS = {
    400: "Invalid request", 401: "Missing, malformed, unknown or revoked API key",
    404: "Not found", 409: "Conflict", 413: "Payload too large",
    422: "Unprocessable", 429: "Rate limited", 500: "Server failure", 503: "Unavailable",
}


def doc(summary: str, *, body: type[Schema] | None = None, query: type[Schema] | None = None,
        response: type[Schema] | None = None, status: int = 200, many: bool = False,
        errors: tuple[int, ...] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Describe a /v1 view for the OpenAPI document."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        view.__apidoc__ = {  # type: ignore[attr-defined]
            "summary": summary, "body": body, "query": query, "response": response,
            "status": status, "many": many, "errors": errors,
        }
        return view

    return decorate


def _schema_name(schema: type[Schema]) -> str:
    return schema.__name__


def build() -> dict[str, Any]:
    """The OpenAPI document of every /v1 route."""
    plugin = MarshmallowPlugin(schema_name_resolver=lambda s: None)
    spec = APISpec(title="Pass Issuing Service", version="1.0.0", openapi_version="3.1.0",
                   plugins=[plugin], info={"description": "Issue and update wallet passes."},
                   servers=[{"url": current_app.config["BASE_URL"]}])
    plugin.map_to_openapi_type(schemas.Timestamp, "string", "date-time")
    plugin.map_to_openapi_type(schemas.StrictInteger, "integer", None)
    plugin.map_to_openapi_type(schemas.QueryInteger, "integer", None)
    plugin.map_to_openapi_type(schemas.QueryBoolean, "boolean", None)
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for cls in (schemas.Error, schemas.ErrorDetail):
        spec.components.schema(_schema_name(cls), schema=cls)
    paths: dict[str, dict[str, Any]] = {}
    for rule in current_app.url_map.iter_rules():
        if not rule.endpoint.startswith("api.") or rule.endpoint == "api.openapi":
            continue
        view = current_app.view_functions[rule.endpoint]
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = _operation(spec, rule, view, path)
    for path, operations in sorted(paths.items()):
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def _ref(spec: APISpec, schema: type[Schema]) -> dict[str, str]:
    name = _schema_name(schema)
    if name not in spec.components.schemas:
        spec.components.schema(name, schema=schema)
    return {"$ref": f"#/components/schemas/{name}"}


def _operation(spec: APISpec, rule: Any, view: Any, path: str) -> dict[str, Any]:
    meta = view.__apidoc__
    parameters: list[dict[str, Any]] = [
        {"in": "path", "name": arg, "required": True, "schema": {"type": "string"}}
        for arg in sorted(rule.arguments)
    ]
    if meta["query"] is not None:
        parameters.append({"in": "query", "schema": meta["query"]})
    if getattr(view, "idempotent", False):
        parameters.append({"in": "header", "name": "Idempotency-Key", "required": True,
                           "schema": {"type": "string", "minLength": 1, "maxLength": 255}})
    op: dict[str, Any] = {
        "summary": meta["summary"], "operationId": rule.endpoint.replace(".", "_"),
        "security": [{"bearer": []}], "parameters": parameters, "responses": {},
    }
    if meta["body"] is not None:
        op["requestBody"] = {"required": True, "content": {
            "application/json": {"schema": _ref(spec, meta["body"])}}}
    if meta["status"] == 204:
        op["responses"]["204"] = {"description": "No content"}
    else:
        schema = _ref(spec, meta["response"]) if meta["response"] else {"type": "object"}
        if meta["many"]:
            schema = {"type": "object", "required": ["object", "data", "hasMore", "nextCursor"],
                      "properties": {"object": {"type": "string", "const": "list"},
                                     "data": {"type": "array", "items": schema},
                                     "hasMore": {"type": "boolean"},
                                     "nextCursor": {"type": ["string", "null"]}}}
        op["responses"][str(meta["status"])] = {
            "description": "OK", "content": {"application/json": {"schema": schema}}}
    codes = {400, 401, 429, 500} | set(meta["errors"])
    for code in sorted(codes):
        op["responses"][str(code)] = {"description": _ERRORS[code], "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    return op


@bp.get("/openapi.json")
def openapi() -> Any:
    """The OpenAPI 3.1 document (public: no key needed)."""
    return jsonify(build())
