"""Passes imported from a CSV file on a template: upload, column matching, the checked preview,
the bulk job it starts, its progress and results; and "update all passes to the latest
design"."""

from __future__ import annotations

import csv
import html
import io
import re
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import member_import_definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from webapp.dashboard import csv_import
from webapp.services.bulk import uploads


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": member_import_definition()})
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["id"])


def _upload(dash: Dash, template_id: str, data: bytes, name: str = "members.csv") -> Any:
    return dash.post(f"/dashboard/test/templates/{template_id}/import",
                     {"file": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def _mapping_url(dash: Dash, template_id: str, data: bytes) -> str:
    response = _upload(dash, template_id, data)
    assert response.status_code == 303, text(response)
    location = response.headers["Location"]
    assert re.fullmatch(rf"/dashboard/test/templates/{template_id}/import/[\w-]{{32}}",
                        location), location
    return str(location)


def _selected(html: str) -> dict[str, str]:
    """The column name each input's select has chosen ("" when none)."""
    chosen = {}
    for name, body in re.findall(r'<select id="map-([^"]+)" name="[^"]+">(.*?)</select>', html,
                                 re.S):
        match = re.search(r'<option value="\d+" selected>([^<]*)</option>', body)
        chosen[name] = match.group(1) if match else ""
    return chosen


def _problems(html: str) -> dict[int, str]:
    """Each previewed row's check, as text."""
    found = {}
    for number, cell in re.findall(
            r'<tr id="preview-row-(\d+)">.*?<td data-label="Check" class="row-check">(.*?)</td>',
            html, re.S):
        found[int(number)] = re.sub(r"<[^>]+>", "", cell).strip()
    return found


MEMBERS = "Member,E-mail,Level,Points\nAda,ada@example.com,Gold,12\nBo,bo@example.com,,7\n"


def test_the_template_page_links_to_the_import(dash: Dash, template_id: str) -> None:
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert f'href="/dashboard/test/templates/{template_id}/import"' in page
    upload = dash.get(f"/dashboard/test/templates/{template_id}/import")
    assert upload.status_code == 200
    assert 'enctype="multipart/form-data"' in text(upload)


@pytest.mark.parametrize("data", [
    MEMBERS.encode(),
    b"\xef\xbb\xbf" + MEMBERS.encode(),  # Excel's "CSV UTF-8" starts with a BOM
    MEMBERS.replace(",", ";").encode(),
    b"\xef\xbb\xbf" + MEMBERS.replace(",", ";").replace("\n", "\r\n").encode(),
], ids=["commas", "bom", "semicolons", "bom-semicolons-crlf"])
def test_columns_are_matched_by_header(dash: Dash, template_id: str, data: bytes) -> None:
    page = text(dash.get(_mapping_url(dash, template_id, data)))
    assert _selected(page) == {
        "holderName": "", "holderEmail": "E-mail", "fieldValues.member": "Member",
        "fieldValues.level": "Level", "fieldValues.points": "Points", "externalId": "",
        "expiresAt": "", "relevantDate": "", "tags": ""}
    assert "The file has 2 rows and 4 columns" in page
    assert _problems(page) == {1: "OK", 2: "OK"}


def test_headers_match_without_case_accents_or_punctuation(dash: Dash, template_id: str
                                                           ) -> None:
    data = "MÉMBER;holder_email;external-id;LEVEL\nAda;ada@example.com;m-1;Gold\n".encode()
    page = text(dash.get(_mapping_url(dash, template_id, data)))
    chosen = _selected(page)
    assert chosen["fieldValues.member"] == "MÉMBER"
    assert chosen["holderEmail"] == "holder_email"
    assert chosen["externalId"] == "external-id"
    assert chosen["fieldValues.level"] == "LEVEL"


@pytest.mark.parametrize(("data", "message"), [
    ("Member,Level\nJosé,Gold\n".encode("cp1252"),
     "The file is not UTF-8 text (it may be in another encoding such as Windows-1252 or "
     "Latin-1). Save it as &#34;CSV UTF-8&#34; and upload it again."),
    (b"Ada,ada@example.com,Gold\nBo,bo@example.com,Silver\n",
     "The file has no header row: the first row holds values such as "
     "&#34;ada@example.com&#34;. Add a first row that names the columns (e.g. Name;Email)."),
    (b"Member,Points\n", "The file has a header row but no rows to import."),
    (b"", "Choose a CSV file to upload."),
    (b"\xef\xbb\xbf \r\n", "The file is empty: it needs a header row and at least one row."),
    (b"Member,Member\nAda,Bo\n", "Two columns are named &#34;Member&#34;: rename one."),
    (b"Member,,Level\nAda,x,Gold\n", "Column 2 has no name in the header row."),
    (b"Member,Level\nAda,Gold,extra\n", "Line 2 has more cells than the header row names (2)."),
], ids=["cp1252", "no-header", "no-rows", "no-file", "blank", "repeated-name", "unnamed",
        "extra-cells"])
def test_a_file_that_cannot_be_read_is_refused_with_a_reason(
        dash: Dash, template_id: str, data: bytes, message: str) -> None:
    response = _upload(dash, template_id, data)
    assert response.status_code == 422
    assert f'<div class="flash bad" role="alert" id="upload-problem">{message}</div>' \
        in text(response)


def test_too_many_rows_are_refused(dash: Dash, template_id: str) -> None:
    rows = "".join(f"Member {n}\n" for n in range(csv_import.MAX_ROWS + 1))
    response = _upload(dash, template_id, f"Member\n{rows}".encode())
    assert response.status_code == 422
    assert "The file has more than 10,000 rows: split it into files of at most 10,000 " \
        "rows." in text(response)
    exactly = "".join(f"Member {n}\n" for n in range(csv_import.MAX_ROWS))
    assert _upload(dash, template_id, f"Member\n{exactly}\n\n".encode()).status_code == 303


def test_a_header_line_longer_than_a_csv_cell_may_be_is_refused(dash: Dash, template_id: str
                                                                 ) -> None:
    header = "Member," + "x" * (140_000 - len("Member,"))
    response = _upload(dash, template_id, f"{header}\nAda,Gold\n".encode())
    assert response.status_code == 422
    assert '<div class="flash bad" role="alert" id="upload-problem">The header row is longer ' \
        "than 131,072 characters: it should name the columns, at most 200 of them.</div>" \
        in text(response)


def _columns(count: int) -> str:
    """A file with `count` distinct lowercase column names (a, b, ..., aa, ...) and one row."""
    names = []
    for n in range(count):
        name = ""
        n += 1
        while n:
            n, digit = divmod(n - 1, 26)
            name = chr(ord("a") + digit) + name
        names.append(name)
    return ",".join(["Member", *names[1:]]) + "\n" + ",".join(["Ada"] + [""] * (count - 1)) \
        + "\n"


def test_more_than_200_columns_are_refused(dash: Dash, template_id: str) -> None:
    response = _upload(dash, template_id, _columns(201).encode())
    assert response.status_code == 422
    assert '<div class="flash bad" role="alert" id="upload-problem">The file has 201 columns: ' \
        "an import takes at most 200. Remove the columns it does not need.</div>" \
        in text(response)


def test_200_columns_are_taken(dash: Dash, template_id: str) -> None:
    mapping = dash.get(_mapping_url(dash, template_id, _columns(200).encode()))
    assert mapping.status_code == 200
    assert _selected(text(mapping))["fieldValues.member"] == "Member"


def test_26000_columns_are_refused_at_once(dash: Dash, template_id: str) -> None:
    data = _columns(26_000).encode()
    assert len(data.split(b"\n")[0]) < 131_072  # read as a header row, not refused for its length
    started = time.perf_counter()
    response = _upload(dash, template_id, data)
    assert time.perf_counter() - started < 1.0
    assert response.status_code == 422
    assert "The file has 26,000 columns: an import takes at most 200." in text(response)


def test_the_upload_page_names_the_bounds(dash: Dash, template_id: str) -> None:
    # A body over MAX_CONTENT_LENGTH is the dashboard's 413 page (tests/test_chunked_bodies.py)
    page = text(dash.get(f"/dashboard/test/templates/{template_id}/import"))
    assert "at most 10,000 rows and 8 MB." in page


def test_each_previewed_row_shows_its_problem(dash: Dash, template_id: str) -> None:
    data = ("Member,Email,Points,External ID\n"
            "Ada,ada@example.com,12,m-1\n"
            ",bo@example.com,7,m-2\n"
            "Cy,not-an-email,3,m-3\n"
            "Di,di@example.com,lots,m-4\n"
            f"Ed,ed@example.com,1,{'x' * 201}\n").encode()
    page = text(dash.get(_mapping_url(dash, template_id, data)))
    assert _problems(page) == {
        1: "OK",
        2: "Problem Member is required.",
        3: "Problem Holder email is not an email address.",
        4: "Problem Points must be a number.",
        5: "Problem External ID is longer than 200 characters.",
    }
    assert ("<strong>4 of 5 rows have problems</strong> (rows 2, 3, 4, 5): they are not "
            "issued, the other rows are.") in page


def test_the_preview_checks_every_row_not_only_the_first(dash: Dash, template_id: str) -> None:
    rows = [f"P{n},p{n}@example.com,{n}" for n in range(1, 31)]
    for bad in (17, 24, 30):
        rows[bad - 1] = f",p{bad}@example.com,{bad}"  # no member
    data = ("Member,Email,Points\n" + "\n".join(rows) + "\n").encode()
    page = text(dash.get(_mapping_url(dash, template_id, data)))
    assert ("<strong>3 of 30 rows have problems</strong> (rows 17, 24, 30): they are not "
            "issued, the other rows are.") in page
    shown = _problems(page)
    assert sorted(shown) == [*range(1, 11), 17, 24, 30]  # the first rows, the first bad ones
    assert shown[17] == shown[30] == "Problem Member is required."


def test_changing_a_select_changes_the_preview(dash: Dash, template_id: str) -> None:
    data = b"Name,Tier\nAda,Gold\nBo,Silver\n"
    url = _mapping_url(dash, template_id, data)
    page = text(dash.get(url))
    assert _selected(page)["fieldValues.member"] == ""  # "Name" is the holder's name
    assert 'id="nothing-matched"' not in page
    assert "Member is required: choose the column that holds it." in page
    assert re.search(r'id="run-import" disabled', page)
    form = form_data(page, "import-form")
    form.update({"map-fieldValues.member": "0", "map-fieldValues.level": "1"})
    preview = dash.post(f"{url}/preview", form, htmx=True)
    assert preview.status_code == 200
    html = text(preview)
    assert html.startswith('\n<section id="import-map">') or \
        html.lstrip().startswith('<section id="import-map">')  # the partial only
    assert _selected(html)["fieldValues.member"] == "Name"
    assert _selected(html)["fieldValues.level"] == "Tier"
    assert '<td data-label="Level">Silver</td>' in html
    assert _problems(html) == {1: "OK", 2: "OK"}
    assert not re.search(r'id="run-import" disabled', html)


def test_a_first_row_of_plain_values_matches_nothing_and_says_so(
        dash: Dash, template_id: str) -> None:
    page = text(dash.get(_mapping_url(dash, template_id, b"Ada,Gold\nBo,Silver\n")))
    assert set(_selected(page).values()) == {""}
    assert "No column is matched to an input. If the file's first row holds values " \
        "rather than column names, add a header row" in page


def test_one_column_may_fill_two_inputs(dash: Dash, api: Api, template_id: str) -> None:
    url = _mapping_url(dash, template_id, b"Name\nAda Lovelace\n")
    form = form_data(text(dash.get(url)), "import-form")
    assert form["map-holderName"] == "0"  # "Name" is the holder's name
    form["map-fieldValues.member"] = "0"
    run = dash.post(f"{url}/run", form)
    assert run.status_code == 303
    _wait_for_job(dash, run.headers["Location"])
    pass_id = _results(dash, run.headers["Location"])[1][4]
    issued = api.get(f"/v1/passes/{pass_id}").get_json()
    assert issued["holderName"] == "Ada Lovelace"
    assert issued["fieldValues"] == {"member": "Ada Lovelace"}


def test_run_without_a_required_column_is_refused(dash: Dash, template_id: str) -> None:
    url = _mapping_url(dash, template_id, b"Tier\nGold\n")
    form = form_data(text(dash.get(url)), "import-form")
    run = dash.post(f"{url}/run", form)
    assert run.status_code == 422
    assert "Not started: choose a column for each required input." in text(run)
    assert "Member is required: choose the column that holds it." in text(run)
    assert dash.get(url).status_code == 200  # still there to fix


def test_another_organization_sees_neither_template_nor_upload(
        dash: Dash, other_dash: Dash, template_id: str) -> None:
    url = _mapping_url(dash, template_id, MEMBERS.encode())
    assert other_dash.get(f"/dashboard/test/templates/{template_id}/import").status_code == 404
    assert _upload(other_dash, template_id, MEMBERS.encode()).status_code == 404
    assert other_dash.get(url).status_code == 404
    assert other_dash.post(f"{url}/run", {}).status_code == 404
    # The same upload in the other environment is not found either (bound to test).
    assert dash.get(url.replace("/test/", "/live/")).status_code == 404


def test_an_upload_of_another_user_or_template_is_not_found(
        dash: Dash, api: Api, template_id: str) -> None:
    url = _mapping_url(dash, template_id, MEMBERS.encode())
    other = api.post("/v1/templates", {"name": "Pool", "type": "generic",
                                       "definition": member_import_definition()}).get_json()["id"]
    assert dash.get(url.replace(template_id, other)).status_code == 404
    assert dash.get(url[:-1] + ("A" if url[-1] != "A" else "B")).status_code == 404
    assert dash.get(f"/dashboard/test/templates/{template_id}/import/..%2F..%2Fx"
                    ).status_code == 404


def test_an_upload_expires_after_an_hour_and_is_then_removed(
        app: Flask, dash: Dash, template_id: str) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import select

    from webapp import clock
    from webapp.extensions import db
    from webapp.models import Upload

    def kept() -> list[str]:
        with app.app_context():
            return list(db.session.scalars(select(Upload.id)))

    url = _mapping_url(dash, template_id, MEMBERS.encode())
    upload_id = url.rsplit("/", 1)[1]
    assert kept() == [upload_id]  # in the database: any node serves the next step
    later = datetime.now(UTC) + uploads.MAX_AGE + timedelta(seconds=5)
    clock.set_now(lambda: later)
    try:
        gone = dash.get(url)
        assert gone.status_code == 404
        assert "This upload is gone: it is used once, and kept for an hour." in text(gone)
        newer = _mapping_url(dash, template_id, MEMBERS.encode()).rsplit("/", 1)[1]
        assert kept() == [newer]
    finally:
        clock.set_now(None)


def test_writes_need_the_csrf_token(dash: Dash, template_id: str) -> None:
    response = dash.post(f"/dashboard/test/templates/{template_id}/import",
                         {"file": (io.BytesIO(MEMBERS.encode()), "m.csv")},
                         content_type="multipart/form-data", csrf=False)
    assert response.status_code == 400
    assert "This form has expired" in text(response)
    url = _mapping_url(dash, template_id, MEMBERS.encode())
    assert dash.post(f"{url}/run", {"map-fieldValues.member": "0"}, csrf=False
                     ).status_code == 400
    assert dash.post(f"/dashboard/test/templates/{template_id}/upgrade", {}, csrf=False
                     ).status_code == 400


def _wait_for_job(dash: Dash, job_url: str) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        html = text(dash.get(f"{job_url}/progress", headers={"HX-Request": "true"}))
        if 'hx-trigger="every 1s"' not in html:
            return html
        time.sleep(0.05)
    raise AssertionError("the job did not finish")


def _results(dash: Dash, job_url: str) -> list[list[str]]:
    response = dash.get(f"{job_url}/results.csv")
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=\"bjob_")
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbf")  # a BOM: Excel reads it as UTF-8
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_run_issues_a_pass_per_row_and_reports_each(dash: Dash, api: Api,
                                                    template_id: str) -> None:
    data = (b"Member;Email;Points;External ID\n"
            b"Ada;ada@example.com;12;m-1\n"
            b";bo@example.com;7;=HYPERLINK(\"http://x\")\n"
            b"Cy;cy@example.com;3;m-3\n")
    url = _mapping_url(dash, template_id, data)
    form = form_data(text(dash.get(url)), "import-form")
    run = dash.post(f"{url}/run", form)
    assert run.status_code == 303, text(run)
    job_url = run.headers["Location"]
    assert re.fullmatch(r"/dashboard/test/jobs/bjob_\w+", job_url)
    assert dash.get(url).status_code == 404  # the upload is used once
    page = text(dash.get(job_url))
    assert "Issue passes" in page and 'id="job-progress"' in page
    done = _wait_for_job(dash, job_url)
    assert '<strong id="job-done">3 of 3</strong>' in done
    assert "2 succeeded" in done and "1 failed" in done
    assert 'id="job-results"' in done
    rows = _results(dash, job_url)
    assert rows[0] == ["row", "externalId", "result", "problem", "passId", "shortId",
                       "distributionUrl", "holderName", "holderEmail", "problemCode"]
    assert [r[:4] for r in rows[1:]] == [["1", "m-1", "Issued", ""],
                                         ["2", "'=HYPERLINK(\"http://x\")", "Problem",
                                          "Member is required."],
                                         ["3", "m-3", "Issued", ""]]
    assert rows[2][4:] == ["", "", "", "", "", "required_field_missing"]
    pass_id = rows[1][4]
    issued = api.get(f"/v1/passes/{pass_id}").get_json()
    assert rows[1][4:9] == [pass_id, issued["shortId"], issued["distributionUrl"], "",
                            "ada@example.com"]  # the holder's link, not a dashboard page
    assert "/dashboard/" not in "".join(",".join(row) for row in rows)
    assert issued["fieldValues"] == {"member": "Ada", "points": 12}
    assert issued["holderEmail"] == "ada@example.com" and issued["source"] == "dashboard"
    jobs = text(dash.get("/dashboard/test/jobs"))
    assert job_url in jobs and "3 of 3" in jobs


@pytest.mark.parametrize("data", [
    b"Member;Email;Tags\nAda;ada@example.com;VIP, gold\nBo;bo@example.com;bad tag\n",
    b"Member,Email,Tags\nAda,ada@example.com,VIP;gold\nBo,bo@example.com,bad tag\n",
], ids=["semicolon-file", "comma-file"])
def test_a_tags_column_is_split_on_commas_or_semicolons(dash: Dash, api: Api,
                                                        template_id: str, data: bytes) -> None:
    url = _mapping_url(dash, template_id, data)
    page = text(dash.get(url))
    assert _selected(page)["tags"] == "Tags"
    assert {row: html.unescape(check) for row, check in _problems(page).items()} == {
        1: "OK", 2: "Problem Tags may hold only letters, digits, '-', "
                    "'_', '.' and ':', and starts with a letter or digit."}
    run = dash.post(f"{url}/run", form_data(page, "import-form"))
    assert run.status_code == 303, text(run)
    _wait_for_job(dash, run.headers["Location"])
    [issued] = api.get(f"/v1/passes?tag=vip&templateId={template_id}").get_json()["data"]
    assert issued["tags"] == ["vip", "gold"] and issued["holderEmail"] == "ada@example.com"


def test_a_row_whose_external_id_has_a_pass_is_reported_not_issued(
        dash: Dash, template_id: str) -> None:
    first = _mapping_url(dash, template_id, b"Member,External ID\nAda,m-1\n")
    run = dash.post(f"{first}/run", form_data(text(dash.get(first)), "import-form"))
    job_url = run.headers["Location"]
    _wait_for_job(dash, job_url)
    pass_id = _results(dash, job_url)[1][4]
    again = _mapping_url(dash, template_id, b"Member,External ID\nAda,m-1\n")
    assert _problems(text(dash.get(again)))[1] == (
        f"Already issued as {pass_id}: reported, not issued again.")
    run = dash.post(f"{again}/run", form_data(text(dash.get(again)), "import-form"))
    _wait_for_job(dash, run.headers["Location"])
    assert _results(dash, run.headers["Location"])[1][2:5] == ["Already issued", "", pass_id]


def test_results_cells_are_safe_in_a_spreadsheet() -> None:
    assert [csv_import.safe_cell(v) for v in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "ok",
                                              None, 3)] == \
        ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "ok", "", "3"]


