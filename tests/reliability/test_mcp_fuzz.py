"""The MCP endpoint against a few thousand random JSON-RPC messages: no 500, nothing changed.

Each message is one of: a well-formed request (any method, any id) whose params are random
JSON; a `tools/call` of `NOTES_KV_SET` storing a random value under a key of its own (read back
over REST: a call answered as a success stored exactly what was sent, a refused one stored
nothing); or the bytes of either, broken (invalid UTF-8, a byte order mark, cut short, NaN and
1e999, lone surrogates, nesting past 128 levels, an integer of 5,000 digits). Seeded: a failure
names the message that caused it, and repeats.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import create_app

MESSAGES = 3000
SEED = 30
KEY = "ak_fuzz"
V31 = "/api/v3.1/tool_router"
HEADERS = {
    "x-api-key": KEY,
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
}


@dataclass(frozen=True)
class Sent:
    """One fuzzed message: its bytes, and the key it stores under (`NOTES_KV_SET` only)."""

    body: bytes
    key: str | None = None


class Fuzzer:
    """Random JSON-RPC messages from one seed."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def text(self) -> str:
        pieces = ["a", "é", "\u2028", "😀", "\n", '"', "\\", "\x00", "\ud800", "\udfff", " "]
        return "".join(self.random.choice(pieces) for _ in range(self.random.randint(0, 6)))

    def value(self, depth: int = 0) -> Any:
        """A random JSON value (lone surrogates included: the emulator must refuse those)."""
        kind = self.random.randint(0, 8 if depth < 4 else 4)
        if kind == 0:
            return None
        if kind == 1:
            return self.random.choice([True, False])
        if kind == 2:
            return self.random.choice([0, -1, 2**53 + 1, 10**30, -(10**40)])
        if kind == 3:
            return self.random.choice([0.5, -1e-300, 1.7976931348623157e308, 3.14])
        if kind == 4:
            return self.text()
        if kind <= 6:
            return [self.value(depth + 1) for _ in range(self.random.randint(0, 3))]
        return {self.text(): self.value(depth + 1) for _ in range(self.random.randint(0, 3))}

    def request_id(self) -> Any:
        return self.random.choice(
            [1, 0, -5, 2**63, "a", "", "\ud800", "😀", None, 1.5, True, [1], {"a": 1}]
        )

    def message(self, index: int) -> Sent:
        roll = self.random.random()
        if roll < 0.45:
            key = f"k{index}"
            value = self.value()
            params = {"name": "NOTES_KV_SET", "arguments": {"key": key, "value": value}}
            request = {"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": params}
            sent = Sent(json.dumps(request).encode(), key)
        else:
            method = self.random.choice(
                ["tools/list", "tools/call", "initialize", "ping", "x/y", "notifications/x", 5]
            )
            request = {"jsonrpc": self.random.choice(["2.0", "2.0", "1.0"]), "method": method}
            if self.random.random() < 0.8:
                request["id"] = self.request_id()
            if self.random.random() < 0.7:
                request["params"] = self.value()
            sent = Sent(json.dumps(request).encode())
        if self.random.random() < 0.35:
            return Sent(self.broken(sent.body), sent.key)
        return sent

    def broken(self, body: bytes) -> bytes:
        cut = self.random.randint(0, len(body))
        return self.random.choice(
            [
                lambda: body[:cut] + b"\xff" + body[cut:],
                lambda: body[:cut] + b"\xed\xa0\x80" + body[cut:],  # a surrogate as UTF-8
                lambda: b"\xef\xbb\xbf" + body,
                lambda: body[:cut],
                lambda: body.replace(b"0.5", b"NaN").replace(b"3.14", b"1e999"),
                lambda: body.replace(b"null", b"Infinity"),
                lambda: body.replace(b'"a"', b'"\\udc00"'),
                lambda: body.replace(b"true", b"[" * 200 + b"]" * 200),
                lambda: body.replace(b"false", b"[" * 6000 + b"]" * 6000),
                lambda: body.replace(b"0,", b"9" * 5000 + b","),
                lambda: b"[" + body + b"]",  # a batch
                lambda: b"",
            ]
        )()


def _strict(text: bytes) -> Any:
    """The value a JSON text has by RFC 8259 (NaN and friends raise)."""

    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    return json.loads(text.decode("utf-8"), parse_constant=refuse)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    app = create_app(api_keys=[KEY], data_dir=tmp_path, log_size=20 * MESSAGES)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_random_messages_get_no_500_and_change_nothing_silently(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    created = client.post(f"{V31}/session", json={"user_id": "fuzz"}, headers=HEADERS)
    session_id = created.json()["session_id"]
    url = f"/tool_router/{session_id}/mcp"
    fuzzer = Fuzzer(SEED)
    stored: list[Sent] = []
    refused: list[Sent] = []
    caplog.set_level(logging.WARNING)
    for index in range(MESSAGES):
        sent = fuzzer.message(index)
        response = client.post(url, content=sent.body, headers=HEADERS)
        where = (
            f"message {index}: {sent.body[:200]!r} -> {response.status_code} {response.text[:300]}"
        )
        assert response.status_code != 500, where
        assert response.status_code in (200, 202, 400), where
        if response.status_code == 202:  # a notification: no answer
            continue
        answer = response.json()
        assert answer["jsonrpc"] == "2.0", where
        if response.status_code == 400:
            assert answer["id"] == "server-error", where
        else:
            assert answer["id"] == _strict(sent.body)["id"], where  # never changed
        if sent.key is None:
            continue
        result = answer.get("result")
        if result is not None and result.get("isError") is False:
            stored.append(sent)
        else:
            refused.append(sent)
    kv = f"{V31}/session/{session_id}/execute"
    for sent in stored:
        read = client.post(
            kv, json={"tool_slug": "NOTES_KV_GET", "arguments": {"key": sent.key}}, headers=HEADERS
        ).json()
        # What the text sent says (two surrogates side by side are one character), exactly.
        value = _strict(sent.body)["params"]["arguments"]["value"]
        assert read["data"] == {"key": sent.key, "value": value}, sent.body[:300]
    for sent in refused:
        read = client.post(
            kv, json={"tool_slug": "NOTES_KV_GET", "arguments": {"key": sent.key}}, headers=HEADERS
        ).json()
        assert "not set" in read["error"], sent.body[:300]
    assert stored  # both paths were exercised
    assert refused

    # Malformed messages are the client's to hear about: no warning, no error, no traceback.
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not noisy, [r.getMessage()[:300] for r in noisy[:5]]
