"""Custom tools: your own Python functions (or LangChain tools) as tools of a session.

The service only ever sees a custom tool's *definition* (slug, name, description, schemas),
so its search can find it and the model can call it by its `LOCAL_...` slug. The code runs
here, in your process: when the model calls it directly, and when the model names it inside
`COMPOSIO_MULTI_EXECUTE_TOOL` (split off the service's share of the call).

    from langchain_toolrouter.custom_tools import CustomToolkit, custom_tool

    @custom_tool(extends_toolkit="github")
    def triage_label(title: str) -> dict:
        "Suggest a label for an issue title."
        return {"label": "bug" if "error" in title.lower() else "question"}

    crm = CustomToolkit("crm", "CRM", "Our customer records.", tools=[find_customer])

Slug rules (checked when a tool is defined, with an error naming the fix): a slug matches
`^[A-Za-z0-9_-]+$`, does not start with `LOCAL_` or `COMPOSIO_`, and the final slug
`LOCAL_[<TOOLKIT>_]<SLUG>` (upper-case) is at most 60 characters.

A call of a custom tool returns `{data, error, successful}`; an exception inside your
function becomes a failed result the model can read (`successful: false`), not a crash.
Arguments are checked the same way on every path (a direct tool call, multi-execute,
`session.execute`): strictly against the input schema (`"5"` is not an integer), and
refused with the same text. An argument hidden from the model (a LangChain injected argument,
the `CustomToolContext` parameter) is refused when a call sets it: only your code supplies it.

Connections: standalone tools and custom-toolkit tools need none. A tool with
`extends_toolkit="github"` inherits the user's GitHub connection, as with the official SDK:
it is not checked before your function runs (your function may not need it); its
`CustomToolContext.proxy_execute(...)` calls GitHub's API through that connection, and
without one the call raises and the model reads the service's "no active connection" text.
Use `session.authorize("github")` / `wait_for_connection` to connect first.
"""

from langchain_toolrouter.custom_tools._tool import (
    MAX_FINAL_SLUG_LENGTH,
    CustomTool,
    CustomToolContext,
    CustomToolkit,
    custom_tool,
    final_slug,
    validate_slug,
)

__all__ = [
    "MAX_FINAL_SLUG_LENGTH",
    "CustomTool",
    "CustomToolContext",
    "CustomToolkit",
    "custom_tool",
    "final_slug",
    "validate_slug",
]
