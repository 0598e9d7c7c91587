"""LangChain's standard integration suite for our tools against an EmulatorServer on loopback.

Each test gets a tool of a fresh session (its own router, so the async client lives on that
test's event loop): a meta tool, an app tool (no-auth notes) and a custom tool.
"""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests

from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.tools import ToolRouterTool
from tests.unit_tests.langchain.inprocess import shout
from tests.unit_tests.langchain.loopback import make_router, server  # noqa: F401 - fixture


class _SessionToolTests(ToolsIntegrationTests):
    slug: str

    @property
    def tool_constructor(self) -> type[BaseTool]:
        return ToolRouterTool  # tools come from a session: see the `tool` fixture

    @pytest.fixture
    async def tool(self, server: EmulatorServer) -> AsyncIterator[BaseTool]:
        router = make_router(server)
        session = await router.acreate_session(
            "standard-tests", toolkits=["github", "notes"], custom_tools=[shout]
        )
        found = (await session.aget_tools(include_custom="all")).get(self.slug)
        if found is None:
            found = session.tool(self.slug)
        yield found
        await router.aclose()


class TestMetaTool(_SessionToolTests):
    slug = "COMPOSIO_SEARCH_TOOLS"

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"queries": [{"use_case": "create a note"}], "session": {"generate_id": True}}


class TestAppTool(_SessionToolTests):
    slug = "NOTES_CREATE_NOTE"

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"title": "groceries", "content": "milk, eggs"}


class TestCustomTool(_SessionToolTests):
    slug = "LOCAL_SHOUT"

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"text": "hello"}
