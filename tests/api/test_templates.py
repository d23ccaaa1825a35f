"""/v1/templates: every rule of the spec and decisions.md section 5."""

from __future__ import annotations

import pytest

from tests.api.factories import definition, template_body
from tests.conftest import Api, assert_error

TEMPLATE_KEYS = {"object", "id", "type", "name", "revision", "archived", "requiredFields",
                 "definition", "settings", "enrollmentUrl", "createdAt", "updatedAt"}


def _create(api: Api, **kw) -> dict:
    response = api.post("/v1/templates", template_body(**kw))
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def test_create_returns_the_full_template(api: Api) -> None:
    body = template_body()
    response = api.post("/v1/templates", body)
    assert response.status_code == 201
    t = response.get_json()
    assert set(t) == TEMPLATE_KEYS
    assert t["object"] == "template" and t["id"].startswith("tmpl_")
    assert t["type"] == "generic" and t["name"] == "Membership"
    assert t["revision"] == 1 and t["archived"] is False
    assert t["definition"] == body["definition"]
    assert t["requiredFields"] == ["member"]
    assert t["settings"] == {"appleCertificateId": None, "googleIssuerId": None}
    assert t["createdAt"].endswith("Z") and len(t["createdAt"]) == 24
    assert t["createdAt"] == t["updatedAt"]


def test_event_ticket_template(api: Api) -> None:
    t = _create(api, kind="event")
    assert t["type"] == "event_ticket" and t["requiredFields"] == ["seat"]


@pytest.mark.parametrize(("body", "param", "code"), [
    ({"type": "generic", "definition": definition()}, "name", "parameter_missing"),
    ({"name": "x", "definition": definition()}, "type", "parameter_missing"),
    ({"name": "x", "type": "generic"}, "definition", "parameter_missing"),
    ({"name": "", "type": "generic", "definition": definition()}, "name", "parameter_invalid"),
    ({"name": "x" * 101, "type": "generic", "definition": definition()}, "name",
     "parameter_invalid"),
    ({"name": 5, "type": "generic", "definition": definition()}, "name", "parameter_invalid"),
    ({"name": True, "type": "generic", "definition": definition()}, "name",
     "parameter_invalid"),
    ({"name": "x", "type": "boarding_pass", "definition": definition()}, "type",
     "parameter_invalid"),
    ({"name": "x", "type": "generic", "definition": []}, "definition", "parameter_invalid"),
    ({"name": "x", "type": "generic", "definition": definition(), "extra": 1}, "extra",
     "parameter_unknown"),
])
def test_create_rejects_bad_members(api: Api, body: dict, param: str, code: str) -> None:
    assert_error(api.post("/v1/templates", body), 400, "invalid_request_error", code, param)


def test_name_of_100_characters_is_fine(api: Api) -> None:
    assert _create(api, name="n" * 100)["name"] == "n" * 100


def test_invalid_definition_lists_every_issue(api: Api) -> None:
    bad = definition()
    bad["colors"] = {"background": "red", "foreground": "#fff"}
    bad["surprise"] = True
    response = api.post("/v1/templates", {"name": "x", "type": "generic", "definition": bad})
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition",
                         "definition")
    paths = {(i["path"], i["code"]) for i in error["issues"]}
    assert ("/colors/background", "invalid_color") in paths
    assert ("/colors/foreground", "invalid_color") in paths
    assert ("/surprise", "unknown_member") in paths
    assert all(set(i) == {"path", "code", "message"} for i in error["issues"])


def test_definition_type_must_match(api: Api) -> None:
    response = api.post("/v1/templates", {"name": "x", "type": "event_ticket",
                                           "definition": definition()})
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    assert {"/type", "/event"} <= {i["path"] for i in error["issues"]}


def test_images_must_be_assets_of_the_organization_for_that_slot(api: Api, other_api: Api,
                                                                  png) -> None:
    mine = api.post("/v1/assets", {"slot": "logo", "data": png(160, 50)}).get_json()
    theirs = other_api.post("/v1/assets", {"slot": "icon", "data": png(29, 29)}).get_json()
    body = template_body(images={"logo": mine["id"]})
    assert api.post("/v1/templates", body).status_code == 201
    body = template_body(images={"icon": mine["id"], "strip": theirs["id"]})
    error = assert_error(api.post("/v1/templates", body), 400, "invalid_request_error",
                         "invalid_definition")
    assert sorted((i["path"], i["code"]) for i in error["issues"]) == [
        ("/images/icon", "asset_slot_mismatch"), ("/images/strip", "asset_not_found")]


def test_get_returns_definition_and_required_fields(api: Api) -> None:
    t = _create(api)
    got = api.get(f"/v1/templates/{t['id']}")
    assert got.status_code == 200
    assert got.get_json() == t


