"""Check a .pkpass offline as a device would: layout, manifest hashes, the signature
(`openssl cms -verify -binary -purpose any` against a root), pass.json keys and limits,
colours and images. `problems()` returns every problem found (empty: valid)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import tempfile
import zipfile
from typing import Any

from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID
from PIL import Image

REQUIRED = ("formatVersion", "passTypeIdentifier", "serialNumber", "teamIdentifier",
            "organizationName", "description")
STYLES = ("boardingPass", "coupon", "eventTicket", "generic", "storeCard")
LIMITS = {"headerFields": 3, "primaryFields": 1, "secondaryFields": 4, "auxiliaryFields": 4}
COLOR = re.compile(r"rgb\((\d{1,3}), (\d{1,3}), (\d{1,3})\)")
# Slot -> size in points at @1x (boxes that "fit" may be smaller on one side).
SIZES = {"icon": (29, 29), "logo": (160, 50), "thumbnail": (90, 90), "strip": (375, 98),
         "background": (180, 220)}
W3C = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})")
# The top-level keys Apple documents for pass.json (the `Pass` dictionary, iOS 18 included).
PASS_KEYS = frozenset({
    *REQUIRED, *STYLES, "accessibilityURL", "addOnURL", "appLaunchURL",
    "associatedStoreIdentifiers", "auxiliaryStoreIdentifiers", "authenticationToken",
    "backgroundColor", "bagPolicyURL", "barcode", "barcodes", "beacons", "changeSeatURL",
    "contactVenueEmail", "contactVenuePhoneNumber", "contactVenueWebsite",
    "directionsInformationURL", "eventLogoText", "expirationDate", "footerBackgroundColor",
    "foregroundColor", "groupingIdentifier", "labelColor", "locations", "logoText",
    "maxDistance", "merchandiseURL", "nfc", "orderFoodURL", "parkingInformationURL",
    "preferredStyleSchemes", "purchaseAdditionalTicketsURL", "purchaseParkingURL",
    "relevantDate", "relevantDates", "sellURL", "semantics", "sharingProhibited",
    "suppressHeaderDarkening", "suppressStripShine", "transferURL", "transitInformationURL",
    "useAutomaticColors", "userInfo", "voided", "webServiceURL"})
STYLE_SCHEMES = ("posterEventTicket", "eventTicket")
# Apple's SemanticTags keys and the type of each (SemanticTagType for the objects).
SEMANTIC_TAGS: dict[str, str] = {
    **dict.fromkeys((
        "admissionLevel", "admissionLevelAbbreviation", "additionalTicketAttributes",
        "airlineCode", "attendeeName", "awayTeamAbbreviation", "awayTeamLocation",
        "awayTeamName", "boardingGroup", "boardingSequenceNumber", "carNumber",
        "confirmationNumber", "departureAirportCode", "departureAirportName", "departureGate",
        "departureLocationDescription", "departurePlatform", "departureStationName",
        "departureTerminal", "destinationAirportCode", "destinationAirportName",
        "destinationGate", "destinationLocationDescription", "destinationPlatform",
        "destinationStationName", "destinationTerminal", "entranceDescription",
        "eventLiveMessage", "eventName", "flightCode", "genre", "homeTeamAbbreviation",
        "homeTeamLocation", "homeTeamName", "leagueAbbreviation", "leagueName",
        "membershipProgramName", "membershipProgramNumber", "priorityStatus",
        "securityScreening", "sportName", "transitProvider", "transitStatus",
        "transitStatusReason", "vehicleName", "vehicleNumber", "vehicleType",
        "venueEntrance", "venueEntranceDoor", "venueEntranceGate", "venueEntrancePortal",
        "venueName", "venuePhoneNumber", "venueRegionName", "venueRoom"), "string"),
    **dict.fromkeys((
        "currentArrivalDate", "currentBoardingDate", "currentDepartureDate", "eventEndDate",
        "eventStartDate", "originalArrivalDate", "originalBoardingDate",
        "originalDepartureDate", "venueBoxOfficeOpenDate", "venueCloseDate",
        "venueDoorsOpenDate", "venueFanZoneOpenDate", "venueGatesOpenDate", "venueOpenDate",
        "venueParkingLotsOpenDate"), "date"),
    **dict.fromkeys(("artistIDs", "albumIDs", "performerNames", "playlistIDs"), "strings"),
    **dict.fromkeys(("departureLocation", "destinationLocation", "venueLocation"), "location"),
    **dict.fromkeys(("balance", "totalPrice"), "currency"),
    **dict.fromkeys(("silenceRequested", "tailgatingAllowed"), "boolean"),
    "duration": "number", "flightNumber": "number", "seats": "seats",
    "passengerName": "person", "wifiAccess": "wifi", "eventStartDateInfo": "dateInfo",
    "airplay": "airplay",
    "eventType": "eventType",
}
EVENT_TYPES = ("PKEventTypeGeneric", "PKEventTypeLivePerformance", "PKEventTypeMovie",
               "PKEventTypeSports", "PKEventTypeConference", "PKEventTypeConvention",
               "PKEventTypeWorkshop", "PKEventTypeSocialGathering")
SEAT_KEYS = frozenset({"seatSection", "seatRow", "seatNumber", "seatIdentifier", "seatType",
                       "seatDescription", "seatAisle", "seatLevel", "seatSectionColor"})
OBJECT_KEYS = {"location": {"latitude": "number", "longitude": "number"},
               "currency": {"amount": "string", "currencyCode": "string"},
               "dateInfo": {"date": "date", "ignoreTimeComponents": "boolean",
                            "timeZone": "string"},
               "person": dict.fromkeys(("familyName", "givenName", "middleName", "namePrefix",
                                        "nameSuffix", "nickname", "phoneticRepresentation"),
                                       "string")}


def problems(data: bytes, root_pem: bytes | None) -> list[str]:
    """Every reason a device would refuse this bundle."""
    errs: list[str] = []
    archive = zipfile.ZipFile(io.BytesIO(data))
    if archive.testzip() is not None:
        errs.append("zip CRC check failed")
    names = [n for n in archive.namelist() if not n.endswith("/")]
    for must in ("pass.json", "manifest.json", "signature"):
        if must not in names:
            errs.append(f"missing {must}")
    if errs:
        return errs
    if any(n.startswith(("/", "..")) or "\\" in n for n in names):
        errs.append("bad path in zip")
    manifest_bytes = archive.read("manifest.json")
    manifest = json.loads(manifest_bytes)
    for name in names:
        if name in ("manifest.json", "signature"):
            continue
        if name not in manifest:
            errs.append(f"no manifest entry for {name}")
        elif hashlib.sha1(archive.read(name)).hexdigest() != manifest[name]:
            errs.append(f"sha1 mismatch {name}")
    errs += [f"manifest lists missing file {n}" for n in manifest if n not in names]
    doc = json.loads(archive.read("pass.json"))
    errs += pass_json_problems(doc)
    errs += image_problems(archive, names, doc)
    errs += signature_problems(archive.read("signature"), manifest_bytes, doc, root_pem)
    return errs


def pass_json_problems(doc: dict[str, Any]) -> list[str]:
    errs = [f"pass.json missing {k}" for k in REQUIRED if k not in doc]
    errs += [f"pass.json has unknown key {k}" for k in doc if k not in PASS_KEYS]
    if doc.get("formatVersion") != 1:
        errs.append("formatVersion is not the number 1")
    styles = [s for s in STYLES if s in doc]
    if len(styles) != 1:
        errs.append(f"exactly one style key expected, got {styles}")
    if ("webServiceURL" in doc) != ("authenticationToken" in doc):
        errs.append("webServiceURL/authenticationToken pair")
    if "authenticationToken" in doc and len(doc["authenticationToken"]) < 32:
        errs.append("authenticationToken < 32 chars")
    for name in ("backgroundColor", "foregroundColor", "labelColor"):
        if name in doc:
            match = COLOR.fullmatch(doc[name])
            if match is None or any(int(v) > 255 for v in match.groups()):
                errs.append(f"{name} is not rgb(r, g, b)")
    for name in ("relevantDate", "expirationDate"):
        if name in doc and not W3C.fullmatch(doc[name]):
            errs.append(f"{name} is not a W3C date")
    for window in doc.get("relevantDates", []):  # Apple's RelevantDates dictionary
        errs += relevant_dates_problems(window)
    for barcode in doc.get("barcodes", []):
        if barcode.get("format") not in ("PKBarcodeFormatQR", "PKBarcodeFormatPDF417",
                                         "PKBarcodeFormatAztec", "PKBarcodeFormatCode128"):
            errs.append("bad barcode format")
        if not barcode.get("message") or not barcode.get("messageEncoding"):
            errs.append("barcode without message or encoding")
    if styles:
        errs += field_problems(doc[styles[0]], styles[0], doc.get("barcodes", []))
    if "semantics" in doc:
        errs += semantics_problems(doc["semantics"])
    if "preferredStyleSchemes" in doc:
        schemes = doc["preferredStyleSchemes"]
        if not isinstance(schemes, list) or not schemes or \
                any(s not in STYLE_SCHEMES for s in schemes):
            errs.append(f"preferredStyleSchemes is not a list of {STYLE_SCHEMES}")
        elif "eventTicket" not in doc:
            errs.append("preferredStyleSchemes on a pass that is not an eventTicket")
    return errs


def relevant_dates_problems(entry: Any) -> list[str]:
    """An entry of `relevantDates`: an interval (`startDate` needs `endDate`) or one moment
    under both iOS 26's `date` and iOS 18's `relevantDate` (renamed `date` in iOS 26)."""
    dated = isinstance(entry, dict) and all(
        isinstance(v, str) and W3C.fullmatch(v) for v in entry.values())
    if dated and set(entry) == {"startDate", "endDate"}:
        return []
    if dated and set(entry) == {"date", "relevantDate"} and \
            entry["date"] == entry["relevantDate"]:
        return []
    return [f"relevantDates entry {entry!r} is neither startDate with endDate nor one "
            "moment as date and relevantDate"]


def semantics_problems(semantics: Any) -> list[str]:
    """Every semantic tag Apple does not document, or of the wrong type."""
    if not isinstance(semantics, dict):
        return ["semantics is not an object"]
    errs = []
    for key, value in semantics.items():
        kind = SEMANTIC_TAGS.get(key)
        if kind is None:
            errs.append(f"semantics has unknown key {key}")
        elif not _typed(kind, value):
            errs.append(f"semantics.{key} is not of type {kind}")
    return errs


def _typed(kind: str, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "date":
        return isinstance(value, str) and W3C.fullmatch(value) is not None
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "eventType":
        return value in EVENT_TYPES
    if kind == "seats":
        return isinstance(value, list) and all(
            isinstance(seat, dict) and seat and set(seat) <= SEAT_KEYS
            and all(isinstance(v, str) for v in seat.values()) for seat in value)
    if kind == "wifi":
        return isinstance(value, list) and all(
            isinstance(w, dict) and set(w) == {"ssid", "password"} for w in value)
    if kind == "airplay":
        return isinstance(value, list) and all(
            isinstance(a, dict) and set(a) == {"airplayDeviceGroupToken"} for a in value)
    keys = OBJECT_KEYS[kind]
    needed = {"location": {"latitude", "longitude"}, "dateInfo": {"date"}}.get(kind, set())
    return isinstance(value, dict) and needed <= set(value) <= set(keys) and \
        all(_typed(keys[k], v) for k, v in value.items())


def field_problems(fields: dict[str, Any], style: str, barcodes: list[dict[str, Any]]
                   ) -> list[str]:
    errs, keys = [], []
    for group, items in fields.items():
        if group not in (*LIMITS, "backFields"):
            errs.append(f"unknown field group {group}")
            continue
        if group in LIMITS and len(items) > LIMITS[group]:
            errs.append(f"{group} has {len(items)} fields")
        for item in items:
            keys.append(item.get("key"))
            if "key" not in item or "value" not in item:
                errs.append(f"field without key or value in {group}")
            if not isinstance(item.get("value"), str | int | float):
                errs.append(f"field {item.get('key')} value type")
            if "changeMessage" in item and "%@" not in item["changeMessage"]:
                errs.append(f"changeMessage of {item['key']} has no %@")
            if "textAlignment" in item and group in ("primaryFields", "backFields"):
                errs.append("textAlignment on primary/back field")
            if "dataDetectorTypes" in item and group != "backFields":
                errs.append("dataDetectorTypes outside back fields")
            if "dateStyle" in item and not W3C.fullmatch(str(item["value"])):
                errs.append(f"date field {item['key']} value is not ISO 8601")
            if ("currencyCode" in item or "numberStyle" in item) and (
                    not isinstance(item.get("value"), int | float)
                    or isinstance(item.get("value"), bool)):
                errs.append(f"currencyCode/numberStyle on {item['key']}: value is not a number")
            if "currencyCode" in item and not re.fullmatch(r"[A-Z]{3}", str(item["currencyCode"])):
                errs.append(f"currencyCode of {item['key']} is not ISO 4217")
            if "currencyCode" in item and "numberStyle" in item:
                errs.append(f"{item['key']} has both currencyCode and numberStyle")
    if len(keys) != len(set(keys)):
        errs.append("duplicate field keys")
    square = any(b.get("format") in ("PKBarcodeFormatQR", "PKBarcodeFormatAztec")
                 for b in barcodes)
    # Generic passes, store cards and coupons with a square barcode (apple.md 1.5).
    if style in ("generic", "storeCard", "coupon") and square and \
            len(fields.get("secondaryFields", [])) + len(fields.get("auxiliaryFields", [])) > 4:
        errs.append(f"{style} with square barcode: more than 4 secondary+auxiliary fields")
    return errs


def image_problems(archive: zipfile.ZipFile, names: list[str], doc: dict[str, Any]
                   ) -> list[str]:
    errs = []
    if "icon.png" not in names:
        errs.append("no icon.png")
    for name in names:
        match = re.fullmatch(r"(\w+?)(?:@([23])x)?\.png", name)
        if match is None:
            continue
        slot, scale = match.group(1), int(match.group(2) or 1)
        with Image.open(io.BytesIO(archive.read(name))) as img:
            if img.format != "PNG":
                errs.append(f"{name} is not a PNG")
            box = SIZES.get(slot)
            if box and (img.width > box[0] * scale or img.height > box[1] * scale):
                errs.append(f"{name} is {img.size}, larger than its slot")
            if slot == "icon" and img.size != (29 * scale, 29 * scale):
                errs.append(f"{name} is {img.size}")
        for other in (1, 2, 3):
            variant = f"{slot}.png" if other == 1 else f"{slot}@{other}x.png"
            if variant not in names:
                errs.append(f"{variant} missing")
    # Store cards and coupons show icon, logo and strip only (apple.md 1.8).
    if ("storeCard" in doc or "coupon" in doc) and (
            "thumbnail.png" in names or "background.png" in names):
        errs.append("store card or coupon with a thumbnail or background")
    if "eventTicket" in doc and "strip.png" in names and (
            "background.png" in names or "thumbnail.png" in names):
        errs.append("event ticket with a strip and a background/thumbnail")
    return errs


def signature_problems(signature: bytes, manifest: bytes, doc: dict[str, Any],
                       root_pem: bytes | None) -> list[str]:
    errs = []
    certs = pkcs7.load_der_pkcs7_certificates(signature)
    if len(certs) < 2:
        errs.append("signature must embed signer + WWDR")
    leaf = next((c for c in certs if c.subject.get_attributes_for_oid(NameOID.USER_ID)), None)
    if leaf is None:
        errs.append("no certificate with a subject UID")
    else:
        if leaf.subject.get_attributes_for_oid(NameOID.USER_ID)[0].value != \
                doc.get("passTypeIdentifier"):
            errs.append("certificate UID != passTypeIdentifier")
        teams = [a.value for a in
                 leaf.subject.get_attributes_for_oid(NameOID.ORGANIZATIONAL_UNIT_NAME)]
        if doc.get("teamIdentifier") not in teams:
            errs.append("certificate OU != teamIdentifier")
    with tempfile.TemporaryDirectory() as tmp:
        paths = {n: os.path.join(tmp, n) for n in ("m", "s", "root")}
        for name, data in (("m", manifest), ("s", signature), ("root", root_pem or b"")):
            with open(paths[name], "wb") as fh:
                fh.write(data)
        trust = ["-CAfile", paths["root"]] if root_pem else ["-noverify"]
        verify = subprocess.run(
            ["openssl", "cms", "-verify", "-inform", "DER", "-in", paths["s"], "-content",
             paths["m"], "-binary", "-purpose", "any", "-out", os.devnull, *trust],
            capture_output=True, text=True)
        if verify.returncode:
            errs.append("cms verify failed: " + verify.stderr.strip()[-300:])
        dump = subprocess.run(["openssl", "cms", "-cmsout", "-print", "-inform", "DER", "-in",
                               paths["s"], "-noout"], capture_output=True, text=True).stdout
    if "signingTime" not in dump:
        errs.append("no signingTime signed attribute")
    if "eContent: <ABSENT>" not in dump:
        errs.append("signature is not detached")
    if "sha256" not in dump:
        errs.append("digest is not SHA-256")
    return errs


def read(data: bytes) -> tuple[dict[str, Any], list[str]]:
    """pass.json and the file names of a bundle."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    return json.loads(archive.read("pass.json")), archive.namelist()
