"""A local fake Google for tests: OAuth token endpoint, Wallet REST API (classes, objects,
addMessage with the notification quota), the save page and signed save/delete callbacks.

It speaks HTTP on a loopback port, so the service's real google-auth path runs against it:
the token endpoint verifies the JWT-bearer assertion against the service account's public
key; the save page verifies the save JWT's RS256 signature with the same key and then
posts an ECv2SigningOnly-signed callback (fake root + intermediate keys, served at
`/gp/m/issuer/keys`) to the class's callback URL.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import Flask, jsonify, request
from google.auth import crypt
from google.auth import jwt as google_jwt
from werkzeug.serving import make_server

from webapp.wallets.google.callbacks import PROTOCOL, SENDER, lv

SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer"
KINDS = ("genericClass", "genericObject", "eventTicketClass", "eventTicketObject",
         "loyaltyClass", "loyaltyObject", "giftCardClass", "giftCardObject", "offerClass",
         "offerObject")
REQUIRED = {"genericClass": ("id",), "genericObject": ("id", "classId", "cardTitle", "header"),
            "eventTicketClass": ("id", "issuerName", "eventName", "reviewStatus"),
            "eventTicketObject": ("id", "classId", "state"),
            "loyaltyClass": ("id", "issuerName", "programName", "programLogo", "reviewStatus"),
            "loyaltyObject": ("id", "classId", "state"),
            "giftCardClass": ("id", "issuerName", "reviewStatus"),
            "giftCardObject": ("id", "classId", "state", "cardNumber"),
            "offerClass": ("id", "issuerName", "provider", "title", "redemptionChannel",
                           "reviewStatus"),
            "offerObject": ("id", "classId", "state")}
# The members Google's discovery document (walletobjects v1) gives the loyalty, gift card and
# offer resources: Google refuses any other ("Invalid JSON payload received. Unknown name").
_CLASS_COMMON = {
    "id", "issuerName", "reviewStatus", "hexBackgroundColor", "heroImage", "classTemplateInfo",
    "callbackOptions", "merchantLocations", "textModulesData", "linksModuleData",
    "imageModulesData", "messages", "homepageUri", "countryCode", "localizedIssuerName",
    "multipleDevicesAndHoldersAllowedStatus", "notifyPreference", "enableSmartTap",
    "redemptionIssuers", "securityAnimation", "viewUnlockRequirement", "locations", "review",
    "version", "kind", "infoModuleData", "appLinkData", "valueAddedModuleData",
    "allowMultipleUsersPerObject", "wordMark"}
_OBJECT_COMMON = {
    "id", "classId", "state", "barcode", "validTimeInterval", "textModulesData",
    "linksModuleData", "imageModulesData", "messages", "heroImage", "notifyPreference",
    "locations", "hasUsers", "smartTapRedemptionValue", "hasLinkedDevice",
    "disableExpirationNotification", "infoModuleData", "appLinkData", "rotatingBarcode",
    "groupingInfo", "passConstraints", "saveRestrictions", "linkedObjectIds",
    "valueAddedModuleData", "merchantLocations", "classReference", "kind", "version"}
MEMBERS = {
    "loyaltyClass": _CLASS_COMMON | {
        "programName", "programLogo", "wideProgramLogo", "accountIdLabel", "accountNameLabel",
        "rewardsTier", "rewardsTierLabel", "secondaryRewardsTier", "secondaryRewardsTierLabel",
        "localizedProgramName", "localizedAccountIdLabel", "localizedAccountNameLabel",
        "localizedRewardsTier", "localizedRewardsTierLabel", "localizedSecondaryRewardsTier",
        "localizedSecondaryRewardsTierLabel", "discoverableProgram"},
    "loyaltyObject": _OBJECT_COMMON | {"accountId", "accountName", "loyaltyPoints",
                                       "secondaryLoyaltyPoints", "linkedOfferIds"},
    "giftCardClass": _CLASS_COMMON | {
        "merchantName", "programLogo", "wideProgramLogo", "cardNumberLabel", "pinLabel",
        "eventNumberLabel", "allowBarcodeRedemption", "localizedMerchantName",
        "localizedCardNumberLabel", "localizedPinLabel", "localizedEventNumberLabel"},
    "giftCardObject": _OBJECT_COMMON | {"cardNumber", "pin", "balance", "balanceUpdateTime",
                                        "eventNumber"},
    "offerClass": _CLASS_COMMON | {
        "title", "provider", "redemptionChannel", "details", "finePrint", "titleImage",
        "wideTitleImage", "helpUri", "shortTitle", "localizedTitle", "localizedProvider",
        "localizedDetails", "localizedFinePrint", "localizedShortTitle"},
    "offerObject": _OBJECT_COMMON,
}
REDEMPTION_CHANNELS = ("INSTORE", "ONLINE", "BOTH", "TEMPORARY_PRICE_REDUCTION")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_ID = re.compile(r"^\d+\.[A-Za-z0-9._-]+$")
_COLOR = re.compile(r"^#([0-9a-fA-F]{3}){1,2}$")
# MerchantLocation (reference/rest/v1/MerchantLocation): latitude -90..90, longitude
# -180..180, nothing else; at most 10 on a class or an object.
_MERCHANT_LOCATION = {"latitude": 90, "longitude": 180}
MAX_MERCHANT_LOCATIONS = 10
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")  # BCP 47
# Members whose value is a LocalizedString in Google's REST schema (the ones we write).
LOCALIZED_TOP = {"cardTitle", "header", "subheader", "eventName", "ticketType",
                 "localizedIssuerName"}
LOCALIZED_IN = {"venue": ("name", "address"), "seatInfo": ("seat", "row", "section", "gate")}
LOCALIZED_ANYWHERE = {"localizedHeader", "localizedBody", "contentDescription",
                      "localizedDescription", "localizedLabel", "localizedValue"}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _spki(key: ec.EllipticCurvePrivateKey) -> str:
    return _b64(key.public_key().public_bytes(serialization.Encoding.DER,
                                              serialization.PublicFormat.SubjectPublicKeyInfo))


def _sign(key: ec.EllipticCurvePrivateKey, data: bytes) -> str:
    return _b64(key.sign(data, ec.ECDSA(hashes.SHA256())))


class CallbackSigner:
    """Google's side of ECv2SigningOnly: a root key (published) signs an intermediate key,
    which signs each message."""

    def __init__(self) -> None:
        self.root = ec.generate_private_key(ec.SECP256R1())
        self.intermediate = ec.generate_private_key(ec.SECP256R1())

    def keys(self) -> dict[str, Any]:
        expiry = str(int((time.time() + 86400) * 1000))
        return {"keys": [{"keyValue": _spki(self.root), "protocolVersion": PROTOCOL,
                          "keyExpiration": expiry}]}

    def envelope(self, issuer_id: str, message: dict[str, Any], *,
                 key_expiry_ms: int | None = None, sender: str = SENDER,
                 root: ec.EllipticCurvePrivateKey | None = None) -> dict[str, Any]:
        """A signed callback body for `message`, addressed to `issuer_id`."""
        expiry = key_expiry_ms or int((time.time() + 3600) * 1000)
        signed_key = json.dumps({"keyValue": _spki(self.intermediate),
                                 "keyExpiration": str(expiry)})
        signed_message = json.dumps(message)
        return {
            "signature": _sign(self.intermediate, lv(sender, issuer_id, PROTOCOL,
                                                     signed_message)),
            "intermediateSigningKey": {
                "signedKey": signed_key,
                "signatures": [_sign(root or self.root, lv(sender, PROTOCOL, signed_key))]},
            "protocolVersion": PROTOCOL,
            "signedMessage": signed_message,
        }

    def message(self, class_id: str, object_id: str, event: str, *,
                expires_ms: int | None = None, nonce: str | None = None) -> dict[str, Any]:
        return {"classId": class_id, "objectId": object_id, "eventType": event,
                "expTimeMillis": expires_ms or int((time.time() + 3600) * 1000),
                "count": 1, "nonce": nonce or str(uuid.uuid4())}


@dataclass
class Account:
    public_pem: bytes
    key_id: str
    issuers: set[str]


@dataclass
class State:
    tokens: dict[str, tuple[str, float]] = field(default_factory=dict)
    resources: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    token_requests: int = 0
    notifications: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    field_notifications: list[str] = field(default_factory=list)
    saves: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    # (method, path prefix) -> statuses to answer before serving normally
    failures: list[tuple[str, str, int]] = field(default_factory=list)


class FakeGoogle:
    """The fake, served by `start()` on a free loopback port."""

    def __init__(self) -> None:
        self.accounts: dict[str, Account] = {}
        self.state = State()
        self.signer = CallbackSigner()
        self.callback_base: tuple[str, str] | None = None  # (public base, reachable base)
        self.deliver: Callable[[str, bytes], int] = self._post
        self.lock = threading.Lock()
        self.app = self._make_app()
        self._server: Any = None
        self.base = ""

    # ---- control ---------------------------------------------------------------------------

    def start(self) -> FakeGoogle:
        self._server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.base = f"http://127.0.0.1:{self._server.server_port}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()

    def reset(self) -> None:
        self.accounts.clear()
        self.state = State()
        self.callback_base = None
        self.deliver = self._post

    def register(self, info: dict[str, Any], issuers: set[str]) -> None:
        """Know a service account (by its public key) and the issuers it may write to."""
        key = serialization.load_pem_private_key(info["private_key"].encode(), None)
        pem = key.public_key().public_bytes(serialization.Encoding.PEM,
                                            serialization.PublicFormat.SubjectPublicKeyInfo)
        self.accounts[info["client_email"]] = Account(pem, info["private_key_id"], set(issuers))

    def fail(self, method: str, path_prefix: str, *statuses: int) -> None:
        """Answer the next matching calls with these statuses, in order."""
        for status in statuses:
            self.state.failures.append((method, path_prefix, status))

    def resource(self, kind: str, resource_id: str) -> dict[str, Any] | None:
        return self.state.resources.get((kind, resource_id))

    def save(self, url: str, user: str = "holder@example.com") -> httpx.Response:
        """What a holder's browser does with our save link."""
        return httpx.get(url, params={"user": user}, timeout=10)

    def remove(self, object_id: str, user: str = "holder@example.com") -> httpx.Response:
        """The holder removes the pass from Google Wallet."""
        return httpx.post(f"{self.base}/_fake/remove",
                          params={"objectId": object_id, "user": user}, timeout=10)

    # ---- the app ----------------------------------------------------------------------------

    def _make_app(self) -> Flask:
        app = Flask("fake_google")

        @app.post("/token")
        def token() -> Any:
            return self._token()

        @app.route("/walletobjects/v1/<kind>", methods=["POST"])
        def insert(kind: str) -> Any:
            return self._api("POST", kind, None)

        @app.route("/walletobjects/v1/<kind>/<rid>", methods=["GET", "PATCH", "PUT"])
        def one(kind: str, rid: str) -> Any:
            return self._api(request.method, kind, rid)

        @app.post("/walletobjects/v1/<kind>/<rid>/addMessage")
        def add_message(kind: str, rid: str) -> Any:
            return self._api("MESSAGE", kind, rid)

        @app.get("/gp/m/issuer/keys")
        def keys() -> Any:
            return jsonify(self.signer.keys())

        @app.get("/gp/v/save/<path:token>")
        def save(token: str) -> Any:
            return self._save(token, request.args.get("user", "holder@example.com"))

        @app.post("/_fake/remove")
        def remove() -> Any:
            return self._remove(request.args["objectId"], request.args.get("user", ""))

        return app

    def _injected(self, method: str) -> int | None:
        with self.lock:
            for index, (m, prefix, status) in enumerate(self.state.failures):
                if m == method and request.path.startswith(prefix):
                    del self.state.failures[index]
                    return status
        return None

    def _token(self) -> Any:
        self.state.token_requests += 1
        injected = self._injected("POST")
        if injected:
            return jsonify({"error": "temporarily_unavailable"}), injected
        if request.form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            return _oauth_error("unsupported_grant_type")
        assertion = request.form.get("assertion", "")
        try:
            unverified = google_jwt.decode(assertion, verify=False)
            account = self.accounts[unverified["iss"]]
            claims = google_jwt.decode(
                assertion, certs=account.public_pem.decode(),
                audience=["https://oauth2.googleapis.com/token", f"{self.base}/token"],
                clock_skew_in_seconds=10)
            header = json.loads(base64.urlsafe_b64decode(assertion.split(".")[0] + "=="))
        except Exception as exc:  # any verification failure is an invalid grant
            return _oauth_error("invalid_grant", str(exc))
        if header.get("kid") != account.key_id or claims["exp"] - claims["iat"] > 3600 \
                or SCOPE not in str(claims.get("scope", "")).split():
            return _oauth_error("invalid_grant", "bad kid, lifetime or scope")
        access = secrets.token_urlsafe(24)
        self.state.tokens[access] = (claims["iss"], time.time() + 3600)
        return jsonify({"access_token": access, "expires_in": 3599, "token_type": "Bearer"})

    def _api(self, method: str, kind: str, rid: str | None) -> Any:
        self.state.calls.append((method, f"{kind}/{rid or ''}"))
        injected = self._injected(method)
        if injected:
            return _api_error(injected, "backendError" if injected >= 500 else "rateLimit",
                              "injected")
        auth = request.headers.get("Authorization", "")
        found = self.state.tokens.get(auth.removeprefix("Bearer "))
        if not auth.startswith("Bearer ") or found is None or found[1] < time.time():
            return _api_error(401, "authError", "Request had invalid authentication credentials.")
        if kind not in KINDS:
            return _api_error(404, "notFound", "Not found")
        body = request.get_json(silent=True) if method != "GET" else None
        target = rid or (body or {}).get("id", "")
        if not _ID.match(str(target)):
            return _api_error(400, "invalidResource", f"Invalid resource ID: {target}")
        if target.split(".")[0] not in self.accounts[found[0]].issuers:
            return _api_error(403, "permissionDenied", "Permission denied.")
        with self.lock:
            return self._operate(method, kind, target, body)

    def _operate(self, method: str, kind: str, rid: str, body: Any) -> Any:
        key = (kind, rid)
        stored = self.state.resources.get(key)
        if method == "POST":
            problem = self._invalid(kind, body)
            if problem:
                return _api_error(400, "invalidArgument", problem)
            if stored is not None:
                return _api_error(409, "duplicate", f"Resource {rid} already exists.")
            stored = dict(body)
            if stored.get("reviewStatus") == "UNDER_REVIEW":
                stored["reviewStatus"] = "APPROVED"
            if kind.endswith("Object"):
                stored.setdefault("state", "ACTIVE")
                stored["hasUsers"] = False
            self.state.resources[key] = stored
            return jsonify(stored)
        if stored is None:
            return _api_error(404, "resourceNotFound", f"Wallet Object {rid} not found.")
        if method == "GET":
            return jsonify(stored)
        if method == "MESSAGE":
            return self._message(kind, rid, stored, (body or {}).get("message") or {})
        if not isinstance(body, dict):
            return _api_error(400, "invalidArgument", "no body")
        if "notifyPreference" in body:
            if kind == "genericObject":
                return _api_error(400, "invalidArgument", "Unknown field notifyPreference")
            if body["notifyPreference"] == "NOTIFY_ON_UPDATE" and stored.get("hasUsers"):
                self.state.field_notifications.append(rid)
        changes = {k: v for k, v in body.items() if k != "notifyPreference"}
        merged = ({**stored, **changes} if method == "PATCH"
                  else {**changes, "hasUsers": stored.get("hasUsers", False)})
        problem = self._invalid(kind, merged)
        if problem:
            return _api_error(400, "invalidArgument", problem)
        self.state.resources[key] = merged
        return jsonify(merged)

    def _invalid(self, kind: str, body: Any) -> str | None:
        if not isinstance(body, dict):
            return "The body must be a JSON object."
        missing = [name for name in REQUIRED[kind] if not body.get(name)]
        if missing:
            return f"Missing required fields: {', '.join(missing)}"
        if kind.endswith("Object"):
            class_kind = kind.replace("Object", "Class")
            if (class_kind, body["classId"]) not in self.state.resources:
                return f"Wallet Object Class {body['classId']} not found."
            if kind == "genericObject" and "notifyPreference" in body:
                return "Unknown field notifyPreference"
        problem = _store_problem(kind, body)
        if problem:
            return problem
        color = body.get("hexBackgroundColor")
        if color is not None and not _COLOR.match(str(color)):
            return "Invalid hexBackgroundColor"
        for module in body.get("textModulesData") or []:
            if "." in str(module.get("id", "")):
                return "Text module ids cannot contain dots"
        if len(body.get("messages") or []) > 10:
            return "At most 10 messages"
        if "merchantLocations" in body:
            problem = _merchant_locations_problem(body["merchantLocations"])
            if problem:
                return problem
        problem = _time_interval_problem(body.get("validTimeInterval")) or \
            _image_modules_problem(body.get("imageModulesData"))
        if problem:
            return problem
        if body.get("state") not in (None, "ACTIVE", "COMPLETED", "EXPIRED", "INACTIVE"):
            return "Invalid state"
        return _localized_problem(body)

    def _message(self, kind: str, rid: str, stored: dict[str, Any], message: dict[str, Any]
                 ) -> Any:
        if message.get("messageType") not in ("TEXT", "TEXT_AND_NOTIFY"):
            return _api_error(400, "invalidArgument", "Invalid messageType")
        problem = _localized_problem(message, ("message",))  # its header is plain text
        if problem:
            return _api_error(400, "invalidArgument", problem)
        if len(stored.get("messages") or []) >= 10:
            return _api_error(400, "invalidArgument", "At most 10 messages")
        if message["messageType"] == "TEXT_AND_NOTIFY":
            now = time.time()
            recent = [t for t in self.state.notifications[rid] if t > now - 86400]
            if len(recent) >= 3:
                return _api_error(429, "quotaExceeded", "QuotaExceededException")
            self.state.notifications[rid] = [*recent, now]
        stored["messages"] = [*(stored.get("messages") or []), message]
        return jsonify({"resource": stored})

    # ---- the holder's side ----------------------------------------------------------------------

    def _save(self, token: str, user: str) -> Any:
        try:
            signed, signature = token.rsplit(".", 1)
            header = json.loads(base64.urlsafe_b64decode(signed.split(".")[0] + "=="))
            claims = json.loads(base64.urlsafe_b64decode(signed.split(".")[1] + "=="))
            account = self.accounts[claims["iss"]]
            verifier = crypt.RSAVerifier.from_string(account.public_pem)
            sig = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
            ok = header.get("alg") == "RS256" and verifier.verify(signed.encode(), sig)
        except Exception:
            ok = False
        if not ok:
            return jsonify({"error": "The save link is not signed by a known key."}), 400
        if claims.get("aud") != "google" or claims.get("typ") != "savetowallet" \
                or not isinstance(claims.get("origins"), list) or not claims.get("payload"):
            return jsonify({"error": "The save JWT's claims are wrong."}), 400
        saved = []
        for group, items in claims["payload"].items():
            kind = group.removesuffix("s")
            for ref in items:
                obj = self.state.resources.get((kind, ref.get("id")))
                if obj is None or obj.get("classId") != ref.get("classId") \
                        or ref["id"].split(".")[0] not in account.issuers:
                    return jsonify({"error": f"{ref.get('id')} not found"}), 404
                obj["hasUsers"] = True
                self.state.saves[ref["id"]].add(user)
                saved.append(ref["id"])
                self._callback(kind.replace("Object", "Class"), obj, "save")
        return jsonify({"saved": saved})

    def _remove(self, object_id: str, user: str) -> Any:
        kind = next((k for k, rid in self.state.resources if rid == object_id
                     and k.endswith("Object")), None)
        if kind is None:
            return jsonify({"error": "not found"}), 404
        obj = self.state.resources[(kind, object_id)]
        self.state.saves[object_id].discard(user)
        obj["hasUsers"] = bool(self.state.saves[object_id])
        self._callback(kind.replace("Object", "Class"), obj, "del")
        return jsonify({"removed": object_id})

    def _callback(self, class_kind: str, obj: dict[str, Any], event: str) -> None:
        cls = self.state.resources.get((class_kind, obj["classId"])) or {}
        url = (cls.get("callbackOptions") or {}).get("url")
        if not url:
            return
        issuer = obj["id"].split(".")[0]
        message = self.signer.message(obj["classId"], obj["id"], event)
        body = json.dumps(self.signer.envelope(issuer, message)).encode()
        try:
            status = self.deliver(url, body)
        except httpx.HTTPError:  # our app is not served in this test: the save still counts
            status = 0
        self.state.callbacks.append({"url": url, "message": message, "body": body,
                                     "status": status})

    def _post(self, url: str, body: bytes) -> int:
        if self.callback_base:
            public, reachable = self.callback_base
            url = url.replace(public, reachable, 1)
        return httpx.post(url, content=body, headers={"Content-Type": "application/json"},
                          timeout=10).status_code


