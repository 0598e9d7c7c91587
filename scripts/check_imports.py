"""Import every module of the package, then prove the runtime path stays light.

Each check runs in a fresh interpreter so one import cannot hide another's side effects.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import langchain_toolrouter

RUNTIME_MUST_NOT_LOAD = ("starlette", "uvicorn", "bm25s", "langchain_toolrouter.emulator")


def _run(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def main() -> None:
    """Import each module alone, then check what `import langchain_toolrouter` pulls in."""
    names = [
        info.name
        for info in pkgutil.walk_packages(langchain_toolrouter.__path__, "langchain_toolrouter.")
    ]
    for name in names:
        _run(f"import {name}")
    _run(
        "import sys, langchain_toolrouter\n"
        f"bad = [m for m in {RUNTIME_MUST_NOT_LOAD!r} if m in sys.modules]\n"
        "assert not bad, f'the runtime import path loaded {bad}'\n"
    )
    print(f"imported {len(names)} modules; runtime path clean")


if __name__ == "__main__":
    main()
