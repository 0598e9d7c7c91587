"""The scripted chat model adapts to the tools bound and to what they answer (no network)."""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool

from langchain_toolrouter.demo.run import Printer, build_scripted_model
from langchain_toolrouter.testing import Intent, ScriptedChatModel

SEND_SCHEMA = {
    "type": "object",
    "properties": {
        "recipient_email": {"type": "string"},
        "subject": {"type": "string"},
        "body": {"type": "string"},
    },
    "required": ["recipient_email", "body"],
    "additionalProperties": False,
}


class FakeRouter:
    """Meta tools over a tiny catalog, answering like the service (data, error, successful)."""

    def __init__(self, *, slugs: dict[str, str], schemas_in_search: bool = False) -> None:
        self.slugs = slugs  # words in a use case -> slug found
        self.schemas_in_search = schemas_in_search
        self.connected: set[str] = set()
        self.sent: list[dict[str, Any]] = []
        self.calls: list[tuple[str, Any]] = []

    def _slug(self, use_case: str) -> str:
        return next(slug for word, slug in self.slugs.items() if word in use_case)

    def search(self, queries: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls.append(("search", queries))
        found = [self._slug(q["use_case"]) for q in queries]
        schemas = {
            s: {"tool_slug": s, "toolkit": s.split("_")[0].lower()}
            | ({"input_schema": SEND_SCHEMA} if self.schemas_in_search and "SEND" in s else {})
            for s in found
        }
        return {
            "data": {
                "results": [
                    {"index": i + 1, "primary_tool_slugs": [s]} for i, s in enumerate(found)
                ],
                "tool_schemas": schemas,
                "toolkit_connection_statuses": [
                    {"toolkit": "gmail", "has_active_connection": "gmail" in self.connected}
                ],
            },
            "error": None,
            "successful": True,
        }

    def manage(self, toolkits: list[str]) -> dict[str, Any]:
        self.calls.append(("connect", toolkits))
        self.connected.update(toolkits)
        return {"data": {"toolkits": toolkits}, "error": None, "successful": True}

    def schemas(self, tool_slugs: list[str]) -> dict[str, Any]:
        self.calls.append(("schemas", tool_slugs))
        return {
            "data": {"tool_schemas": {s: {"input_schema": SEND_SCHEMA} for s in tool_slugs}},
            "error": None,
            "successful": True,
        }

    def run_one(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if slug == "LOCAL_GET_ONCALL":
            return {"successful": True, "data": {"email": "dana@example.com"}, "error": None}
        if "recipient_email" not in arguments:
            return {"successful": False, "data": {}, "error": "recipient_email: field required"}
        self.sent.append(arguments)
        return {"successful": True, "data": {"id": "msg1"}, "error": None}

    def multi(self, tools: list[dict[str, Any]], sync_response_to_workbench: bool) -> dict:
        self.calls.append(("multi", [t["tool_slug"] for t in tools]))
        results = [
            {"tool_slug": t["tool_slug"], "index": i, "response": self.run_one(**_item(t))}
            for i, t in enumerate(tools)
        ]
        return {"data": {"results": results}, "error": None, "successful": True}

    def tools(self) -> list[BaseTool]:
        def make(name: str, func: Any) -> BaseTool:
            def run(**kwargs: Any) -> tuple[str, Any]:
                out = func(**kwargs)
                return json.dumps(out), out

            return StructuredTool.from_function(
                run,
                name=name,
                description=name,
                args_schema={"type": "object", "properties": {}},
                response_format="content_and_artifact",
            )

        return [
            make("COMPOSIO_SEARCH_TOOLS", self.search),
            make("COMPOSIO_MANAGE_CONNECTIONS", self.manage),
            make("COMPOSIO_GET_TOOL_SCHEMAS", self.schemas),
            make("COMPOSIO_MULTI_EXECUTE_TOOL", self.multi),
        ]


def _item(t: dict[str, Any]) -> dict[str, Any]:
    return {"slug": t["tool_slug"], "arguments": t["arguments"]}


def _run(model: ScriptedChatModel, tools: list[BaseTool], turns: int = 12) -> list[BaseMessage]:
    by_name = {t.name: t for t in tools}
    bound = model.bind_tools(tools)
    messages: list[BaseMessage] = [HumanMessage("task")]
    for _ in range(turns):
        reply = bound.invoke(messages)
        assert isinstance(reply, AIMessage)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        messages.extend(by_name[c["name"]].invoke(c) for c in reply.tool_calls)
    pytest.fail("the scripted model did not finish")


PLAN = [
    [Intent("oncall", "find the on-call engineer", {"team": "web"})],
    [
        Intent(
            "email",
            "send an email",
            {"to": lambda r: r["oncall"]["email"], "subject": "Hi", "text": "Issues"},
            guess_first=True,
        )
    ],
]
SLUGS = {"on-call": "LOCAL_GET_ONCALL", "email": "GMAIL_SEND_EMAIL"}


def test_searches_connects_runs_and_recovers_from_a_guessed_call() -> None:
    router = FakeRouter(slugs=SLUGS)
    model = ScriptedChatModel(stages=PLAN, answer=lambda r: f"sent {r['email']['id']}")
    messages = _run(model, router.tools())

    assert [kind for kind, _ in router.calls] == [
        "search",
        "connect",
        "multi",  # on-call (a custom tool, through multi-execute)
        "multi",  # email with guessed argument names: fails
        "schemas",  # it fetches the schema it lacked ...
        "multi",  # ... and retries with the schema's names
    ]
    assert router.calls[1] == ("connect", ["gmail"])
    assert router.sent == [
        {"recipient_email": "dana@example.com", "subject": "Hi", "body": "Issues"}
    ]
    final = messages[-1]
    assert final.content == "sent msg1"
    assert final.response_metadata["outcome"] == "done"


def test_uses_the_slugs_search_returns() -> None:
    router = FakeRouter(slugs={"on-call": "LOCAL_GET_ONCALL", "email": "OUTLOOK_SEND_EMAIL"})
    _run(ScriptedChatModel(stages=PLAN, answer="ok"), router.tools())
    assert ("multi", ["OUTLOOK_SEND_EMAIL"]) in router.calls
    assert ("multi", ["GMAIL_SEND_EMAIL"]) not in router.calls


def test_a_schema_known_from_search_needs_no_schema_call() -> None:
    router = FakeRouter(slugs=SLUGS, schemas_in_search=True)
    _run(ScriptedChatModel(stages=PLAN, answer="ok"), router.tools())
    assert "schemas" not in [kind for kind, _ in router.calls]
    assert len(router.sent) == 1


def test_gives_up_after_max_attempts_and_says_so() -> None:
    router = FakeRouter(slugs=SLUGS)
    router.run_one = lambda slug, arguments: {  # type: ignore[method-assign]
        "successful": False,
        "data": {},
        "error": "upstream unavailable",
    }
    model = ScriptedChatModel(stages=PLAN, answer="ok", max_attempts=2)
    final = _run(model, router.tools())[-1]
    assert final.response_metadata["outcome"] == "gave_up"
    assert "upstream unavailable" in str(final.content)


def test_without_search_it_calls_the_bound_tool_that_matches() -> None:
    sent: list[dict[str, Any]] = []

    def create_note(title: str, content: str) -> str:
        """Create a note with a title and content."""
        sent.append({"title": title, "content": content})
        return "created"

    def list_repos() -> str:
        """List GitHub repositories."""
        return "[]"

    tools: list[BaseTool] = [
        StructuredTool.from_function(create_note, name="NOTES_CREATE_NOTE"),
        StructuredTool.from_function(list_repos, name="GITHUB_LIST_REPOS"),
    ]
    plan = [[Intent("note", "create a note", {"title": "Hello", "text": "World"})]]
    final = _run(ScriptedChatModel(stages=plan, answer="noted"), tools)[-1]
    assert sent == [{"title": "Hello", "content": "World"}]
    assert final.content == "noted"


def test_same_conversation_same_reply() -> None:
    router = FakeRouter(slugs=SLUGS)
    model = ScriptedChatModel(stages=PLAN, answer="ok").bind_tools(router.tools())
    first = model.invoke([HumanMessage("task")])
    again = model.invoke([HumanMessage("task")])
    assert isinstance(first, AIMessage)
    assert isinstance(again, AIMessage)
    assert first.tool_calls == again.tool_calls


async def test_async_invoke_matches_sync() -> None:
    router = FakeRouter(slugs=SLUGS)
    model = ScriptedChatModel(stages=PLAN, answer="ok").bind_tools(router.tools())
    reply = await model.ainvoke([HumanMessage("task")])
    assert isinstance(reply, AIMessage)
    assert reply.tool_calls[0]["name"] == "COMPOSIO_SEARCH_TOOLS"


def test_demo_plan_searches_every_use_case_first() -> None:
    router = FakeRouter(slugs=SLUGS)
    reply = build_scripted_model().bind_tools(router.tools()).invoke([HumanMessage("task")])
    assert isinstance(reply, AIMessage)
    queries = reply.tool_calls[0]["args"]["queries"]
    assert len(queries) == 4


def test_error_tool_message_counts_as_failure() -> None:
    router = FakeRouter(slugs=SLUGS)
    tools = router.tools()
    model = ScriptedChatModel(stages=PLAN[:1], answer="ok", max_attempts=1).bind_tools(tools)
    messages: list[BaseMessage] = [HumanMessage("task")]
    for _ in range(3):
        reply = model.invoke(messages)
        assert isinstance(reply, AIMessage)
        messages.append(reply)
        if not reply.tool_calls:
            break
        call = reply.tool_calls[0]
        if call["name"] == "COMPOSIO_MULTI_EXECUTE_TOOL":
            messages.append(
                ToolMessage("service unavailable", tool_call_id=call["id"], status="error")
            )
        else:
            messages.append(next(t for t in tools if t.name == call["name"]).invoke(call))
    assert messages[-1].response_metadata["outcome"] == "gave_up"


def test_progress_prints_for_slow_steps_only() -> None:
    stream = io.StringIO()
    printer = Printer(stream)
    with printer.progress("quick", after=0.5):
        pass
    with printer.progress("slow step", after=0.05, every=0.05):
        time.sleep(0.2)
    text = stream.getvalue()
    assert "quick" not in text
    assert "slow step" in text


def test_a_no_connection_error_makes_it_connect_then_retry() -> None:
    router = FakeRouter(slugs=SLUGS)
    router.connected.add("gmail")  # search says connected, but the service disagrees once
    failures = iter(["No active connection for toolkit 'gmail'"])

    def run_one(slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        error = next(failures, None) if slug == "GMAIL_SEND_EMAIL" else None
        if error:
            return {"successful": False, "data": {}, "error": error}
        return FakeRouter.run_one(router, slug, arguments)

    router.run_one = run_one  # type: ignore[method-assign]
    plan = [[Intent("email", "send an email", {"recipient_email": "a@b.co", "body": "x"})]]
    final = _run(ScriptedChatModel(stages=plan, answer="ok"), router.tools())[-1]
    assert [kind for kind, _ in router.calls] == ["search", "multi", "connect", "multi"]
    assert router.calls[2] == ("connect", ["gmail"])
    assert final.response_metadata["outcome"] == "done"


def test_demo_helpers_find_links_and_multi_execute_items() -> None:
    from langchain_toolrouter.demo.run import _links, _multi_rows

    data = {
        "results": {
            "github": {"toolkit": "github", "redirect_url": "http://x/connect/1"},
            "notes": {"toolkit": "notes", "status": "no_auth_required"},
        }
    }
    assert _links(data) == [("github", "http://x/connect/1")]
    args = {"tools": [{"tool_slug": "A", "arguments": {"n": 1}}, {"tool_slug": "B"}]}
    result = {
        "results": [
            {"tool_slug": "B", "index": 1, "response": {"successful": False, "error": "bad"}},
            {"tool_slug": "A", "index": 0, "response": {"successful": True, "data": {"ok": 1}}},
        ]
    }
    rows = _multi_rows("COMPOSIO_MULTI_EXECUTE_TOOL", args, result)
    assert ("A", {"n": 1}, True, {"ok": 1}) in rows
    assert ("B", {}, False, "bad") in rows


def test_command_line_defaults_to_the_demo_and_rejects_unknown_commands() -> None:
    from langchain_toolrouter.demo.cli import _parser

    args = _parser().parse_args([])
    assert (args.command, args.model, args.user_id, args.max_steps) == (
        "demo",
        None,
        "demo-user",
        20,
    )
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve"])


def test_model_option_without_langchain_names_the_packages_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib

    from langchain_toolrouter.demo import run as _demo_run

    real_import = importlib.import_module

    def no_langchain(name: str, package: str | None = None) -> Any:
        if name.startswith("langchain.") or name == "langchain":
            raise ImportError(f"No module named {name!r}")
        return real_import(name, package)

    monkeypatch.setattr(_demo_run.importlib, "import_module", no_langchain)
    with pytest.raises(_demo_run.DemoError, match="pip install langchain langchain-anthropic"):
        _demo_run._chat_model("anthropic:claude-sonnet-4-5")
    model, label = _demo_run._chat_model(None)
    assert isinstance(model, ScriptedChatModel)
    assert label.startswith("scripted")
