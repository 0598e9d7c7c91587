"""Pydantic models for every request and response of the Tool Router session API.

Two families live here, because the service spells the same config differently when it is sent
(``enable``/``disable``) and when it is read back (``enabled``/``disabled``):

* **Request models** (``*Request``) use the request spellings: ``enable``/``disable``,
  ``manage_connections.enable``, ``workbench.enable_proxy_execution``. They also accept the
  response spellings on input, so a config read back can be sent again. Serialize them with
  :meth:`WireModel.to_wire`, which drops every field the caller did not set, so nothing is
  invented on the wire (an explicit ``None`` is kept: on PATCH it removes a stored override).
* **Response models** read tolerantly: unknown fields are kept (``extra="allow"``), both
  ``enabled``/``enable`` spellings are read, ``connected_accounts`` values may be a string or a
  list (always a list after parsing), and numeric counters sent as floats become ints.

Nothing here does I/O. The emulator reuses these models to parse requests and build responses.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    FiniteFloat,
    field_validator,
    model_validator,
)

__all__ = [
    "AclConfig",
    "AssistivePromptConfig",
    "AttachRequest",
    "BinaryBody",
    "ConfigHistoryEntry",
    "ConfigHistoryPage",
    "CustomToolDefinition",
    "CustomToolEcho",
    "CustomToolkitDefinition",
    "CustomToolkitEcho",
    "CustomToolkitToolDefinition",
    "CustomToolkitToolEcho",
    "DownloadUrl",
    "ExecuteConfig",
    "ExecuteMetaRequest",
    "ExecuteRequest",
    "ExecuteResult",
    "InlineCustomTools",
    "LinkExperimental",
    "LinkRequest",
    "LinkResponse",
    "ListConfigHistoryQuery",
    "ListMountItemsQuery",
    "ListToolkitsQuery",
    "ListToolsQuery",
    "ManageConnectionsConfig",
    "ManageConnectionsRequest",
    "McpServer",
    "MountDeleteResult",
    "MountItem",
    "MountItemPage",
    "MountPathRequest",
    "MultiAccountConfig",
    "PreloadConfig",
    "ProxyBinaryData",
    "ProxyParameter",
    "ProxyRequest",
    "ProxyResult",
    "SearchConfig",
    "SearchConnectionStatus",
    "SearchQuery",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SearchSchemaRef",
    "SearchToolSchema",
    "SearchWorkflowSession",
    "Session",
    "SessionConfig",
    "SessionCreateRequest",
    "SessionDeleteResult",
    "SessionExperimental",
    "SessionExperimentalRequest",
    "SessionUpdateExperimental",
    "SessionUpdateRequest",
    "SessionWarning",
    "TagsConfig",
    "TagsRequest",
    "ToolFilterConfig",
    "ToolFilterRequest",
    "ToolPage",
    "ToolSchema",
    "ToolToolkitRef",
    "ToolkitAuthConfig",
    "ToolkitConnectedAccount",
    "ToolkitItem",
    "ToolkitMeta",
    "ToolkitPage",
    "ToolkitsConfig",
    "ToolkitsRequest",
    "UploadUrl",
    "UploadUrlRequest",
    "WireModel",
    "WorkbenchConfig",
    "WorkbenchRequest",
]


# --------------------------------------------------------------------------- tolerant scalars


def _to_int(value: Any) -> Any:
    """Turn an integral float (``3.0``, as the typed client declares counters) into an int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _to_list(value: Any) -> Any:
    """One account id given as a string means a one-element list (both forms are sent)."""
    if isinstance(value, str):
        return [value]
    if value is None:
        return []
    return value


def _none_to_list(value: Any) -> Any:
    """``null`` where the service may send it for a list: an empty list."""
    return [] if value is None else value


def _none_to_dict(value: Any) -> Any:
    """``null`` where the service may send it for an object: an empty dict."""
    return {} if value is None else value


def _accounts_map(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _to_list(item) for key, item in value.items()}
    return value


Count = Annotated[int, BeforeValidator(_to_int)]
"""An integer the service may send as a float (``current_page: 1.0``)."""