def _store_problem(kind: str, body: dict[str, Any]) -> str | None:
    """The loyalty, gift card and offer resources' own rules (GiftCardObject, LoyaltyObject,
    OfferClass, LoyaltyClass in the REST reference)."""
    if kind not in MEMBERS:
        return None
    unknown = sorted(set(body) - MEMBERS[kind])
    if unknown:
        return f"Invalid JSON payload received. Unknown name \"{unknown[0]}\" at '{kind}'"
    for name in ("programLogo", "titleImage"):
        if name in body and not (body[name].get("sourceUri") or {}).get("uri"):
            return f"{name} needs sourceUri.uri"
    if kind == "offerClass" and body["redemptionChannel"] not in REDEMPTION_CHANNELS:
        return "Invalid redemptionChannel"
    if "discoverableProgram" in body and _discoverable_problem(body["discoverableProgram"]):
        return f"discoverableProgram: {_discoverable_problem(body['discoverableProgram'])}"
    for name in ("loyaltyPoints", "secondaryLoyaltyPoints"):
        if name in body and _points_problem(body[name]):
            return f"{name}: {_points_problem(body[name])}"
    if kind == "giftCardObject" and "balance" in body:
        money = body["balance"]
        if not isinstance(money, dict) or set(money) != {"micros", "currencyCode"} or \
                not re.fullmatch(r"-?\d+", str(money["micros"])) or \
                not _CURRENCY.match(str(money["currencyCode"])):
            return "balance must be Money {micros, currencyCode}"
    when = body.get("balanceUpdateTime")
    if when is not None and (not isinstance(when, dict) or set(when) != {"date"}
                             or _time_interval_problem({"end": when})):
        return "balanceUpdateTime must be a DateTime {date}"
    return None


