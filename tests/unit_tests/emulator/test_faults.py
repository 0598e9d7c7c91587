"""Fault injection: rule validation, seeded determinism, first-N, 429, latency, drops, the log."""

from __future__ import annotations

import contextlib
import time

import pytest
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, FaultRule, Faults, create_app
from langchain_toolrouter.emulator.middleware import ConnectionDropped
from tests.unit_tests.emulator.calls import V31, asgi_get, execute, receive_nothing
from tests.unit_tests.emulator.conftest import SessionFactory


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"operation": "exec"}, "operation 'exec' is unknown"),
        ({"probability": 1.5}, "probability must be within"),
        ({"status": 200}, "status must be an HTTP error"),
        ({"status": 500, "drop": "after"}, "either status or drop"),
        ({"drop": "sometimes"}, "drop must be"),
        ({"latency": -1}, "latency must be >= 0"),
        ({"times": -1}, "times must be >= 0"),
    ],
)
def test_rules_are_validated(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FaultRule(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "exception", "message"),
    [
        # Each used to pass or fail with "'<=' not supported between 'int' and 'str'".
        (
            {"status": "503"},
            TypeError,
            r"status must be an int, got '503' \(str\); e\.g\. status=503",
        ),
        ({"status": 503.0}, TypeError, "status must be an int"),
        ({"status": True}, TypeError, "status must be an int"),
        ({"latency": "1"}, TypeError, r"latency must be a number, got '1' \(str\); give seconds"),
        ({"latency": float("inf")}, ValueError, "latency must be a finite number"),
        ({"probability": "x"}, TypeError, "probability must be a number"),
        ({"probability": float("nan")}, ValueError, "probability must be a finite number"),
        ({"times": 1.5}, TypeError, "times must be an int"),
        ({"operation": 5}, TypeError, "operation must be a string"),
        ({"status": 429, "retry_after": -1}, ValueError, "retry_after must be >= 0"),
        ({"status": 429, "retry_after": "1"}, TypeError, "retry_after must be a number"),
        ({"retry_after": 1}, ValueError, "only sent with an error status; give status="),
        ({"slug": None}, TypeError, "slug must be a string"),
        ({"message": 5}, TypeError, "message must be a string"),
    ],
)
def test_rule_fields_of_the_wrong_type_fail_at_construction(
    kwargs: dict[str, object], exception: type[Exception], message: str
) -> None:
    with pytest.raises(exception, match=message):
        FaultRule(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("faults", "message"),
    [
        ({"operation": "execute"}, r"got \{'operation'"),
        (FaultRule("execute", status=503), "wrap the one rule in a list"),
        ([{"operation": "execute"}], r"item 0 is \{'operation'.*FaultRule\(\*\*the_dict\)"),
        ([FaultRule("execute", status=503), "execute"], "item 1 is 'execute'"),
        ("execute", r"got 'execute' \(str\)"),
    ],
)
def test_faults_that_are_not_a_list_of_rules_are_refused_by_create_app(
    faults: object, message: str
) -> None:
    # They used to be accepted; then every request answered 500 "emulator bug".
    with pytest.raises(
        TypeError, match=r"create_app\(faults=\.\.\.\) takes a list of FaultRule.*" + message
    ):
        create_app(faults=faults)  # type: ignore[arg-type]


def test_faults_object_checks_its_rules_and_seed() -> None:
    with pytest.raises(TypeError, match=r"Faults\(rules=\.\.\.\) takes a list of FaultRule"):
        Faults([{"operation": "execute"}])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"Faults\(seed=\.\.\.\) must be an int"):
        Faults(seed="x")  # type: ignore[arg-type]
    faults = Faults()
    with pytest.raises(TypeError, match=r"Faults.add takes one FaultRule.*faults.add\(FaultRule"):
        faults.add({"operation": "execute"})  # type: ignore[arg-type]
    assert faults.rules == []
    rules = (FaultRule("execute", status=503),)
    assert Faults(rules).rules == list(rules)  # type: ignore[arg-type]  # a tuple is fine too


def _pattern(seed: int) -> list[bool]:
    faults = Faults([FaultRule("execute", status=503, probability=0.3)], seed=seed)
    return [faults.decide("execute").status is not None for _ in range(200)]


def test_probabilities_are_deterministic_per_seed() -> None:
    assert _pattern(1) == _pattern(1)
    assert _pattern(1) != _pattern(2)
    assert 30 <= sum(_pattern(1)) <= 90


def test_reseed_replays_the_sequence() -> None:
    faults = Faults([FaultRule(status=500, probability=0.5)], seed=3)
    first = [faults.decide("get_session").status for _ in range(20)]
    faults.reseed(3)
    assert [faults.decide("get_session").status for _ in range(20)] == first


def test_first_n_times_and_operation_matching() -> None:
    faults = Faults()
    rule = faults.add(FaultRule("create_session", status=500, times=2))
    assert faults.decide("get_session").is_noop
    assert [faults.decide("create_session").status for _ in range(3)] == [500, 500, None]
    assert rule.hits == 2
    faults.clear()
    assert faults.rules == []


def test_latencies_add_up_and_first_effect_wins() -> None:
    faults = Faults(
        [
            FaultRule(latency=0.1),
            FaultRule("execute", latency=0.2, status=502),
            FaultRule(status=500),
        ]
    )
    decision = faults.decide("execute")
    assert decision.latency == pytest.approx(0.3)
    assert decision.status == 502