@pytest.mark.parametrize("template_id", ["tmpl_doesnotexist", "nope", "pass_123", "x" * 300])
def test_get_unknown_is_404(api: Api, template_id: str) -> None:
    assert_error(api.get(f"/v1/templates/{template_id}"), 404, "not_found_error")


def test_other_organizations_templates_are_404(api: Api, other_api: Api) -> None:
    t = _create(api)
    for response in (
        other_api.get(f"/v1/templates/{t['id']}"),
        other_api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "name": "x"}),
        other_api.delete(f"/v1/templates/{t['id']}"),
        other_api.post(f"/v1/templates/{t['id']}/duplicate"),
        other_api.post(f"/v1/templates/{t['id']}/unarchive"),
    ):
        assert_error(response, 404, "not_found_error")
    assert other_api.get("/v1/templates").get_json()["data"] == []
    assert api.get(f"/v1/templates/{t['id']}").get_json()["name"] == "Membership"


def test_templates_are_shared_by_test_and_live(api: Api, live_api: Api) -> None:
    t = _create(api)
    assert live_api.get(f"/v1/templates/{t['id']}").status_code == 200


def test_list_newest_first_without_definition(api: Api) -> None:
    a, b = _create(api, name="A"), _create(api, name="B")
    listing = api.get("/v1/templates").get_json()
    assert listing["object"] == "list" and listing["hasMore"] is False
    assert listing["nextCursor"] is None
    assert [t["id"] for t in listing["data"]] == [b["id"], a["id"]]
    for item in listing["data"]:
        assert "definition" not in item and item["requiredFields"] == []


def test_list_filters_by_type_and_archived(api: Api) -> None:
    g = _create(api)
    e = _create(api, kind="event")
    api.delete(f"/v1/templates/{g['id']}")
    ids = lambda q: [t["id"] for t in api.get(f"/v1/templates{q}").get_json()["data"]]  # noqa: E731
    assert ids("") == [e["id"]]
    assert ids("?archived=true") == [g["id"]]
    assert ids("?archived=false&type=event_ticket") == [e["id"]]
    assert ids("?type=generic") == []
    assert ids("?type=generic&archived=true") == [g["id"]]


@pytest.mark.parametrize(("q", "param"), [("?type=boarding_pass", "type"),
                                          ("?archived=yes", "archived"),
                                          ("?archived=1", "archived"), ("?bogus=1", "bogus")])
def test_list_rejects_bad_query(api: Api, q: str, param: str) -> None:
    assert_error(api.get(f"/v1/templates{q}"), 400, "invalid_request_error", param=param)


def test_update_name_only_keeps_revision(api: Api) -> None:
    t = _create(api)
    response = api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "name": "Gold"})
    assert response.status_code == 200
    u = response.get_json()
    assert set(u) == TEMPLATE_KEYS
    assert u["name"] == "Gold" and u["revision"] == 1 and u["definition"] == t["definition"]
    assert u["updatedAt"] >= t["updatedAt"]


def test_update_definition_makes_a_new_revision(api: Api) -> None:
    t = _create(api)
    new = definition(description="Gold membership")
    response = api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "definition": new})
    assert response.status_code == 200
    u = response.get_json()
    assert u["revision"] == 2 and u["definition"] == new
    same = api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 2, "definition": new})
    assert same.get_json()["revision"] == 2  # an equal definition is no new revision


def test_revisions_keep_their_definitions(app, api: Api, org: dict) -> None:
    from webapp.services.context import Context
    from webapp.services.templates import revisions

    t = _create(api)
    new = definition(description="Second")
    api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "definition": new})
    with app.app_context():
        ctx = Context(org["id"], "test")
        assert revisions.get_revision(ctx, t["id"], 1) == t["definition"]
        assert revisions.get_revision(ctx, t["id"], 2) == new


def test_update_with_stale_revision_is_409(api: Api) -> None:
    t = _create(api)
    api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1,
                                           "definition": definition(description="v2")})
    response = api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "name": "late"})
    assert_error(response, 409, "conflict_error", "stale_revision", "expectedRevision")
    assert api.get(f"/v1/templates/{t['id']}").get_json()["name"] == "Membership"


def test_update_archived_is_409(api: Api) -> None:
    t = _create(api)
    api.delete(f"/v1/templates/{t['id']}")
    response = api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "name": "x"})
    assert_error(response, 409, "conflict_error", "template_archived")


def test_update_invalid_definition_is_400_with_issues(api: Api) -> None:
    t = _create(api)
    bad = definition(schemaVersion=2)
    response = api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1, "definition": bad})
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    assert error["issues"][0]["path"] == "/schemaVersion"
    assert api.get(f"/v1/templates/{t['id']}").get_json()["revision"] == 1