AccountMap = Annotated[dict[str, list[str]], BeforeValidator(_accounts_map)]
"""Toolkit slug -> connected account ids; a bare string value is read as a one-element list."""


def _either(*names: str) -> AliasChoices:
    return AliasChoices(*names)


class WireModel(BaseModel):
    """Base of every wire model: unknown fields are kept, fields may be set by name or alias."""

    # NaN and infinities stay floats when dumped, so the JSON encoder refuses them instead of
    # pydantic's default of sending null in their place.
    model_config = ConfigDict(extra="allow", populate_by_name=True, ser_json_inf_nan="constants")

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict to send: wire spellings, only the fields that were set."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


# --------------------------------------------------------------------------- config blocks (request)


class ToolkitsRequest(WireModel):
    """``toolkits`` on create/PATCH: an allowlist (``enable``) or a denylist (``disable``)."""

    enable: list[str] | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )
    disable: list[str] | None = Field(
        default=None,
        validation_alias=_either("disable", "disabled"),
        serialization_alias="disable",
    )

    require_approval: list[str] | None = None
    """Newer service field (sent by the official SDK 0.30): toolkits whose tools need approval."""

    @model_validator(mode="after")
    def _one_of(self) -> ToolkitsRequest:
        if self.enable is not None and self.disable is not None:
            raise ValueError(
                "toolkits takes either 'enable' (allowlist) or 'disable' (denylist), not both"
            )
        return self


class TagsRequest(WireModel):
    """Tag filter on create/PATCH: tools need one of ``enable`` and none of ``disable``."""

    enable: list[str] | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )
    disable: list[str] | None = Field(
        default=None,
        validation_alias=_either("disable", "disabled"),
        serialization_alias="disable",
    )
    require_approval: list[str] | None = None
    """Newer service field: tools with any of these tags need approval."""


class ToolFilterRequest(WireModel):
    """Per-toolkit tool filter on create/PATCH: ``enable``, ``disable`` or ``tags``."""

    enable: list[str] | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )
    disable: list[str] | None = Field(
        default=None,
        validation_alias=_either("disable", "disabled"),
        serialization_alias="disable",
    )
    tags: list[str] | TagsRequest | None = None
    require_approval: list[str] | None = None
    """Newer service field: tools of this toolkit that need approval."""


class ManageConnectionsRequest(WireModel):
    """``manage_connections`` on create/PATCH (request spelling ``enable``)."""

    enable: bool | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )
    callback_url: str | None = None
    enable_connection_removal: bool | None = None
    enable_wait_for_connections: bool | None = None


class MultiAccountConfig(WireModel):
    """``multi_account``: same keys when sent and read back (``enabled`` also read)."""

    enable: bool | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )
    max_accounts_per_toolkit: Count | None = None
    require_explicit_selection: bool | None = None


class PreloadConfig(WireModel):
    """``preload``: tool slugs exposed directly, or ``"all"`` for every allowed app tool."""

    tools: list[str] | Literal["all"] = Field(default_factory=list)


class SearchConfig(WireModel):
    """``search``: whether ``COMPOSIO_SEARCH_TOOLS`` is exposed."""

    enable: bool | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )


class ExecuteConfig(WireModel):
    """``execute``: whether ``COMPOSIO_MULTI_EXECUTE_TOOL`` is exposed."""

    enable_multi_execute: bool | None = None


class WorkbenchRequest(WireModel):
    """``workbench`` on create/PATCH (request spelling ``enable_proxy_execution``)."""

    enable: bool | None = Field(
        default=None, validation_alias=_either("enable", "enabled"), serialization_alias="enable"
    )
    enable_proxy_execution: bool | None = Field(
        default=None,
        validation_alias=_either("enable_proxy_execution", "proxy_execution_enabled"),
        serialization_alias="enable_proxy_execution",
    )
    auto_offload_threshold: Count | FiniteFloat | None = None  # a number of characters
    sandbox_size: str | None = None


# --------------------------------------------------------------------------- custom tools


class CustomToolkitToolDefinition(WireModel):
    """A tool inside an inline custom toolkit (request form: no ``original_slug``)."""

    slug: str = Field(min_length=1)
    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None = None
    preload: bool | None = None

    @field_validator("input_schema")
    @classmethod
    def _object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        if value.get("type") != "object" or not isinstance(value.get("properties"), dict):
            raise ValueError(
                "input_schema must be a JSON Schema object with 'type': 'object' and a "
                "'properties' mapping (use {'type': 'object', 'properties': {}} for no input)"
            )
        return value


