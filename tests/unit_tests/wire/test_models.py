"""Wire models: tolerant reading, request spellings, and nothing invented on the wire."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from langchain_toolrouter.wire import models as m
from langchain_toolrouter.wire.operations import ALL_OPERATIONS
from tests.unit_tests.wire import _samples as s


def test_unknown_fields_are_kept_at_every_level() -> None:
    body: dict[str, Any] = {
        **s.SESSION,
        "brand_new": {"x": 1},
        "config": {**s.SESSION["config"], "instant": False, "proxy_execute": {"enable": True}},
    }
    session = m.Session.model_validate(body)
    assert session.model_extra == {"brand_new": {"x": 1}}
    assert session.config.model_extra == {"instant": False, "proxy_execute": {"enable": True}}
    assert session.to_wire()["brand_new"] == {"x": 1}


@pytest.mark.parametrize(
    ("accounts", "expected"),
    [
        ({"gmail": "ca_1"}, {"gmail": ["ca_1"]}),
        ({"gmail": ["ca_1", "ca_2"]}, {"gmail": ["ca_1", "ca_2"]}),
        ({"gmail": None}, {"gmail": []}),
    ],
)
def test_connected_accounts_are_always_lists(
    accounts: dict[str, Any], expected: dict[str, list[str]]
) -> None:
    config = m.SessionConfig.model_validate({"user_id": "u", "connected_accounts": accounts})
    assert config.connected_accounts == expected
    request = m.SessionCreateRequest.model_validate(
        {"user_id": "u", "connected_accounts": accounts}
    )
    assert request.to_wire()["connected_accounts"] == expected


@pytest.mark.parametrize("spelling", ["enabled", "enable"])
def test_both_spellings_read_in_responses(spelling: str) -> None:
    config = m.SessionConfig.model_validate(
        {
            "user_id": "u",
            "toolkits": {spelling: ["gmail"]},
            "manage_connections": {spelling: True},
            "tags": {spelling: ["readOnlyHint"]},
            "tools": {"gmail": {spelling: ["GMAIL_SEND"]}},
            "multi_account": {spelling: True},
            "search": {spelling: False},
        }
    )
    assert config.toolkits is not None
    assert config.toolkits.enabled == ["gmail"]
    assert config.manage_connections is not None
    assert config.manage_connections.enabled is True
    assert config.tags is not None
    assert config.tags.enabled == ["readOnlyHint"]
    assert config.tools is not None
    assert config.tools["gmail"].enabled == ["GMAIL_SEND"]
    assert config.multi_account is not None
    assert config.multi_account.enable is True
    assert config.search is not None
    assert config.search.enable is False


def test_workbench_reads_both_proxy_names() -> None:
    for name in ("proxy_execution_enabled", "enable_proxy_execution"):
        workbench = m.WorkbenchConfig.model_validate({name: True, "enabled": False})
        assert workbench.proxy_execution_enabled is True
        assert workbench.enable is False


def test_float_counters_become_ints() -> None:
    page = m.ToolkitPage.model_validate(s.TOOLKIT_PAGE)
    assert (page.current_page, page.total_items, page.total_pages) == (1, 1, 1)
    assert all(isinstance(v, int) for v in (page.current_page, page.total_items))
    proxy = m.ProxyResult.model_validate(s.PROXY)
    assert proxy.status == 200
    assert isinstance(proxy.status, int)
    assert m.MountItem.model_validate(s.mount_item("a")).size == 12
    assert m.Session.model_validate({**s.SESSION, "config_version": 3.0}).config_version == 3


def test_a_fractional_counter_is_refused() -> None:
    with pytest.raises(ValidationError, match="current_page"):
        m.ToolPage.model_validate({"items": [], "current_page": 1.5})


def test_request_models_send_request_spellings() -> None:
    request = m.SessionCreateRequest.model_validate(
        {
            "user_id": "u",
            "toolkits": {"enabled": ["gmail"]},
            "tools": {"gmail": ["GMAIL_SEND"], "slack": {"disabled": ["SLACK_X"]}},
            "tags": {"enabled": ["readOnlyHint"], "disabled": ["destructiveHint"]},
            "manage_connections": {"enabled": True, "callback_url": "https://cb"},
            "workbench": {"proxy_execution_enabled": True, "auto_offload_threshold": 20000.0},
        }
    )
    assert request.to_wire() == {
        "user_id": "u",
        "toolkits": {"enable": ["gmail"]},
        "tools": {"gmail": {"enable": ["GMAIL_SEND"]}, "slack": {"disable": ["SLACK_X"]}},
        "tags": {"enable": ["readOnlyHint"], "disable": ["destructiveHint"]},
        "manage_connections": {"enable": True, "callback_url": "https://cb"},
        "workbench": {"enable_proxy_execution": True, "auto_offload_threshold": 20000},
    }


def test_the_offload_threshold_is_any_number_as_the_reference_says() -> None:
    # "auto_offload_threshold? (number, chars; default 20k)": a fraction must not fail a read.
    session = dict(
        s.SESSION, config={**s.SESSION["config"], "workbench": {"auto_offload_threshold": 2.5e3}}
    )
    assert m.Session.model_validate(session).config.workbench.auto_offload_threshold == 2500
    fractional = m.SessionCreateRequest(user_id="u", workbench={"auto_offload_threshold": 1234.5})
    assert fractional.to_wire()["workbench"] == {"auto_offload_threshold": 1234.5}


def test_a_session_read_back_can_be_sent_again() -> None:
    config = m.Session.model_validate(s.SESSION).config
    sent = m.SessionCreateRequest.model_validate(config.model_dump(exclude_none=True)).to_wire()
    assert sent["toolkits"] == {"enable": ["gmail", "github"]}
    assert sent["manage_connections"]["enable"] is True
    assert sent["workbench"] == {"enable": True, "enable_proxy_execution": False}


def test_nothing_unset_is_invented_but_explicit_null_is_kept() -> None:
    assert m.SessionCreateRequest(user_id="u").to_wire() == {"user_id": "u"}
    assert m.ExecuteRequest(tool_slug="T").to_wire() == {"tool_slug": "T"}
    update = m.SessionUpdateRequest.model_validate({"tools": None, "expected_config_version": 2})
    assert update.to_wire() == {"tools": None, "expected_config_version": 2}


def test_toolkits_allow_and_deny_cannot_be_combined() -> None:
    with pytest.raises(ValidationError, match="not both"):
        m.ToolkitsRequest.model_validate({"enable": ["a"], "disable": ["b"]})


def test_custom_tool_input_schema_must_be_an_object_schema() -> None:
    with pytest.raises(ValidationError, match="properties"):
        m.CustomToolDefinition(slug="X", name="X", description="d", input_schema={"type": "object"})
    tool = m.CustomToolDefinition(
        slug="X",
        name="X",
        description="d",
        input_schema={"type": "object", "properties": {}},
        extends_toolkit="gmail",
        preload=True,
    )
    assert tool.to_wire()["extends_toolkit"] == "gmail"


def test_custom_echoes_carry_the_prefixed_and_original_slug() -> None:
    session = m.Session.model_validate(
        {
            **s.SESSION,
            "experimental": {
                "custom_tools": [
                    {
                        "slug": "LOCAL_GMAIL_FIND",
                        "original_slug": "FIND",
                        "name": "Find",
                        "description": "d",
                        "input_schema": {"type": "object"},
                        "extends_toolkit": "gmail",
                    }
                ],
                "custom_toolkits": [
                    {
                        "slug": "crm",
                        "name": "CRM",
                        "description": "d",
                        "tools": [{"slug": "LOCAL_CRM_X", "original_slug": "X"}],
                    }
                ],
            },
        }
    )
    assert session.experimental is not None
    [tool] = session.experimental.custom_tools or []
    assert (tool.slug, tool.original_slug, tool.extends_toolkit) == (
        "LOCAL_GMAIL_FIND",
        "FIND",
        "gmail",
    )
    [toolkit] = session.experimental.custom_toolkits or []
    assert toolkit.tools[0].original_slug == "X"


@pytest.mark.parametrize(
    ("body", "successful"),
    [
        ({"data": {}, "error": None, "log_id": "l"}, True),
        ({"data": {}, "error": "", "log_id": "l"}, True),
        ({"data": {}, "error": "boom", "log_id": "l"}, False),
        ({"data": {}, "error": None, "result_type": "failed"}, False),
        ({"data": {}, "error": "ignored", "result_type": "completed"}, True),
        ({"data": None, "result_type": "input_required", "request_state": "opaque"}, False),
    ],
)
def test_execute_result_successful(body: dict[str, Any], successful: bool) -> None:
    result = m.ExecuteResult.model_validate(body)
    assert result.successful is successful
    assert isinstance(result.data, dict)
    assert "successful" not in result.to_wire(), "successful is computed, never sent"


def test_search_response_reads_camel_case_and_writes_it_back() -> None:
    response = m.SearchResponse.model_validate(
        {
            **s.SEARCH,
            "tool_schemas": {
                "A": {
                    "tool_slug": "A",
                    "hasFullSchema": False,
                    "schemaRef": {
                        "tool": "COMPOSIO_GET_TOOL_SCHEMAS",
                        "args": {"tool_slugs": ["A"]},
                    },
                }
            },
        }
    )
    schema = response.tool_schemas["A"]
    assert schema.has_full_schema is False
    assert schema.schema_ref is not None
    assert schema.schema_ref.tool == "COMPOSIO_GET_TOOL_SCHEMAS"
    wire = response.to_wire()["tool_schemas"]["A"]
    assert wire["hasFullSchema"] is False
    assert "schemaRef" in wire


def test_mcp_type_is_any_string_lower_cased() -> None:
    assert m.McpServer.model_validate({"type": "SSE", "url": "u"}).type == "sse"


def test_proxy_method_is_upper_cased_and_checked() -> None:
    assert m.ProxyRequest(toolkit_slug="g", endpoint="/x", method="patch").method == "PATCH"  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="method"):
        m.ProxyRequest.model_validate({"toolkit_slug": "g", "endpoint": "/x", "method": "TRACE"})


def test_search_query_limits() -> None:
    with pytest.raises(ValidationError, match="use_case"):
        m.SearchQuery(use_case="x" * 1025)
    with pytest.raises(ValidationError, match="queries"):
        m.SearchRequest(queries=[])


@pytest.mark.parametrize("op", ALL_OPERATIONS, ids=lambda op: op.name)
def test_every_response_model_round_trips_its_sample(op: Any) -> None:
    samples = {
        "Session": s.SESSION,
        "ExecuteResult": s.EXECUTE_OK,
        "LinkResponse": s.LINK,
        "ProxyResult": s.PROXY,
        "ToolkitPage": s.TOOLKIT_PAGE,
        "ToolPage": s.TOOL_PAGE,
        "SearchResponse": s.SEARCH,
        "MountItemPage": s.MOUNT_PAGE,
        "DownloadUrl": s.DOWNLOAD,
        "UploadUrl": s.UPLOAD,
        "MountDeleteResult": s.MOUNT_DELETE,
        "SessionDeleteResult": s.SESSION_DELETE,
        "ConfigHistoryPage": s.CONFIG_HISTORY,
    }
    sample = samples[op.response_model.__name__]
    parsed = op.response_model.model_validate(sample)
    again = op.response_model.model_validate(parsed.to_wire())
    assert again == parsed
