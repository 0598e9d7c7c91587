"""The wire layer: models, the operation table, and a request/response codec that does no I/O.

Nothing here knows about LangChain. ``langchain_toolrouter.client`` sends what this package builds;
the emulator reuses the models and the table to parse requests and build responses.
"""

from langchain_toolrouter.wire.codec import build_request, parse_error, parse_response
from langchain_toolrouter.wire.operations import (
    ALL_OPERATIONS,
    OPERATIONS,
    SPEC_OPERATIONS,
    Operation,
    RetryClass,
    TimeoutClass,
)
from langchain_toolrouter.wire.retry import RetryPolicy

__all__ = [
    "ALL_OPERATIONS",
    "OPERATIONS",
    "SPEC_OPERATIONS",
    "Operation",
    "RetryClass",
    "RetryPolicy",
    "TimeoutClass",
    "build_request",
    "parse_error",
    "parse_response",
]