class CustomToolDefinition(CustomToolkitToolDefinition):
    """An inline standalone custom tool; ``extends_toolkit`` borrows a real toolkit's connection."""

    extends_toolkit: str | None = None


class CustomToolkitDefinition(WireModel):
    """An inline custom toolkit (its tools are no-auth)."""

    slug: str = Field(min_length=1)
    name: str
    description: str
    tools: list[CustomToolkitToolDefinition]
    preload: bool | None = None


class InlineCustomTools(WireModel):
    """``experimental`` on execute/execute_meta/search/attach: inline custom definitions."""

    custom_tools: list[CustomToolDefinition] | None = None
    custom_toolkits: list[CustomToolkitDefinition] | None = None


class CustomToolkitToolEcho(WireModel):
    """A custom toolkit tool as the service echoes it (prefixed ``slug`` + ``original_slug``)."""

    slug: str
    name: str | None = None
    description: str | None = None
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    original_slug: str | None = None
    preload: bool | None = None


class CustomToolEcho(CustomToolkitToolEcho):
    """A standalone custom tool as echoed by create/attach."""

    extends_toolkit: str | None = None


class CustomToolkitEcho(WireModel):
    """A custom toolkit as echoed by create/attach."""

    slug: str
    name: str | None = None
    description: str | None = None
    tools: list[CustomToolkitToolEcho] = Field(default_factory=list)
    preload: bool | None = None


# --------------------------------------------------------------------------- session requests


class AssistivePromptConfig(WireModel):
    """``experimental.assistive_prompt_config``."""

    user_timezone: str | None = None


class SessionExperimentalRequest(InlineCustomTools):
    """``experimental`` on create: custom tools plus prompt, link and permission settings."""

    assistive_prompt_config: AssistivePromptConfig | None = None
    link_url_overwrite: str | None = None
    permissions: dict[str, Any] | None = None
    no_elicitation_support_fallback: str | None = None
    """Newer service field: ``deny`` or ``allow`` when the client cannot answer elicitations."""


class SessionUpdateExperimental(WireModel):
    """``experimental`` on PATCH: only link and permission settings can change."""

    link_url_overwrite: str | None = None
    permissions: dict[str, Any] | None = None


def _toolkits_shorthand(value: Any) -> Any:
    """A bare list of toolkit slugs means an allowlist, as the official SDK sends it."""
    if isinstance(value, list | tuple):
        return {"enable": list(value)}
    return value


def _tools_shorthand(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: {"enable": list(item)} if isinstance(item, list | tuple) else item
            for key, item in value.items()
        }
    return value


class _SessionConfigRequest(WireModel):
    """Config blocks shared by create and PATCH, in request spellings."""

    toolkits: Annotated[ToolkitsRequest | None, BeforeValidator(_toolkits_shorthand)] = None
    tools: Annotated[dict[str, ToolFilterRequest] | None, BeforeValidator(_tools_shorthand)] = None
    tags: list[str] | TagsRequest | None = None
    auth_configs: dict[str, str] | None = None
    connected_accounts: AccountMap | None = None
    manage_connections: ManageConnectionsRequest | None = None
    multi_account: MultiAccountConfig | None = None
    preload: PreloadConfig | None = None
    search: SearchConfig | None = None
    execute: ExecuteConfig | None = None
    workbench: WorkbenchRequest | None = None
    # Newer service blocks, sent by the official SDK 0.30 (composio-client 1.43.0 lacks them):
    instant: bool | dict[str, Any] | None = None
    proxy_execute: dict[str, Any] | None = None
    hooks: list[dict[str, Any]] | None = None


class SessionCreateRequest(_SessionConfigRequest):
    """Body of ``POST /tool_router/session``. Only ``user_id`` is required."""

    user_id: str = Field(min_length=1)
    experimental: SessionExperimentalRequest | None = None


