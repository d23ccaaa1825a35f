from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_templates_response_200 import ListTemplatesResponse200
from ...models.list_templates_type import ListTemplatesType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    type_: ListTemplatesType | Unset = UNSET,
    archived: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_

    params["type"] = json_type_

    params["archived"] = archived

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/templates",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ListTemplatesResponse200 | None:
    if response.status_code == 200:
        response_200 = ListTemplatesResponse200.from_dict(response.json())

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
) -> Response[Error | ListTemplatesResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    type_: ListTemplatesType | Unset = UNSET,
    archived: bool | Unset = False,
) -> Response[Error | ListTemplatesResponse200]:
    """List templates

     Needs an API key with the `templates:read` permission.

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        type_ (ListTemplatesType | Unset):
        archived (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListTemplatesResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        type_=type_,
        archived=archived,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    type_: ListTemplatesType | Unset = UNSET,
    archived: bool | Unset = False,
) -> Error | ListTemplatesResponse200 | None:
    """List templates

     Needs an API key with the `templates:read` permission.

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        type_ (ListTemplatesType | Unset):
        archived (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListTemplatesResponse200
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        type_=type_,
        archived=archived,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    type_: ListTemplatesType | Unset = UNSET,
    archived: bool | Unset = False,
) -> Response[Error | ListTemplatesResponse200]:
    """List templates

     Needs an API key with the `templates:read` permission.

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        type_ (ListTemplatesType | Unset):
        archived (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListTemplatesResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        type_=type_,
        archived=archived,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    type_: ListTemplatesType | Unset = UNSET,
    archived: bool | Unset = False,
) -> Error | ListTemplatesResponse200 | None:
    """List templates

     Needs an API key with the `templates:read` permission.

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        type_ (ListTemplatesType | Unset):
        archived (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListTemplatesResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            type_=type_,
            archived=archived,
        )
    ).parsed
