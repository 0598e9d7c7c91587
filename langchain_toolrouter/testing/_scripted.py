"""A scripted chat model: deterministic tool calls that adapt to what the tools answer.

`ScriptedChatModel` stands in for an LLM in your agent tests, the docs, the notebooks and the demo
when no chat-model key is at hand. It is given a plan (stages of `Intent`s: "find this week's on-call engineer",
"send an email", ...) and, on every turn, decides its next message from the conversation so far
and the tools bound to it, the way a tool-calling model would:

1. it searches for tools (``COMPOSIO_SEARCH_TOOLS``) for every intent, or, without a search tool,
   picks the bound tool whose name and description best match the intent;
2. it connects the toolkits search reports as unconnected (``COMPOSIO_MANAGE_CONNECTIONS``);
3. it runs each stage's intents with the tools search found, directly when the tool is bound,
   otherwise in one ``COMPOSIO_MULTI_EXECUTE_TOOL`` call; arguments are filled by meaning from
   the tool's input schema when it knows it, and guessed when it does not;
4. after a failed call it recovers: connect the toolkit the error names, fetch the schema it
   guessed without (``COMPOSIO_GET_TOOL_SCHEMAS``) and retry, or give up after `max_attempts`;
5. it stops, answering with the tool's reason, when a tool says the user has not connected an
   account an intent needs (declined, not connected in time, or a link only the user can open:
   a `ToolNotConnectedError` answer), and when the search itself failed;
6. when every intent is done it answers in prose.

Nothing is hard-coded about slugs: change the catalog and the calls change with it. The model keeps
no state of its own; everything is read back from the messages (its tool-call ids name the intents
they serve), so the same conversation always gets the same reply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field, model_validator

__all__ = ["Intent", "ScriptedChatModel"]

SEARCH = "COMPOSIO_SEARCH_TOOLS"
GET_SCHEMAS = "COMPOSIO_GET_TOOL_SCHEMAS"
MULTI_EXECUTE = "COMPOSIO_MULTI_EXECUTE_TOOL"
MANAGE_CONNECTIONS = "COMPOSIO_MANAGE_CONNECTIONS"

Results = Mapping[str, Any]
"""What the intents done so far returned: intent key -> the tool's `data`."""

Value = Any
"""An argument value, or a callable computing it from `Results`."""

# Argument names a model treats as the same thing; used to put a value it means under the name the
# tool's schema actually uses.
_SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(group)
    for group in (
        {"to", "recipient", "recipients", "recipient_email", "to_email", "email", "email_to"},
        {"body", "text", "content", "message", "message_body"},
        {"subject", "title", "summary", "headline"},
        {"repo", "repository", "repo_name", "name"},
        {"owner", "org", "organization", "owner_name", "user"},
        {"state", "status"},
        {"labels", "label", "tags"},
        {"team", "team_name", "group", "squad"},
        {"query", "q", "search", "keywords"},
        {"key", "note_key", "id", "slug", "path"},
        {"value", "note", "content", "text"},
    )
)

_CONNECTION_WORDS = re.compile(
    r"no active connection|not connected|connect (your|the)|NoActiveConnection", re.I
)


@dataclass(frozen=True)
class Intent:
    """One thing the scripted model wants done, found by tool search.

    Args:
        key: Short name; the answer and later intents read this intent's result under it.
        use_case: What to search for, in plain words (sent as a search query).
        values: Argument values by meaning, under the names the model would guess; a value may be
            a callable that computes it from the results of earlier intents.
        guess_first: Send the guessed names on the first try even when the schema is known, as a
            hurried model does; the error that comes back drives the recovery.
    """

    key: str
    use_case: str
    values: Mapping[str, Value] = field(default_factory=dict)
    guess_first: bool = False

    def __post_init__(self) -> None:
        # The key travels in tool-call ids ("exec:3:issues,email"), read back on later turns.
        if not isinstance(self.key, str) or not self.key.strip() or set(self.key) & {":", ","}:
            msg = (
                f"Intent key must be a short non-empty name without ':' or ',', e.g. 'issues'; "
                f"got {self.key!r}"
            )
            raise ValueError(msg)
        if not isinstance(self.use_case, str) or not self.use_case.strip():
            msg = (
                f"Intent {self.key!r}: use_case must say in words what to search for, e.g. "
                f"'send an email'; got {self.use_case!r}"
            )
            raise ValueError(msg)
        if not isinstance(self.values, Mapping) or not all(
            isinstance(name, str) for name in self.values
        ):
            msg = (
                f"Intent {self.key!r}: values must map argument names to values (or to callables "
                f"of the earlier results), e.g. {{'team': 'web'}}; got {self.values!r}"
            )
            raise TypeError(msg)
        guess_first: object = self.guess_first  # typed bool, but callers may pass anything
        if not isinstance(guess_first, bool):
            msg = f"Intent {self.key!r}: guess_first takes True or False, got {guess_first!r}"
            raise TypeError(msg)