class SessionUpdateRequest(_SessionConfigRequest):
    """Body of ``PATCH /tool_router/session/{id}``: create's blocks minus ``user_id``.

    A block set to ``None`` is sent as ``null`` and removes the stored override; given maps
    replace the stored map. ``expected_config_version`` makes the PATCH conditional (409 if stale).
    """

    experimental: SessionUpdateExperimental | None = None
    expected_config_version: int | None = Field(default=None, ge=1)


class AttachRequest(WireModel):
    """Body of ``POST .../attach``: re-send inline custom definitions to resume a session."""

    experimental: InlineCustomTools | None = None


# --------------------------------------------------------------------------- session response


class McpServer(WireModel):
    """``mcp``: the session's MCP endpoint. Treat ``url`` as opaque."""

    type: str = "http"
    url: str

    @field_validator("type")
    @classmethod
    def _lower(cls, value: str) -> str:
        return value.lower()


class ToolkitsConfig(WireModel):
    """``config.toolkits`` as read back: ``enabled`` or ``disabled`` (``enable`` also read)."""

    enabled: list[str] | None = Field(default=None, validation_alias=_either("enabled", "enable"))
    disabled: list[str] | None = Field(
        default=None, validation_alias=_either("disabled", "disable")
    )
    require_approval: list[str] | None = None
    """Newer service field: toolkits whose tools need the user's approval before they run."""


def _tags_shorthand(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return {"enabled": list(value)}
    return value


class TagsConfig(WireModel):
    """``config.tags`` as read back (a bare list is read as ``enabled``)."""

    enabled: list[str] | None = Field(default=None, validation_alias=_either("enabled", "enable"))
    disabled: list[str] | None = Field(
        default=None, validation_alias=_either("disabled", "disable")
    )
    require_approval: list[str] | None = None
    """Newer service field: tools with any of these tags need the user's approval."""


class ToolFilterConfig(WireModel):
    """``config.tools[toolkit]`` as read back: ``enabled``, ``disabled`` or ``tags``."""

    enabled: list[str] | None = Field(default=None, validation_alias=_either("enabled", "enable"))
    disabled: list[str] | None = Field(
        default=None, validation_alias=_either("disabled", "disable")
    )
    tags: Annotated[TagsConfig | None, BeforeValidator(_tags_shorthand)] = None
    require_approval: list[str] | None = None
    """Newer service field: tools of this toolkit that need the user's approval."""


class ManageConnectionsConfig(WireModel):
    """``config.manage_connections`` as read back (``enabled``; ``enable`` also read)."""

    enabled: bool | None = Field(default=None, validation_alias=_either("enabled", "enable"))
    callback_url: str | None = None
    enable_connection_removal: bool | None = None
    enable_wait_for_connections: bool | None = None


class WorkbenchConfig(WireModel):
    """``config.workbench`` as read back (``proxy_execution_enabled``; request names also read)."""

    enable: bool | None = Field(default=None, validation_alias=_either("enable", "enabled"))
    proxy_execution_enabled: bool | None = Field(
        default=None,
        validation_alias=_either("proxy_execution_enabled", "enable_proxy_execution"),
    )
    auto_offload_threshold: Count | FiniteFloat | None = None  # a number of characters
    sandbox_size: str | None = None


class SessionConfig(WireModel):
    """``config`` of a session as the service reports it."""

    user_id: str
    toolkits: ToolkitsConfig | None = None
    tools: dict[str, ToolFilterConfig] | None = None
    tags: Annotated[TagsConfig | None, BeforeValidator(_tags_shorthand)] = None
    auth_configs: dict[str, str] | None = None
    connected_accounts: AccountMap | None = None
    manage_connections: ManageConnectionsConfig | None = None
    multi_account: MultiAccountConfig | None = None
    preload: PreloadConfig | None = None
    search: SearchConfig | None = None
    execute: ExecuteConfig | None = None
    workbench: WorkbenchConfig | None = None


class SessionExperimental(WireModel):
    """``experimental`` of a session: assistive prompt (create only) and custom echoes."""

    assistive_prompt: str | None = None
    custom_tools: list[CustomToolEcho] | None = None
    custom_toolkits: list[CustomToolkitEcho] | None = None


class SessionWarning(WireModel):
    """An advisory warning on a session (the session is still usable)."""

    code: str | None = None
    message: str | None = None


class Session(WireModel):
    """A session: response of create, get, attach and PATCH."""

    session_id: str
    mcp: McpServer
    tool_router_tools: list[str] = Field(default_factory=list)
    config: SessionConfig
    config_version: Count | None = None
    experimental: SessionExperimental | None = None
    warnings: Annotated[list[SessionWarning], BeforeValidator(_none_to_list)] = Field(
        default_factory=list
    )


class ListConfigHistoryQuery(WireModel):
    """Query of ``GET .../config_history`` (``limit`` at most 100)."""

    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1, le=100)


