"""CSV import of passes on a template: read the file, match its columns to the template's
inputs, and turn its rows into the items of a bulk issue job.

A file is UTF-8 (a BOM is dropped) with a header row naming at most `MAX_COLUMNS` columns,
`,` or `;` between cells (chosen by the header line). Nothing here writes: the preview checks
every row with the issue service's own dry run (`issuing.check_issue_all`), the run hands
the items to the bulk job service.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from webapp.dashboard import forms
from webapp.domain import balances, definition_read
from webapp.errors import InvalidRequest
from webapp.services.passes.issuing import IssueRequest

MAX_ROWS = 10_000  # as a bulk job takes (bulk.MAX_ITEMS)
# Far more than a template has inputs; it bounds what each step reads and draws.
MAX_COLUMNS = 200
PREVIEW_ROWS = 10  # the first rows shown, and the first rows with a problem
# The words of a row's outcome, the same in the preview and in a job's results CSV.
PROBLEM, EXISTING = "Problem", "Already issued"
OUTCOMES = {"ok": "OK", "problem": PROBLEM, "existing": EXISTING}
DONE = {"issue": "Issued", "update": "Changed", "void": "Voided",
        "upgrade": "Moved to the latest design", "adjust_balance": "Balance moved"}
RESULTS = {"failed": PROBLEM, "existing": EXISTING, "canceled": "Not run",
           "pending": "Waiting"}
# The bounds of POST /v1/passes's schema, which the job applies to each item at run time.
LENGTHS = {"holderName": 200, "holderEmail": 254, "barcodeValue": 500, "externalId": 200}


def in_words(message: str, param: str | None, wanted: list[Target]) -> str:
    """A service error's message with the input's label for its parameter ("Points must be
    a number." for "fieldValues.points must be a number.")."""
    # "tags.3" is the Tags column's third tag: the column's label.
    label = next((t.label for t in wanted if param is not None and (
        t.name == param or (t.name == "tags" and param.startswith("tags.")))), None)
    if label is None or param is None:
        return message
    if message.startswith(param):
        return label + message[len(param):]
    return f"{label}: {message}"


class CsvProblem(Exception):
    """The file cannot be read as a CSV with a header row; `message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Table:
    headers: list[str]
    rows: list[list[str]]  # data rows, each as long as `headers`
    delimiter: str


def read(data: bytes) -> Table:
    """The header and data rows of an uploaded CSV file.

    :raises CsvProblem: empty, not UTF-8, no header row, a header line longer than a cell
        may be, more than MAX_COLUMNS columns, a malformed line, too many rows.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CsvProblem(
            "The file is not UTF-8 text (it may be in another encoding such as Windows-1252 "
            "or Latin-1). Save it as \"CSV UTF-8\" and upload it again.") from None
    if not text.strip():
        raise CsvProblem("The file is empty: it needs a header row and at least one row.")
    header_line = text.splitlines()[0]
    # The csv module refuses a cell over its limit: reading the line with the other delimiter
    # would make it one such cell.
    if len(header_line) > csv.field_size_limit():
        raise CsvProblem(f"The header row is longer than {csv.field_size_limit():,} characters: "
                         f"it should name the columns, at most {MAX_COLUMNS} of them.")
    delimiter = _delimiter(header_line)
    try:
        lines = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        headers = _headers(next(lines))
        rows: list[list[str]] = []
        for cells in lines:
            if not any(cell.strip() for cell in cells):
                continue  # blank lines (Excel adds some at the end)
            if len(rows) == MAX_ROWS:
                raise CsvProblem(f"The file has more than {MAX_ROWS:,} rows: split it into "
                                 f"files of at most {MAX_ROWS:,} rows.")
            if any(cell.strip() for cell in cells[len(headers):]):
                raise CsvProblem(f"Line {lines.line_num} has more cells than the header row names "
                                 f"({len(headers)}).")
            rows.append([cell.strip() for cell in cells[:len(headers)]]
                        + [""] * (len(headers) - len(cells)))
    except csv.Error as exc:
        raise CsvProblem(f"The file is not a readable CSV file ({exc}).") from None
    if not rows:
        raise CsvProblem("The file has a header row but no rows to import.")
    return Table(headers, rows, delimiter)


def _delimiter(header_line: str) -> str:
    """`;` (what Excel writes where the decimal mark is a comma) or `,`: whichever splits the
    header line into more cells."""
    first = next(csv.reader([header_line], delimiter=";"), [])
    return ";" if len(first) > len(next(csv.reader([header_line]), [])) else ","


_DATA_LIKE = re.compile(r"^[-+]?[\d.,:/ T+Z-]+$")  # numbers, dates, times


def _headers(cells: list[str]) -> list[str]:
    """The column names of the first row (empty trailing cells dropped).

    :raises CsvProblem: more than MAX_COLUMNS columns, the first row is data, or a name is
        empty or repeated.
    """
    names = [cell.strip() for cell in cells]
    while names and not names[-1]:
        names.pop()
    if not names:
        raise CsvProblem("The first row is empty: it must name the columns.")
    if len(names) > MAX_COLUMNS:
        raise CsvProblem(f"The file has {len(names):,} columns: an import takes at most "
                         f"{MAX_COLUMNS}. Remove the columns it does not need.")
    data_like = [name for name in names if "@" in name or _DATA_LIKE.match(name)]
    if data_like:
        raise CsvProblem(f"The file has no header row: the first row holds values such as "
                         f"\"{data_like[0][:60]}\". Add a first row that names the columns "
                         "(e.g. Name;Email).")
    seen: set[str] = set()
    for position, name in enumerate(names, start=1):
        if not name:
            raise CsvProblem(f"Column {position} has no name in the header row.")
        if name in seen:
            raise CsvProblem(f"Two columns are named \"{name[:60]}\": rename one.")
        seen.add(name)
    return names


@dataclass(frozen=True)
class Target:
    """One input of the issue request a column can fill."""

    name: str  # holderName, holderEmail, barcodeValue, externalId, expiresAt, relevantDate,
    #            tags, or fieldValues.<key>
    label: str
    required: bool
    format: str = "text"
    aliases: tuple[str, ...] = ()
    digits: int = 0  # a money balance's minor units (a cell says 12.50)


def targets(definition: dict[str, Any]) -> list[Target]:
    """The inputs a row of this template's import can fill, in the order the page lists
    them."""
    found = [Target(f"fieldValues.{key}", str(field.get("label") or key),
                    field.get("required") is True, field.get("format", "text"), (key,))
             for key, field in definition_read.per_pass_fields(definition).items()]
    has_holder_field = holder_key(found) is not None
    found[:0] = [Target("holderEmail", "Holder email", False,
                        aliases=("email", "e-mail", "email address", "mail"))]
    if not has_holder_field:
        found.insert(0, Target("holderName", "Holder name", False,
                               aliases=("name", "full name", "holder")))
    if definition_read.takes_barcode_value(definition):
        found.append(Target("barcodeValue", "Barcode value", True, aliases=("barcode",)))
    kind = balances.balance_kind(definition.get("type"))
    if kind is not None:  # the balance a card opens with: points, or money (12.50)
        label = balances.points_label(definition) if kind == "points" else "Balance"
        digits = balances.CURRENCIES.get(balances.currency(definition) or "", 0)
        found.append(Target("balance", label, False, kind,
                            ("balance", "points", "opening balance"),
                            digits if kind == "money" else 0))
    found += [Target("externalId", "External ID", False, aliases=("external id", "id")),
              Target("expiresAt", "Expires at", False, "dateTime", ("expires", "expiry")),
              Target("relevantDate", "Relevant date", False, "dateTime", ("relevant",)),
              Target("tags", "Tags", False, aliases=("tag", "labels"))]
    return found


MODES = ("issue", "adjust")  # what a file's rows do: issue passes, or move their balances


def targets_for(definition: dict[str, Any], mode: str) -> list[Target]:
    """The inputs of an import that issues passes (`targets`), or that moves the balances of
    the template's passes named by their External ID (`adjust`: a loyalty or gift card)."""
    kind = balances.balance_kind(definition.get("type"))
    if mode != "adjust" or kind is None:
        return targets(definition)
    digits = balances.CURRENCIES.get(balances.currency(definition) or "", 0)
    label = balances.points_label(definition) if kind == "points" else "Amount"
    return [Target("externalId", "External ID", True, aliases=("external id", "id")),
            Target("amount", label, True, kind, ("amount", "points", "balance"),
                   digits if kind == "money" else 0),
            Target("reason", "Reason", False), Target("reference", "Reference", False)]


def adjust_item(row: list[str], mapping: dict[str, int], wanted: list[Target]
                ) -> dict[str, Any]:
    """A row as the item of an `adjust_balance` job: a negative amount spends."""
    body: dict[str, Any] = {}
    for target in wanted:
        index = mapping.get(target.name)
        cell = row[index].strip() if index is not None else ""
        if not cell:
            continue
        if target.name == "amount":
            spend = cell.startswith("-")
            moved = _balance(cell.lstrip("-+"), target.digits)
            body["amount"] = -moved if spend and isinstance(moved, int) else moved
        else:
            body[target.name] = cell
    return body


def holder_key(wanted: list[Target]) -> str | None:
    """The per-pass field that holds the holder's name (as the issue form has it), if any."""
    return forms.holder_field_key([{"key": t.name.split(".", 1)[1], "format": t.format}
                                   for t in wanted if t.name.startswith("fieldValues.")])


def fold(text: str) -> str:
    """A name as headers are compared: no case, accents, spaces or punctuation."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in plain if ch.isalnum())


def suggest(headers: list[str], wanted: list[Target]) -> dict[str, int]:
    """Column index per target whose label, name or key the header matches (each column
    once)."""
    folded = [fold(header) for header in headers]
    mapping: dict[str, int] = {}
    for target in wanted:
        names = {fold(n) for n in (target.label, target.name.rsplit(".", 1)[-1],
                                   *target.aliases)}
        for index, header in enumerate(folded):
            if header in names and index not in mapping.values():
                mapping[target.name] = index
                break
    return mapping


def mapping_from(form: Any, wanted: list[Target], columns: int) -> dict[str, int]:
    """The mapping the page's selects send (`map-<target>` = a column index or "")."""
    mapping = {}
    for target in wanted:
        raw = form.get(f"map-{target.name}", "")
        if raw.isascii() and raw.isdigit() and int(raw) < columns:
            mapping[target.name] = int(raw)
    return mapping


def mapping_problems(mapping: dict[str, int], wanted: list[Target]) -> list[str]:
    """What is wrong with the mapping as a whole: a required input with no column. (One
    column may fill two inputs: a name shown on the pass and the holder's name.)"""
    return [f"{t.label} is required: choose the column that holds it." for t in wanted
            if t.required and t.name not in mapping]


def _balance(cell: str, digits: int) -> int | str:
    """A balance cell in points or minor units (12.50 EUR: 1250); the text itself when it
    is no such amount (the item then fails with POST /v1/passes's words)."""
    if re.fullmatch(r"0+([.,]0+)?", cell.strip()):
        return 0
    try:
        return forms.amount(cell, digits, "earn")
    except InvalidRequest:
        return cell


def item(row: list[str], mapping: dict[str, int], wanted: list[Target]) -> dict[str, Any]:
    """A row as the item of a bulk issue job (POST /v1/passes's body); empty cells are
    left out. The holder's name is the template's holder-name field when it has one."""
    body: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for target in wanted:
        index = mapping.get(target.name)
        cell = row[index] if index is not None else ""
        if not cell:
            continue
        if target.name.startswith("fieldValues."):
            # numbers as the issue form sends them (same dashboard package)
            values[target.name.split(".", 1)[1]] = forms._value(cell, target.format)
        elif target.name == "balance":
            body["balance"] = _balance(cell, target.digits)
        elif target.name == "tags":  # "vip, gold" or "vip; gold" (either file delimiter)
            body["tags"] = [tag.strip() for tag in re.split(r"[,;]", cell) if tag.strip()]
        else:
            body[target.name] = cell
    if values:
        body["fieldValues"] = values
    key = holder_key(wanted)
    if "holderName" not in body and key in values:
        body["holderName"] = str(values[key])
    return body


def length_problem(body: dict[str, Any]) -> str | None:
    """The first value longer than POST /v1/passes takes, or a balance that is no amount,
    in words."""
    if isinstance(body.get("balance"), str):
        return "Balance is not an amount (like 100, or 12.50 for money)."
    labels = {"holderName": "Holder name", "holderEmail": "Holder email",
              "barcodeValue": "Barcode value", "externalId": "External ID"}
    for name, limit in LENGTHS.items():
        if len(str(body.get(name, ""))) > limit:
            return f"{labels[name]} is longer than {limit} characters."
    return None


def issue_request(template_id: str, body: dict[str, Any]) -> IssueRequest:
    """The issue request an item makes (for the dry run of the preview)."""
    balance = body.get("balance")
    return IssueRequest(
        template_id=template_id, field_values=dict(body.get("fieldValues") or {}),
        holder_name=body.get("holderName"), holder_email=body.get("holderEmail"),
        barcode_value=body.get("barcodeValue"), expires_at=body.get("expiresAt"),
        relevant_date=body.get("relevantDate"), external_id=body.get("externalId"),
        balance=balance if isinstance(balance, int) else None, tags=body.get("tags"))


_INJECTION = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> str:
    """A cell that a spreadsheet shows as text, never runs as a formula (OWASP's CSV
    injection advice: a leading quote before = + - @ tab CR)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_INJECTION) else text


def write(rows: list[list[Any]]) -> str:
    """CSV text of `rows`, every cell made safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