# DiscoverableProgram (reference/rest/v1/loyaltyclass): merchantSignupInfo {signupWebsite: Uri
# {uri, description?}, signupSharedDatas: [SharedDataType]}, merchantSigninInfo, state.
DISCOVERABLE_STATES = {"STATE_UNSPECIFIED", "TRUSTED_TESTERS", "LIVE", "DISABLED"}


def _discoverable_problem(program: Any) -> str | None:
    if not isinstance(program, dict) or set(program) - {"merchantSignupInfo",
                                                        "merchantSigninInfo", "state"}:
        return "not a DiscoverableProgram"
    if program.get("state", "STATE_UNSPECIFIED") not in DISCOVERABLE_STATES:
        return "Invalid state"
    signup = program.get("merchantSignupInfo")
    if signup is None:
        return None
    if not isinstance(signup, dict) or set(signup) - {"signupWebsite", "signupSharedDatas"}:
        return "not a DiscoverableProgramMerchantSignupInfo"
    website = signup.get("signupWebsite")
    if not isinstance(website, dict) or set(website) - {"uri", "description",
                                                         "localizedDescription", "id"} \
            or not str(website.get("uri", "")).startswith("https://"):
        return "signupWebsite must be a Uri with an https uri"
    shared = signup.get("signupSharedDatas", [])
    if not isinstance(shared, list) or not all(isinstance(x, str) for x in shared):
        return "Invalid signupSharedDatas"
    return None


