"""Every Python example in README.md and docs/ runs as written, page by page, against the emulator.

A reader copies a page's examples into one script, so that is how they run here: the ```python
blocks of a page execute in order in one namespace, as ``__main__``, in an empty temporary
directory, with ``COMPOSIO_BASE_URL`` and ``COMPOSIO_API_KEY`` set to an emulator started for the
page, and nothing else prepared. So every page is complete in itself: it defines its ``model``
(the public ``ScriptedChatModel`` where no key is at hand), creates its router and session, and
closes what it opens; top-level ``await`` is not Python, so async examples use ``asyncio.run``.

For contributors: a block that cannot run here is marked by an HTML comment on the line before its
fence (invisible on GitHub and in the site):

- ``<!-- docs-test: compile-only -->``: the block needs what CI does not have (a real Composio
  key, a chat-model provider's package or key); it is compiled, not run.
- ``<!-- docs-test: pytest -->``: the block is a test module; it is run with pytest (the
  package's fixtures available) and its tests must pass.

After each page: no scripted model gave up, the agent pages end with their task done, and the
page stopped every emulator it started. ``gc.collect()`` runs inside the test, so a resource the
page left open warns here (warnings are errors in this suite).
"""

from __future__ import annotations

import gc
import re
import textwrap
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.wire.retry import set_waits_enabled

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
MODES = ("run", "compile-only", "pytest")
# Pages whose agent must finish its task against the emulator.
AGENT_PAGES = {
    "README.md",
    "docs/getting-started.md",
    "docs/how-to/agent.md",
    "docs/how-to/connections-in-agents.md",
    "docs/how-to/multi-user.md",
}

# Pages kept by others whose examples do not close what they open yet (their ToolRouter): run,
# but not held to closing.
LEAVES_OPEN: set[str] = set()

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
_MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<mode>\S+)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    """One ```python block: where it starts (the line after its fence) and how it is tested."""

    line: int
    code: str
    mode: str


def python_blocks(text: str, where: str = "<page>") -> list[Block]:
    """The page's Python blocks in order, dedented to their fence, with their markers."""
    lines = text.splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, indent = opening["fence"], opening["indent"]
        end = index + 1
        while end < len(lines) and not re.match(
            rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}\s*$", lines[end]
        ):
            end += 1
        if opening["info"].lower() in ("python", "py"):
            body = [line.removeprefix(indent) for line in lines[index + 1 : end]]
            blocks.append(Block(index + 2, "\n".join(body) + "\n", _mode(lines, index, where)))
        elif _mode(lines, index, where) != "run":
            raise ValueError(f"{where}:{index + 1}: a docs-test marker on a non-Python block")
        index = end + 1
    return blocks


def _mode(lines: list[str], fence_index: int, where: str) -> str:
    previous = next((line for line in reversed(lines[:fence_index]) if line.strip()), "")
    marker = _MARKER.match(previous)
    if marker is None:
        return "run"
    if marker["mode"] not in MODES[1:]:
        raise ValueError(
            f"{where}:{fence_index}: unknown marker 'docs-test: {marker['mode']}'; use "
            f"{' or '.join(MODES[1:])}"
        )
    return marker["mode"]


def _pages() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [page for page in pages if python_blocks(page.read_text(encoding="utf-8"))]


def _outcomes(value: Any, depth: int = 0) -> Iterator[str]:
    """The scripted model's outcomes ("done", "gave_up") in the page's final messages."""
    if isinstance(value, AIMessage) and "outcome" in value.response_metadata:
        yield str(value.response_metadata["outcome"])
    elif depth > 2:
        return
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _outcomes(item, depth + 1)
    elif isinstance(value, dict) and isinstance(value.get("messages"), list):
        yield from _outcomes(value["messages"], depth + 1)


def _emulator_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "toolrouter-emulator" and t.is_alive()}


@pytest.fixture(scope="module", autouse=True)
def _collector_sees_only_the_pages() -> Iterator[None]:
    """What earlier tests left for the garbage collector is not a page's doing; freezing what is
    alive now also keeps each page's `gc.collect()` to the page's own objects (a full collection
    of the test process takes a noticeable part of a second)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture
def _no_retry_waits() -> Iterator[None]:
    """Retries still run (an example may show one), without sleeping between attempts."""
    set_waits_enabled(False)
    yield
    set_waits_enabled(True)


@pytest.mark.usefixtures("_no_retry_waits")
@pytest.mark.parametrize("page", _pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_the_examples_of_a_page_run_as_written(
    page: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    name = str(page.relative_to(ROOT))
    blocks = python_blocks(page.read_text(encoding="utf-8"), name)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    monkeypatch.chdir(tmp_path)
    before = _emulator_threads()
    with EmulatorServer() as server:
        monkeypatch.setenv("COMPOSIO_BASE_URL", server.base_url)
        monkeypatch.setenv("COMPOSIO_API_KEY", server.api_key)
        ours = _emulator_threads() - before
        for block in blocks:
            # Padded so that a traceback names the page's own line numbers.
            code = compile("\n" * (block.line - 1) + block.code, str(page), "exec")
            if block.mode == "run":
                exec(code, namespace)
            elif block.mode == "pytest":
                pytester: pytest.Pytester = request.getfixturevalue("pytester")
                test_file = pytester.path / f"test_{page.stem.replace('-', '_')}_{block.line}.py"
                test_file.write_text(block.code, encoding="utf-8")
                pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
                result = pytester.runpytest_inprocess(str(test_file), "-p", "no:cacheprovider")
                result.assert_outcomes(passed=len(re.findall(r"(?m)^def test_", block.code)))
        left_running = _emulator_threads() - before - ours
        outcomes = list(_outcomes(list(namespace.values())))
        with warnings.catch_warnings():
            if name in LEAVES_OPEN:
                warnings.simplefilter("ignore", ResourceWarning)
            namespace.clear()  # a socket or client the page left open warns now,
            gc.collect()  # or once the collector breaks its cycles
    assert not left_running, f"{name} started an EmulatorServer and did not stop it"
    assert "gave_up" not in outcomes, f"a scripted model on {name} gave up"
    if name in AGENT_PAGES:
        assert "done" in outcomes, f"the agent on {name} did not finish its task"


def test_blocks_markers_and_outcomes_are_read_as_written() -> None:
    text = textwrap.dedent(
        """\
        # Page

        ```python
        a = 1
        ```

        <!-- docs-test: compile-only -->
        ```python
        import some_provider
        ```

        - a list item:

            ```py
            b = a + 1
            ```

        ```bash
        echo not python
        ```
        """
    )
    blocks = python_blocks(text)
    assert [(b.line, b.code, b.mode) for b in blocks] == [
        (4, "a = 1\n", "run"),
        (9, "import some_provider\n", "compile-only"),
        (15, "b = a + 1\n", "run"),
    ]
    done, gave_up = (
        AIMessage("ok", response_metadata={"outcome": "done"}),
        AIMessage("no", response_metadata={"outcome": "gave_up"}),
    )
    namespace_values = [done, [gave_up], {"messages": [done]}, "text"]
    assert list(_outcomes(namespace_values)) == ["done", "gave_up", "done"]
    with pytest.raises(ValueError, match="unknown marker 'docs-test: skip'"):
        python_blocks("<!-- docs-test: skip -->\n```python\nx = 1\n```\n")
    with pytest.raises(ValueError, match="marker on a non-Python block"):
        python_blocks("<!-- docs-test: compile-only -->\n```bash\nls\n```\n")