@pytest.mark.parametrize(("body", "param", "code"), [
    ({"name": "x"}, "expectedRevision", "parameter_missing"),
    ({"expectedRevision": True}, "expectedRevision", "parameter_invalid"),
    ({"expectedRevision": 1.0}, "expectedRevision", "parameter_invalid"),
    ({"expectedRevision": "1"}, "expectedRevision", "parameter_invalid"),
    ({"expectedRevision": 0}, "expectedRevision", "parameter_invalid"),
    ({"expectedRevision": 1, "name": ""}, "name", "parameter_invalid"),
    ({"expectedRevision": 1, "name": None}, "name", "parameter_invalid"),
    ({"expectedRevision": 1, "definition": "x"}, "definition", "parameter_invalid"),
    ({"expectedRevision": 1, "type": "event_ticket"}, "type", "parameter_unknown"),
])
def test_update_rejects_bad_members(api: Api, body: dict, param: str, code: str) -> None:
    t = _create(api)
    response = api.patch(f"/v1/templates/{t['id']}", body)
    assert_error(response, 400, "invalid_request_error", code, param)


def test_update_unknown_is_404(api: Api) -> None:
    response = api.patch("/v1/templates/tmpl_nope", {"expectedRevision": 1, "name": "x"})
    assert_error(response, 404, "not_found_error")


def test_archive_and_unarchive(api: Api) -> None:
    t = _create(api)
    archived = api.delete(f"/v1/templates/{t['id']}")
    assert archived.status_code == 200
    body = archived.get_json()
    assert body["archived"] is True and set(body) == TEMPLATE_KEYS
    again = api.delete(f"/v1/templates/{t['id']}")  # a new key: archiving twice does nothing
    assert again.status_code == 200 and again.get_json() == body
    restored = api.post(f"/v1/templates/{t['id']}/unarchive")
    assert restored.status_code == 200 and restored.get_json()["archived"] is False
    assert api.post(f"/v1/templates/{t['id']}/unarchive").get_json()["archived"] is False
    assert_error(api.delete("/v1/templates/tmpl_nope"), 404, "not_found_error")


def test_duplicate(api: Api) -> None:
    t = _create(api)
    api.patch(f"/v1/templates/{t['id']}", {"expectedRevision": 1,
                                           "definition": definition(description="v2")})
    response = api.post(f"/v1/templates/{t['id']}/duplicate")
    assert response.status_code == 201
    d = response.get_json()
    assert d["id"] != t["id"] and d["name"] == "Copy of Membership"
    assert d["revision"] == 1 and d["definition"]["description"] == "v2"
    named = api.post(f"/v1/templates/{t['id']}/duplicate", {"name": "Gold"}).get_json()
    assert named["name"] == "Gold"


def test_duplicate_name_is_cut_to_100(api: Api) -> None:
    t = _create(api, name="x" * 100)
    d = api.post(f"/v1/templates/{t['id']}/duplicate").get_json()
    assert d["name"] == ("Copy of " + "x" * 100)[:100]


def test_duplicate_of_archived_is_active(api: Api) -> None:
    t = _create(api)
    api.delete(f"/v1/templates/{t['id']}")
    d = api.post(f"/v1/templates/{t['id']}/duplicate").get_json()
    assert d["archived"] is False


@pytest.mark.parametrize(("body", "param"), [({"name": "x" * 101}, "name"), ({"name": ""}, "name"),
                                             ({"name": 3}, "name"), ({"other": 1}, "other")])
def test_duplicate_rejects_bad_members(api: Api, body: dict, param: str) -> None:
    t = _create(api)
    response = api.post(f"/v1/templates/{t['id']}/duplicate", body)
    assert_error(response, 400, "invalid_request_error", param=param)


BLANK_NAMES = [" ", "   ", "\u00a0", "\u3000", "\u2003 \u2009"]


@pytest.mark.parametrize("name", BLANK_NAMES)
def test_a_name_of_only_spaces_is_400_on_create_update_and_duplicate(api: Api,
                                                                     name: str) -> None:
    for response in (
            api.post("/v1/templates", template_body(name=name)),
            api.patch(f"/v1/templates/{_create(api)['id']}", {"expectedRevision": 1,
                                                              "name": name}),
            api.post(f"/v1/templates/{_create(api)['id']}/duplicate", {"name": name})):
        error = assert_error(response, 400, "invalid_request_error", "parameter_invalid",
                             "name")
        assert error["message"] == "name: Must not be only spaces."
    assert {t["name"] for t in api.get("/v1/templates").get_json()["data"]} == {"Membership"}


def test_a_name_with_spaces_around_text_is_kept_as_sent(api: Api) -> None:
    assert _create(api, name="  Gold members ")["name"] == "  Gold members "


def test_the_document_says_a_name_needs_more_than_spaces(api: Api) -> None:
    document = api.get("/v1/openapi.json").get_json()
    for schema in ("TemplateCreate", "TemplateUpdate", "TemplateDuplicate"):
        name = document["components"]["schemas"][schema]["properties"]["name"]
        assert name["pattern"] == r"\S" and name["minLength"] == 1