def _points_problem(points: Any) -> str | None:
    """A LoyaltyPoints: a label and a balance with exactly one of string, int, double,
    money."""
    if not isinstance(points, dict) or set(points) - {"label", "balance", "localizedLabel"}:
        return "not a LoyaltyPoints"
    balance = points.get("balance")
    kinds = set(balance) if isinstance(balance, dict) else set()
    if len(kinds) != 1 or not kinds <= {"string", "int", "double", "money"}:
        return "balance must have exactly one of string, int, double, money"
    if "int" in kinds and (not isinstance(balance["int"], int) or isinstance(balance["int"],
                                                                           bool)):
        return "balance.int must be an integer"
    if "string" in kinds and not isinstance(balance["string"], str):
        return "balance.string must be a string"
    return None


def _localized_problem(node: Any, path: tuple[str, ...] = ()) -> str | None:
    """The first member that is not a LocalizedString where Google's schema wants one
    (`{defaultValue: {language, value}, translatedValues: [{language, value}], kind?}`,
    languages BCP 47, each translated language once and not the default's); null clears a
    member on PATCH, so it is no problem."""
    if node is None:
        return None
    if isinstance(node, list):
        for item in node:
            problem = _localized_problem(item, path)
            if problem:
                return problem
        return None
    if _wants_localized(path) or (isinstance(node, dict) and (
            "defaultValue" in node or "translatedValues" in node)):
        return _localized_string_problem(node, ".".join(path))
    if not isinstance(node, dict):
        return None
    for key, value in node.items():
        problem = _localized_problem(value, (*path, key))
        if problem:
            return problem
    return None


