"""schemathesis against the emulator's own `/openapi.json`: no server error, and every answer
as its operation's schema says (status, content type, body).

Seeded and bounded (`MAX_EXAMPLES` cases per operation, derandomized): positive and negative
cases for each API operation under v3.1 (v3 is the same handlers), on a fresh session each,
against an emulator on loopback (schemathesis' own in-process ASGI client differs from one 4.x
release to the next). The reliability run's 59,722 requests are the same checks, longer.
"""

from __future__ import annotations

import httpx
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from langchain_toolrouter.emulator import EmulatorServer

MAX_EXAMPLES = 40
KEY = "ak_schemathesis"
checks.load_all_checks()  # by name, as every 4.x release registers them
CHECKS = checks.CHECKS.get_by_names(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    ]
)

#: One emulator for the module's cases, started when the module is collected and stopped at exit.
server = EmulatorServer(api_keys=[KEY]).__enter__()
sessions = httpx.Client(base_url=server.base_url, headers={"x-api-key": KEY})
document = sessions.get("/openapi.json").json()
schema = schemathesis.openapi.from_dict(document).include(path_regex=r"^/api/v3\.1/")


def teardown_module() -> None:
    sessions.close()
    server.__exit__(None, None, None)


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
    case.call_and_validate(base_url=server.base_url, headers={"x-api-key": KEY}, checks=CHECKS)
