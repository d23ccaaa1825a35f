"""Reading passes: one, a filtered page, the IDs a search finds, a pass's updates; and the
lookups the other pass modules share (a revision's definition, template names).

Passes are kept per organization and environment: every query is scoped by both, so a
key never sees another environment's or organization's passes (they are 404).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Select, bindparam, func, literal_column, select, table

from webapp import ids
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.domain import search as search_rules
from webapp.domain import tags as tag_rules
from webapp.errors import InvalidRequest
from webapp.extensions import db
from webapp.models import Pass, PassTag, PassUpdate, Template
from webapp.services.context import Context
from webapp.services.passes import views
from webapp.services.templates import revisions


def get(ctx: Context, pass_id: str) -> Pass:
    """A pass with its values, artifacts and template name.

    :raises NotFound: no such pass in this organization and environment.
    """
    return shown_pass(find(ctx, pass_id))


def shown_pass(item: Pass) -> Pass:
    """The pass with its template name, values and artifacts attached."""
    template = db.session.get(Template, item.template_id)
    return views.attach(item, template.name if template else None,
                        definition(item.template_id, item.template_revision))


def list_(ctx: Context, *, template_id: str | None = None, status: str | None = None,
          source: str | None = None, search: str | None = None, tag: str | None = None,
          limit: int = pagination.DEFAULT_LIMIT, cursor: str | None = None
          ) -> pagination.Page[Pass]:
    """Passes of the key's environment, newest first, filtered.

    :raises InvalidRequest: bad filter, limit or cursor.
    """
    scope = (Pass.organization_id == ctx.organization_id, Pass.environment == ctx.environment)
    query = matching(select(Pass), ctx, template_id=template_id, status=status, source=source,
                     search=search, tag=tag)
    order = PassTag.pass_id if tag is not None else None
    page = pagination.paginate(query, Pass.id, select(Pass.id).where(*scope), limit=limit,
                               cursor=cursor, order_column=order)
    names = template_names({p.template_id for p in page.data})
    for item in page.data:
        item.template_name = names.get(item.template_id)
    return page


def matching(query: Select[Any], ctx: Context, *, template_id: str | None = None,
             status: str | None = None, source: str | None = None, search: str | None = None,
             tag: str | None = None) -> Select[Any]:
    """`query` (of passes) narrowed to the context's passes that `list_`'s filters find
    (also a message's audience); with `tag`, joined to `pass_tags` (its `pass_id` orders).

    :raises InvalidRequest: a tag no tag could be.
    """
    query = query.where(*_filters(ctx, template_id, status, source, search))
    if tag is not None:
        # Read through pass_tags' (organization, environment, tag, pass) index, newest
        # first, each pass by its key: a rare tag never reads the scope's other passes.
        query = query.join(PassTag, PassTag.pass_id == Pass.id).where(
            PassTag.organization_id == ctx.organization_id,
            PassTag.environment == ctx.environment, PassTag.tag == _tag(tag))
    return query


def _tag(tag: str) -> str:
    """The `tag` filter as tags are stored.

    :raises InvalidRequest: no tag could be so (`tag_invalid`, ...).
    """
    found = tag_rules.normal(tag)
    problem = tag_rules.problem_of(found, "tag")
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param="tag")
    return found


def has_any(ctx: Context) -> bool:
    """Whether the context's organization has a pass in its environment."""
    return db.session.scalar(select(Pass.id).where(
        Pass.organization_id == ctx.organization_id,
        Pass.environment == ctx.environment).limit(1)) is not None


def ids_matching(ctx: Context, *, template_id: str, status: str | None = None,
                 search: str | None = None, limit: int) -> list[str]:
    """The IDs of the passes `list_` shows for these filters, oldest first, at most `limit`
    (the dashboard's changes to many passes)."""
    return list(db.session.scalars(
        select(Pass.id).where(*_filters(ctx, template_id, status, None, search))
        .order_by(Pass.id).limit(limit)))


def _filters(ctx: Context, template_id: str | None, status: str | None, source: str | None,
             search: str | None) -> list[Any]:
    term = search_rules.fold("".join(ch for ch in (search or "") if ch.isprintable())).strip()
    found, by_index = _search(term) if term else ([], False)
    org: Any = Pass.organization_id
    env: Any = Pass.environment
    if by_index:
        # The trigram index's rows lead: were the scope indexable, SQLite would read the
        # whole scope newest first and look each row up in them (`|| ''` hides it).
        org, env = Pass.organization_id + "", Pass.environment + ""
    found += [org == ctx.organization_id, env == ctx.environment]
    if template_id is not None:
        found.append(Pass.template_id == template_id)
    if status is not None:
        found.append(Pass.status == status)
    if source is not None:
        found.append(Pass.source == source)
    return found


def _search(term: str) -> tuple[list[Any], bool]:
    """Conditions for a substring search of name, email and short ID; `term` is folded
    (`domain/search.fold`) as `search_text` is, so case and accents do not matter.

    On PostgreSQL a LIKE on `search_text` is answered by the trigram index, which reads the
    posting list of every trigram in the pattern. An email's domain (`@example.com`) is in
    most rows, so its trigrams cost a scan of the whole index: for such terms only the
    local part goes to the index, and the full term is checked on the rows found through
    an expression (`search_text || ''`) that the index cannot serve. Not `lower(...)`:
    folded text is not always lower case (casefold makes Cherokee upper case).

    On SQLite the same part goes to the FTS5 trigram index (`_indexed`) and the LIKE checks
    the rows it finds, so the results are the LIKE's alone, as before the index. True with
    the conditions: the index's rows are the ones to read.
    """
    full = Pass.search_text.like(f"%{_like_escape(term)}%", escape="\\")
    local, at, _domain = term.partition("@")
    part = f"{local}@" if at and len(local) >= 3 else term
    if db.engine.dialect.name == "sqlite":
        rows = _indexed(part)
        return ([full] if rows is None else [rows, full]), rows is not None
    if part == term:
        return [full], False
    return [Pass.search_text.like(f"%{_like_escape(part)}%", escape="\\"),
            (Pass.search_text + "").like(f"%{_like_escape(term)}%", escape="\\")], False


# Up to this many rows holding the part, reading them through the index (and each pass by
# rowid, then sorting) beats reading the scope newest first until a page has matched: a
# found row costs about 10 times a scanned one (docs/benchmarks.md, issue 34).
COMMON = 1000
_FTS_ROWIDS: Select[Any] = select(literal_column("rowid")).select_from(
    table("passes_search")).where(literal_column("passes_search").op("MATCH")(bindparam("phrase")))


def _indexed(part: str) -> Any | None:
    """SQLite: `passes.rowid IN (the rows the trigram index finds with part)`; None (a scan)
    when `part` is shorter than a trigram or so common that a scan is faster."""
    if len(part) < 3:
        return None
    phrase = '"' + part.replace('"', '""') + '"'  # FTS5's quoting: the text as one phrase
    rowids = db.session.scalars(_FTS_ROWIDS.limit(COMMON), {"phrase": phrase}).all()
    if len(rowids) >= COMMON:
        return None
    # The rows found, as one JSON parameter: the index is read once, and SQLAlchemy renders
    # no placeholder per row.
    found = func.json_each(json.dumps(rowids)).table_valued("value")
    return literal_column("passes.rowid").in_(select(found.c.value))


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def list_updates(ctx: Context, pass_id: str, *, limit: int = pagination.DEFAULT_LIMIT,
                 cursor: str | None = None) -> pagination.Page[PassUpdate]:
    """The update history of a pass, newest first.

    :raises NotFound: no such pass.
    """
    item = find(ctx, pass_id)
    scope = select(PassUpdate.id).where(PassUpdate.pass_id == item.id)
    query = select(PassUpdate).where(PassUpdate.pass_id == item.id)
    return pagination.paginate(query, PassUpdate.id, scope, limit=limit, cursor=cursor)


def get_update(ctx: Context, update_id: str) -> PassUpdate:
    """:raises NotFound: no such pass update in this organization and environment."""
    return find_or_404(PassUpdate, update_id, prefix="pupd", what="pass update",
                       organization_id=ctx.organization_id, environment=ctx.environment)


def find_all(ctx: Context, pass_ids: list[str]) -> dict[str, Pass]:
    """The passes of these IDs in the context's scope, by ID, read afresh (also for sibling
    services); IDs of no such pass are left out."""
    wanted = {pass_id for pass_id in pass_ids if ids.has_prefix(pass_id, "pass")}
    if not wanted:
        return {}
    rows = db.session.scalars(select(Pass).where(
        Pass.id.in_(wanted), Pass.organization_id == ctx.organization_id,
        Pass.environment == ctx.environment).execution_options(populate_existing=True))
    return {row.id: row for row in rows}


def find(ctx: Context, pass_id: str) -> Pass:
    """The pass, scoped to the context (also for sibling services).

    :raises NotFound: no such pass.
    """
    return find_or_404(Pass, pass_id, prefix="pass", what="pass",
                       organization_id=ctx.organization_id, environment=ctx.environment)


def external_pass_id(ctx: Context, template_id: str, external_id: str) -> str | None:
    """The ID of the template's pass with this externalId in the context's environment."""
    return db.session.scalar(select(Pass.id).where(
        Pass.template_id == template_id, Pass.environment == ctx.environment,
        Pass.organization_id == ctx.organization_id, Pass.external_id == external_id))


def external_pass_ids(ctx: Context, template_id: str, external_ids: list[str]
                      ) -> dict[str, str]:
    """externalId -> the ID of the template's pass with it, in the context's environment."""
    found: dict[str, str] = {}
    wanted = sorted(set(external_ids))
    for start in range(0, len(wanted), 500):  # bounded IN lists
        rows = db.session.execute(select(Pass.external_id, Pass.id).where(
            Pass.template_id == template_id, Pass.environment == ctx.environment,
            Pass.organization_id == ctx.organization_id,
            Pass.external_id.in_(wanted[start:start + 500])))
        found.update({row.external_id: row.id for row in rows if row.external_id})
    return found


def definition(template_id: str, revision: int) -> dict[str, Any]:
    """The definition of a template's revision.

    :raises InvalidRequest: the template has no such revision (`revision_not_found`).
    """
    found = revisions.definition_of(template_id, revision)
    if found is None:
        raise InvalidRequest(f"The template has no revision {revision}.",
                             code="revision_not_found", param="revision")
    return found


def template_names(template_ids: set[str]) -> dict[str, str]:
    """Template ID -> name, read in one query."""
    if not template_ids:
        return {}
    rows = db.session.execute(select(Template.id, Template.name)
                              .where(Template.id.in_(template_ids)))
    return {row[0]: row[1] for row in rows}
