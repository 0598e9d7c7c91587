"""A flow's face with no service behind it: scripted answers, every step recorded.

Flows are `async def`s that do all their I/O through a face (`_session.faces`); this one
answers each client call with the next scripted answer (an exception is raised in the flow),
and never suspends, so `run_sync` drives a flow with it to its end.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_toolrouter._session.faces import SingleFlight


@dataclass(frozen=True)
class Step:
    """One step a flow asked for: a client method (by name), a sleep, or a run of twins."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


@dataclass
class ScriptedFace:
    """Answers client calls from `answers`, in order; records `steps`."""

    rt: Any = None
    answers: list[Any] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    @property
    def calls(self) -> list[Step]:
        """The client calls among the steps."""
        return [step for step in self.steps if step.name not in ("sleep", "run")]

    async def call(self, method: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        self.steps.append(Step(method.__name__, args, kwargs))
        if not self.answers:
            msg = f"the flow asked for more than was scripted: {method.__name__}{args}"
            raise AssertionError(msg)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    pages = call

    async def run(
        self,
        sync: Callable[..., Any],
        async_: Callable[..., Awaitable[Any]],
        /,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        self.steps.append(Step("run", (sync, *args), kwargs))
        return sync(*args, **kwargs)

    async def sleep(self, seconds: float) -> None:
        self.steps.append(Step("sleep", (seconds,), {}))

    async def gather(self, flows: Sequence[Coroutine[Any, Any, Any]]) -> list[Any]:
        return [await flow for flow in flows]

    async def shared(
        self, group: SingleFlight, key: Hashable, start: Callable[[], Coroutine[Any, Any, Any]]
    ) -> Any:
        return await start()
