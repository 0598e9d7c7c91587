"""Import every module of the package, then prove the runtime path stays light.

Each check runs in a fresh interpreter so one import cannot hide another's side effects:
`import langchain_toolrouter` loads neither the emulator, the demo, the testing helpers nor
pytest; `langchain_toolrouter.testing` (imported by examples, not only by tests) loads neither
the emulator nor pytest; and the pytest plugin, which pytest loads in every run, loads nothing of
ours until a fixture is used.
"""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import langchain_toolrouter

EMULATOR = ("starlette", "uvicorn", "wordllama", "numpy", "langchain_toolrouter.emulator")
CHECKS = {
    "langchain_toolrouter": (
        *EMULATOR,
        "langchain_toolrouter.demo",
        "langchain_toolrouter.testing",
        "_langchain_toolrouter_pytest",
        "pytest",
    ),
    "langchain_toolrouter.testing": (*EMULATOR, "pytest", "_langchain_toolrouter_pytest"),
    "_langchain_toolrouter_pytest": (*EMULATOR, "langchain_toolrouter", "langchain_core"),
}


def _run(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def _run_all(codes: list[str]) -> None:
    """Each in a fresh interpreter, as many at once as there are cores (each is mostly the
    ~1 s of importing langchain-core); the first failure is raised."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for _ in pool.map(_run, codes):
            pass


def main() -> None:
    """Import each module alone, then check what the light entry points pull in."""
    names = [
        info.name
        for info in pkgutil.walk_packages(langchain_toolrouter.__path__, "langchain_toolrouter.")
    ]
    names.append("_langchain_toolrouter_pytest")
    _run_all([f"import {name}" for name in names])
    _run_all(
        [
            f"import sys, {module}\n"
            f"bad = [m for m in {forbidden!r} if m in sys.modules]\n"
            f"assert not bad, f'importing {module} loaded {{bad}}'\n"
            for module, forbidden in CHECKS.items()
        ]
    )
    print(f"imported {len(names)} modules; runtime path, testing helpers and pytest plugin clean")


if __name__ == "__main__":
    main()
