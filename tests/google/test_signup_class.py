"""A loyalty template that takes sign-ups names its sign-up page in Google's loyalty class
(`discoverableProgram.merchantSignupInfo.signupWebsite`), checked by the fake Google."""

from __future__ import annotations

from typing import Any

from tests.api.factories import loyalty_definition
from tests.api.test_balances import make
from tests.conftest import Api, upload_asset
from tests.google.conftest import ISSUER, issue
from tests.signup.conftest import ENROLLMENT
from tests.support.fake_google import FakeGoogle, _store_problem

SIGNUP = {**ENROLLMENT, "fields": [{"key": "holderName", "required": True},
                                   {"key": "holderEmail", "required": True}]}


def test_a_loyalty_class_carries_its_sign_up_page(api: Api, fake_google: FakeGoogle,
                                                  png: Any) -> None:
    logo = upload_asset(api, "logo", png(600, 150))
    template = make(api, {**loyalty_definition(logo), "enrollment": SIGNUP})
    issue(api, template, holderName="Ada Lovelace")
    cls = fake_google.resource("loyaltyClass", f"{ISSUER}.{template['id']}_r1")
    assert cls["discoverableProgram"] == {
        "merchantSignupInfo": {"signupWebsite": {"uri": template["enrollmentUrl"]}}}


def test_without_sign_ups_there_is_no_discoverable_program(api: Api, fake_google: FakeGoogle,
                                                           png: Any) -> None:
    logo = upload_asset(api, "logo", png(600, 150))
    template = make(api, {**loyalty_definition(logo),
                          "enrollment": {**SIGNUP, "enabled": False}})
    issue(api, template, holderName="Ada Lovelace")
    cls = fake_google.resource("loyaltyClass", f"{ISSUER}.{template['id']}_r1")
    assert "discoverableProgram" not in cls


def test_the_fake_checks_the_discoverable_program() -> None:
    base = {"id": "1.a", "issuerName": "X", "programName": "P", "reviewStatus": "UNDER_REVIEW",
            "programLogo": {"sourceUri": {"uri": "https://x/logo"}}}
    good = {"merchantSignupInfo": {"signupWebsite": {"uri": "https://x/join/abc"}}}
    assert _store_problem("loyaltyClass", {**base, "discoverableProgram": good}) is None
    for bad in ({"signupWebsite": "https://x"}, {"merchantSignupInfo": {"signupWebsite": {
            "uri": "http://x"}}}, {**good, "state": "OPEN"}):
        assert _store_problem("loyaltyClass", {**base, "discoverableProgram": bad})
