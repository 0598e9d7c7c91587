"""Scripted faults and the request log: how tests make the emulator misbehave and count calls.

A `FaultRule` names an operation (`"execute"`, `"create_session"`, ... or `"*"`) and says what
goes wrong: added latency, an error status (429 carries `Retry-After`), or a dropped connection
either *before* the handler runs or *after* it ran (the "response lost" case a client must not
blindly retry). Rules fire with a probability drawn from a seeded generator, or only for the first
`times` matching requests, so a run is reproducible. `Faults` is mutable while the server runs.

`RequestLog` records the latest requests the app saw (operation, method, path, `x-request-id`,
whether the handler ran, status, whether an `x-api-key` header was present), so tests can prove,
e.g., that an execute was processed exactly once or that a presigned URL never received the key.
It keeps the last `maxlen` of them (10,000 by default, `create_app(log_size=...)`).
A request is recorded before the first byte of its answer is sent (error answers and dropped
connections included), so when a client call returns, its requests are already in the log; only
a request still running after its client gave up (a timeout during injected latency) is
recorded when it ends.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_toolrouter._arguments import check_integer, check_number, describe
from langchain_toolrouter.emulator.routes import ROUTE_NAMES

__all__ = [
    "OPERATIONS",
    "FaultDecision",
    "FaultRule",
    "Faults",
    "RequestLog",
    "RequestRecord",
    "fault_rules",
]

#: Operation names a rule may target (besides "*"); they are also the request log's names.
OPERATIONS = ROUTE_NAMES

DropMode = Literal["before", "after"]


@dataclass
class FaultRule:
    """One scripted misbehaviour.

    Args:
        operation: operation name from `OPERATIONS`, or `"*"` for every request.
        status: answer this HTTP status with an error body instead of running the handler.
        retry_after: seconds for the `Retry-After` header (429 defaults to 1).
        latency: seconds to wait before handling (combined with any other effect).
        drop: `"before"` cuts the connection without running the handler; `"after"` runs the
            handler, then cuts the connection mid-response (the client never sees the result).
        probability: chance in [0, 1] that a matching request is hit (seeded, reproducible).
        times: only the first `times` matching requests can be hit; `None` means no limit.
        slug, message: what the injected error body says.
    """

    operation: str = "*"
    status: int | None = None
    retry_after: float | None = None
    latency: float = 0.0
    drop: DropMode | None = None
    probability: float = 1.0
    times: int | None = None
    slug: str = "Emulator_InjectedFault"
    message: str = "Fault injected by the emulator's fault rules."
    hits: int = field(default=0, init=False)
    seen: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.operation, str):
            raise TypeError(
                f"FaultRule.operation must be a string, got {describe(self.operation)}; use '*' "
                "or an operation name such as 'execute'"
            )
        if self.operation != "*" and self.operation not in OPERATIONS:
            known = ", ".join(sorted(OPERATIONS))
            raise ValueError(
                f"FaultRule.operation {self.operation!r} is unknown; use '*' or one of: {known}"
            )
        check_number("FaultRule.probability", self.probability, hint="e.g. probability=0.5")
        if not 0.0 <= self.probability <= 1.0:
            raise ValueError(f"FaultRule.probability must be within [0, 1], got {self.probability}")
        if self.status is not None:
            check_integer("FaultRule.status", self.status, hint="e.g. status=503")
            if not 400 <= self.status <= 599:
                raise ValueError(
                    f"FaultRule.status must be an HTTP error (400-599), got {self.status}"
                )
        if self.drop not in (None, "before", "after"):
            raise ValueError(f"FaultRule.drop must be 'before', 'after' or None, got {self.drop!r}")
        if self.status is not None and self.drop is not None:
            raise ValueError("FaultRule takes either status or drop, not both; use two rules")
        check_number("FaultRule.latency", self.latency, hint="give seconds, e.g. latency=0.5")
        if self.latency < 0:
            raise ValueError(f"FaultRule.latency must be >= 0 seconds, got {self.latency}")
        if self.retry_after is not None:
            check_number(
                "FaultRule.retry_after", self.retry_after, minimum=0, hint="give seconds, e.g. 1"
            )
            if self.status is None:
                raise ValueError(
                    "FaultRule.retry_after is only sent with an error status; give status= "
                    "too (e.g. status=429, retry_after=1) or drop retry_after"
                )
        if self.times is not None:
            check_integer("FaultRule.times", self.times, hint="a count, e.g. times=1, or None")
            if self.times < 0:
                raise ValueError(f"FaultRule.times must be >= 0 or None, got {self.times}")
        for name in ("slug", "message"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise TypeError(
                    f"FaultRule.{name} must be a string (it goes into the error body), got "
                    f"{describe(value)}"
                )

    def matches(self, operation: str) -> bool:
        """Whether this rule targets `operation`."""
        return self.operation in ("*", operation)


def fault_rules(option: str, rules: Any) -> list[FaultRule]:
    """`rules` as a list of `FaultRule`s (None is no rules; any iterable of rules is taken).

    Raises:
        TypeError: `rules` is not an iterable of `FaultRule`s (a single rule, a dict, ...),
            naming `option` and what to pass instead.
    """
    if rules is None:
        return []
    example = "e.g. [FaultRule(operation='execute', status=503)]"
    if isinstance(rules, FaultRule | str | bytes | Mapping) or not isinstance(rules, Iterable):
        raise TypeError(
            f"{option} takes a list of FaultRule, got {describe(rules)}; {example}"
            + (" (wrap the one rule in a list)" if isinstance(rules, FaultRule) else "")
        )
    taken: list[Any] = list(rules)  # any iterable of rules (a generator too), read once
    for index, rule in enumerate(taken):
        if not isinstance(rule, FaultRule):
            hint = " (build it with FaultRule(**the_dict))" if isinstance(rule, dict) else ""
            raise TypeError(
                f"{option} takes a list of FaultRule, but item {index} is {describe(rule)}"
                f"{hint}; {example}"
            )
    return taken


@dataclass(frozen=True)
class FaultDecision:
    """What the fault middleware does to one request."""

    latency: float = 0.0
    status: int | None = None
    retry_after: float | None = None
    drop: DropMode | None = None
    slug: str = ""
    message: str = ""

    @property
    def is_noop(self) -> bool:
        """True when the request is served normally."""
        return self.latency == 0 and self.status is None and self.drop is None


class Faults:
    """The mutable, seeded rule set consulted once per request."""

    def __init__(self, rules: list[FaultRule] | None = None, *, seed: int = 0) -> None:
        self._rules: list[FaultRule] = fault_rules("Faults(rules=...)", rules)
        check_integer("Faults(seed=...)", seed, hint="e.g. seed=0")
        self._random = random.Random(seed)  # noqa: S311 - reproducible faults, not security
        self._lock = threading.Lock()

    @property
    def rules(self) -> list[FaultRule]:
        """A copy of the current rules, in evaluation order."""
        with self._lock:
            return list(self._rules)

    def add(self, rule: FaultRule) -> FaultRule:
        """Append a rule (evaluated after the existing ones) and return it."""
        if not isinstance(rule, FaultRule):
            raise TypeError(
                f"Faults.add takes one FaultRule, got {describe(rule)}; e.g. "
                "faults.add(FaultRule(operation='execute', status=503))"
            )
        with self._lock:
            self._rules.append(rule)
        return rule

    def remove(self, rule: FaultRule) -> None:
        """Drop one rule; a rule that is not present is ignored."""
        with self._lock:
            if rule in self._rules:
                self._rules.remove(rule)

    def clear(self) -> None:
        """Drop every rule."""
        with self._lock:
            self._rules.clear()

    def reseed(self, seed: int) -> None:
        """Restart the probability sequence, to replay a run."""
        check_integer("Faults.reseed(seed)", seed, hint="e.g. reseed(0)")
        with self._lock:
            self._random.seed(seed)

    def decide(self, operation: str) -> FaultDecision:
        """Combine every rule that fires for `operation`: latencies add up, the first error or
        drop wins. Each matching rule draws from the seeded generator in order."""
        latency = 0.0
        effect: FaultRule | None = None
        with self._lock:
            for rule in self._rules:
                if not rule.matches(operation):
                    continue
                if rule.times is not None and rule.hits >= rule.times:
                    continue
                rule.seen += 1
                if rule.probability < 1.0 and self._random.random() >= rule.probability:
                    continue
                rule.hits += 1
                latency += rule.latency
                if effect is None and (rule.status is not None or rule.drop is not None):
                    effect = rule
        if effect is None:
            return FaultDecision(latency=latency)
        retry_after = effect.retry_after
        if effect.status == 429 and retry_after is None:
            retry_after = 1.0
        return FaultDecision(
            latency=latency,
            status=effect.status,
            retry_after=retry_after,
            drop=effect.drop,
            slug=effect.slug,
            message=effect.message,
        )


@dataclass(frozen=True)
class RequestRecord:
    """One request as the emulator saw it."""

    operation: str
    method: str
    path: str
    request_id: str | None
    processed: bool
    status: int | None
    had_api_key: bool
    fault: str | None = None


class RequestLog:
    """Thread-safe record of the latest requests (the server thread writes, the test thread
    reads), oldest first: a ring of `maxlen` records, so a long run keeps a bounded log."""

    def __init__(self, maxlen: int = 10_000) -> None:
        check_integer("RequestLog(maxlen=...)", maxlen, minimum=1, hint="e.g. maxlen=10_000")
        self.maxlen = maxlen
        self._records: deque[RequestRecord] = deque(maxlen=maxlen)
        self._lock = threading.Lock()

    def append(self, record: RequestRecord) -> None:
        """Record one request (the oldest record goes when the log is full)."""
        with self._lock:
            self._records.append(record)

    @property
    def records(self) -> list[RequestRecord]:
        """A snapshot of the records kept, oldest first."""
        with self._lock:
            return list(self._records)

    def __iter__(self) -> Iterator[RequestRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)

    def filter(
        self, operation: str | None = None, *, processed: bool | None = None
    ) -> list[RequestRecord]:
        """Records of one operation (all when None), optionally only (un)processed ones."""
        return [
            r
            for r in self.records
            if (operation is None or r.operation == operation)
            and (processed is None or r.processed == processed)
        ]

    def count(self, operation: str | None = None, *, processed: bool | None = None) -> int:
        """How many kept requests were of `operation` (or processed, with `processed=True`)."""
        return len(self.filter(operation, processed=processed))

    def clear(self) -> None:
        """Forget every record."""
        with self._lock:
            self._records.clear()
