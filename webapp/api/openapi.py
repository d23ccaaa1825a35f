"""`GET /v1/openapi.json`: OpenAPI 3.1, built from the marshmallow schemas and the routes.

Every /v1 view wears `@doc(...)`; the document walks the URL map, so a route without a
description is a test failure, not a silent gap. `@doc` also declares the permission the route
needs (`webapp.api.auth.authorize` checks it); a view without one stops the app at start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, Literal

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import current_app, jsonify
from marshmallow import Schema

from webapp.api import bp, schemas
from webapp.domain import balances, definition, definition_kinds, enrollment, translations
from webapp.domain.definition_kinds import MEMBERS
from webapp.domain.permissions import Need

_ERRORS = {
    400: "Invalid request", 401: "Missing, malformed, unknown or revoked API key",
    403: "The API key lacks the permission this operation needs", 404: "Not found",
    409: "Conflict", 413: "Payload too large",
    414: "Request line too long (gunicorn.conf.py: 4094 bytes)",
    422: "Unprocessable", 429: "Rate limited",
    431: "Header fields too large or too many (gunicorn.conf.py)", 500: "Server failure",
    503: "Unavailable",
}
# Every operation can answer these (414 and 431 come from the HTTP server, before the app);
# 404 joins when the path names a resource, and 409 (the same Idempotency-Key still running)
# and 413 (body over the size limit) on writes; 403 where a permission is needed.
_ALWAYS = (400, 401, 414, 429, 431, 500, 503)
_WRITE_ERRORS = (409, 413)
# Answers given before the Idempotency-Key is looked at, or never stored: never replayed.
_NOT_STORED = (401, 403, 414, 429, 431, 500, 503)

_HEADERS: dict[str, dict[str, Any]] = {
    "Request-Id": {"description": "This request's ID; error bodies repeat it as requestId.",
                   "required": True, "schema": {"type": "string", "pattern": "^req_"}},
    "Retry-After": {"description": "Seconds to wait before retrying.",
                    "schema": {"type": "string", "pattern": "^[0-9]+$"}},
    "Idempotent-Replayed": {"description": "Present on the stored answer to a retried "
                                           "Idempotency-Key.",
                            "schema": {"type": "string", "enum": ["true"]}},
}


# Template definition schema v1 (decisions.md section 5) as JSON Schema. The API checks it with
# `webapp.domain.definition`, which also enforces what JSON Schema cannot say here (unique
# keys, `type` equal to the template's, `event` only on event tickets, perPass fields take no
# value, placeholders, date order, assets that exist): this schema is never stricter.
_DATETIME = (r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3])"
             r":[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$")


def _text(low: int, high: int) -> dict[str, Any]:
    return {"type": "string", "minLength": low, "maxLength": high}


def _fields(group_name: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": "#/components/schemas/Field"},
            "maxItems": definition.GROUP_LIMITS[group_name]}


def _when(name: str, value: Any, then: dict[str, Any],
          otherwise: dict[str, Any] | None = None) -> dict[str, Any]:
    """If member `name` is `value`, then ... (else ...)."""
    rule = {"if": {"required": [name], "properties": {name: {"const": value}}}, "then": then}
    return {**rule, "else": otherwise} if otherwise is not None else rule


_ABSENT: dict[str, Any] = {"not": {}}
_LANGUAGE: dict[str, Any] = {"type": "string",
                             "pattern": r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$"}


def _closed(needed: list[str], /, **properties: Any) -> dict[str, Any]:
    closed = {"type": "object", "properties": properties, "additionalProperties": False}
    return {**closed, "required": needed} if needed else closed


_COLOR = {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}
_POINT = _closed(["latitude", "longitude"],
                 latitude={"type": "number", "minimum": -90, "maximum": 90},
                 longitude={"type": "number", "minimum": -180, "maximum": 180})
_MOMENT = {"type": "string", "pattern": _DATETIME}
_DEFINITION_SCHEMAS: dict[str, dict[str, Any]] = {
    "Definition": {
        "description": "Template definition schema v1.",
        **_closed(
            ["schemaVersion", "type", "description", "organizationName", "colors",
             "platforms", "config"],
            schemaVersion={"type": "integer", "const": 1},
            type={"type": "string", "enum": list(schemas.TEMPLATE_TYPES)},
            description={**_text(1, 200), "description": "Apple: the pass's description "
                         "(VoiceOver); Google: an event's name when it has none"},
            organizationName=_text(1, 64),
            logoText={**_text(0, 64), "description": "Apple only, next to the logo (Google "
                      "shows organizationName there)"},
            colors=_closed(["background", "foreground"], background=_COLOR,
                           foreground={**_COLOR, "description": "Apple only: Google picks "
                                       "the text colour for the background"},
                           label={**_COLOR, "description": "Apple only"}),
            platforms={**_closed(["apple", "google"], apple={"type": "boolean"},
                                 google={"type": "boolean"}),
                       "anyOf": [{"properties": {"apple": {"const": True}}},
                                 {"properties": {"google": {"const": True}}}],
                       "description": "at least one true"},
            images={"type": "object", "propertyNames": {"enum": list(schemas.SLOTS)},
                    "additionalProperties": {"type": "string", "pattern": "^asset_"},
                    "description": "slot -> ID of an asset uploaded for that slot. Where "
                                   "each shows: icon Apple (Google's logo when there is "
                                   "none); logo both; strip Apple event tickets and Google's "
                                   "hero when there is no hero; thumbnail Apple; background "
                                   "Apple event tickets (with a logo: the artwork of iOS 18's "
                                   "event ticket style); hero Google. An image no wallet "
                                   "would show is refused with a definition issue: a "
                                   "background on a generic template, a background or "
                                   "thumbnail with a strip on an event ticket, a strip with "
                                   "a hero on a generic template. No footer: Apple shows one "
                                   "on boarding passes only and Google has none"},
            barcode={**_closed(["format"],
                               format={"type": "string",
                                       "enum": ["qr", "pdf417", "aztec", "code128"]},
                               value={**_text(1, 500), "description": "default {{shortId}}"},
                               perPass={"type": "boolean"}, altText=_text(0, 500)),
                     # Each pass brings its own value: no fixed one.
                     **_when("perPass", True, {"properties": {"value": _ABSENT}})},
            config=_closed(["fields"], fields=_closed(
                [], **{name: _fields(name) for name in definition.GROUPS})),
            event={**_closed(["name", "venue", "startsAt"], name=_text(1, 200),
                             venue=_closed(["name"], name=_text(1, 200),
                                           address=_text(0, 500),
                                           location={**_POINT, "description": "Apple: "
                                                     "semantics.venueLocation (maps, weather)"}),
                             startsAt=_MOMENT, endsAt=_MOMENT, doorsOpenAt=_MOMENT,
                             category={"type": "string",
                                       "enum": list(definition.EVENT_CATEGORIES),
                                       "description": "Apple: semantics.eventType (default "
                                                      "generic)"},
                             seatFields={**_closed([], **{part: {
                                 "type": "string", "description": "key of a field"}
                                 for part in definition.SEAT_PARTS}),
                                 "description": "which fields give the seat: Apple "
                                 "semantics.seats and venueEntranceGate, Google seatInfo; "
                                 "default: the fields keyed section, row, seat and gate"}),
                   "description": "required on event_ticket templates, refused on others"},
            expiresAt=_MOMENT,
            redemption={
                **_closed(["mode"],
                          mode={"type": "string", "enum": list(definition.REDEMPTION_MODES),
                                "description": "none (the default): no check-in; single: "
                                               "once (tickets, coupons); multiple: several "
                                               "times"},
                          maxUses={"type": "integer", "minimum": 1,
                                   "maximum": definition.MAX_USES,
                                   "description": "multiple only; absent: no limit"},
                          voidOnRedemption={"type": "boolean",
                                            "description": "single only: void the pass when "
                                                           "it is redeemed"}),
                "allOf": [_when("mode", "multiple", {},
                                {"properties": {"maxUses": _ABSENT}}),
                          _when("mode", "single", {},
                                {"properties": {"voidOnRedemption": _ABSENT}})],
                "description": "check-in (POST /v1/passes/{id}/redemptions, POST /v1/scans)",
                "examples": [{"mode": "single", "voidOnRedemption": True},
                             {"mode": "multiple", "maxUses": 10}]},
            locations={"type": "array", "maxItems": 10, "items": _closed(
                ["latitude", "longitude"],
                latitude={"type": "number", "minimum": -90, "maximum": 90},
                longitude={"type": "number", "minimum": -180, "maximum": 180},
                relevantText={**_text(0, 200), "description": "Apple only (lock screen)"}),
                "description": "Apple: locations (the pass on the lock screen nearby); "
                               "Google: the class's merchantLocations (a notification "
                               "nearby)"},
            loyalty={**_closed(
                ["programName"], programName=_text(1, 64),
                pointsLabel={**_text(1, 32), "description": "what the points are called "
                             "(default Points); Apple: the balance field's label, Google: "
                             "loyaltyPoints.label"},
                tiers={"type": "array", "minItems": 1, "maxItems": definition_kinds.MAX_TIERS,
                       "items": {"$ref": "#/components/schemas/Tier"},
                       "description": "lowest first: the first at minLifetimePoints 0, each "
                                      "next higher; a pass is in the highest tier its "
                                      "lifetimePoints reach (spending never demotes)"}),
                "description": "required on loyalty templates (which also need images.logo: "
                               "Google's programLogo), refused on others"},
            giftCard={**_closed(["currency"], currency={
                "type": "string", "enum": sorted(balances.CURRENCIES),
                "description": "ISO 4217; balances are kept in its minor units"}),
                "description": "required on gift_card templates, refused on others"},
            offer={**_closed(["title", "provider"], title=_text(1, 100),
                             provider={**_text(1, 64), "description": "who gives the offer"},
                             details=_text(0, 2000), finePrint=_text(0, 2000)),
                   "description": "required on coupon templates, refused on others; a coupon's "
                                  "redemption defaults to {\"mode\": \"single\"}"},
            enrollment={**_closed(
                ["enabled", "fields"],
                enabled={"type": "boolean", "description": "whether the template's sign-up "
                         "page (the template's enrollmentUrl) takes sign-ups"},
                fields={"type": "array", "maxItems": enrollment.MAX_FIELDS,
                        "items": _closed(["key"], key={
                            "type": "string", "description": "holderName, holderEmail or the "
                            "key of one of the template's perPass fields; each once"},
                            required={"type": "boolean", "description": "default false"}),
                        "description": "the form's inputs, in order, named by their keys; "
                                       "must hold holderEmail (required: one person, one "
                                       "pass) and every required perPass field (required)"},
                consent={**_text(1, enrollment.MAX_CONSENT), "description": "a sentence the "
                         "visitor must tick to sign up"}),
                "description": "a public sign-up page (/join/<slug>): a person fills in the "
                               "form and gets a pass (source enrollment); refused with a "
                               "perPass barcode",
                "examples": [{"enabled": True, "fields": [
                    {"key": "holderName", "required": True},
                    {"key": "holderEmail", "required": True}],
                    "consent": "I agree to the club's rules."}]},
            defaultLanguage={**_LANGUAGE, "description": "the language of the texts above "
                                                         "(default en)"},
            translations={"type": "object", "propertyNames": _LANGUAGE,
                          "maxProperties": translations.MAX_LANGUAGES,
                          "additionalProperties": {"$ref": "#/components/schemas/Translation"},
                          "description": "language tag -> the texts in that language (not "
                                         "the default language)"},
        ),
        # `event` belongs to event tickets only, `loyalty`, `giftCard` and `offer` to their
        # types (and `type` equals the template's type).
        "allOf": [_when("type", kind, {"required": [member]},
                        {"properties": {member: _ABSENT}})
                  for kind, member in (("event_ticket", "event"), *MEMBERS.items())],
    },
    "Tier": _closed(["name", "minLifetimePoints"], name=_text(1, 32),
                    minLifetimePoints={"type": "integer", "minimum": 0,
                                       "maximum": balances.MAX_BALANCE},
                    backgroundColor={**_COLOR, "description": "over colors.background"},
                    foregroundColor={**_COLOR, "description": "over colors.foreground"},
                    labelColor={**_COLOR, "description": "over colors.label"}),
    "Translation": {
        "description": "A template's texts in one language; what is left out stays in the "
                       "default language. Per-pass values are never translated.",
        **_closed(
            [], organizationName=_text(1, 64), description=_text(1, 200), logoText=_text(1, 64),
            fields={"type": "object", "description": "field key -> its texts",
                    "additionalProperties": _closed(
                        [], label=_text(1, 64),
                        value={**_text(1, 500), "description": "shared text fields only"},
                        changeMessage={**_text(1, 200), "pattern": "%@"})},
            event=_closed([], name=_text(1, 200),
                          venue=_closed([], name=_text(1, 200), address=_text(1, 500)))),
    },
    "Field": _closed(
        ["key", "label", "binding"],
        key={"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]{0,63}$",
             "description": "unique across all groups"},
        label=_text(0, 64),
        binding={"type": "string", "enum": ["shared", "perPass"]},
        required={"type": "boolean", "description": "only perPass fields can be required"},
        value={"type": ["string", "number"], "minLength": 1, "maxLength": 500,
               "description": "the fixed text of a shared field (required there)"},
        changeMessage={**_text(0, 200), "pattern": "%@"},
        format={"type": "string", "enum": ["text", "number", "date", "dateTime"]},
    ) | _when("binding", "perPass", {"properties": {"value": _ABSENT}},
              {"required": ["value"], "properties": {"required": {"const": False}}}),
}


# `permission=ANY_KEY`: every valid key may call the route, restricted or not (GET /v1/me).
ANY_KEY: Final = "any key"


def doc(summary: str, *, permission: tuple[str, str] | Literal["any key"],
        body: type[Schema] | None = None, query: type[Schema] | None = None,
        response: type[Schema] | None = None, status: int = 200, many: bool = False,
        errors: tuple[int, ...] = (), examples: dict[int, dict[str, Any]] | None = None
        ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Describe a /v1 view for the OpenAPI document, with the permission it needs:
    `("passes", "write")` (resource, level) or `ANY_KEY`; `examples`: a body per status."""
    need = None if permission == ANY_KEY else Need(*permission)

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        view.__apidoc__ = {  # type: ignore[attr-defined]
            "summary": summary, "body": body, "query": query, "response": response,
            "status": status, "many": many, "errors": errors, "permission": need,
            "examples": examples or {},
        }
        return view

    return decorate


