"""JSON Schema to exact, fast LangChain-ready args models (pure: no HTTP, no LangChain).

``json_schema_to_model(schema, name=..., options=...)`` returns a lazy, cached
:class:`Conversion` with the model-facing schema (``.llm_schema``), an exact call validator
(``.validate``), a pydantic model (``.model``) and a report of everything that could not be
carried over exactly (``.report``).
"""

from langchain_toolrouter.schema.convert import Conversion, clear_cache, json_schema_to_model
from langchain_toolrouter.schema.errors import ArgsValidationError, SchemaConversionError
from langchain_toolrouter.schema.options import ConversionOptions
from langchain_toolrouter.schema.report import ConversionReport, ReportEntry

__all__ = [
    "ArgsValidationError",
    "Conversion",
    "ConversionOptions",
    "ConversionReport",
    "ReportEntry",
    "SchemaConversionError",
    "clear_cache",
    "json_schema_to_model",
]