@dataclass
class _Attempt:
    slug: str
    arguments: dict[str, Any]
    ok: bool
    data: Any
    error: str


@dataclass
class _State:
    """What the conversation so far says, read back from the messages."""

    searched: bool = False
    slug_for: dict[str, str] = field(default_factory=dict)
    toolkit_of: dict[str, str] = field(default_factory=dict)
    schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    inactive: set[str] = field(default_factory=set)
    connect_asked: list[set[str]] = field(default_factory=list)
    schemas_asked: set[str] = field(default_factory=set)
    attempts: dict[str, list[_Attempt]] = field(default_factory=dict)
    search_error: str = ""
    unconnected: dict[str, str] = field(default_factory=dict)
    """Toolkit -> the tool's answer saying the user did not connect it (final for the run)."""
    blocked: dict[str, str] = field(default_factory=dict)
    """Intent key -> the answer of a call of it that the user did not connect an account for."""
    turns: int = 0

    def done(self, key: str) -> bool:
        return any(a.ok for a in self.attempts.get(key, ()))

    def results(self) -> dict[str, Any]:
        return {
            k: next(a.data for a in v if a.ok) for k, v in self.attempts.items() if self.done(k)
        }


class ScriptedChatModel(BaseChatModel):
    """A deterministic tool-calling chat model that follows a plan of `Intent`s.

    A real LangChain chat model: `bind_tools` takes any tools (it reads their JSON schemas as a
    provider model does), and it runs inside `langchain.agents.create_agent`, LangGraph's
    `ToolNode` graphs or a plain loop, sync and async. It needs no key and no network, and the
    same conversation always gets the same reply, which makes agent tests repeatable.

    Each inner list of `stages` runs in one turn (one multi-execute call, or parallel direct
    calls); later stages may use earlier results. `answer` writes the final reply from the
    results. The final message's `response_metadata["outcome"]` is `"done"`, or `"gave_up"`
    when the search failed, an intent found no tool, kept failing, or needs an account the
    user did not connect (its text says which and why, with the tool's own answer).

    Example:
        ```python
        from langchain_toolrouter.testing import Intent, ScriptedChatModel

        model = ScriptedChatModel(
            stages=[[Intent("note", "create a note", {"title": "Hello", "content": "world"})]],
            answer="Saved.",
        )
        agent_model = model.bind_tools(session.get_tools())
        ```
    """

    stages: list[list[Intent]]
    """The plan: a list of stages, each a list of `Intent`s (keys unique across the plan)."""
    answer: str | Callable[[Results], str] = "Done."
    """The final reply, or a callable writing it from the results by intent key."""
    max_attempts: int = Field(default=3, ge=1)
    """Calls per intent before the model gives up and says so (at least 1)."""

    @model_validator(mode="before")
    @classmethod
    def _check_plan(cls, data: Any) -> Any:
        """Refuse a plan the model could not follow, naming the fix (pydantic's own errors for
        `stages=[Intent(...)]` would not say that a stage is a list)."""
        if not isinstance(data, Mapping) or "stages" not in data:
            return data
        stages = data["stages"]
        if not isinstance(stages, list | tuple) or not all(
            isinstance(stage, list | tuple) and all(isinstance(i, Intent) for i in stage)
            for stage in stages
        ):
            msg = (
                "ScriptedChatModel(stages=...) takes a list of stages, each a list of Intents "
                "run in one turn, e.g. stages=[[Intent('note', 'create a note')]]; got "
                f"{stages!r}"
            )
            raise TypeError(msg)
        keys = [intent.key for stage in stages for intent in stage]
        repeated = sorted({key for key in keys if keys.count(key) > 1})
        if repeated:
            msg = (
                f"ScriptedChatModel: intent keys must be unique (results are read back by key); "
                f"repeated: {', '.join(repeated)}"
            )
            raise ValueError(msg)
        answer = data.get("answer", "Done.")
        if not isinstance(answer, str) and not callable(answer):
            msg = (
                "ScriptedChatModel(answer=...) takes the final reply as a str, or a callable "
                f"that writes it from the results by intent key; got {answer!r}"
            )
            raise TypeError(msg)
        return data

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
        """Bind tools as a provider model does: their JSON schemas reach `_generate`."""
        del tool_choice  # the script decides for itself
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        return self.bind(tools=formatted, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        tools = {t["function"]["name"]: t["function"] for t in kwargs.get("tools", [])}
        message = self._decide(messages, tools)
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._generate(messages, stop, None, **kwargs)

    # -- the policy ---------------------------------------------------------------------------

    def _intents(self) -> dict[str, Intent]:
        return {intent.key: intent for stage in self.stages for intent in stage}

    def _decide(self, messages: Sequence[BaseMessage], tools: Mapping[str, Any]) -> AIMessage:
        state = _replay(messages, self._intents())
        turn = state.turns + 1
        if not state.searched:
            if SEARCH in tools:
                queries = [{"use_case": i.use_case} for i in self._intents().values()]
                thought = f"Searching for tools for the {len(queries)} steps of the task."
                return _call(turn, "search", "", SEARCH, {"queries": queries}, thought=thought)
            _match_bound_tools(self._intents().values(), tools, state)

        pending = [i for stage in self.stages for i in stage if not state.done(i.key)]
        if not pending:
            return AIMessage(content=self._final(state), response_metadata={"outcome": "done"})
        if state.search_error and not state.slug_for:
            return _gave_up(f"I could not search for tools: {state.search_error}")

        # Connect what search says is unconnected before using it, once per toolkit.
        asked = set().union(*state.connect_asked) if state.connect_asked else set()
        needed = sorted(
            {state.toolkit_of[i.key] for i in pending if i.key in state.toolkit_of}
            & state.inactive - asked
        )
        if needed and MANAGE_CONNECTIONS in tools:
            verb = "needs" if len(needed) == 1 else "need"
            thought = f"Search says {' and '.join(needed)} {verb} a connection; connecting."
            payload = ",".join(needed)
            return _call(
                turn, "connect", payload, MANAGE_CONNECTIONS, {"toolkits": needed}, thought=thought
            )

        stage = next(s for s in self.stages if any(not state.done(i.key) for i in s))
        results = state.results()
        calls: list[tuple[Intent, str, dict[str, Any]]] = []
        thoughts: list[str] = []
        for intent in stage:
            if state.done(intent.key):
                continue
            refused = _not_connected(intent, state)
            if refused is not None:
                return _gave_up(f"I could not {intent.use_case}: {refused}")
            slug = state.slug_for.get(intent.key)
            if slug is None:
                if not tools:
                    return _gave_up(
                        f"I could not find a tool to {intent.use_case}: no tools are bound "
                        "(call model.bind_tools(tools) and invoke what it returns)."
                    )
                return _gave_up(f"I could not find a tool to {intent.use_case}.")
            tries = state.attempts.get(intent.key, [])
            if tries:
                last = tries[-1]
                if len(tries) >= self.max_attempts:
                    return _gave_up(
                        f"I could not {intent.use_case}: {last.slug} kept failing ({last.error})."
                    )
                recovery = self._recover(turn, intent, last, state, tools)
                if recovery is not None:
                    return recovery
                thoughts.append(f"{last.slug} failed ({_brief(last.error)}); fixing the arguments.")
            schema = None if intent.guess_first and not tries else state.schemas.get(slug)
            arguments = _fill(_evaluate(intent.values, results), schema)
            calls.append((intent, slug, arguments))
        if not thoughts:
            thoughts.append(f"Running {', '.join(slug for _, slug, _ in calls)}.")
        thought = " ".join(thoughts)

        if all(slug in tools for _, slug, _ in calls):
            return AIMessage(
                content=thought,
                tool_calls=[
                    ToolCall(name=slug, args=args, id=f"exec:{turn}:{intent.key}", type="tool_call")
                    for intent, slug, args in calls
                ],
            )
        if MULTI_EXECUTE in tools:
            items = [{"tool_slug": slug, "arguments": args} for _, slug, args in calls]
            keys = ",".join(intent.key for intent, _, _ in calls)
            return _call(
                turn,
                "exec",
                keys,
                MULTI_EXECUTE,
                {"tools": items, "sync_response_to_workbench": False},
                thought=thought,
            )
        missing = ", ".join(slug for _, slug, _ in calls if slug not in tools)
        return _gave_up(f"I found {missing} but I have no tool to call it with.")

    def _recover(
        self,
        turn: int,
        intent: Intent,
        last: _Attempt,
        state: _State,
        tools: Mapping[str, Any],
    ) -> AIMessage | None:
        """The next step after a failed call, or None to retry with (re-)filled arguments."""
        toolkit = state.toolkit_of.get(intent.key, "")
        if _CONNECTION_WORDS.search(last.error):
            # Connect once per such failure (plus the connect search already asked for).
            failed = sum(
                bool(_CONNECTION_WORDS.search(a.error)) for a in state.attempts[intent.key]
            )
            asked = sum(toolkit in kits for kits in state.connect_asked)
            if (
                toolkit
                and MANAGE_CONNECTIONS in tools
                and asked < failed + (toolkit in state.inactive)
            ):
                thought = f"{last.slug} needs a {toolkit} connection; connecting."
                args = {"toolkits": [toolkit]}
                return _call(turn, "connect", toolkit, MANAGE_CONNECTIONS, args, thought=thought)
            return None
        unknown = last.slug not in state.schemas and last.slug not in state.schemas_asked
        if unknown and GET_SCHEMAS in tools:
            thought = f"{last.slug} failed; fetching its input schema."
            args = {"tool_slugs": [last.slug]}
            return _call(turn, "schemas", last.slug, GET_SCHEMAS, args, thought=thought)
        return None

    def _final(self, state: _State) -> str:
        results = state.results()
        return self.answer(results) if callable(self.answer) else self.answer


# -- reading the conversation back --------------------------------------------------------------


def _not_connected(intent: Intent, state: _State) -> str | None:
    """Why the intent cannot run for want of an account the user did not connect, if so.

    The tool already did what it could (a link, a pause, a wait), so calling again would only
    ask the user again: the answer is final for the intent.
    """
    if intent.key in state.blocked:
        return state.blocked[intent.key]
    return state.unconnected.get(state.toolkit_of.get(intent.key, ""))


def _brief(error: str, limit: int = 60) -> str:
    """The gist of an error message, for the model's one-line explanations."""
    text = re.sub(r"\s+", " ", error).strip()
    match = re.search(r"Invalid arguments for \S+?:? (.*?)(?: Fix |$)", text)
    text = match.group(1) if match else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _gave_up(text: str) -> AIMessage:
    """A final answer that admits failure; `response_metadata["outcome"]` lets callers tell."""
    return AIMessage(content=text, response_metadata={"outcome": "gave_up"})


def _call(
    turn: int, kind: str, payload: str, name: str, args: dict[str, Any], *, thought: str
) -> AIMessage:
    """One tool call; its id names what it is for, so later turns can read the result back."""
    call_id = f"{kind}:{turn}:{payload}"
    return AIMessage(
        content=thought, tool_calls=[ToolCall(name=name, args=args, id=call_id, type="tool_call")]
    )


def _replay(messages: Sequence[BaseMessage], intents: Mapping[str, Intent]) -> _State:
    state = _State()
    calls: dict[str, ToolCall] = {}
    for message in messages:
        if isinstance(message, AIMessage) and message.tool_calls:
            state.turns += 1
            for call in message.tool_calls:
                if call.get("id"):
                    calls[str(call["id"])] = call
        elif isinstance(message, ToolMessage) and message.tool_call_id in calls:
            _absorb(state, calls[message.tool_call_id], message, intents)
    return state


def _payload(message: ToolMessage) -> tuple[bool, Any, str]:
    """(ok, data, error text) of a tool result, from its artifact or its text."""
    body: Any = message.artifact
    if not isinstance(body, dict):
        text = message.content if isinstance(message.content, str) else json.dumps(message.content)
        try:
            body = json.loads(text)
        except ValueError:
            body = {"data": None, "error": text if message.status == "error" else None}
        if not isinstance(body, dict):
            body = {"data": body, "error": None}
    error = body.get("error") or ""
    ok = message.status != "error" and not error and body.get("successful") is not False
    if message.status == "error" and not error:
        error = str(message.content)
    data = body.get("data", body)
    return ok, data, str(error)


def _user_did_not_connect(message: ToolMessage) -> bool:
    """True for a tool's answer that the user has not connected the account a call needs
    (the library's `ToolNotConnectedError`, read from the artifact)."""
    artifact = message.artifact
    return (
        message.status == "error"
        and isinstance(artifact, dict)
        and artifact.get("error_type") == "ToolNotConnectedError"
    )


def _absorb(
    state: _State, call: ToolCall, message: ToolMessage, intents: Mapping[str, Intent]
) -> None:
    kind, _, payload = str(call["id"]).split(":", 2)
    ok, data, error = _payload(message)
    refused = _user_did_not_connect(message)
    if kind == "search":
        state.searched = True
        if ok and isinstance(data, dict):
            _absorb_search(state, data, list(intents))
        elif not ok:
            state.search_error = error or "the search failed"
    elif kind == "connect":
        toolkits = set(payload.split(","))
        state.connect_asked.append(toolkits)
        if refused:
            state.unconnected.update(dict.fromkeys(toolkits, error))
    elif kind == "schemas":
        state.schemas_asked.add(payload)
        if ok:
            for slug, schema in _schemas_in(data).items():
                state.schemas[slug] = schema
    elif kind == "exec":
        keys = payload.split(",")
        if call["name"] == MULTI_EXECUTE:
            items = call["args"].get("tools", [])
            outcomes = _multi_outcomes(ok, data, error, len(items))
            for key, item, (item_ok, item_data, item_error) in zip(
                keys, items, outcomes, strict=False
            ):
                attempt = _Attempt(
                    item["tool_slug"], item["arguments"], item_ok, item_data, item_error
                )
                state.attempts.setdefault(key, []).append(attempt)
        else:
            attempt = _Attempt(call["name"], dict(call["args"]), ok, data, error)
            state.attempts.setdefault(keys[0], []).append(attempt)
        if refused:
            state.blocked.update(dict.fromkeys(keys, error))


def _absorb_search(state: _State, data: Mapping[str, Any], keys: list[str]) -> None:
    results = data.get("results") or []
    for position, result in enumerate(results):
        index = int(result.get("index", position + 1)) - 1
        slugs = list(result.get("primary_tool_slugs") or []) + list(
            result.get("related_tool_slugs") or []
        )
        if 0 <= index < len(keys) and slugs:
            state.slug_for[keys[index]] = slugs[0]
    for slug, info in (data.get("tool_schemas") or {}).items():
        if not isinstance(info, dict):
            continue
        if isinstance(info.get("input_schema"), dict) and info.get("hasFullSchema", True):
            state.schemas[slug] = info["input_schema"]
        toolkit = info.get("toolkit")
        for key, found in state.slug_for.items():
            if found == slug and isinstance(toolkit, str):
                state.toolkit_of[key] = toolkit.lower()
    for key, slug in state.slug_for.items():
        if key not in state.toolkit_of and not slug.startswith("LOCAL_"):
            state.toolkit_of[key] = slug.split("_", 1)[0].lower()
    for status in data.get("toolkit_connection_statuses") or []:
        if isinstance(status, dict) and status.get("has_active_connection") is False:
            state.inactive.add(str(status.get("toolkit", "")).lower())


def _schemas_in(data: Any) -> dict[str, dict[str, Any]]:
    """Input schemas in a `COMPOSIO_GET_TOOL_SCHEMAS` result, whatever its exact nesting."""
    found: dict[str, dict[str, Any]] = {}

    def walk(node: Any, slug: str | None) -> None:
        if isinstance(node, dict):
            own = node.get("tool_slug") or node.get("slug") or slug
            schema = node.get("input_schema") or node.get("input_parameters")
            if isinstance(schema, dict) and own:
                found[str(own)] = schema
                return
            for key, value in node.items():
                walk(value, key if key.isupper() else own)
        elif isinstance(node, list):
            for value in node:
                walk(value, slug)

    walk(data, None)
    return found


def _multi_outcomes(ok: bool, data: Any, error: str, count: int) -> list[tuple[bool, Any, str]]:
    """Per-item (ok, data, error) of a multi-execute result, in the order the items were sent."""
    items = data.get("results") if isinstance(data, dict) else None
    if not isinstance(items, list):
        # One local item comes back unwrapped; a refused call fails every item alike.
        return [(ok, data, error)] * count
    ordered = sorted(items, key=lambda r: int(r.get("index", 0)) if isinstance(r, dict) else 0)
    outcomes: list[tuple[bool, Any, str]] = []
    for item in ordered[:count]:
        response = item.get("response") if isinstance(item.get("response"), dict) else item
        item_error = str(item.get("error") or response.get("error") or "")
        item_ok = response.get("successful", not item_error) is not False and not item_error
        outcomes.append((item_ok, response.get("data"), item_error))
    outcomes += [(False, None, error or "no result for this item")] * (count - len(outcomes))
    return outcomes


def _match_bound_tools(intents: Iterable[Intent], tools: Mapping[str, Any], state: _State) -> None:
    """Without a search tool, pick for each intent the bound tool whose words overlap most.

    Between tools the words rank alike, the one whose schema takes more of the intent's values
    wins, as a model reading the schemas would choose.
    """
    state.searched = True
    for intent in intents:
        wanted = set(_words(intent.use_case))
        best, score = None, (0, 0)
        for name, spec in tools.items():
            if name.startswith("COMPOSIO_"):
                continue
            have = set(_words(name)) | set(_words(spec.get("description", "")))
            overlap = len(wanted & have)
            if not overlap:
                continue
            properties = (spec.get("parameters") or {}).get("properties")
            names = properties if isinstance(properties, dict) else {}
            placed = sum(1 for key in names if _match(key, intent.values) is not None)
            if (overlap, placed) > score:
                best, score = name, (overlap, placed)
        if best is not None:
            state.slug_for[intent.key] = best
            state.schemas[best] = tools[best].get("parameters") or {}


def _words(text: str) -> list[str]:
    return [w.rstrip("s") for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2]


# -- filling arguments --------------------------------------------------------------------------


def _evaluate(values: Mapping[str, Value], results: Results) -> dict[str, Any]:
    return {k: (v(results) if callable(v) else v) for k, v in values.items()}


def _fill(values: Mapping[str, Any], schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """Put each value under the schema's name for it; without a schema, send the guesses."""
    properties = (schema or {}).get("properties")
    if not isinstance(properties, dict) or not properties:
        return dict(values)
    filled: dict[str, Any] = {}
    unused = dict(values)
    for name, spec in properties.items():
        key = _match(name, unused)
        if key is None:
            continue
        filled[name] = _coerce(unused.pop(key), spec if isinstance(spec, dict) else {})
    return filled


def _match(name: str, values: Mapping[str, Any]) -> str | None:
    lowered = name.lower()
    if lowered in values:
        return lowered
    for key in values:
        if key.lower() == lowered:
            return key
    for group in _SYNONYMS:
        if lowered in group:
            for key in values:
                if key.lower() in group:
                    return key
    return None


def _coerce(value: Any, spec: Mapping[str, Any]) -> Any:
    kind = spec.get("type")
    if kind == "array" and not isinstance(value, list):
        return [value]
    if kind == "string" and isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if kind == "integer" and isinstance(value, str) and value.isdigit():
        return int(value)
    return value
