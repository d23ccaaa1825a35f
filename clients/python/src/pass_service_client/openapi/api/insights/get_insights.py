import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_insights_group_by import (
    GetInsightsGroupBy,
)
from ...models.get_insights_platform import (
    GetInsightsPlatform,
)
from ...models.insights import Insights
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    template_id: str | Unset = UNSET,
    platform: GetInsightsPlatform | Unset = UNSET,
    group_by: GetInsightsGroupBy | Unset = "day",
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params["templateId"] = template_id

    json_platform: str | Unset = UNSET
    if not isinstance(platform, Unset):
        json_platform = platform

    params["platform"] = json_platform

    json_group_by: str | Unset = UNSET
    if not isinstance(group_by, Unset):
        json_group_by = group_by

    params["groupBy"] = json_group_by

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/insights",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Insights | None:
    if response.status_code == 200:
        response_200 = Insights.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 414:
        response_414 = Error.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = Error.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Insights]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    template_id: str | Unset = UNSET,
    platform: GetInsightsPlatform | Unset = UNSET,
    group_by: GetInsightsGroupBy | Unset = "day",
) -> Response[Error | Insights]:
    """Get insights

     Needs an API key with the `insights:read` permission.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        template_id (str | Unset):
        platform (GetInsightsPlatform | Unset):
        group_by (GetInsightsGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Insights]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        template_id=template_id,
        platform=platform,
        group_by=group_by,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    template_id: str | Unset = UNSET,
    platform: GetInsightsPlatform | Unset = UNSET,
    group_by: GetInsightsGroupBy | Unset = "day",
) -> Error | Insights | None:
    """Get insights

     Needs an API key with the `insights:read` permission.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        template_id (str | Unset):
        platform (GetInsightsPlatform | Unset):
        group_by (GetInsightsGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Insights
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        template_id=template_id,
        platform=platform,
        group_by=group_by,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    template_id: str | Unset = UNSET,
    platform: GetInsightsPlatform | Unset = UNSET,
    group_by: GetInsightsGroupBy | Unset = "day",
) -> Response[Error | Insights]:
    """Get insights

     Needs an API key with the `insights:read` permission.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        template_id (str | Unset):
        platform (GetInsightsPlatform | Unset):
        group_by (GetInsightsGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Insights]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        template_id=template_id,
        platform=platform,
        group_by=group_by,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    template_id: str | Unset = UNSET,
    platform: GetInsightsPlatform | Unset = UNSET,
    group_by: GetInsightsGroupBy | Unset = "day",
) -> Error | Insights | None:
    """Get insights

     Needs an API key with the `insights:read` permission.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        template_id (str | Unset):
        platform (GetInsightsPlatform | Unset):
        group_by (GetInsightsGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Insights
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            template_id=template_id,
            platform=platform,
            group_by=group_by,
        )
    ).parsed
