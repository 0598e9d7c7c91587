"""Notebook rendering: HTML tables (escaped) and clean text for tools, toolkits, links, files."""

from __future__ import annotations

import pytest

from langchain_toolrouter._display import html_table, text_table
from langchain_toolrouter.tools import ToolRouterTool
from langchain_toolrouter.types import (
    ConnectionLink,
    MountItemList,
    ToolkitInfo,
    ToolkitList,
    ToolList,
)
from langchain_toolrouter.wire.models import MountItem, ToolkitItem


def test_tables_escape_and_shorten() -> None:
    html = html_table(("a", "b"), [("<script>", "x" * 200)], caption="c&d")
    assert "&lt;script&gt;" in html
    assert "<script>" not in html
    assert "c&amp;d" in html
    assert "x" * 89 + "…" in html
    text = text_table(("name", "n"), [("long-name", 1), ("s", 22)])
    assert text.splitlines() == ["name       n", "---------  --", "long-name  1", "s          22"]


def test_tool_list_renders_and_finds() -> None:
    tool = ToolRouterTool.from_schema(
        "NOTES_CREATE_NOTE",
        "Create a note.",
        {"type": "object", "properties": {}},
        lambda p: p,
        metadata={"toolkit": "notes", "kind": "app"},
    )
    tools = ToolList([tool])
    assert tools.get("NOTES_CREATE_NOTE") is tool
    assert tools.get("missing") is None
    assert repr(tools) == "ToolList(['NOTES_CREATE_NOTE'])"
    assert "NOTES_CREATE_NOTE  notes    app   Create a note." in str(tools)
    assert "<td style='text-align:left'>notes</td>" in tools._repr_html_()
    assert repr(tool) == "ToolRouterTool(name='NOTES_CREATE_NOTE', slug='NOTES_CREATE_NOTE')"
    assert "<table>" in tool._repr_html_()


def test_toolkit_states() -> None:
    items = [
        ToolkitItem.model_validate({"slug": "notes", "name": "Notes", "is_no_auth": True}),
        ToolkitItem.model_validate(
            {
                "slug": "github",
                "name": "GitHub",
                "connected_account": {"id": "ca_1", "status": "active"},
            }
        ),
        ToolkitItem.model_validate(
            {"slug": "gmail", "connected_account": {"id": "ca_2", "status": "INITIATED"}}
        ),
        ToolkitItem.model_validate({"slug": "cal"}),
    ]
    toolkits = ToolkitList(ToolkitInfo.from_item(i) for i in items)
    assert [t.connected for t in toolkits] == [None, True, False, False]
    text = str(toolkits)
    assert "no auth needed" in text
    assert "not connected (initiated)" in text
    assert toolkits.get("GITHUB") is toolkits[1]
    assert repr(toolkits) == "ToolkitList(['notes', 'github', 'gmail', 'cal'])"
    assert "<table>" in toolkits._repr_html_()


def test_link_and_files_render() -> None:
    link = ConnectionLink("github", "https://x.test/link?a=1&b='2'", "ca_1", "lt_1")
    html = link._repr_html_()
    assert "href='https://x.test/link?a=1&amp;b=&#x27;2&#x27;'" in html
    script = ConnectionLink("github", "javascript:alert(1)", "ca_1")._repr_html_()
    assert "href" not in script
    assert "javascript:alert(1)" in script  # shown, not clickable
    files = MountItemList([MountItem(mount_relative_path="a/b.txt", size=5)])
    assert files.paths == ["a/b.txt"]
    assert "a/b.txt  5" in str(files)
    assert "<table>" in files._repr_html_()


def test_lists_index_by_name_with_a_clear_miss() -> None:
    def make(name: str) -> ToolRouterTool:
        return ToolRouterTool.from_schema(name, "d", {"type": "object"}, lambda p: p)

    tools = ToolList([make("NOTES_CREATE_NOTE"), make("NOTES_LIST_NOTES")])
    assert tools["NOTES_LIST_NOTES"] is tools[1]
    assert tools[-1] is tools[1]
    assert tools[:1] == [tools[0]]
    assert "NOTES_CREATE_NOTE" in tools
    assert "NOTES_DELETE_NOTE" not in tools
    assert tools[0] in tools
    with pytest.raises(KeyError) as typo:
        tools["NOTES_CREATE_NOTES"]
    message = str(typo.value)
    assert "did you mean 'NOTES_CREATE_NOTE'?" in message
    assert "It has: NOTES_CREATE_NOTE, NOTES_LIST_NOTES" in message
    with pytest.raises(KeyError, match="the list is empty"):
        ToolList()["X"]
    with pytest.raises(KeyError, match=r"in this list\. It has"):
        tools["SLACK_SEND_MESSAGE"]

    toolkits = ToolkitList(
        ToolkitInfo.from_item(ToolkitItem.model_validate({"slug": s})) for s in ("github", "gmail")
    )
    assert toolkits["GitHub"] is toolkits[0]
    assert "GMAIL" in toolkits
    with pytest.raises(KeyError, match="did you mean 'gmail'"):
        toolkits["gmial"]
