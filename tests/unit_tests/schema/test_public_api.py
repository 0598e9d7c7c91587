"""The schema package's public surface and its purity (no HTTP, no LangChain)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import langchain_toolrouter.schema as schema_pkg
from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    json_schema_to_model,
)

EXPECTED_ALL = [
    "ArgsValidationError",
    "Conversion",
    "ConversionOptions",
    "ConversionReport",
    "ReportEntry",
    "SchemaConversionError",
    "clear_cache",
    "json_schema_to_model",
]


def test_all_is_pinned() -> None:
    assert sorted(schema_pkg.__all__) == sorted(EXPECTED_ALL)
    for name in EXPECTED_ALL:
        assert hasattr(schema_pkg, name)


_FORBIDDEN = ("httpx", "langchain_core", "langchain", "jsonschema")


def test_schema_package_imports_neither_httpx_nor_langchain_core() -> None:
    """Import only ``langchain_toolrouter.schema`` (the parent's __init__ pulls the client in,
    so the parent package is registered bare) and check what landed in ``sys.modules``."""
    package_dir = Path(schema_pkg.__file__).parents[1]
    code = (
        "import json, sys, types\n"
        "parent = types.ModuleType('langchain_toolrouter')\n"
        f"parent.__path__ = [{str(package_dir)!r}]\n"
        "sys.modules['langchain_toolrouter'] = parent\n"
        "import langchain_toolrouter.schema as s\n"
        "c = s.json_schema_to_model({'type': 'object', 'properties': {'a': {'type': 'string'}}}, name='t')\n"
        "c.llm_schema; c.report; c.model; c.validate({'a': 'x'})\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {_FORBIDDEN!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []


def test_schema_modules_import_only_the_schema_package() -> None:
    """A static check as well: no schema module names another langchain_toolrouter module."""
    for path in Path(schema_pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in _FORBIDDEN, f"{path.name} imports {name}"
                if name.startswith("langchain_toolrouter"):
                    assert name.startswith("langchain_toolrouter.schema"), f"{path.name}: {name}"


def test_round_trip_smoke() -> None:
    schema = {
        "type": "object",
        "properties": {"from": {"type": "integer"}, "first name": {"type": "string"}},
        "required": ["from"],
        "additionalProperties": False,
    }
    conv = json_schema_to_model(schema, name="smoke", options=ConversionOptions())
    args = {"from": 3, "first name": "Ada"}
    assert conv.validate(args) == args
    instance = conv.model.model_validate(args)
    assert conv.payload(instance) == args
    assert conv.llm_schema["properties"].keys() == {"from", "first name"}
    with pytest.raises(ArgsValidationError) as info:
        conv.validate({"from": "3"})
    assert info.value.errors[0]["path"] == "/from"