def test_another_organization_cannot_see_a_job(dash: Dash, other_dash: Dash,
                                               template_id: str) -> None:
    url = _mapping_url(dash, template_id, b"Member\nAda\n")
    job_url = dash.post(f"{url}/run", form_data(text(dash.get(url)), "import-form")
                        ).headers["Location"]
    _wait_for_job(dash, job_url)
    for suffix in ("", "/progress", "/results.csv"):
        assert other_dash.get(f"{job_url}{suffix}").status_code == 404
    assert dash.get(job_url.replace("/test/", "/live/")).status_code == 404


def test_update_all_passes_to_the_latest_design(dash: Dash, api: Api, template_id: str
                                                ) -> None:
    ids = [api.post("/v1/passes", {"templateId": template_id,
                                   "fieldValues": {"member": name}}).get_json()["id"]
           for name in ("Ada", "Bo")]
    edit = f"/dashboard/test/templates/{template_id}"
    assert 'id="outdated-passes"' not in text(dash.get(edit))
    assert "shows the current design (revision 1) already" in text(dash.get(f"{edit}/upgrade"))
    changed = member_import_definition()
    changed["colors"]["background"] = "#445566"
    assert api.patch(f"/v1/templates/{template_id}", {"expectedRevision": 1,
                                                      "definition": changed}).status_code == 200
    page = text(dash.get(edit))
    assert "2 active passes show an older revision of this design." in page
    confirm = text(dash.get(f"{edit}/upgrade"))
    assert "<strong>2 active passes</strong> in test show an older revision of Gym." in confirm
    assert "Update 2 passes" in confirm
    run = dash.post(f"{edit}/upgrade", {"notification_mode": "silent"})
    assert run.status_code == 303
    done = _wait_for_job(dash, run.headers["Location"])
    assert '<strong id="job-done">2 of 2</strong>' in done and "2 succeeded" in done
    assert [api.get(f"/v1/passes/{i}").get_json()["templateRevision"] for i in ids] == [2, 2]
    assert 'id="outdated-passes"' not in text(dash.get(edit))


