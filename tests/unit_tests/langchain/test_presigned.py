"""Presigned transfers: no key ever, no redirects, a size cap, clear errors (httpx MockTransport)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from langchain_toolrouter._session.presigned import (
    aget_bytes,
    aput_bytes,
    get_bytes,
    put_bytes,
)
from langchain_toolrouter.errors import (
    FileTransferError,
)

URL = "https://storage.test/bucket/file?sig=abc"


def recording(
    status: int = 200, body: bytes = b"data", headers: dict[str, str] | None = None
) -> tuple[list[httpx.Request], httpx.MockTransport]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, content=body, headers=headers)

    return seen, httpx.MockTransport(handler)


def test_put_and_get_send_no_credentials() -> None:
    seen, transport = recording()
    with httpx.Client(transport=transport) as client:
        put_bytes(URL, b"hello", "text/plain", http_client=client)
        assert get_bytes(URL, http_client=client) == b"data"
    put, get = seen
    assert (put.method, put.content, put.headers["content-type"]) == ("PUT", b"hello", "text/plain")
    assert get.method == "GET"
    for request in seen:
        assert "x-api-key" not in request.headers
        assert "authorization" not in request.headers


def test_a_client_carrying_the_key_is_refused_before_sending() -> None:
    seen, transport = recording()
    with (
        httpx.Client(transport=transport, headers={"x-api-key": "ak_secret"}) as client,
        pytest.raises(FileTransferError, match="refusing to send credentials") as info,
    ):
        put_bytes(URL, b"x", "text/plain", http_client=client)
    assert seen == []
    assert "ak_secret" not in str(info.value)
    assert info.value.url_host == "storage.test"
    with (
        httpx.Client(transport=transport, auth=("user", "ak_secret")) as client,
        pytest.raises(FileTransferError, match="auth=BasicAuth"),
    ):
        get_bytes(URL, http_client=client)
    assert seen == []


def test_errors_redirects_and_bad_urls() -> None:
    _, failing = recording(status=403)
    with httpx.Client(transport=failing) as client:
        with pytest.raises(FileTransferError, match="HTTP 403") as info:
            get_bytes(URL, http_client=client)
        assert info.value.status == 403
        assert "sig=abc" not in str(info.value)  # the URL is a credential: never in messages
    _, redirecting = recording(status=302, headers={"location": "https://elsewhere.test/"})
    with (
        httpx.Client(transport=redirecting) as client,
        pytest.raises(FileTransferError, match="HTTP 302"),
    ):
        put_bytes(URL, b"x", "text/plain", http_client=client)
    with pytest.raises(FileTransferError, match="not http"):
        get_bytes("file:///etc/passwd")
    with pytest.raises(FileTransferError, match="cannot be sent") as caught:
        get_bytes("https://storage.test/f?sig=" + "s" * 70_000)  # httpx: "URL too long"
    assert "sig=" not in str(caught.value)
    with pytest.raises(FileTransferError, match="cannot be sent"):
        asyncio.run(aput_bytes("https://[::1/f", b"x", "text/plain"))


def test_download_size_cap() -> None:
    _, transport = recording(body=b"x" * 100)
    with httpx.Client(transport=transport) as client:
        with pytest.raises(FileTransferError, match="larger than 10 bytes"):
            get_bytes(URL, max_bytes=10, http_client=client)
        assert get_bytes(URL, max_bytes=100, http_client=client) == b"x" * 100


def test_transport_failure_is_a_transfer_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with (
        httpx.Client(transport=httpx.MockTransport(handler)) as client,
        pytest.raises(FileTransferError, match="ConnectError"),
    ):
        put_bytes(URL, b"x", "text/plain", http_client=client)


def test_async_twins() -> None:
    seen, transport = recording(body=b"abc")

    async def run() -> bytes:
        async with httpx.AsyncClient(transport=transport) as client:
            await aput_bytes(URL, b"up", "application/octet-stream", http_client=client)
            return await aget_bytes(URL, http_client=client)

    assert asyncio.run(run()) == b"abc"
    assert [r.method for r in seen] == ["PUT", "GET"]
    assert not any("x-api-key" in r.headers for r in seen)


S3_ERROR = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code>'
    b"<Message>The request signature we calculated does not match the signature you provided."
    b"</Message><StringToSign>AWS4-HMAC-SHA256 secret-bits</StringToSign>"
    b"<SignatureProvided>abc</SignatureProvided></Error>"
)


@pytest.mark.parametrize(
    ("body", "says", "hidden"),
    [
        (
            b'{"error": {"message": "mount_relative_path \'r\' cannot be used: the path is a '
            b'folder.", "suggested_fix": "name a file rather than a folder", "slug": "X"}}',
            ["the path is a folder", "Suggested fix: name a file rather than a folder"],
            [],
        ),
        (
            S3_ERROR,
            ["SignatureDoesNotMatch", "does not match the signature you provided"],
            ["secret-bits", "StringToSign"],
        ),
        (b"bucket is read-only", ["bucket is read-only"], []),
        (b"x" * 5000, ["..."], ["x" * 400]),
    ],
    ids=["service-json", "s3-xml", "text", "long-text"],
)
def test_a_storage_error_says_what_the_storage_said(
    body: bytes, says: list[str], hidden: list[str]
) -> None:
    _, failing = recording(status=400, body=body)
    with httpx.Client(transport=failing) as client:
        for action in (
            lambda: put_bytes(URL, b"x", "text/plain", http_client=client),
            lambda: get_bytes(URL, http_client=client),
        ):
            with pytest.raises(FileTransferError) as info:
                action()
            text = str(info.value)
            assert "HTTP 400" in text
            for part in says:
                assert part in text
            for part in hidden:
                assert part not in text
            assert "sig=abc" not in text
