"""The LangChain layer's public names are exported from the package root and importable."""

from __future__ import annotations

import importlib

import langchain_toolrouter

LANGCHAIN_LAYER = [
    "CustomTool",
    "CustomToolContext",
    "CustomToolkit",
    "ToolRetriever",
    "ToolRouter",
    "ToolRouterSession",
    "ToolRouterTool",
    "ToolRouterToolkit",
    "ToolSearch",
    "custom_tool",
]

MODULES = [
    "langchain_toolrouter.session",
    "langchain_toolrouter.tools",
    "langchain_toolrouter.toolkit",
    "langchain_toolrouter.search",
    "langchain_toolrouter.custom_tools",
    "langchain_toolrouter.files",
]


def test_root_exports_the_layer() -> None:
    assert set(LANGCHAIN_LAYER) <= set(langchain_toolrouter.__all__)
    for name in LANGCHAIN_LAYER:
        assert getattr(langchain_toolrouter, name) is not None


def test_each_module_lists_what_it_defines() -> None:
    for name in MODULES:
        module = importlib.import_module(name)
        for exported in module.__all__:
            assert hasattr(module, exported), f"{name}.__all__ names missing {exported}"


def test_runtime_path_does_not_import_the_emulator() -> None:
    import subprocess
    import sys

    code = (
        "import sys, langchain_toolrouter; "
        "print(any(m.startswith('langchain_toolrouter.emulator') or m == 'starlette' "
        "for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