def test_each_step_of_an_import_may_reach_another_node(
        app: Flask, dash: Dash, api: Api, template_id: str, database_url: str,
        tmp_path: Path) -> None:
    """Two app instances, each with an instance folder of its own, on one database, as two
    machines behind a round-robin balancer: upload on one, match and run on the other."""
    from tests.conftest import base_overrides
    from webapp import create_app

    other = create_app(base_overrides(tmp_path / "node-b", database_url))
    other.instance_path = str(tmp_path / "node-b" / "instance")
    node_b = Dash(other.test_client(), dash.token)
    node_b.client.set_cookie("session", dash.client.get_cookie("session").value)

    url = _mapping_url(dash, template_id, b"Member\nAda\nBo\n")  # node A keeps nothing
    page = node_b.get(url)
    assert page.status_code == 200, text(page)
    run = node_b.post(f"{url}/run", form_data(text(page), "import-form"))
    assert run.status_code == 303, text(run)
    _wait_for_job(dash, run.headers["Location"])
    names = sorted(p["fieldValues"]["member"] for p in (
        api.get(f"/v1/passes/{row[4]}").get_json()
        for row in _results(dash, run.headers["Location"])[1:]))
    assert names == ["Ada", "Bo"]
    assert dash.get(url).status_code == 404  # used once, on every node
    assert not (Path(app.instance_path) / "uploads").exists()
    with other.app_context():
        from webapp.extensions import db

        db.engine.dispose()
