"""schemathesis against the emulator's own `/openapi.json`: no server error, and every answer
as its operation's schema says (status, content type, body).

Seeded and bounded (`MAX_EXAMPLES` cases per operation, derandomized): positive and negative
cases for each API operation under v3.1 (v3 is the same handlers), on a fresh session each,
in-process. The reliability run's 59,722 requests are the same checks, longer.
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import create_app

MAX_EXAMPLES = 40
KEY = "ak_schemathesis"
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]

app = create_app(api_keys=[KEY])
#: Not entered: the API routes need no lifespan (it runs the MCP endpoint, not tested here).
sessions = TestClient(app, headers={"x-api-key": KEY})
schema = schemathesis.openapi.from_asgi("/openapi.json", app).include(path_regex=r"^/api/v3\.1/")


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_emulator_answers_as_its_openapi_document_says(case: schemathesis.Case) -> None:
    # A session that exists, so that cases reach the handlers rather than a 404.
    if case.path_parameters and "session_id" in case.path_parameters:
        created = sessions.post("/api/v3.1/tool_router/session", json={"user_id": "st"})
        case.path_parameters["session_id"] = created.json()["session_id"]
        if "mount_id" in case.path_parameters:
            case.path_parameters["mount_id"] = "files"
    case.call_and_validate(headers={"x-api-key": KEY}, checks=CHECKS)
