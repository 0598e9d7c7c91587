"""A chat model that follows a script, for agent and chain tests (no network, no LLM).

Each step is an `AIMessage` or a function `(messages, tool_names) -> AIMessage`, so a step
can read the previous `ToolMessage` (e.g. take the connect link out of an error) before it
answers. `bind_tools` records the tools; copies made by `bind_tools` share one script.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, ToolCall
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

Step = AIMessage | Callable[[list[BaseMessage], list[str]], AIMessage]


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


def call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    """An AI message with one tool call."""
    return AIMessage(content="", tool_calls=[ToolCall(name=name, args=args, id=call_id)])


class ScriptedChatModel(BaseChatModel):
    """Answers from a `Script`; supports `bind_tools` (records the tool names it was given)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: Script
    tool_names: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        names = [convert_to_openai_tool(t)["function"]["name"] for t in tools]
        self.script.bound.append(names)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self.script.next(messages, self.tool_names)
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self.script.next(messages, self.tool_names)
        return ChatResult(generations=[ChatGeneration(message=message)])
