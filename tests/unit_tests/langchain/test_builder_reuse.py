"""The session's tool builder builds a tool once per schema: agents ask for the same tools on
every model call, and a schema's conversion costs more than that call's bookkeeping."""

from __future__ import annotations

from typing import Any

from langchain_toolrouter import ToolRouter
from langchain_toolrouter._session.builder import ToolBuilder
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.wire import models as m

NOTE = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}


def builder() -> ToolBuilder:
    router = ToolRouter(api_key="ak_test", base_url="http://127.0.0.1:9")  # never contacted

    def executor(slug: str, toolkit: str | None) -> Any:
        return lambda payload: payload

    return ToolBuilder(router._rt, executor, CustomRegistry(), None)


def listed(schema: dict[str, Any]) -> m.ToolSchema:
    return m.ToolSchema(
        slug="NOTES_CREATE_NOTE", description="Create a note", input_parameters=schema
    )


def test_a_listed_tool_is_built_once_and_again_when_its_schema_changes() -> None:
    tools = builder()
    first = tools.listed([listed(NOTE)], ())[0]
    assert tools.listed([listed(dict(NOTE))], ())[0] is first  # equal schema: the same tool
    assert tools.known("NOTES_CREATE_NOTE") is first
    changed = {**NOTE, "properties": {"title": {"type": "string"}, "pinned": {"type": "boolean"}}}
    second = tools.listed([listed(changed)], ())[0]
    assert second is not first
    assert "pinned" in second.args


def test_a_found_tool_is_built_once_and_is_known_without_a_fetch() -> None:
    tools = builder()
    found = m.SearchToolSchema(tool_slug="NOTES_CREATE_NOTE", input_schema=NOTE)
    first = tools.found("NOTES_CREATE_NOTE", found)
    assert first is not None
    assert tools.has_schema("NOTES_CREATE_NOTE")
    assert tools.known("NOTES_CREATE_NOTE") is first
    assert tools.found("NOTES_CREATE_NOTE", None) is first  # a later answer without its schema
