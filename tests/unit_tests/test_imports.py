"""The public surface is exactly what we mean it to be, and the pure layers stay pure."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib.metadata import entry_points, version

import pytest

import langchain_toolrouter

EXPECTED_ALL = [
    "AsyncToolRouterClient",
    "CustomTool",
    "CustomToolContext",
    "CustomToolkit",
    "ToolRetriever",
    "ToolRouter",
    "ToolRouterClient",
    "ToolRouterMiddleware",
    "ToolRouterSession",
    "ToolRouterTool",
    "ToolRouterToolkit",
    "ToolSearch",
    "__version__",
    "connect_links",
    "custom_tool",
]


NEEDS_LANGCHAIN = {"ToolRouterMiddleware"}  # the [langgraph] extra


def test_all_is_pinned() -> None:
    assert sorted(langchain_toolrouter.__all__) == sorted(EXPECTED_ALL)
    have_langchain = importlib.util.find_spec("langchain") is not None
    for name in EXPECTED_ALL:
        if name in NEEDS_LANGCHAIN and not have_langchain:
            with pytest.raises(ImportError, match=r"langchain-toolrouter\[langgraph\]"):
                getattr(langchain_toolrouter, name)
            continue
        assert getattr(langchain_toolrouter, name) is not None


BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
"""


def test_the_middleware_without_its_extra_names_the_install() -> None:
    script = BLOCK.format(blocked={"langchain"}) + (
        "try:\n"
        "    from langchain_toolrouter import ToolRouterMiddleware\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert "ToolRouterMiddleware needs langchain>=1.3 and langgraph" in out
    assert "pip install 'langchain-toolrouter[langgraph]'" in out


def test_version_matches_installed_metadata() -> None:
    assert langchain_toolrouter.__version__ == version("langchain-toolrouter")


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return set(out.split())


EMULATOR = ("langchain_toolrouter.emulator", "starlette", "uvicorn", "wordllama", "numpy")


def test_runtime_import_never_loads_the_emulator_the_demo_or_the_test_helpers() -> None:
    loaded = _loaded_after("import langchain_toolrouter")
    for forbidden in (
        *EMULATOR,
        "langchain_toolrouter.demo",
        "langchain_toolrouter.testing",
        "_langchain_toolrouter_pytest",
        "pytest",
    ):
        assert forbidden not in loaded, f"importing the library loaded {forbidden}"


def test_the_wire_layer_loads_no_langchain() -> None:
    """`wire/` is h11-shaped: requests and answers without I/O, and without LangChain. The
    package's door loads its names lazily, so importing one layer loads only what it uses."""
    for statement in (
        "import langchain_toolrouter.wire",
        "from langchain_toolrouter.wire import codec, models, operations, retry",
        "import langchain_toolrouter.client",
        "import langchain_toolrouter.emulator",
    ):
        loaded = _loaded_after(statement)
        lc = sorted(m for m in loaded if m.split(".")[0] in ("langchain_core", "langchain"))
        assert lc == [], f"{statement!r} loaded {lc[:5]}"


def test_every_error_shows_under_its_public_door() -> None:
    """Errors live below the layers that raise them and are shown (and pickled) as
    `langchain_toolrouter.errors.X`, where the docs say to import them from."""
    import langchain_toolrouter.errors as errors

    for name in errors.__all__:
        value = getattr(errors, name)
        if isinstance(value, type) and not name.endswith(
            ("ArgsValidationError", "SchemaConversionError")
        ):
            assert value.__module__ == "langchain_toolrouter.errors", name


def test_the_testing_helpers_load_neither_the_emulator_nor_pytest() -> None:
    """Examples import ScriptedChatModel outside tests, where neither may be installed."""
    loaded = _loaded_after("from langchain_toolrouter.testing import Intent, ScriptedChatModel")
    for forbidden in (*EMULATOR, "pytest", "_langchain_toolrouter_pytest"):
        assert forbidden not in loaded, f"importing langchain_toolrouter.testing loaded {forbidden}"


def test_testing_exports_are_pinned() -> None:
    import langchain_toolrouter.testing as testing

    assert sorted(testing.__all__) == ["Intent", "ScriptedChatModel"]


def test_the_pytest_plugin_is_registered_and_loads_nothing_of_ours() -> None:
    """pytest loads the plugin in every run where the package is installed: until a test asks
    for a fixture, it must cost nothing (the library alone takes a good part of a second)."""
    plugins = {e.name: e.value for e in entry_points(group="pytest11")}
    assert plugins.get("langchain_toolrouter") == "_langchain_toolrouter_pytest"
    loaded = _loaded_after("import _langchain_toolrouter_pytest")
    ours = sorted(m for m in loaded if m.startswith("langchain_"))
    assert ours == [], f"the pytest plugin loaded {ours}"
    for forbidden in EMULATOR[1:]:
        assert forbidden not in loaded, f"the pytest plugin loaded {forbidden}"