class ConfigHistoryEntry(WireModel):
    """One stored version of a session's config (``is_current`` marks the live one)."""

    config: SessionConfig
    created_at: str | None = None
    is_current: bool | None = None
    version: Count


class ConfigHistoryPage(WireModel):
    """One page of config versions, newest first; follow ``next_cursor``."""

    items: list[ConfigHistoryEntry]
    current_page: Count | None = None
    total_items: Count | None = None
    total_pages: Count | None = None
    next_cursor: str | None = None


class SessionDeleteResult(WireModel):
    """Response of ``DELETE /tool_router/session/{id}``."""

    session_id: str
    deleted: bool


# --------------------------------------------------------------------------- execute


class ExecuteRequest(WireModel):
    """Body of ``POST .../execute``: run one app or meta tool."""

    tool_slug: str = Field(min_length=1)
    arguments: dict[str, Any] | None = None
    account: str | None = None
    enable_auto_workbench_offload: bool | None = None
    experimental: InlineCustomTools | None = None
    input_responses: dict[str, Any] | None = None
    request_state: Any = None


class ExecuteMetaRequest(WireModel):
    """Body of ``POST .../execute_meta``: run one ``COMPOSIO_*`` meta tool."""

    slug: str = Field(min_length=1)
    arguments: dict[str, Any] | None = None
    experimental: InlineCustomTools | None = None
    input_responses: dict[str, Any] | None = None
    request_state: Any = None


class ExecuteResult(WireModel):
    """Result of execute/execute_meta. A tool that ran and failed is a result, not an exception.

    Check :attr:`successful`; :attr:`error` holds the service's text when it is not.
    """

    data: Annotated[dict[str, Any], BeforeValidator(_none_to_dict)] = Field(default_factory=dict)
    error: str | None = None
    log_id: str | None = None
    result_type: str | None = None
    input_requests: dict[str, Any] | None = None
    request_state: Any = None
    reason: dict[str, Any] | None = None
    message: str | None = None
    hook_results: Any = None
    instant_charge: Any = None

    @property
    def successful(self) -> bool:
        """``result_type == "completed"`` when the service sends it, else ``error`` is empty."""
        if self.result_type is not None:
            return self.result_type == "completed"
        return not self.error


# --------------------------------------------------------------------------- link


class AclConfig(WireModel):
    """Who may use a SHARED account."""

    allow_all_users: bool | None = None
    allowed_user_ids: list[str] | None = None
    not_allowed_user_ids: list[str] | None = None


class LinkExperimental(WireModel):
    """``experimental`` of a link request/response."""

    account_type: str | None = None
    acl_config_for_shared: AclConfig | None = None


class LinkRequest(WireModel):
    """Body of ``POST .../link``: start connecting an account for a toolkit."""

    toolkit: str = Field(min_length=1)
    callback_url: str | None = None
    alias: str | None = None
    experimental: LinkExperimental | None = None


class LinkResponse(WireModel):
    """Response of ``POST .../link``: send the user to ``redirect_url``."""

    connected_account_id: str
    link_token: str | None = None
    redirect_url: str
    experimental: LinkExperimental | None = None


# --------------------------------------------------------------------------- proxy


class ProxyParameter(WireModel):
    """An extra header or query parameter for a proxied request."""

    name: str
    type: Literal["header", "query"] = "header"
    value: str


class BinaryBody(WireModel):
    """A binary upload for a proxied request: ``url`` or ``base64``."""

    url: str | None = None
    base64: str | None = None
    content_type: str | None = None