def _component_name(schema: type[Schema] | Schema) -> str:
    """Every schema is a named component, nested ones too: a client generator then makes one
    `Pass` model wherever a pass is answered, not one per place it is nested in."""
    return (schema if isinstance(schema, type) else type(schema)).__name__


def build() -> dict[str, Any]:
    """The OpenAPI document of every /v1 route."""
    plugin = MarshmallowPlugin(schema_name_resolver=_component_name)
    spec = APISpec(title="Pass Issuing Service", version="1.0.0", openapi_version="3.1.0",
                   plugins=[plugin], info={"description": "Issue and update wallet passes."},
                   servers=[{"url": current_app.config["BASE_URL"]}])
    plugin.map_to_openapi_type(schemas.Timestamp, "string", "date-time")
    plugin.map_to_openapi_type(schemas.StrictInteger, "integer", None)
    plugin.map_to_openapi_type(schemas.QueryInteger, "integer", None)
    plugin.map_to_openapi_type(schemas.QueryBoolean, "boolean", None)
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name, header in _HEADERS.items():
        spec.components.header(name, header)
    _ref(spec, schemas.Error)  # and ErrorDetail, which it nests
    for name, component in _DEFINITION_SCHEMAS.items():
        spec.components.schema(name, component)
    paths: dict[str, dict[str, Any]] = {}
    for rule in current_app.url_map.iter_rules():
        if not rule.endpoint.startswith("api.") or rule.endpoint == "api.openapi":
            continue
        view = current_app.view_functions[rule.endpoint]
        if not hasattr(view, "__apidoc__"):
            continue  # undocumented: the OpenAPI test names it
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = _operation(spec, rule, view, path)
    for path, operations in sorted(paths.items()):
        spec.path(path=path, operations=operations)
    document = spec.to_dict()
    _close_request_bodies(document)
    _describe_definitions(document)
    return document


