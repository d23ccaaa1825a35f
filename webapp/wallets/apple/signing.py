"""The `signature` of a pass: a detached DER CMS (PKCS #7) SignedData over `manifest.json`,
SHA-256, with the signing certificate and the WWDR intermediate embedded and the signing
time among the signed attributes, computed over the exact bytes (binary mode).

Everything that does not depend on the manifest (certificates, signer identifier,
algorithm identifiers) is encoded once per identity; signing a pass is one digest, three
small signed attributes, one private-key operation and a concatenation. The output has
the shape `cryptography`'s PKCS #7 builder gives with `DetachedSignature | Binary` (RFC
5652; signed attributes contentType, signingTime and messageDigest, sorted as DER
requires), which `openssl cms -verify -binary` and Wallet accept.

Private keys are parsed once per process per identity and kept (`signer()`): parsing and
checking an RSA key costs more than a signature.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import threading
from collections import OrderedDict

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

from webapp.wallets.apple import certificates

_LIMIT = 256
_signers: OrderedDict[tuple[str | bytes, str | bytes, bytes], Signer] = OrderedDict()
_lock = threading.Lock()

# Object identifiers (RFC 5652, RFC 5754, RFC 8017, RFC 5758).
_SIGNED_DATA = "1.2.840.113549.1.7.2"
_DATA = "1.2.840.113549.1.7.1"
_CONTENT_TYPE = "1.2.840.113549.1.9.3"
_MESSAGE_DIGEST = "1.2.840.113549.1.9.4"
_SIGNING_TIME = "1.2.840.113549.1.9.5"
_SHA256 = "2.16.840.1.101.3.4.2.1"
_RSA = "1.2.840.113549.1.1.1"
_ECDSA_SHA256 = "1.2.840.10045.4.3.2"


def _length(size: int) -> bytes:
    if size < 0x80:
        return bytes([size])
    raw = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def _tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + _length(len(content)) + content


def _oid(dotted: str) -> bytes:
    parts = [int(p) for p in dotted.split(".")]
    body = bytearray([parts[0] * 40 + parts[1]])
    for part in parts[2:]:
        chunk = [part & 0x7F]
        part >>= 7
        while part:
            chunk.append(0x80 | (part & 0x7F))
            part >>= 7
        body += bytes(reversed(chunk))
    return _tlv(0x06, bytes(body))


def _integer(value: int) -> bytes:
    raw = value.to_bytes(value.bit_length() // 8 + 1, "big", signed=True)
    return _tlv(0x02, raw)


def _sequence(*items: bytes) -> bytes:
    return _tlv(0x30, b"".join(items))


def _set(*items: bytes, tag: int = 0x31) -> bytes:
    return _tlv(tag, b"".join(sorted(items)))  # DER: SET OF in ascending encoded order


def _utc_time(moment: dt.datetime) -> bytes:
    """UTCTime `YYMMDDHHMMSSZ` (formatted by hand: strftime cost a fifth of a build's Python)."""
    return (f"{moment.year % 100:02d}{moment.month:02d}{moment.day:02d}{moment.hour:02d}"
            f"{moment.minute:02d}{moment.second:02d}Z").encode()


def _algorithm(dotted: str, null: bool = True) -> bytes:
    return _sequence(_oid(dotted), b"\x05\x00" if null else b"")


class Signer:
    """A parsed signing identity: certificate, private key and WWDR intermediate."""

    def __init__(self, certificate: x509.Certificate,
                 key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey, wwdr: x509.Certificate):
        self.certificate, self.key, self.wwdr = certificate, key, wwdr
        der = serialization.Encoding.DER
        certificates = _set(certificate.public_bytes(der), wwdr.public_bytes(der), tag=0xA0)
        sid = _sequence(certificate.issuer.public_bytes(), _integer(certificate.serial_number))
        digest_algorithm = _algorithm(_SHA256)
        self._signature_algorithm = (_algorithm(_RSA) if isinstance(key, rsa.RSAPrivateKey)
                                     else _algorithm(_ECDSA_SHA256, null=False))
        # The signed attributes always have the same lengths (a 13-byte UTCTime, a 32-byte
        # digest), so the same DER order: a fixed head, the time, a fixed middle, the digest.
        time_attribute = _sequence(_oid(_SIGNING_TIME), _set(_tlv(0x17, bytes(13))))
        digest_attribute = _sequence(_oid(_MESSAGE_DIGEST), _set(_tlv(0x04, bytes(32))))
        attributes = _set(_sequence(_oid(_CONTENT_TYPE), _set(_oid(_DATA))), time_attribute,
                          digest_attribute)
        self._attributes_head = attributes[:-len(digest_attribute) - 13]
        self._attributes_middle = digest_attribute[:-32]
        version = _integer(1)
        self._signer_info_head = version + sid + digest_algorithm
        self._signed_data_oid = _oid(_SIGNED_DATA)
        self._before_signer_infos = (version + _set(digest_algorithm) + _sequence(_oid(_DATA))
                                     + certificates)

    def sign(self, manifest: bytes, now: dt.datetime | None = None) -> bytes:
        """The detached DER signature of `manifest` (signingTime included)."""
        moment = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
        # what the signature covers: the attributes' SET, tagged 0x31
        signed = (self._attributes_head + _utc_time(moment) + self._attributes_middle
                  + hashlib.sha256(manifest).digest())
        if isinstance(self.key, rsa.RSAPrivateKey):
            value = self.key.sign(signed, padding.PKCS1v15(), hashes.SHA256())
        else:
            value = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        signer_info = _sequence(self._signer_info_head,
                                b"\xa0" + signed[1:],  # [0] IMPLICIT in the SignerInfo
                                self._signature_algorithm, _tlv(0x04, value))
        signed_data = _sequence(self._before_signer_infos, _set(signer_info))
        return _sequence(self._signed_data_oid, _tlv(0xA0, signed_data))


def signer(certificate_pem: str | bytes, wwdr_pem: str | bytes, key_pem: bytes) -> Signer:
    """The signer of an identity, parsed on first use and kept for the process."""
    cache_key = (certificate_pem, wwdr_pem, key_pem)  # (str hashes are kept by the objects)
    with _lock:
        found = _signers.get(cache_key)
        if found is not None:
            _signers.move_to_end(cache_key)
            return found
    made = Signer(x509.load_pem_x509_certificate(_bytes(certificate_pem)),
                  certificates.load_private_key(key_pem),
                  x509.load_pem_x509_certificate(_bytes(wwdr_pem)))
    with _lock:
        _signers[cache_key] = made
        while len(_signers) > _LIMIT:
            _signers.popitem(last=False)
    return made


def _bytes(value: str | bytes) -> bytes:
    return value.encode() if isinstance(value, str) else value