ProxyMethod = Literal["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"]


class ProxyRequest(WireModel):
    """Body of ``POST .../proxy_execute``: an authenticated raw call through a connection."""

    toolkit_slug: str = Field(min_length=1)
    endpoint: str = Field(min_length=1)
    method: ProxyMethod
    body: Any = None
    binary_body: BinaryBody | None = None
    parameters: list[ProxyParameter] | None = None
    custom_connection_data: dict[str, Any] | None = None

    @field_validator("method", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value


class ProxyBinaryData(WireModel):
    """A file returned by the upstream; download it from ``url``."""

    content_type: str | None = None
    size: Count | None = None
    url: str
    expires_at: str | None = None


class ProxyResult(WireModel):
    """Response of ``POST .../proxy_execute``: the upstream status, body and headers."""

    status: Count
    data: Any = None
    headers: Annotated[dict[str, str], BeforeValidator(_none_to_dict)] = Field(default_factory=dict)
    binary_data: ProxyBinaryData | None = None
    result_type: str | None = None
    hook_results: Any = None


# --------------------------------------------------------------------------- toolkits


class ListToolkitsQuery(WireModel):
    """Query of ``GET .../toolkits`` (``toolkits`` goes comma-joined)."""

    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1)
    is_connected: bool | None = None
    search: str | None = None
    toolkits: list[str] | None = None


class ToolkitMeta(WireModel):
    """Display data of a toolkit."""

    description: str | None = None
    logo: str | None = None


class ToolkitAuthConfig(WireModel):
    """Auth config of a toolkit's connected account."""

    id: str | None = None
    auth_scheme: str | None = None
    is_composio_managed: bool | None = None


class ToolkitConnectedAccount(WireModel):
    """The connected account a session uses for a toolkit."""

    id: str
    user_id: str | None = None
    status: str | None = None
    created_at: str | None = None
    auth_config: ToolkitAuthConfig | None = None


class ToolkitItem(WireModel):
    """One toolkit of a session."""

    slug: str
    name: str | None = None
    enabled: bool | None = Field(default=None, validation_alias=_either("enabled", "enable"))
    is_no_auth: bool | None = None
    composio_managed_auth_schemes: list[str] = Field(default_factory=list)
    meta: ToolkitMeta | None = None
    connected_account: ToolkitConnectedAccount | None = None


class _Page(WireModel):
    current_page: Count | None = None
    total_items: Count | None = None
    total_pages: Count | None = None
    next_cursor: str | None = None


class ToolkitPage(_Page):
    """One page of ``GET .../toolkits``; follow ``next_cursor`` until it is empty."""

    items: list[ToolkitItem]


# --------------------------------------------------------------------------- tools


class ListToolsQuery(WireModel):
    """Query of ``GET .../tools``."""

    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1)


class ToolToolkitRef(WireModel):
    """The toolkit a tool belongs to."""

    slug: str
    name: str | None = None
    logo: str | None = None


class ToolSchema(WireModel):
    """A tool exposed by a session, with its JSON Schemas."""

    slug: str
    name: str | None = None
    description: str | None = None
    human_description: str | None = None
    input_parameters: dict[str, Any] = Field(default_factory=dict)
    output_parameters: dict[str, Any] | None = None
    toolkit: ToolToolkitRef | None = None
    tags: list[str] = Field(default_factory=list)
    scopes: list[str] = Field(default_factory=list)
    scope_requirements: dict[str, Any] | None = None
    no_auth: bool | None = None
    version: str | None = None
    available_versions: list[str] | None = None
    is_deprecated: bool | None = None
    deprecated: dict[str, Any] | None = None


class ToolPage(_Page):
    """One page of ``GET .../tools``; follow ``next_cursor`` until it is empty."""

    items: list[ToolSchema]


# --------------------------------------------------------------------------- search


MAX_USE_CASE = 1024
"""The most characters the service reads of one search query's use case."""


class SearchQuery(WireModel):
    """One use case to search tools for."""

    use_case: str = Field(min_length=1, max_length=MAX_USE_CASE)
    known_fields: str | None = Field(default=None, max_length=500)


