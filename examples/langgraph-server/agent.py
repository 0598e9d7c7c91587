"""The agent a LangGraph server serves to all your users: `ToolRouterMiddleware` gives each
run the app tools of its user's Tool Router session (the user is the one the server
authenticated, `auth.py`).

Set `AGENT_MODEL` (e.g. `openai:gpt-4o-mini`, with that provider's package and key) for a real
model; without it a scripted model saves a note, so the app runs with no model key.
"""

import os

from langchain.agents import create_agent

from langchain_toolrouter import ToolRouter, ToolRouterMiddleware

router = ToolRouter(on_connection_required="interrupt")  # COMPOSIO_API_KEY (or the emulator)
middleware = ToolRouterMiddleware(router, toolkits=["github", "gmail", "notes"])

if os.environ.get("AGENT_MODEL"):
    from langchain.chat_models import init_chat_model

    model = init_chat_model(os.environ["AGENT_MODEL"])
else:
    from langchain_toolrouter.testing import Intent, ScriptedChatModel

    model = ScriptedChatModel(
        stages=[[Intent("note", "save a value in my notes", {"key": "name", "value": "me"})]],
        answer="Saved.",
    )

graph = create_agent(model, middleware=[middleware])  # the server adds the checkpointer
