"""Helpers for agent tests: a chat model that answers from the conversation, and log readers.

`Reactive` is a tool-calling chat model whose every reply is a function of the messages so far,
so one compiled agent can serve several users (threads) at once and re-run a turn after a
resume with the same answer, as a real model's would be.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import ConfigDict

from langchain_toolrouter.emulator import EmulatorServer

Reply = Callable[[list[BaseMessage]], AIMessage]


class Reactive(BaseChatModel):
    """Answers `reply(messages)`; `bind_tools` returns the model itself."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    reply: Reply

    @property
    def _llm_type(self) -> str:
        return "reactive"

    def bind_tools(
        self, tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool], **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._fresh(messages))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._fresh(messages))])

    def _fresh(self, messages: list[BaseMessage]) -> AIMessage:
        # A message of its own each time: LangGraph gives it an id, and a reply reused with
        # that id would replace the earlier one in the state instead of being added.
        return self.reply(messages).model_copy(update={"id": None}, deep=True)


def calls(*items: tuple[str, dict[str, Any], str]) -> AIMessage:
    """An AI message with these tool calls (`(name, args, id)` each)."""
    return AIMessage(
        content="", tool_calls=[ToolCall(name=name, args=args, id=i) for name, args, i in items]
    )


def requests_by_text(table: dict[str, AIMessage]) -> Reply:
    """A reply: the tool calls the user's request maps to, then "done" once tools answered."""

    def reply(messages: list[BaseMessage]) -> AIMessage:
        if isinstance(messages[-1], ToolMessage):
            return AIMessage(content="done: " + str(messages[-1].content)[:200])
        asked = next(m for m in reversed(messages) if isinstance(m, HumanMessage))
        return table[str(asked.content)]

    return reply


def tool_messages(result: dict[str, Any]) -> list[ToolMessage]:
    """The tool messages of an agent run's state."""
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def executes(server: EmulatorServer, session_id: str) -> list[int | None]:
    """The statuses of the execute requests of one session, in order."""
    return [
        record.status
        for record in server.log
        if record.operation == "execute" and session_id in record.path
    ]


def creates(server: EmulatorServer) -> int:
    """How many sessions were created so far."""
    return sum(1 for record in server.log if record.operation == "create_session")