def _wants_localized(path: tuple[str, ...]) -> bool:
    if not path:
        return False
    if path[-1] in LOCALIZED_ANYWHERE or (len(path) == 1 and path[0] in LOCALIZED_TOP):
        return True
    return len(path) == 2 and path[1] in LOCALIZED_IN.get(path[0], ())


def _localized_string_problem(node: Any, name: str) -> str | None:
    if not isinstance(node, dict) or set(node) - {"kind", "defaultValue", "translatedValues"}:
        return f"Invalid LocalizedString in {name}"
    default = node.get("defaultValue")
    if not _translated_string(default):
        return f"Invalid defaultValue in {name}"
    translated = node.get("translatedValues", [])
    if not isinstance(translated, list) or not all(map(_translated_string, translated)):
        return f"Invalid translatedValues in {name}"
    languages = [item["language"] for item in translated]
    if len(set(languages)) != len(languages) or default["language"] in languages:
        return f"Repeated language in translatedValues of {name}"
    return None


def _translated_string(value: Any) -> bool:
    return (isinstance(value, dict) and not set(value) - {"kind", "language", "value"}
            and isinstance(value.get("language"), str) and _LANGUAGE.match(value["language"])
            is not None and isinstance(value.get("value"), str))


# ISO 8601 extended date-time (reference/rest/v1/DateTime): an offset is optional.
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?"
                        r"(Z|[+-]\d{2}:\d{2})?)?$")