def _describe_definitions(document: dict[str, Any]) -> None:
    """The `definition` members (free-form dicts in marshmallow) follow schema v1."""
    for component in document["components"]["schemas"].values():
        member = component.get("properties", {}).get("definition")
        if member is not None and member.get("type") == "object":
            component["properties"]["definition"] = {
                "$ref": "#/components/schemas/Definition",
                **({"description": member["description"]} if "description" in member else {})}
            if "type" in component["properties"]:  # the definition's type is the template's
                component["allOf"] = [
                    _when("type", kind, {"properties": {"definition": {
                        "properties": {"type": {"const": kind}}}}})
                    for kind in schemas.TEMPLATE_TYPES]


def _close_request_bodies(document: dict[str, Any]) -> None:
    """Request bodies reject unknown members (400 `parameter_unknown`); say so."""
    components = document.get("components", {}).get("schemas", {})
    for operations in document["paths"].values():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            schema = body["schema"]
            if "$ref" in schema:
                schema = components[schema["$ref"].rsplit("/", 1)[-1]]
            schema["additionalProperties"] = False


def _ref(spec: APISpec, schema: type[Schema]) -> dict[str, str]:
    name = _component_name(schema)
    if name not in spec.components.schemas:
        spec.components.schema(name, schema=schema)
    return {"$ref": f"#/components/schemas/{name}"}


