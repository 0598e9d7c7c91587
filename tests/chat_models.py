"""Chat models for agent and chain tests: they answer from a script or from the conversation.

No network, no LLM. `ScriptedChatModel` follows a `Script` of steps in order (copies made by
`bind_tools` share one script, which records the tool names bound). `Reactive` answers
`reply(messages)`, a function of the messages so far, so one compiled agent can serve several
users (threads) at once and re-run a turn after a resume with the same answer, as a real
model's would be.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

Step = AIMessage | Callable[[list[BaseMessage], list[str]], AIMessage]
Reply = Callable[[list[BaseMessage]], AIMessage]


class _Answering(BaseChatModel):
    """A chat model whose answer is `self._answer(messages)`; `bind_tools` keeps the names."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tool_names: list[str] = Field(default_factory=list)

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        names = [convert_to_openai_tool(t)["function"]["name"] for t in tools]
        self._bound(names)
        return self.model_copy(update={"tool_names": names})

    def _bound(self, names: list[str]) -> None:
        """Called with the tool names of each `bind_tools`."""

    def _answer(self, messages: list[BaseMessage]) -> AIMessage:
        raise NotImplementedError

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._answer(messages))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._answer(messages))])


class Script:
    """The shared script: steps, position, and what the model saw at each step."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)
        self.position = 0
        self.seen: list[list[BaseMessage]] = []
        self.bound: list[list[str]] = []
        self._lock = threading.Lock()

    def next(self, messages: list[BaseMessage], tool_names: list[str]) -> AIMessage:
        with self._lock:
            if self.position >= len(self.steps):
                raise AssertionError(f"script exhausted after {self.position} steps")
            step = self.steps[self.position]
            self.position += 1
            self.seen.append(list(messages))
        return step(messages, tool_names) if callable(step) else step

    @property
    def done(self) -> bool:
        return self.position == len(self.steps)


class ScriptedChatModel(_Answering):
    """Answers the next step of its `Script`; each step may read the messages and tool names
    (e.g. take the connect link out of an error) before it answers."""

    script: Script

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _bound(self, names: list[str]) -> None:
        self.script.bound.append(names)

    def _answer(self, messages: list[BaseMessage]) -> AIMessage:
        return self.script.next(messages, self.tool_names)


class Reactive(_Answering):
    """Answers `reply(messages)`."""

    reply: Reply

    @property
    def _llm_type(self) -> str:
        return "reactive"

    def _answer(self, messages: list[BaseMessage]) -> AIMessage:
        # A message of its own each time: LangGraph gives it an id, and a reply reused with
        # that id would replace the earlier one in the state instead of being added.
        return self.reply(messages).model_copy(update={"id": None}, deep=True)


def call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    """An AI message with one tool call."""
    return calls((name, args, call_id))


def calls(*items: tuple[str, dict[str, Any], str]) -> AIMessage:
    """An AI message with these tool calls (`(name, args, id)` each)."""
    return AIMessage(
        content="",
        tool_calls=[
            ToolCall(name=name, args=args, id=i, type="tool_call") for name, args, i in items
        ],
    )


def requests_by_text(table: dict[str, AIMessage]) -> Reply:
    """A reply: the tool calls the user's request maps to, then "done" once tools answered."""

    def reply(messages: list[BaseMessage]) -> AIMessage:
        if isinstance(messages[-1], ToolMessage):
            return AIMessage(content="done: " + str(messages[-1].content)[:200])
        asked = next(m for m in reversed(messages) if isinstance(m, HumanMessage))
        return table[str(asked.content)]

    return reply
