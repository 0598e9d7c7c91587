"""LangChain's standard unit suite for our tools: a meta tool, an app tool and a custom tool."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool
from langchain_tests.unit_tests import ToolsUnitTests

from tests.unit_tests.langchain.inprocess import session_tools


class TestMetaTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> BaseTool:
        return session_tools()["COMPOSIO_SEARCH_TOOLS"]

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"queries": [{"use_case": "create a github issue"}]}


class TestAppTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> BaseTool:
        return session_tools()["NOTES_CREATE_NOTE"]

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"title": "groceries", "content": "milk"}


class TestCustomTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> BaseTool:
        return session_tools()["LOCAL_SHOUT"]

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"text": "hello"}


class TestFromSchemaTool(ToolsUnitTests):
    """The public constructor, with a property name LangChain would otherwise drop."""

    @property
    def tool_constructor(self) -> type[BaseTool]:
        from langchain_toolrouter.tools import ToolRouterTool

        return ToolRouterTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        from langchain_toolrouter.tools import CallableExecutor

        return {
            "name": "lookup",
            "slug": "lookup",
            "description": "Look a word up.",
            "input_json_schema": {
                "type": "object",
                "properties": {"word": {"type": "string"}, "from": {"type": "string"}},
                "required": ["word"],
            },
            "executor": CallableExecutor(lambda payload: {"found": payload["word"]}),
        }

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"word": "tool", "from": "en"}
