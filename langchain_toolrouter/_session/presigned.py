"""Moving bytes to and from presigned storage URLs, with a client that never holds the API key.

Presigned URLs point at storage, not at the Tool Router service, so the service's key must
never travel there (architecture: "the API key goes only to the configured service origin").
Each transfer uses its own short-lived httpx client built here with no default headers, no
auth and no redirects; tests pass an `http_client` to run against an in-process app.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import httpx

from langchain_toolrouter._exceptions import FileTransferError

__all__ = [
    "DEFAULT_MAX_DOWNLOAD_BYTES",
    "aget_bytes",
    "aput_bytes",
    "get_bytes",
    "put_bytes",
]

DEFAULT_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024
"""Largest download accepted (100 MB, as the official SDK)."""

_TIMEOUT = httpx.Timeout(60.0, connect=5.0)
_FORBIDDEN_HEADERS = ("x-api-key", "x-user-api-key", "authorization")


def _check_url(url: str) -> str:
    """The URL's host; a FileTransferError for a URL nothing can be sent to (never echoed:
    it is a bearer credential)."""
    try:
        parts = urlsplit(url)
        httpx.URL(url)  # what httpx refuses (over 64 KiB, say) fails here, before sending
    except (ValueError, httpx.InvalidURL) as exc:
        msg = f"the service returned a presigned URL that cannot be sent ({exc}); nothing was sent"
        raise FileTransferError(msg, url_host="") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        msg = f"the service returned a presigned URL that is not http(s): scheme {parts.scheme!r}"
        raise FileTransferError(msg, url_host=parts.netloc)
    return parts.netloc


def _check_headers(client: httpx.Client | httpx.AsyncClient, host: str) -> None:
    leaked = [name for name in _FORBIDDEN_HEADERS if name in client.headers]
    if client.auth is not None:  # httpx adds the Authorization header only when sending
        leaked.append(f"auth={type(client.auth).__name__}")
    if leaked:
        msg = (
            f"refusing to send credentials ({', '.join(leaked)}) to presigned storage at {host}: "
            "pass an http client without them"
        )
        raise FileTransferError(msg, url_host=host)


_SHOWN_CHARS = 300
_XML_FIELD = re.compile(r"<(Code|Message)>(.*?)</\1>", re.DOTALL)


def _storage_says(response: httpx.Response) -> str:
    """What the storage's error body says (the service's `{"error": {message,
    suggested_fix}}`, an S3-style `<Error>`'s code and message, or the start of the text);
    "" when it says nothing. The URL, a bearer credential, is cut out wherever it appears."""
    try:
        text = response.text.strip()
    except (UnicodeDecodeError, LookupError):
        return ""
    said = ""
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            said = str(error.get("message") or "")
            if error.get("suggested_fix"):
                said += f" Suggested fix: {error['suggested_fix']}"
        elif isinstance(error, str):
            said = error
    elif text.startswith("<"):  # XML or HTML: only the code and message, never the rest
        fields = dict(_XML_FIELD.findall(text))
        said = ": ".join(part for part in (fields.get("Code"), fields.get("Message")) if part)
    else:
        said = " ".join(text.split())
    url = str(response.request.url)
    for secret in (url, response.request.url.query.decode(errors="replace")):
        if secret:
            said = said.replace(secret, "<presigned URL>")
    return said if len(said) <= _SHOWN_CHARS else said[:_SHOWN_CHARS] + "..."


def _fail(action: str, host: str, response: httpx.Response) -> FileTransferError:
    text = f"{action} at {host} failed: HTTP {response.status_code} {response.reason_phrase}"
    said = _storage_says(response)
    if said:
        text += f": {said}"
    return FileTransferError(text, url_host=host, status=response.status_code)


def put_bytes(
    url: str, data: bytes, content_type: str, *, http_client: httpx.Client | None = None
) -> None:
    """PUT `data` to a presigned upload URL."""
    host = _check_url(url)
    client = http_client or httpx.Client(timeout=_TIMEOUT, follow_redirects=False)
    try:
        _check_headers(client, host)
        response = client.put(url, content=data, headers={"content-type": content_type})
    except httpx.TransportError as exc:
        msg = f"upload to {host} failed: {type(exc).__name__}"
        raise FileTransferError(msg, url_host=host) from exc
    finally:
        if http_client is None:
            client.close()
    if response.is_error or response.is_redirect:
        raise _fail("upload", host, response)


async def aput_bytes(
    url: str, data: bytes, content_type: str, *, http_client: httpx.AsyncClient | None = None
) -> None:
    """Async twin of `put_bytes`."""
    host = _check_url(url)
    client = http_client or httpx.AsyncClient(timeout=_TIMEOUT, follow_redirects=False)
    try:
        _check_headers(client, host)
        response = await client.put(url, content=data, headers={"content-type": content_type})
    except httpx.TransportError as exc:
        msg = f"upload to {host} failed: {type(exc).__name__}"
        raise FileTransferError(msg, url_host=host) from exc
    finally:
        if http_client is None:
            await client.aclose()
    if response.is_error or response.is_redirect:
        raise _fail("upload", host, response)


def _too_big(host: str, limit: int) -> FileTransferError:
    return FileTransferError(
        f"download from {host} is larger than {limit} bytes: raise max_bytes to accept it",
        url_host=host,
    )


def get_bytes(
    url: str,
    *,
    max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES,
    http_client: httpx.Client | None = None,
) -> bytes:
    """GET a presigned download URL, refusing more than `max_bytes`."""
    host = _check_url(url)
    client = http_client or httpx.Client(timeout=_TIMEOUT, follow_redirects=False)
    try:
        _check_headers(client, host)
        with client.stream("GET", url) as response:
            if response.is_error or response.is_redirect:
                response.read()
                raise _fail("download", host, response)
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise _too_big(host, max_bytes)
                chunks.append(chunk)
            return b"".join(chunks)
    except httpx.TransportError as exc:
        msg = f"download from {host} failed: {type(exc).__name__}"
        raise FileTransferError(msg, url_host=host) from exc
    finally:
        if http_client is None:
            client.close()


async def aget_bytes(
    url: str,
    *,
    max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES,
    http_client: httpx.AsyncClient | None = None,
) -> bytes:
    """Async twin of `get_bytes`."""
    host = _check_url(url)
    client = http_client or httpx.AsyncClient(timeout=_TIMEOUT, follow_redirects=False)
    try:
        _check_headers(client, host)
        async with client.stream("GET", url) as response:
            if response.is_error or response.is_redirect:
                await response.aread()
                raise _fail("download", host, response)
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise _too_big(host, max_bytes)
                chunks.append(chunk)
            return b"".join(chunks)
    except httpx.TransportError as exc:
        msg = f"download from {host} failed: {type(exc).__name__}"
        raise FileTransferError(msg, url_host=host) from exc
    finally:
        if http_client is None:
            await client.aclose()