_IMAGE = {"sourceUri", "contentDescription", "privateImageId"}


def _time_interval_problem(value: Any) -> str | None:
    """TimeInterval: `{start?, end?}` of DateTime `{date}` (reference/rest/v1/TimeInterval)."""
    if value is None:
        return None
    if not isinstance(value, dict) or not value or set(value) - {"kind", "start", "end"}:
        return "Invalid validTimeInterval"
    for name in ("start", "end"):
        moment = value.get(name)
        if moment is not None and (not isinstance(moment, dict) or set(moment) != {"date"}
                                   or not _DATE_TIME.match(str(moment["date"]))):
            return f"Invalid validTimeInterval.{name}"
    return None


def _image_modules_problem(value: Any) -> str | None:
    """ImageModuleData: `[{mainImage: Image, id?}]`; an Image has a `sourceUri.uri`."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > 10:
        return "imageModulesData must be a list of at most 10"
    for module in value:
        image = module.get("mainImage") if isinstance(module, dict) else None
        if not isinstance(module, dict) or set(module) - {"mainImage", "id"} or \
                "." in str(module.get("id", "")) or not isinstance(image, dict) or \
                set(image) - _IMAGE or not isinstance(image.get("sourceUri"), dict) or \
                not str(image["sourceUri"].get("uri", "")).startswith(("http://", "https://")):
            return "Invalid ImageModuleData"
    return None


def _merchant_locations_problem(value: Any) -> str | None:
    if not isinstance(value, list) or len(value) > MAX_MERCHANT_LOCATIONS:
        return f"merchantLocations must be a list of at most {MAX_MERCHANT_LOCATIONS}"
    for location in value:
        if not isinstance(location, dict) or set(location) - set(_MERCHANT_LOCATION):
            return "Invalid MerchantLocation: only latitude and longitude are known"
        for name, bound in _MERCHANT_LOCATION.items():
            number = location.get(name)
            if not isinstance(number, int | float) or isinstance(number, bool) \
                    or not -bound <= number <= bound:
                return f"Invalid MerchantLocation.{name}"
    return None


def _api_error(status: int, reason: str, message: str) -> Any:
    return jsonify({"error": {"code": status, "message": message, "errors": [
        {"message": message, "domain": "global", "reason": reason}]}}), status


def _oauth_error(error: str, description: str = "") -> Any:
    return jsonify({"error": error, "error_description": description}), 400
