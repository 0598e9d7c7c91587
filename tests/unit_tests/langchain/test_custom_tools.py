"""Custom tools: slug rules, schemas from signatures, local runs, toolkits, LangChain tools."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import functools
import inspect
import logging
import re
import threading
from typing import Annotated, Any, Optional

import pytest
from langchain_core.tools import InjectedToolArg, InjectedToolCallId, StructuredTool
from langchain_core.tools import tool as lc_tool
from pydantic import AfterValidator, BaseModel, Field

from langchain_toolrouter.custom_tools import (
    CustomTool,
    CustomToolContext,
    CustomToolkit,
    custom_tool,
    final_slug,
    validate_slug,
)
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.errors import (
    AmbiguousSlugError,
    CustomSlugError,
)
from langchain_toolrouter.wire.models import SessionExperimental


@pytest.mark.parametrize("slug", ["find_customer", "Find-Customer2", "a"])
def test_valid_slugs(slug: str) -> None:
    assert validate_slug(slug) == slug


@pytest.mark.parametrize(
    ("slug", "fragment"),
    [
        ("", "invalid"),
        ("has space", "invalid"),
        ("dots.not.ok", "invalid"),
        ("LOCAL_thing", "must not start with 'LOCAL_'"),
        ("local_thing", "must not start with 'LOCAL_'"),
        ("composio_x", "must not start with 'COMPOSIO_'"),
    ],
)
def test_invalid_slugs_say_why(slug: str, fragment: str) -> None:
    with pytest.raises(CustomSlugError, match=fragment):
        validate_slug(slug)


def test_final_slug_shapes_and_limit() -> None:
    assert final_slug("find") == "LOCAL_FIND"
    assert final_slug("find", "crm") == "LOCAL_CRM_FIND"
    assert len(final_slug("x" * 54)) == 60
    with pytest.raises(CustomSlugError, match="61 characters; the service allows 60"):
        final_slug("x" * 55)
    with pytest.raises(CustomSlugError, match="or the toolkit slug 'crm'"):
        final_slug("x" * 51, "crm")


def test_decorator_builds_schema_description_and_final_slug() -> None:
    @custom_tool(extends_toolkit="github", preload=True)
    def triage(title: str, urgent: bool = False) -> dict[str, Any]:
        """Suggest a label for an issue title."""
        return {"label": "bug" if urgent else "question", "title": title}

    assert isinstance(triage, CustomTool)
    assert triage.final_slug == "LOCAL_GITHUB_TRIAGE"
    assert triage.description == "Suggest a label for an issue title."
    assert triage.input_schema["type"] == "object"
    assert set(triage.input_schema["properties"]) == {"title", "urgent"}
    assert triage.input_schema["required"] == ["title"]
    definition = triage.definition().to_wire()
    assert definition["slug"] == "triage"
    assert definition["extends_toolkit"] == "github"
    assert definition["preload"] is True
    outcome = triage.run({"title": "x", "urgent": True})
    assert (outcome.successful, outcome.data, outcome.log_id) == (
        True,
        {"label": "bug", "title": "x"},
        "",
    )


def test_bare_decorator_and_non_dict_results() -> None:
    @custom_tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    assert add.final_slug == "LOCAL_ADD"
    assert add.run({"a": 1, "b": 2}).data == {"result": 3}


def test_exceptions_and_bad_arguments_become_failed_results() -> None:
    @custom_tool
    def boom(x: int) -> dict[str, Any]:
        """Fail."""
        raise RuntimeError("kaput")

    failed = boom.run({"x": 1})
    assert not failed.successful
    assert failed.error == "LOCAL_BOOM raised RuntimeError: kaput"
    invalid = boom.run({"x": "not a number"})
    assert not invalid.successful
    assert invalid.error == (
        "Invalid arguments for LOCAL_BOOM; the call was not sent. Fix these and call again:\n"
        '- /x: got string "not a number" (expected an integer)'
    )


def test_a_tool_that_raises_logs_one_line_and_the_traceback_only_at_debug(
    caplog: pytest.LogCaptureFixture,
) -> None:
    @custom_tool
    def boom(x: int) -> dict[str, Any]:
        """Fail."""
        raise RuntimeError("kaput")

    with caplog.at_level(logging.WARNING, logger="langchain_toolrouter"):
        assert boom.run({"x": 1}).error == "LOCAL_BOOM raised RuntimeError: kaput"
    [warning] = caplog.records
    assert warning.levelno == logging.WARNING
    assert warning.exc_info is None
    assert warning.getMessage() == (
        "custom tool LOCAL_BOOM raised RuntimeError: kaput (the model got this error; the "
        "traceback is logged at DEBUG)"
    )
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="langchain_toolrouter"):
        boom.run({"x": 1})
    debug = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(debug) == 1
    assert debug[0].exc_info is not None
    assert isinstance(debug[0].exc_info[1], RuntimeError)
    assert "Traceback" in caplog.text


async def test_async_tool_and_context() -> None:
    calls: list[tuple[str, dict[str, Any]]] = []

    def execute(slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        calls.append((slug, arguments))
        return {"successful": True}

    async def aexecute(slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        calls.append((slug, arguments))
        return {"successful": True}

    @custom_tool
    async def lookup(name: str, ctx: CustomToolContext) -> dict[str, Any]:
        """Look a customer up."""
        await ctx.aexecute("NOTES_LIST_NOTES", {"q": name})
        return {"user": ctx.user_id, "name": name}

    assert "ctx" not in lookup.input_schema["properties"]
    context = CustomToolContext("alice", "trs_1", execute, aexecute)
    outcome = await lookup.arun({"name": "Ada"}, context)
    assert outcome.data == {"user": "alice", "name": "Ada"}
    assert calls == [("NOTES_LIST_NOTES", {"q": "Ada"})]
    with pytest.raises(RuntimeError, match="needs a CustomToolContext"):
        await lookup.arun({"name": "Ada"})


def test_sync_run_of_an_async_tool_runs_it_to_completion() -> None:
    context = CustomToolContext("alice", "trs_1", lambda s, a: {}, _async_noop)

    @custom_tool
    async def lookup(name: str, ctx: CustomToolContext) -> dict[str, Any]:
        """Look a customer up."""
        await asyncio.sleep(0)
        return {"user": ctx.user_id, "name": name}

    assert lookup.run({"name": "Ada"}, context).data == {"user": "alice", "name": "Ada"}


def test_sync_run_of_an_async_tool_leaves_the_threads_event_loop_alone() -> None:
    # asyncio.run() would unset it: a sync app's later get_event_loop() would then fail.
    @custom_tool
    async def echo(text: str) -> dict[str, Any]:
        """Echo a text."""
        return {"text": text, "own_loop": asyncio.get_running_loop() is not mine}

    mine = asyncio.new_event_loop()
    asyncio.set_event_loop(mine)
    try:
        assert echo.run({"text": "hi"}).data == {"text": "hi", "own_loop": True}
        assert asyncio.get_event_loop_policy().get_event_loop() is mine
        assert not mine.is_closed()
    finally:
        asyncio.set_event_loop(None)
        mine.close()


async def test_sync_run_of_an_async_tool_inside_a_running_loop() -> None:
    # A sync call made from code that already runs a loop (Jupyter) must not deadlock.
    @custom_tool
    async def lookup(name: str) -> dict[str, Any]:
        """Look a customer up."""
        await asyncio.sleep(0)
        return {"name": name, "thread": threading.current_thread().name}

    outcome = lookup.run({"name": "Ada"})
    assert outcome.data["name"] == "Ada"
    assert outcome.data["thread"].startswith("toolrouter-async")


def test_sync_run_of_an_async_only_langchain_tool() -> None:
    async def shout(text: str) -> str:
        return text.upper()

    tool = CustomTool.from_tool(
        StructuredTool.from_function(coroutine=shout, name="shout", description="Shout.")
    )
    assert tool.is_async_only
    assert tool.run({"text": "hi"}).data == {"result": "HI"}


async def _async_noop(slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {}


async def test_sync_tool_runs_in_async_code() -> None:
    @custom_tool
    def double(n: int) -> dict[str, int]:
        """Double n."""
        return {"n": n * 2}

    assert (await double.arun({"n": 4})).data == {"n": 8}


def test_explicit_schema_and_langchain_tool() -> None:
    @custom_tool(
        slug="greet",
        description="Greet someone.",
        input_schema={"type": "object", "properties": {"who": {"type": "string"}}},
    )
    def greet(who: str = "world") -> str:
        return f"hi {who}"

    assert greet.run({"who": "Ada"}).data == {"result": "hi Ada"}

    @lc_tool
    def multiply(a: int, b: int) -> int:
        """Multiply two numbers."""
        return a * b

    wrapped = CustomTool.from_tool(multiply)
    assert wrapped.final_slug == "LOCAL_MULTIPLY"
    assert set(wrapped.input_schema["properties"]) == {"a", "b"}
    assert wrapped.run({"a": 3, "b": 4}).data == {"result": 12}
    assert asyncio.run(wrapped.arun({"a": 2, "b": 5})).data == {"result": 10}


def test_definition_problems_are_named() -> None:
    def nodoc(x: int) -> int:
        return x

    with pytest.raises(ValueError, match="needs a description"):
        custom_tool(nodoc)
    with pytest.raises(ValueError, match="'type': 'object'"):
        custom_tool(slug="x", description="d", input_schema={"type": "string"})(nodoc)
    with pytest.raises(CustomSlugError):
        custom_tool(slug="LOCAL_x", description="d")(nodoc)


def test_toolkit_members_get_toolkit_slugs_and_definitions() -> None:
    @custom_tool
    def find(name: str) -> dict[str, str]:
        """Find a customer."""
        return {"name": name}

    def plain(x: int) -> int:
        """A plain function becomes a tool too."""
        return x

    crm = CustomToolkit("crm", "CRM", "Customer records", tools=[find, plain], preload=True)
    assert [t.final_slug for t in crm.tools] == ["LOCAL_CRM_FIND", "LOCAL_CRM_PLAIN"]
    wire = crm.definition().to_wire()
    assert wire["slug"] == "crm"
    assert [t["slug"] for t in wire["tools"]] == ["find", "plain"]
    assert "extends_toolkit" not in wire["tools"][0]
    with pytest.raises(ValueError, match="no tools"):
        CustomToolkit("empty", "E", "d", tools=[])


def test_a_toolkit_does_not_change_the_tools_given_to_it() -> None:
    @custom_tool
    def find_customer(email: str) -> dict[str, str]:
        """Find a customer record by email."""
        return {"email": email}

    crm = CustomToolkit("crm", "CRM", "Customer records", tools=[find_customer])
    other = CustomToolkit("sales", "Sales", "Sales records", tools=[find_customer])
    assert find_customer.toolkit is None
    assert find_customer.final_slug == "LOCAL_FIND_CUSTOMER"
    assert [t.final_slug for t in (*crm.tools, *other.tools)] == [
        "LOCAL_CRM_FIND_CUSTOMER",
        "LOCAL_SALES_FIND_CUSTOMER",
    ]
    alone = CustomRegistry([find_customer])
    inline = alone.inline()
    assert inline is not None
    assert [t.slug for t in inline.custom_tools or []] == ["find_customer"]
    assert alone.resolve_exact("LOCAL_FIND_CUSTOMER") is find_customer
    both = CustomRegistry([find_customer, crm])
    assert sorted(t.final_slug for t in both.tools) == [
        "LOCAL_CRM_FIND_CUSTOMER",
        "LOCAL_FIND_CUSTOMER",
    ]
    assert both.resolve_exact("LOCAL_CRM_FIND_CUSTOMER") is crm.tools[0]


def test_extends_toolkit_takes_any_real_toolkit_slug() -> None:
    def search(q: str) -> dict[str, str]:
        """Search the web."""
        return {"q": q}

    tool = custom_tool(extends_toolkit="composio_search")(search)
    assert tool.final_slug == "LOCAL_COMPOSIO_SEARCH_SEARCH"
    with pytest.raises(CustomSlugError, match="not a toolkit slug"):
        custom_tool(extends_toolkit="git hub")(search)


def test_extending_tool_cannot_join_a_toolkit() -> None:
    @custom_tool(extends_toolkit="github")
    def triage(title: str) -> dict[str, str]:
        """Triage."""
        return {}

    with pytest.raises(ValueError, match="cannot also belong"):
        CustomToolkit("crm", "CRM", "d", tools=[triage])


def test_registry_inline_resolve_and_echo() -> None:
    @custom_tool
    def find(name: str) -> dict[str, str]:
        """Find."""
        return {}

    @custom_tool(slug="find", extends_toolkit="gmail")
    def find_mail(name: str) -> dict[str, str]:
        """Find mail."""
        return {}

    registry = CustomRegistry([find, find_mail])
    inline = registry.inline()
    assert inline is not None
    assert [t.slug for t in inline.custom_tools or []] == ["find", "find"]
    assert registry.resolve("local_find") is find
    assert registry.resolve("LOCAL_GMAIL_FIND") is find_mail
    assert registry.resolve("GITHUB_CREATE_AN_ISSUE") is None
    with pytest.raises(AmbiguousSlugError, match="several custom tools"):
        registry.resolve("find")

    registry.apply_echo(
        SessionExperimental.model_validate(
            {"custom_tools": [{"slug": "LOCAL_FIND_V2", "original_slug": "find"}]}
        )
    )
    assert find.final_slug == "LOCAL_FIND_V2"
    assert registry.resolve_exact("local_find_v2") is find


def test_registry_refuses_duplicate_final_slugs() -> None:
    def one() -> None:
        """One."""

    with pytest.raises(ValueError, match="final slug LOCAL_ONE"):
        CustomRegistry([custom_tool(one), custom_tool(one)])


def test_reserved_parameter_names_are_kept_and_passed() -> None:
    @custom_tool
    def notify(channel: str, callbacks: list[str], run_manager: str = "ops") -> dict[str, Any]:
        """Post to a channel, then call these webhook URLs."""
        return {"channel": channel, "callbacks": callbacks, "run_manager": run_manager}

    @custom_tool
    def save(_id: str, model_config: dict[str, Any], id: int = 0) -> dict[str, Any]:
        """Save a model config under an id."""
        return {"_id": _id, "model_config": model_config, "id": id}

    assert list(notify.input_schema["properties"]) == ["channel", "callbacks", "run_manager"]
    assert notify.input_schema["required"] == ["channel", "callbacks"]
    args = {"channel": "ops", "callbacks": ["https://x"], "run_manager": "bo"}
    assert notify.run(args).data == args
    assert list(save.input_schema["properties"]) == ["_id", "model_config", "id"]
    outcome = save.run({"_id": "r1", "model_config": {"t": 1}})
    assert outcome.data == {"_id": "r1", "model_config": {"t": 1}, "id": 0}
    invalid = save.run({"model_config": {}})
    assert invalid.error == (
        "Invalid arguments for LOCAL_SAVE; the call was not sent. Fix these and call again:\n"
        "- /_id: required property '_id' is missing (expected a value for '_id')"
    )


def test_positional_only_parameters_are_refused_clearly() -> None:
    def pick(x: int, /) -> dict[str, int]:
        """Pick."""
        return {"x": x}

    with pytest.raises(TypeError, match="'x' is positional-only"):
        custom_tool(pick)


def test_optional_context_parameter() -> None:
    @custom_tool
    def whoami(q: str, ctx: CustomToolContext | None = None) -> dict[str, Any]:
        """Who am I."""
        return {"user": ctx.user_id if ctx else None}

    @custom_tool
    def whoami_too(q: str, ctx: Optional[CustomToolContext] = None) -> dict[str, Any]:  # noqa: UP045
        """Who am I, too."""
        return {"user": ctx.user_id if ctx else None}

    context = CustomToolContext("alice", "trs_1", lambda s, a: {}, _async_noop)
    for tool in (whoami, whoami_too):
        assert list(tool.input_schema["properties"]) == ["q"]
        assert tool.run({"q": "x"}).data == {"user": None}
        assert tool.run({"q": "x"}, context).data == {"user": "alice"}


def test_injected_arguments_are_hidden_with_a_default_else_refused() -> None:
    @custom_tool
    def lookup(
        query: str, api_token: Annotated[str, InjectedToolArg] = "default"
    ) -> dict[str, Any]:
        """Look something up."""
        return {"q": query, "token": api_token}

    assert list(lookup.input_schema["properties"]) == ["query"]
    assert lookup.run({"query": "a"}).data == {"q": "a", "token": "default"}

    def needs_token(query: str, api_token: Annotated[str, InjectedToolArg]) -> dict[str, Any]:
        """Look something up."""
        return {}

    with pytest.raises(TypeError, match="'api_token' is an injected argument"):
        custom_tool(needs_token)

    def with_call_id(text: str, call: Annotated[str, InjectedToolCallId] = "") -> dict[str, Any]:
        """Reply."""
        return {}

    with pytest.raises(TypeError, match=r"'call' is an injected argument.*no LangChain tool call"):
        custom_tool(with_call_id)


def test_from_tool_refuses_injected_arguments_it_cannot_supply() -> None:
    @lc_tool
    def reply(text: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
        """Reply."""
        return text

    with pytest.raises(TypeError, match="'tool_call_id' is an injected argument"):
        CustomTool.from_tool(reply)

    @lc_tool
    def tagged(text: str, tag: Annotated[str, InjectedToolArg] = "t") -> str:
        """Tag a text."""
        return f"{tag}:{text}"

    tool = CustomTool.from_tool(tagged)
    assert list(tool.input_schema["properties"]) == ["text"]
    assert tool.run({"text": "hi"}).data == {"result": "t:hi"}


@dataclasses.dataclass
class Slot:
    start: datetime.date
    room: str


class Room(BaseModel):
    name: str
    free_from: datetime.datetime


def test_nested_return_values_become_json_data(caplog: pytest.LogCaptureFixture) -> None:
    @custom_tool
    def free_slots(day: str) -> list[Any]:
        """Free meeting slots for a day."""
        when = datetime.datetime(2025, 1, 2, 9, 30)
        return [Slot(datetime.date(2025, 1, 2), "A"), {"room": Room(name="B", free_from=when)}]

    assert free_slots.run({"day": "mon"}).data == {
        "result": [
            {"start": "2025-01-02", "room": "A"},
            {"room": {"name": "B", "free_from": "2025-01-02T09:30:00"}},
        ]
    }

    class Opaque:
        def __repr__(self) -> str:
            return "<opaque>"

    @custom_tool
    def odd(day: str) -> dict[str, Any]:
        """Return something with no JSON form."""
        return {"value": Opaque()}

    assert odd.run({"day": "mon"}).data == {"value": "<opaque>"}
    assert "Opaque, which has no JSON form" in caplog.text


def test_pydantic_field_defaults_reach_the_function() -> None:
    # The schema says optional with a default: the function must receive that default.
    @custom_tool
    def plan(
        goal: str,
        steps: Annotated[int, Field(default=5)],
        tags: Annotated[list[str], Field(default_factory=list)],
        depth: int = Field(3, description="How deep to plan."),
    ) -> dict[str, Any]:
        """Plan a goal."""
        return {"goal": goal, "steps": steps, "tags": tags, "depth": depth}

    properties = plan.input_schema["properties"]
    assert plan.input_schema["required"] == ["goal"]
    assert properties["depth"]["default"] == 3
    assert properties["depth"]["description"] == "How deep to plan."
    assert plan.run({"goal": "g"}).data == {"goal": "g", "steps": 5, "tags": [], "depth": 3}
    assert plan.run({"goal": "g", "depth": 1}).data["depth"] == 1


def test_a_field_default_keeps_the_parameters_name_and_its_constraints() -> None:
    # `json` is a field name pydantic takes; the user's own alias is not the property name.
    @custom_tool
    def pick(
        json: int = Field(3, ge=1),
        x: int = Field(3, alias="X", description="An x."),
    ) -> dict[str, Any]:
        """Pick."""
        return {"json": json, "x": x}

    properties = pick.input_schema["properties"]
    assert list(properties) == ["json", "x"]
    assert properties["json"]["minimum"] == 1
    assert properties["x"]["description"] == "An x."
    assert pick.run({"json": 9, "x": 4}).data == {"json": 9, "x": 4}
    refused = pick.run({"json": 0})
    assert not refused.successful
    assert refused.error == (
        "Invalid arguments for LOCAL_PICK; the call was not sent. Fix these and call again:\n"
        "- /json: 0 is out of range (expected a number >= 1)"
    )


def test_an_explicit_input_schema_needs_no_resolvable_signature() -> None:
    # An annotation only importable for type checkers: the given schema is the contract.
    namespace: dict[str, Any] = {}
    exec(
        "def convert(amount: 'Decimal', ctx: 'CustomToolContext | None' = None) -> dict:\n"
        "    return {'amount': amount, 'no_context': ctx is None}\n",
        namespace,
    )
    schema = {"type": "object", "properties": {"amount": {"type": "string"}}}
    tool = custom_tool(namespace["convert"], input_schema=schema, description="Convert.")
    assert tool.input_schema == schema
    assert tool.run({"amount": "1.5"}).data == {"amount": "1.5", "no_context": True}

    def only_positional(amount: str, /) -> dict[str, Any]:
        return {}

    with pytest.raises(TypeError, match="positional-only"):  # refused as without a schema
        custom_tool(only_positional, input_schema=schema)


def test_a_return_value_with_no_json_form_is_not_blamed_on_the_code() -> None:
    @custom_tool
    def raw() -> dict[str, Any]:
        """Return raw bytes."""
        return {"blob": b"\xff\xfe"}

    outcome = raw.run({})
    assert not outcome.successful
    assert outcome.error is not None
    assert "returned a value with no JSON form" in outcome.error
    assert "raised" not in outcome.error

    class Opaque:
        def __repr__(self) -> str:
            raise RuntimeError("repr broke")

    @custom_tool
    def opaque() -> dict[str, Any]:
        """Return something that cannot even be shown."""
        return {"thing": Opaque()}

    shown = opaque.run({})  # a failed result, not an exception out of run()
    assert not shown.successful
    assert "repr broke" in (shown.error or "")


def test_custom_tool_refuses_what_it_cannot_turn_into_a_tool() -> None:
    @lc_tool
    def lookup(q: str) -> str:
        """Look up."""
        return q

    with pytest.raises(
        TypeError,
        match=r"custom_tool\(\) takes a function, got a LangChain tool \(StructuredTool "
        r"'lookup'\): use CustomTool.from_tool\(tool\) or pass it in custom_tools=\[tool\]",
    ):
        custom_tool(lookup)
    with pytest.raises(TypeError, match=r"custom_tool\(\) takes a function, got int \(42\)"):
        custom_tool(42)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match=r"got a CustomTool \(LOCAL_LOOKUP\), already a custom"):
        custom_tool(CustomTool.from_tool(lookup))  # type: ignore[call-overload]

    def pick(q: str, token: str) -> dict[str, str]:
        """Pick."""
        return {}

    with pytest.raises(TypeError, match=r"got functools.partial.*a def"):
        custom_tool(functools.partial(pick, token="t"), slug="pick")
    with pytest.raises(TypeError, match=r"expected a custom tool.*got int"):
        CustomRegistry([42])  # type: ignore[list-item]


def test_decorated_callables_with_a_name_and_a_signature_are_taken() -> None:
    # functools.lru_cache (or any functools.wraps decorator) under @custom_tool worked before
    # the refusal of non-functions, and must keep working.
    @custom_tool
    @functools.lru_cache(maxsize=128)
    def square(x: int) -> int:
        """Square a number."""
        return x * x

    assert square.input_schema["properties"] == {"x": {"type": "integer", "title": "X"}}
    assert square.run({"x": 3}).data == {"result": 9}
    assert square(4) == 16


def test_an_input_schema_written_with_python_tuples_is_read_as_json() -> None:
    # Tuples reach the service as JSON arrays: calls are checked the same way (a tuple enum
    # was read as one value, and a tuple "required" as none).
    tool = CustomTool(
        slug="pick",
        name="pick",
        description="Pick a color.",
        input_schema={
            "type": "object",
            "properties": {"color": {"type": "string", "enum": ("red", "blue")}},
            "required": ("color",),
        },
        func=lambda color: color,
    )
    assert tool.input_schema["required"] == ["color"]
    assert tool.run({"color": "red"}).data == {"result": "red"}
    assert not tool.run({}).successful
    with pytest.raises(ValueError, match=r"input_schema must be plain JSON, but at /properties/c"):
        CustomTool(
            slug="bad",
            name="bad",
            description="Bad.",
            input_schema={"type": "object", "properties": {"c": {"enum": {1, 2}}}},
            func=lambda c: c,
        )


async def test_a_decorated_function_can_still_be_called() -> None:
    @custom_tool
    def get_oncall_engineer(team: str, ctx: CustomToolContext | None = None) -> dict[str, str]:
        """Look up who is on call."""
        return {"team": team, "context": repr(ctx)}

    @custom_tool
    async def page(team: str, *, urgent: bool = False) -> dict[str, Any]:
        """Page the on-call engineer."""
        return {"team": team, "urgent": urgent}

    # The function itself, unchanged: no validation, no outcome wrapping.
    assert get_oncall_engineer("web") == {"team": "web", "context": "None"}
    assert get_oncall_engineer(team=1) == {"team": 1, "context": "None"}  # type: ignore[arg-type]
    assert await page("db", urgent=True) == {"team": "db", "urgent": True}
    member = CustomToolkit("ops", "Ops", "Operations.", tools=[get_oncall_engineer]).tools[0]
    assert member("web") == {"team": "web", "context": "None"}
    assert inspect.signature(get_oncall_engineer) == inspect.signature(
        get_oncall_engineer.__wrapped__
    )

    @lc_tool
    def lookup(q: str) -> str:
        """Look up."""
        return q

    with pytest.raises(TypeError, match=r"LOCAL_LOOKUP wraps a LangChain tool.*\.run\(\{"):
        CustomTool.from_tool(lookup)("x")


def test_var_positional_and_var_keyword_parameters_are_refused_clearly() -> None:
    def anything(**kwargs: Any) -> dict[str, Any]:
        """Take anything."""
        return kwargs

    def mixed(a: int, *rest: int, **extra: Any) -> dict[str, Any]:
        """Mixed."""
        return {}

    with pytest.raises(
        TypeError,
        match=r"custom tool 'anything': parameter '\*\*kwargs' would receive nothing.*"
        r"declare each argument as a parameter.*or pass input_schema=",
    ):
        custom_tool(anything)
    with pytest.raises(TypeError, match=r"parameter '\*rest' would always be empty"):
        custom_tool(mixed)
    with pytest.raises(TypeError, match=r"parameter '\*rest' would always be empty"):
        custom_tool(mixed, input_schema={"type": "object", "properties": {}}, description="M.")

    # With an explicit schema, **kwargs receives the arguments the schema describes.
    schema = {"type": "object", "properties": {"x": {"type": "integer"}}}
    passed = custom_tool(anything, input_schema=schema)
    assert passed.run({"x": 1}).data == {"x": 1}


def add_error(value: str) -> str:
    return (
        "Invalid arguments for LOCAL_ADD; the call was not sent. Fix these and call again:\n"
        f"- /a: got string {value} (expected an integer)"
    )


async def test_arguments_are_checked_against_the_schema_strictly() -> None:
    # The same check as a direct tool call: no "5" -> 5 coercion on any other path.
    ran: list[int] = []

    @custom_tool
    def add(a: int, b: int = 2) -> int:
        """Add two numbers."""
        ran.append(a)
        return a + b

    assert add.run({"a": "5"}).error == add_error('"5"')
    assert (await add.arun({"a": "5"})).error == add_error('"5"')
    assert ran == []
    assert add.run({"a": 5.0}).data == {"result": 7}  # an integer in JSON Schema

    @custom_tool(
        slug="greet",
        description="Greet someone.",
        input_schema={"type": "object", "properties": {"who": {"type": "string"}}},
    )
    def greet(who: str = "world") -> str:
        return f"hi {who}"

    assert greet.run({"who": 5}).error == (
        "Invalid arguments for LOCAL_GREET; the call was not sent. Fix these and call again:\n"
        "- /who: got integer 5 (expected a string)"
    )


def must_be_upper(value: str) -> str:
    if not value.isupper():
        raise ValueError("must be upper case")
    return value


@custom_tool
def loud(text: Annotated[str, AfterValidator(must_be_upper)]) -> str:
    """Repeat an upper-case text."""
    return text


LOUD_REFUSED = (
    "Invalid arguments for LOCAL_LOUD; the call was not sent. Fix these and call again:\n"
    "- /text: Value error, must be upper case (expected a value the parameter's type accepts)"
)


def test_a_parameter_types_own_check_is_reported_like_the_schemas() -> None:
    # What only the signature's model can check (a validator) reads like a schema problem.
    assert loud.run({"text": "hi"}).error == LOUD_REFUSED
    assert loud.run({"text": "HI"}).data == {"result": "HI"}


def injected_refusal(slug: str, name: str) -> str:
    return (
        f"Invalid arguments for {slug}; the call was not sent. Fix these and call again:\n"
        f"- /{name}: '{name}' is supplied by the application; the model cannot set it "
        f"(expected the arguments without '{name}')"
    )


def injected_tools(seen: list[str]) -> list[CustomTool]:
    """One tool per way of writing a tool with an injected argument `secret`."""

    def raw(team: str, secret: Annotated[str, InjectedToolArg] = "s3") -> dict[str, Any]:
        """A plain function given as is."""
        seen.append(secret)
        return {"team": team, "secret": secret}

    @lc_tool
    def lc(team: str, secret: Annotated[str, InjectedToolArg] = "s3") -> dict[str, Any]:
        """A LangChain tool."""
        seen.append(secret)
        return {"team": team, "secret": secret}

    def explicit(team: str, secret: Annotated[str, InjectedToolArg] = "s3") -> dict[str, Any]:
        seen.append(secret)
        return {"team": team, "secret": secret}

    schema = {"type": "object", "properties": {"team": {"type": "string"}}}
    return [
        custom_tool(raw),
        CustomTool.from_tool(lc),
        CustomRegistry([lc]).tools[0],
        custom_tool(explicit, input_schema=schema, description="An explicit schema."),
    ]


def test_the_model_cannot_set_an_injected_argument() -> None:
    seen: list[str] = []
    for tool in injected_tools(seen):
        assert list(tool.input_schema["properties"]) == ["team"], tool
        refused = tool.run({"team": "web", "secret": "hack"})
        assert (refused.successful, refused.error) == (
            False,
            injected_refusal(tool.final_slug, "secret"),
        ), tool
        refused_async = asyncio.run(tool.arun({"team": "web", "secret": "hack"}))
        assert refused_async.error == refused.error
        assert tool.run({"team": "web"}).data == {"team": "web", "secret": "s3"}
    assert seen == ["s3"] * 4  # the function never saw the model's value


def test_the_model_cannot_set_the_context_parameter() -> None:
    # With an explicit schema the arguments are passed as given: a `ctx` the model made up
    # reached the function whenever no context was given.
    @custom_tool(input_schema={"type": "object", "properties": {"q": {"type": "string"}}})
    def ask(q: str, ctx: CustomToolContext | None = None) -> dict[str, Any]:
        """Ask."""
        return {"q": q, "ctx": repr(ctx)}

    refused = ask.run({"q": "x", "ctx": "forged"})
    assert refused.error == injected_refusal("LOCAL_ASK", "ctx")
    assert ask.run({"q": "x"}).data == {"q": "x", "ctx": "None"}


def test_a_misspelt_argument_is_refused_not_dropped_for_a_default() -> None:
    @custom_tool
    def send_report(team: str, urgent: bool = False) -> dict[str, Any]:
        """Send the weekly report."""
        return {"team": team, "urgent": urgent}

    assert send_report.input_schema["additionalProperties"] is False
    outcome = send_report.run({"team": "web", "urgnet": True})
    assert not outcome.successful
    assert "unknown property 'urgnet' (expected only these properties: team, urgent)" in (
        outcome.error or ""
    )
    assert send_report.run({"team": "web", "urgent": True}).data == {"team": "web", "urgent": True}


def test_definition_options_of_the_wrong_type_are_refused_at_definition() -> None:
    def other(x: int) -> int:
        """Other."""
        return x

    cases: list[tuple[dict[str, Any], str]] = [
        ({"name": 5}, "name must be a non-empty string"),
        ({"description": 5}, "description must be a string"),
        ({"input_schema": ["a"]}, "input_schema must be a JSON Schema object (a dict), got list"),
        ({"output_schema": "x"}, "output_schema must be a JSON Schema object (a dict), got str"),
        ({"extends_toolkit": 5}, "extends_toolkit must be a toolkit slug"),
        ({"preload": "yes"}, "preload must be True or False"),
        ({"slug": ""}, "invalid"),
    ]
    for options, fragment in cases:
        with pytest.raises((TypeError, ValueError), match=re.escape(fragment)):
            custom_tool(**options)(other)


def test_an_explicit_input_schema_must_fit_the_function() -> None:
    def other(x: int, y: int = 2) -> int:
        """Other."""
        return x + y

    with pytest.raises(TypeError) as wrong:
        custom_tool(input_schema={"type": "object", "properties": {"zzz": {"type": "string"}}})(
            other
        )
    message = str(wrong.value)
    assert "properties ['zzz'] are not parameters of other()" in message
    assert "parameters ['x'] have no default and no property" in message
    fits = custom_tool(input_schema={"type": "object", "properties": {"x": {"type": "integer"}}})
    assert fits(other).run({"x": 1}).data == {"result": 3}

    def open_ended(**kwargs: Any) -> dict[str, Any]:
        """Anything."""
        return kwargs

    schema = {"type": "object", "properties": {"zzz": {"type": "string"}}}
    assert custom_tool(input_schema=schema)(open_ended).run({"zzz": "a"}).data == {"zzz": "a"}


class Handle:
    """A Python object with no JSON form."""


class Address(BaseModel):
    street: str


def test_a_parameter_type_with_no_json_schema_is_named() -> None:
    # A pydantic model before it has a schema of its own: the error must not blame it.
    def use(address: Address, count: int, handle: Handle) -> int:
        """Use it."""
        return count

    with pytest.raises(TypeError, match=r"parameter 'handle' has type .*Handle.* no JSON Schema"):
        custom_tool(use)


def test_lists_of_custom_tools_are_lists() -> None:
    @custom_tool
    def ping() -> str:
        """Ping."""
        return "pong"

    with pytest.raises(
        TypeError, match=r"custom_tools takes a list .* pass custom_tools=\[\.\.\.\]"
    ):
        CustomRegistry(ping)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"tools takes a list, got one CustomTool"):
        CustomToolkit("crm", "CRM", "Customer tools.", tools=ping)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a name"):
        CustomToolkit("crm", " ", "Customer tools.", tools=[ping])
    with pytest.raises(ValueError, match="needs a description"):
        CustomToolkit("crm", "CRM", "", tools=[ping])
    one = CustomToolkit("crm", "CRM", "Customer tools.", tools=[ping])
    two = CustomToolkit("CRM", "CRM 2", "More customer tools.", tools=[ping])
    with pytest.raises(ValueError, match="two custom toolkits have the slug 'CRM'"):
        CustomRegistry([one, two])


def test_an_annotation_that_cannot_be_resolved_is_named() -> None:
    class Local:  # under `from __future__ import annotations`: a name only this scope knows
        pass

    def use(count: int, handle: Local) -> int:
        """Use it."""
        return count

    with pytest.raises(TypeError, match=r"name 'Local' is not defined.*pass input_schema="):
        custom_tool(use)


def test_a_resume_with_other_custom_tools_is_told_apart() -> None:
    @custom_tool
    def alpha(x: int) -> int:
        """Alpha."""
        return x

    @custom_tool
    def beta(x: int) -> int:
        """Beta."""
        return x

    echo = SessionExperimental.model_validate(
        {"custom_tools": [{"slug": "LOCAL_ALPHA", "input_schema": alpha.input_schema}]}
    )
    assert CustomRegistry([alpha]).echo_mismatch(echo) is None
    assert CustomRegistry([alpha]).echo_mismatch(None) is None  # nothing echoed to compare
    said = CustomRegistry([alpha, beta]).echo_mismatch(echo) or ""
    assert "LOCAL_BETA is not part of it (it runs here, but its search cannot find it)" in said
    assert "create a new session with these tools" in said
    rewritten = {"properties": {"x": {"type": "integer"}}, "type": "object"}  # no title...
    same = SessionExperimental.model_validate(
        {"custom_tools": [{"slug": "LOCAL_ALPHA", "input_schema": rewritten}]}
    )
    assert CustomRegistry([alpha]).echo_mismatch(same) is None
    changed = SessionExperimental.model_validate(
        {
            "custom_tools": [
                {"slug": "LOCAL_ALPHA", "input_schema": {"type": "object", "properties": {"y": {}}}}
            ]
        }
    )
    assert "LOCAL_ALPHA has other arguments there" in (
        CustomRegistry([alpha]).echo_mismatch(changed) or ""
    )


def test_a_strict_mode_null_for_an_optional_parameter_is_taken_as_not_given() -> None:
    """OpenAI strict mode makes the model send null for an optional parameter: the session's
    tool cleans it before the custom tool's own checks, which know nothing of strict mode."""
    import httpx

    from langchain_toolrouter.emulator import create_app, sync_transport
    from langchain_toolrouter.schema import ConversionOptions
    from langchain_toolrouter.session import ToolRouter

    @custom_tool(preload=True)
    def greet(name: str, title: str = "Dr") -> dict[str, str]:
        """Greet someone by name."""
        return {"text": f"{title} {name}"}

    with (
        httpx.Client(transport=sync_transport(create_app(api_keys=["ak_x"]))) as http,
        ToolRouter(
            api_key="ak_x",
            base_url="http://127.0.0.1",
            http_client=http,
            schema_options=ConversionOptions(strict_provider="openai"),
        ) as router,
    ):
        session = router.create_session("u", toolkits=["notes"], custom_tools=[greet])
        tool = session.tool("LOCAL_GREET")
        call = {"type": "tool_call", "id": "1", "name": tool.name}
        answer = tool.invoke({**call, "args": {"name": "Ann", "title": None}})
        assert answer.artifact["data"] == {"text": "Dr Ann"}
        refused = tool.invoke({**call, "args": {"name": "Ann", "title": None, "x": 1}})
        assert refused.status == "error"