def test_injected_429_carries_retry_after(
    client: TestClient, state: EmulatorState, new_session: SessionFactory
) -> None:
    session_id = new_session()
    state.faults.add(FaultRule("get_session", status=429, times=1))
    limited = client.get(f"{V31}/session/{session_id}", headers={"x-request-id": "rid-1"})
    assert limited.status_code == 429
    assert limited.headers["retry-after"] == "1"
    error = limited.json()["error"]
    assert (error["status"], error["request_id"]) == (429, "rid-1")
    assert client.get(f"{V31}/session/{session_id}").status_code == 200
    custom = state.faults.add(FaultRule("get_session", status=429, retry_after=7.5, times=1))
    assert client.get(f"{V31}/session/{session_id}").headers["retry-after"] == "7.5"
    assert custom.hits == 1


def test_error_status_is_not_processed_and_is_logged(
    client: TestClient, state: EmulatorState, new_session: SessionFactory
) -> None:
    session_id = new_session()
    state.log.clear()
    state.faults.add(FaultRule("execute", status=503, times=1))
    assert execute(client, session_id, "NOTES_CREATE_NOTE", {"title": "x"}).status_code == 503
    assert execute(client, session_id, "NOTES_LIST_NOTES").json()["data"]["total"] == 0
    records = state.log.filter("execute")
    assert [(r.processed, r.status, r.fault) for r in records] == [
        (False, 503, "status 503"),
        (True, 200, None),
    ]
    assert state.log.count("execute", processed=True) == 1


def test_latency_delays_the_response(
    client: TestClient, state: EmulatorState, new_session: SessionFactory
) -> None:
    session_id = new_session()
    state.faults.add(FaultRule("list_tools", latency=0.2))
    started = time.monotonic()
    assert client.get(f"{V31}/session/{session_id}/tools").status_code == 200
    assert time.monotonic() - started >= 0.2


def test_drop_after_runs_the_handler_then_loses_the_response(
    client: TestClient, state: EmulatorState, new_session: SessionFactory
) -> None:
    session_id = new_session()
    state.faults.add(FaultRule("execute", drop="after", times=1))
    with pytest.raises(ConnectionDropped):
        execute(client, session_id, "NOTES_CREATE_NOTE", {"title": "lost reply"})
    notes = execute(client, session_id, "NOTES_LIST_NOTES").json()["data"]["notes"]
    assert [n["title"] for n in notes] == ["lost reply"]
    first = state.log.filter("execute")[0]
    assert (first.processed, first.fault) == (True, "drop after")


def test_drop_before_never_runs_the_handler(
    client: TestClient, state: EmulatorState, new_session: SessionFactory
) -> None:
    session_id = new_session()
    state.faults.add(FaultRule("execute", drop="before", times=1))
    with pytest.raises(ConnectionDropped):
        execute(client, session_id, "NOTES_CREATE_NOTE", {"title": "never"})
    assert execute(client, session_id, "NOTES_LIST_NOTES").json()["data"]["notes"] == []
    assert state.log.filter("execute")[0].processed is False


def test_rules_given_to_create_app_apply() -> None:
    app = create_app(api_keys=["k"], faults=[FaultRule("create_session", status=500)])
    with TestClient(app, headers={"x-api-key": "k"}) as client:
        assert client.post(f"{V31}/session", json={"user_id": "u"}).status_code == 500


def test_log_records_unknown_routes_and_keys(client: TestClient, state: EmulatorState) -> None:
    state.log.clear()
    client.get("/nowhere")
    (record,) = state.log.records
    assert (record.operation, record.method, record.path, record.status, record.had_api_key) == (
        "unknown",
        "GET",
        "/nowhere",
        404,
        True,
    )


@pytest.mark.parametrize(
    ("path", "rule", "status", "logged"),
    [
        ("/api/v3.1/tool_router/session/trs_nope", None, 404, 404),
        (
            "/api/v3.1/tool_router/session/trs_nope",
            FaultRule(operation="get_session", status=503),
            503,
            503,
        ),
        (
            "/api/v3.1/tool_router/session/trs_nope",
            FaultRule(operation="get_session", drop="before"),
            200,
            None,
        ),
        ("/nowhere", None, 404, 404),
    ],
)
async def test_a_request_is_logged_before_any_of_its_answer_is_sent(
    path: str, rule: FaultRule | None, status: int, logged: int | None
) -> None:
    # A client may act on the status line alone (a raise_for_status hook), so the record must
    # exist when the response head leaves, not only when the body ends.
    app = create_app(api_keys=["k"], faults=[rule] if rule else [])
    state: EmulatorState = app.state.emulator
    seen_at_start: list[int] = []
    scope = asgi_get(path, (b"x-api-key", b"k"))

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start":
            seen_at_start.append(len(state.log))
            assert message["status"] == status

    with contextlib.suppress(ConnectionDropped):
        await app(scope, receive_nothing, send)  # type: ignore[arg-type]
    assert seen_at_start == [1]
    [record] = state.log.records
    assert record.status == logged


def test_any_iterable_of_rules_is_taken() -> None:
    from langchain_toolrouter.emulator import create_app

    rules = (rule for rule in [FaultRule(operation="execute", status=503)])
    create_app(faults=rules)  # a generator: read once, as a list would be
