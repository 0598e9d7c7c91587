"""The pytest plugin's fixtures, as a user's test suite uses them, and the scripted model in agents.

The plugin is installed with the package, so this suite can ask for its fixtures directly; the
pytester runs check what a user's own run sees (markers, errors, teardown).
"""

from __future__ import annotations

import os
import sys

import httpx
import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage

from langchain_toolrouter import ToolRouter
from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.testing import Intent, ScriptedChatModel

pytest_plugins = ["pytester"]


def _note_model() -> ScriptedChatModel:
    return ScriptedChatModel(
        stages=[[Intent("note", "create a note", {"title": "Standup", "content": "Ship it"})]],
        answer="Saved.",
    )


def test_the_fixtures_give_a_running_emulator_and_a_router_pointed_at_it(
    toolrouter_emulator: EmulatorServer, toolrouter: ToolRouter
) -> None:
    assert isinstance(toolrouter_emulator, EmulatorServer)
    assert toolrouter.base_url.rstrip("/") == toolrouter_emulator.base_url.rstrip("/")
    session = toolrouter.create_session("u1", toolkits=["notes"])
    assert session.execute("NOTES_LIST_NOTES").data["notes"] == []
    assert toolrouter_emulator.log.count("create_session") == 1


def test_toolrouter_env_points_the_environment_at_the_emulator(
    toolrouter_env: EmulatorServer,
) -> None:
    assert os.environ["COMPOSIO_BASE_URL"] == toolrouter_env.base_url
    assert os.environ["COMPOSIO_API_KEY"] == toolrouter_env.api_key
    with ToolRouter() as router:
        router.create_session("u1", toolkits=["notes"])
    assert toolrouter_env.log.count("create_session") == 1


def test_the_scripted_model_finishes_inside_create_agent(toolrouter: ToolRouter) -> None:
    session = toolrouter.create_session("u1", toolkits=["notes"])
    agent = create_agent(_note_model(), session.get_tools())
    state = agent.invoke({"messages": [("user", "Save a note about the standup")]})
    final = state["messages"][-1]
    assert isinstance(final, AIMessage)
    assert (final.content, final.response_metadata["outcome"]) == ("Saved.", "done")
    titles = [n["title"] for n in session.execute("NOTES_LIST_NOTES").data["notes"]]
    assert titles == ["Standup"]


async def test_the_scripted_model_finishes_inside_create_agent_async(
    toolrouter: ToolRouter,
) -> None:
    session = await toolrouter.acreate_session("u1", toolkits=["notes"])
    agent = create_agent(_note_model(), await session.aget_tools())
    state = await agent.ainvoke({"messages": [("user", "Save a note about the standup")]})
    assert state["messages"][-1].response_metadata["outcome"] == "done"
    notes = (await session.aexecute("NOTES_LIST_NOTES")).data["notes"]
    assert [n["title"] for n in notes] == ["Standup"]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run pytest on the files made, as a user's own run would (no cache, quiet plugins)."""
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *args)


def test_each_test_gets_a_fresh_emulator_stopped_after_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import httpx

        seen = []

        def test_first(toolrouter_emulator):
            seen.append(toolrouter_emulator)

        def test_second(toolrouter_emulator):
            first = seen[0]
            assert toolrouter_emulator is not first
            assert toolrouter_emulator.base_url != first.base_url
            try:
                httpx.get(first.base_url, timeout=2)
            except httpx.ConnectError:
                pass
            else:
                raise AssertionError("the first test's emulator still answers")
        """
    )
    _run(pytester).assert_outcomes(passed=2)


def test_the_marker_passes_options_to_the_emulator(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        from langchain_toolrouter.emulator import FaultRule

        @pytest.mark.toolrouter_emulator(
            faults=[FaultRule(operation="search", status=503, times=1)], seed=7
        )
        def test_with_faults(toolrouter, toolrouter_emulator):
            session = toolrouter.create_session("u1", toolkits=["notes"])
            assert "NOTES_CREATE_NOTE" in session.search_tools("create a note")  # after a retry
            assert toolrouter_emulator.log.count("search") == 2

        @pytest.mark.toolrouter_emulator("positional")
        def test_positional(toolrouter_emulator):
            pass

        @pytest.mark.toolrouter_emulator(fualts=[])
        def test_misspelt(toolrouter_emulator):
            pass
        """
    )
    result = _run(pytester, "--strict-markers")
    result.assert_outcomes(passed=1, errors=2)
    result.stdout.fnmatch_lines(
        [
            "*@pytest.mark.toolrouter_emulator(...) takes EmulatorServer options by name*",
            "*'fualts' (did you mean 'faults'?)*",
        ]
    )


def test_a_marker_an_overriding_fixture_cannot_see_is_reported(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import pytest
        from langchain_toolrouter.emulator import EmulatorServer

        @pytest.fixture(scope="module")
        def toolrouter_emulator():
            with EmulatorServer() as server:
                yield server
        """
    )
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.toolrouter_emulator(seed=7)
        def test_marked(toolrouter):
            pass

        @pytest.mark.toolrouter_emulator(seed=8)
        def test_marked_and_failing(toolrouter):
            assert toolrouter is None

        def test_unmarked(toolrouter):
            pass
        """
    )
    result = _run(pytester, "-W", "default::pytest.PytestWarning")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            # located at the test (its first line, the marker), not in the plugin
            "*_is_reported.py:3: PytestWarning: *::test_marked had no effect: the *",
            "*_is_reported.py:7: PytestWarning: *::test_marked_and_failing had no effect*",
        ],
    )
    assert "test_unmarked had no effect" not in result.stdout.str()
    assert "_langchain_toolrouter_pytest.py" not in result.stdout.str()


def test_without_the_emulator_extra_the_fixture_says_what_to_install(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import sys

        def test_needs_the_emulator(monkeypatch, request):
            monkeypatch.setitem(sys.modules, "langchain_toolrouter.emulator", None)
            request.getfixturevalue("toolrouter_emulator")
        """
    )
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ['*the toolrouter_emulator fixture needs the emulator extra: pip install "langchain-*']
    )
    assert "Traceback" not in result.stdout.str()


def test_the_plugin_can_be_turned_off(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_uses_it(toolrouter):\n    pass\n")
    result = _run(pytester, "-p", "no:langchain_toolrouter")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'toolrouter' not found*"])


def test_the_emulator_link_is_the_users_visit(toolrouter: ToolRouter) -> None:
    """What the docs' connect step relies on: a GET of the link connects the account."""
    session = toolrouter.create_session("u1", toolkits=["github"])
    link = session.authorize("github")
    httpx.get(link.redirect_url).raise_for_status()
    session.wait_for_connection("github", timeout=10)
    assert session.toolkits().get("github").connected
    assert sys.modules.get("langchain_toolrouter.emulator") is not None
