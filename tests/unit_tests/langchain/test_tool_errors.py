"""Which client errors reach the model as error messages, and which reach the caller."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from langchain_toolrouter import ToolRouter
from langchain_toolrouter._answers import translate_error
from langchain_toolrouter._session.connections import is_no_connection
from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.emulator import (
    DEFAULT_API_KEY,
    EmulatorState,
    FaultRule,
    async_transport,
    create_app,
    sync_transport,
)
from langchain_toolrouter.errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    ConnectError,
    ConnectionLostError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestTimeoutError,
    ServerError,
    ToolArgumentsError,
    ToolRateLimitError,
    ToolServiceError,
    ToolTransportError,
    TransportError,
)
from langchain_toolrouter.session import ToolRouterSession
from langchain_toolrouter.wire.retry import RetryPolicy


def test_model_actionable_errors_are_translated() -> None:
    limited = translate_error(RateLimitError("slow down", status=429, retry_after=2.0), tool="T")
    assert isinstance(limited, ToolRateLimitError)
    assert limited.retry_after == 2.0
    assert "Wait 2s" in str(limited)
    refused = translate_error(
        BadRequestError(
            "bad input",
            status=400,
            slug="ToolRouterV2_BadRequest",
            errors=["title: required"],
            suggested_fix="add a title",
        ),
        tool="T",
    )
    assert isinstance(refused, ToolServiceError)
    assert str(refused) == (
        "T was refused by the Tool Router service: bad input. Details: title: required. "
        "Suggested fix: add a title"
    )
    failed = translate_error(ServerError("down", status=503), tool="T")
    assert isinstance(failed, ToolServiceError)
    # a 5xx is the service failing, not refusing: the call may have run (it is not retried)
    assert str(failed) == (
        "T failed at the Tool Router service (HTTP 503): down. It MAY HAVE RUN before the "
        "failure: check whether it took effect before calling it again."
    )
    unknown_tool = NotFoundError("no such tool", status=404, slug="ToolRouterV2_ToolNotFound")
    assert isinstance(translate_error(unknown_tool, tool="T"), ToolServiceError)
    lost = translate_error(ConnectError("refused", operation="execute"), tool="T")
    assert isinstance(lost, ToolTransportError)


@pytest.mark.parametrize(
    "error",
    [
        AuthenticationError("bad key", status=401),
        PermissionDeniedError("no", status=403),
        NotFoundError("gone", status=404, slug="ToolRouterV2_SessionNotFound"),
    ],
)
def test_caller_problems_are_not_translated(error: APIError) -> None:
    assert translate_error(error, tool="T") is None


def test_no_connection_is_recognised_by_slug_or_code() -> None:
    assert is_no_connection(APIError("x", status=400, slug="ToolRouterV2_NoActiveConnection"))
    assert is_no_connection(APIError("x", status=400, code=4302))
    assert not is_no_connection(APIError("x", status=400, slug="Other"))


def test_router_needs_a_key_and_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigurationError, match="COMPOSIO_API_KEY"):
        ToolRouter()
    monkeypatch.setenv("COMPOSIO_API_KEY", "ak_env")
    monkeypatch.setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9")
    with ToolRouter(api_version="v3.1") as router:
        assert router.base_url == "http://127.0.0.1:9"
        assert router.api_version == "v3.1"
        assert "ak_env" not in repr(router)
    with ToolRouter(api_key="ak_secret_1", base_url="http://127.0.0.1:9") as router:
        assert "ak_secret_1" not in repr(vars(router))  # kept for later clients, as a secret
    with pytest.raises(ValueError, match="name_style"):
        ToolRouter(api_key="k", name_style="fancy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_content_chars"):
        ToolRouter(api_key="k", max_content_chars=0)


# --------------------------------------------------------------------------- transport errors
#
# A call that failed after its request was sent may have done its work (sent the email): the
# model must hear that, and check before calling again. Only a request that provably never left
# may be called again at once.

SENT = [
    ConnectionLostError("connection lost after the request was sent", operation="execute"),
    RequestTimeoutError("timed out waiting for the response", phase="read", operation="execute"),
    RequestTimeoutError("timed out sending", phase="write", operation="execute"),
    TransportError("DecodingError: bad gzip", operation="execute"),
]
NOT_SENT = [
    ConnectError("could not connect", operation="execute"),
    RequestTimeoutError("timed out connecting", phase="connect", operation="execute"),
    RequestTimeoutError(
        "timed out waiting for a free connection", phase="pool", operation="execute"
    ),
]


def assert_may_have_run(text: str) -> None:
    assert "MAY HAVE RUN" in text
    assert "not have run" not in text
    assert "try again later" not in text
    assert "check whether it took effect" in text


def assert_did_not_run(text: str) -> None:
    assert "did not run" in text
    assert "may have run" not in text.lower()
    assert "call it again" in text


@pytest.mark.parametrize("error", SENT, ids=lambda e: type(e).__name__)
def test_a_transport_error_after_the_request_was_sent_says_the_call_may_have_run(
    error: TransportError,
) -> None:
    mapped = translate_error(error, tool="GMAIL_SEND_EMAIL")
    assert isinstance(mapped, ToolTransportError)
    assert_may_have_run(str(mapped))
    assert str(mapped).startswith("GMAIL_SEND_EMAIL ")
    assert mapped.request_sent is True
    assert mapped.artifact()["request_sent"] is True
    assert mapped.artifact()["error_type"] == "ToolTransportError"


@pytest.mark.parametrize("error", NOT_SENT, ids=lambda e: getattr(e, "phase", type(e).__name__))
def test_a_transport_error_before_the_request_was_sent_says_the_call_did_not_run(
    error: TransportError,
) -> None:
    mapped = translate_error(error, tool="GMAIL_SEND_EMAIL")
    assert isinstance(mapped, ToolTransportError)
    assert_did_not_run(str(mapped))
    assert mapped.request_sent is False
    assert mapped.artifact()["request_sent"] is False


class _Faulty(httpx.BaseTransport):
    """The emulator in-process, with a switch for a failure no fault rule can make in-process:
    `"refuse"` fails before the request reaches the app, `"late"` lets the app run it and then
    times out waiting for the answer (what a slow service does)."""

    def __init__(self, app: Any) -> None:
        self.inner = sync_transport(app)
        self.mode: str | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.mode == "refuse":
            raise httpx.ConnectError("connection refused", request=request)
        response = self.inner.handle_request(request)
        if self.mode == "late":
            response.read()
            response.close()
            raise httpx.ReadTimeout("timed out", request=request)
        return response

    def close(self) -> None:
        self.inner.close()


class _AsyncFaulty(httpx.AsyncBaseTransport):
    """Async twin of `_Faulty`."""

    def __init__(self, app: Any) -> None:
        self.inner = async_transport(app)
        self.mode: str | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.mode == "refuse":
            raise httpx.ConnectError("connection refused", request=request)
        response = await self.inner.handle_async_request(request)
        if self.mode == "late":
            await response.aread()
            await response.aclose()
            raise httpx.ReadTimeout("timed out", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


@custom_tool
def shout(text: str) -> dict[str, str]:
    """Upper-case a text."""
    return {"text": text.upper()}


@pytest.fixture
def emulated() -> Iterator[tuple[ToolRouter, EmulatorState, _Faulty]]:
    app = create_app()
    transport = _Faulty(app)
    with httpx.Client(transport=transport) as http:
        router = ToolRouter(
            api_key=DEFAULT_API_KEY,
            base_url="http://127.0.0.1",
            http_client=http,
            retry=RetryPolicy(wait=False),
        )
        with router:
            yield router, app.state.emulator, transport


def tool_call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_call", "id": "call-1", "name": name, "args": args}


def notes(session: ToolRouterSession) -> list[str]:
    data = session.execute("NOTES_LIST_NOTES", {"limit": 100}).data
    return [note["title"] for note in data["notes"]]


NOTE = {"title": "once", "content": "c"}


@pytest.mark.parametrize("fault", ["drop-after", "late"])
def test_a_tool_whose_answer_was_lost_tells_the_model_it_may_have_run(
    emulated: tuple[ToolRouter, EmulatorState, _Faulty], fault: str
) -> None:
    router, state, transport = emulated
    session = router.create_session("u", toolkits=["notes"])
    tool = session.tool("NOTES_CREATE_NOTE")
    if fault == "late":
        transport.mode = "late"
    else:
        state.faults.add(FaultRule(operation="execute", drop="after", times=1))
    message = tool.invoke(tool_call(tool.name, NOTE))
    transport.mode = None
    assert message.status == "error"
    assert_may_have_run(message.content)
    assert message.artifact["request_sent"] is True
    assert message.artifact["error_type"] == "ToolTransportError"
    assert notes(session) == ["once"], "it did run: the model must not be told otherwise"
    assert state.log.count("execute", processed=True) == 2  # the create, then the listing


def test_a_tool_whose_request_never_left_tells_the_model_it_did_not_run(
    emulated: tuple[ToolRouter, EmulatorState, _Faulty],
) -> None:
    router, _, transport = emulated
    session = router.create_session("u", toolkits=["notes"])
    tool = session.tool("NOTES_CREATE_NOTE")
    transport.mode = "refuse"
    message = tool.invoke(tool_call(tool.name, NOTE))
    transport.mode = None
    assert message.status == "error"
    assert_did_not_run(message.content)
    assert message.artifact["request_sent"] is False
    assert notes(session) == []


def test_raise_errors_gives_the_same_fact_as_an_attribute(
    emulated: tuple[ToolRouter, EmulatorState, _Faulty],
) -> None:
    router, state, _ = emulated
    session = router.create_session("u", toolkits=["notes"])
    tool = session.tool("NOTES_CREATE_NOTE")
    tool.handle_tool_error = False
    state.faults.add(FaultRule(operation="execute", drop="after", times=1))
    with pytest.raises(ToolTransportError) as caught:
        tool.invoke(NOTE)
    assert caught.value.request_sent is True
    assert_may_have_run(str(caught.value))


# A multi-execute split in two: a local custom tool, and an app tool the service runs.
SPLIT = {
    "sync_response_to_workbench": False,
    "tools": [
        {"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "hi"}},
        {"tool_slug": "NOTES_CREATE_NOTE", "arguments": NOTE},
    ],
}


@pytest.mark.parametrize(("mode", "sent"), [("late", True), ("refuse", False)])
def test_a_split_multi_execute_says_whether_the_service_items_may_have_run(
    emulated: tuple[ToolRouter, EmulatorState, _Faulty], mode: str, sent: bool
) -> None:
    router, _, transport = emulated
    session = router.create_session("u", toolkits=["notes"], custom_tools=[shout])
    tool = session.tool("COMPOSIO_MULTI_EXECUTE_TOOL")
    transport.mode = mode
    message = tool.invoke(tool_call(tool.name, SPLIT))
    transport.mode = None
    local, remote = message.artifact["data"]["results"]
    assert local["response"]["successful"] is True
    assert remote["response"]["successful"] is False
    if sent:
        assert_may_have_run(remote["error"])
        assert notes(session) == ["once"]
    else:
        assert_did_not_run(remote["error"])
        assert notes(session) == []


def test_a_split_multi_execute_tells_a_5xx_like_a_single_call(
    emulated: tuple[ToolRouter, EmulatorState, _Faulty],
) -> None:
    # With a local item beside it, the service's half got the bare "HTTP 500 from ..." text,
    # with no word that its items may have run.
    router, state, _ = emulated
    session = router.create_session("u", toolkits=["notes"], custom_tools=[shout])
    tool = session.tool("COMPOSIO_MULTI_EXECUTE_TOOL")
    state.faults.add(FaultRule(operation="execute_meta", status=500, times=1))
    message = tool.invoke(tool_call(tool.name, SPLIT))
    local, remote = message.artifact["data"]["results"]
    assert local["response"]["successful"] is True
    assert remote["error"].startswith("This tool failed at the Tool Router service (HTTP 500)")
    assert "MAY HAVE RUN" in remote["error"]


async def test_async_tools_say_whether_the_call_may_have_run() -> None:
    app = create_app()
    state: EmulatorState = app.state.emulator
    transport = _AsyncFaulty(app)
    async with httpx.AsyncClient(transport=transport) as http:
        router = ToolRouter(
            api_key=DEFAULT_API_KEY,
            base_url="http://127.0.0.1",
            async_http_client=http,
            retry=RetryPolicy(wait=False),
        )
        session = await router.acreate_session("u", toolkits=["notes"], custom_tools=[shout])
        tool = await session.atool("NOTES_CREATE_NOTE")
        state.faults.add(FaultRule(operation="execute", drop="after", times=1))
        lost = await tool.ainvoke(tool_call(tool.name, NOTE))
        assert_may_have_run(lost.content)
        assert lost.artifact["request_sent"] is True
        transport.mode = "refuse"
        refused = await tool.ainvoke(tool_call(tool.name, NOTE))
        transport.mode = None
        assert_did_not_run(refused.content)
        assert refused.artifact["request_sent"] is False
        multi = await session.atool("COMPOSIO_MULTI_EXECUTE_TOOL")
        transport.mode = "late"
        split = await multi.ainvoke(
            tool_call(
                multi.name,
                {
                    "sync_response_to_workbench": False,
                    "tools": [
                        {"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "hi"}},
                        {"tool_slug": "NOTES_CREATE_NOTE", "arguments": NOTE},
                    ],
                },
            )
        )
        transport.mode = None
        assert_may_have_run(split.artifact["data"]["results"][1]["error"])
        await router.aclose()


@pytest.mark.parametrize("args", ["hi", [1, 2], None])
def test_a_tool_call_whose_args_is_not_an_object_is_answered_as_invalid_arguments(
    args: Any,
) -> None:
    from langchain_toolrouter.tools import ToolRouterTool

    sent: list[Any] = []
    tool = ToolRouterTool.from_schema(
        "T", "d", {"type": "object", "properties": {"a": {"type": "string"}}}, sent.append
    )
    call = {"name": "T", "args": args, "id": "c1", "type": "tool_call"}
    message = tool.invoke(call)
    assert message.status == "error"
    assert message.tool_call_id == "c1"
    assert f"the tool call's args is {type(args).__name__}" in message.content
    assert "expected an object of named arguments" in message.content
    strict = ToolRouterTool.from_schema(
        "T", "d", {"type": "object"}, sent.append, raise_errors=True
    )
    with pytest.raises(ToolArgumentsError):
        strict.invoke(call)
    assert sent == []


def test_a_malformed_tool_call_answers_with_the_tools_own_error_text() -> None:
    from langchain_toolrouter.tools import ToolRouterTool

    tool = ToolRouterTool.from_schema("T", "d", {"type": "object"}, lambda p: p)
    tool.response_format = "content"
    tool.handle_tool_error = "Please retry with an object."
    message = tool.invoke({"name": "T", "args": "x", "id": "c1", "type": "tool_call"})
    assert (message.content, message.status) == ("Please retry with an object.", "error")