class SearchRequest(WireModel):
    """Body of ``POST .../search``."""

    queries: list[SearchQuery] = Field(min_length=1)
    model: str | None = None
    experimental: InlineCustomTools | None = None


class SearchResult(WireModel):
    """The answer for one query (``index`` is 1-based)."""

    index: Count | None = None
    use_case: str | None = None
    primary_tool_slugs: list[str] = Field(default_factory=list)
    related_tool_slugs: list[str] = Field(default_factory=list)
    toolkits: list[str] = Field(default_factory=list)
    difficulty: str | None = None
    error: str | None = None
    execution_guidance: str | None = None
    known_pitfalls: list[str] | None = None
    memory: dict[str, Any] | None = None
    plan_id: str | None = None
    recommended_plan_steps: list[Any] | None = None
    reference_workbench_snippets: list[dict[str, Any]] | None = None


class SearchSchemaRef(WireModel):
    """Where to fetch a schema that search did not include."""

    tool: str | None = None
    args: dict[str, Any] | None = None
    message: str | None = None


class SearchToolSchema(WireModel):
    """A tool schema returned by search (``hasFullSchema``/``schemaRef`` camelCase on the wire)."""

    tool_slug: str
    toolkit: str | None = None
    description: str | None = None
    has_full_schema: bool | None = Field(
        default=None,
        validation_alias=_either("hasFullSchema", "has_full_schema"),
        serialization_alias="hasFullSchema",
    )
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    schema_ref: SearchSchemaRef | None = Field(
        default=None,
        validation_alias=_either("schemaRef", "schema_ref"),
        serialization_alias="schemaRef",
    )


class SearchConnectionStatus(WireModel):
    """Connection status of a toolkit search found."""

    toolkit: str
    description: str | None = None
    has_active_connection: bool | None = None
    status_message: str | None = None
    account_selection: str | None = None
    account_type: str | None = None
    accounts: list[dict[str, Any]] | None = None
    connection_details: Any = None
    current_user_info: Any = None


class SearchWorkflowSession(WireModel):
    """The workflow correlation id meta tools accept (not the ``trs_`` session id)."""

    id: str | None = None
    generate_id: bool | None = None
    instructions: str | None = None


class SearchResponse(WireModel):
    """Response of ``POST .../search``: one result per query, in order."""

    success: bool = True
    error: str | None = None
    results: list[SearchResult] = Field(default_factory=list)
    tool_schemas: dict[str, SearchToolSchema] = Field(default_factory=dict)
    toolkit_connection_statuses: list[SearchConnectionStatus] = Field(default_factory=list)
    next_steps_guidance: list[str] = Field(default_factory=list)
    session: SearchWorkflowSession | None = None
    time_info: dict[str, Any] | None = None


# --------------------------------------------------------------------------- mounts


class ListMountItemsQuery(WireModel):
    """Query of ``GET .../mounts/{mount_id}/items``."""

    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1, le=500)
    mount_relative_prefix: str | None = None


class MountItem(WireModel):
    """A file in a session mount."""

    mount_relative_path: str
    sandbox_mount_prefix: str | None = None
    size: Count | None = None
    last_modified: str | None = None


class MountItemPage(WireModel):
    """One page of mount items; ``next_cursor`` absent or empty means the last page."""

    items: list[MountItem]
    next_cursor: str | None = None


class MountPathRequest(WireModel):
    """Body naming one mount file (download URL, delete)."""

    mount_relative_path: str = Field(min_length=1)


class UploadUrlRequest(MountPathRequest):
    """Body of ``POST .../upload_url``."""

    mimetype: str | None = None


class _PresignedTarget(WireModel):
    """What both presigned-URL answers say besides the URL itself."""

    expires_at: str | None = None
    mount_relative_path: str | None = None
    sandbox_mount_prefix: str | None = None


class DownloadUrl(_PresignedTarget):
    """A presigned download URL (never send the API key to it)."""

    download_url: str


class UploadUrl(_PresignedTarget):
    """A presigned upload URL: PUT the raw bytes there, without the API key."""

    upload_url: str


class MountDeleteResult(WireModel):
    """Response of ``POST .../delete`` (deleting a missing file also succeeds)."""

    mount_relative_path: str | None = None
    sandbox_mount_prefix: str | None = None