def _operation(spec: APISpec, rule: Any, view: Any, path: str) -> dict[str, Any]:
    meta = view.__apidoc__
    idempotent = getattr(view, "idempotent", False)
    parameters: list[dict[str, Any]] = [
        {"in": "path", "name": arg, "required": True, "schema": {"type": "string", "minLength": 1}}
        for arg in sorted(rule.arguments)
    ]
    if meta["query"] is not None:
        parameters.append({"in": "query", "schema": meta["query"]})
    if idempotent:
        parameters.append({
            "in": "header", "name": "Idempotency-Key", "required": True,
            "description": "A unique value per request (such as a UUID); a retry with the same "
                           "key and body gets the stored answer.",
            "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                       "pattern": "^[ -~]+$"}})
    need = meta["permission"]
    op: dict[str, Any] = {
        # The operation ID and tag name the generated clients' functions (`passes.issue_pass`).
        "summary": meta["summary"], "operationId": rule.endpoint.removeprefix("api."),
        "tags": [view.__module__.rsplit(".", 1)[-1]],
        "description": (f"Needs an API key with the `{need}` permission." if need
                        else "Any valid API key, restricted or not."),
        "x-permission": str(need) if need else None,
        "security": [{"bearer": []}], "parameters": parameters, "responses": {},
    }
    if meta["body"] is not None:
        # A body whose members are all optional may be left out altogether.
        required = any(f.required for f in meta["body"]().fields.values())
        op["requestBody"] = {"required": required, "content": {
            "application/json": {"schema": _ref(spec, meta["body"])}}}
    headers = ["Request-Id", "Idempotent-Replayed"] if idempotent else ["Request-Id"]
    status = meta["status"]
    if status == 204:
        op["responses"]["204"] = {"description": "No content", "headers": _headers(headers)}
    else:
        schema: dict[str, Any] = (_ref(spec, meta["response"]) if meta["response"]
                                  else {"type": "object"})
        if meta["many"]:
            schema = {"type": "object", "required": ["object", "data", "hasMore", "nextCursor"],
                      "properties": {"object": {"type": "string", "const": "list"},
                                     "data": {"type": "array", "items": schema},
                                     "hasMore": {"type": "boolean"},
                                     "nextCursor": {"type": ["string", "null"]}},
                      "additionalProperties": False}
        op["responses"][str(status)] = {
            "description": _SUCCESS.get(status, "OK"), "headers": _headers(headers),
            "content": {"application/json": {"schema": schema}}}
    codes = set(_ALWAYS) | set(meta["errors"])
    if need:
        codes.add(403)
    if rule.arguments:
        codes.add(404)
    if idempotent:
        codes.update(_WRITE_ERRORS)
    for code in sorted(codes):
        names = ["Request-Id"] if code in _NOT_STORED else headers
        if code in (409, 429, 503):
            names = [*names, "Retry-After"]
        op["responses"][str(code)] = {
            "description": _ERRORS[code], "headers": _headers(names),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for code, example in meta["examples"].items():
        op["responses"][str(code)]["content"]["application/json"]["example"] = example
    return op


_SUCCESS = {201: "Created", 202: "Accepted: the work runs in the background"}


def _headers(names: list[str]) -> dict[str, Any]:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


@bp.get("/openapi.json")
def openapi() -> Any:
    """The OpenAPI 3.1 document (public: no key needed)."""
    return jsonify(build())
