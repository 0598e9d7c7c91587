"""The README, which is also the package's long description on the package index."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
REPOSITORY = "https://github.com/langchain-toolrouter/langchain-toolrouter"


def long_description() -> str:
    readme = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return (ROOT / readme["readme"]).read_text(encoding="utf-8")


def link_targets(markdown: str) -> list[str]:
    """Where the links and images of a Markdown text point (inline, reference and HTML)."""
    inline = re.findall(r"\]\(\s*<?([^)\s>]+)", markdown)
    references = re.findall(r"(?m)^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", markdown)
    html = re.findall(r"""(?:href|src)\s*=\s*["']([^"']+)""", markdown)
    return inline + references + html


def test_every_link_of_the_long_description_works_off_github() -> None:
    """On the package index a relative link (docs/..., notebooks/, #a-heading) leads nowhere."""
    targets = link_targets(long_description())
    assert targets, "no links found: the pattern is out of date"
    relative = [t for t in targets if not re.match(r"(https?|mailto):", t)]
    assert relative == [], f"relative links in the long description: {relative}"
    ours = [t for t in targets if t.startswith(REPOSITORY + "/")]
    assert all(re.match(rf"{REPOSITORY}/(blob|tree)/main/", t) for t in ours), ours


def test_the_link_finder_sees_every_kind_of_link() -> None:
    text = '[a](docs/a.md) [b](<https://x.org/b>) ![c](img.png)\n[d]: ../d.md\n<a href="#e">'
    assert link_targets(text) == ["docs/a.md", "https://x.org/b", "img.png", "../d.md", "#e"]


def test_the_set_up_is_two_commands_a_demo_and_a_check_with_the_quick_one_beside_it() -> None:
    readme = long_description()
    setup = readme.split("**Set-up: two commands**", 1)[1]
    block = setup.split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2, commands
    assert commands[0].endswith("python -m langchain_toolrouter demo")
    assert commands[1].endswith("bash scripts/check.sh")
    prose = setup.split("```", 2)[2].split("\n## ", 1)[0]
    assert "`python -m pytest tests`" in prose  # the quick command, for the tests alone
    assert "minutes" in prose  # how long the whole check takes


def test_the_quickstart_is_short() -> None:
    """The Quickstart: one agent for every user in at most 25 lines of code (the docs test
    runs it against the emulator), with no helper for the reader to write."""
    readme = long_description()
    section = readme[
        readme.index("## Quickstart") : readme.index("## ", readme.index("## Quickstart") + 3)
    ]
    (code,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    lines = [
        line for line in code.splitlines() if line.strip() and not line.strip().startswith("#")
    ]
    assert len(lines) <= 25, len(lines)
    assert "def " not in code
