"""Client settings: explicit argument, then ``COMPOSIO_*`` environment variables, then defaults.

The API key is held as a :class:`pydantic.SecretStr` and never rendered. Settings are resolved
once, when a client is built, so a missing key fails at construction, not as a 401 later.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import re
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Final, Union
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import SecretStr

from langchain_toolrouter._exceptions import ConfigurationError

__all__ = [
    "API_VERSIONS",
    "DEFAULT_API_VERSION",
    "DEFAULT_BASE_URL",
    "DEFAULT_DEADLINE_FACTOR",
    "DEFAULT_EXECUTE_TIMEOUT",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_TIMEOUT",
    "UNSET",
    "TimeoutTypes",
    "ToolRouterSettings",
    "Unset",
    "logger",
    "to_timeout",
]

logger = logging.getLogger("langchain_toolrouter")

DEFAULT_BASE_URL: Final = "https://backend.composio.dev"
DEFAULT_API_VERSION: Final = "v3"
API_VERSIONS: Final = ("v3", "v3.1")
DEFAULT_CONNECT_TIMEOUT: Final = 5.0
DEFAULT_TIMEOUT: Final = httpx.Timeout(30.0, connect=DEFAULT_CONNECT_TIMEOUT)
"""Every operation except tool execution: 30 s to read, 5 s to connect."""
DEFAULT_EXECUTE_TIMEOUT: Final = httpx.Timeout(180.0, connect=DEFAULT_CONNECT_TIMEOUT)
"""execute, execute_meta and proxy_execute run real tools (sandbox cells run up to 180 s)."""
DEFAULT_MAX_RESPONSE_BYTES: Final = 64 * 1024 * 1024
"""Largest answer read (decoded bytes): far above the service's largest answers (a page of
tools with their schemas is a few MB; a tool's big result is offloaded or a file URL)."""
DEFAULT_DEADLINE_FACTOR: Final = 2.0
"""Without ``attempt_deadline``, an attempt may take this many times its read timeout in all."""

ENV_API_KEY: Final = "COMPOSIO_API_KEY"
ENV_BASE_URL: Final = "COMPOSIO_BASE_URL"
ENV_API_VERSION: Final = "COMPOSIO_API_VERSION"


class Unset(Enum):
    """Marks "not given", so that ``timeout=None`` can mean "no timeout"."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset.UNSET

TimeoutTypes = Union[float, httpx.Timeout, None]  # noqa: UP007 (a runtime alias on 3.10)
"""A timeout in seconds (connect capped at 5 s), an ``httpx.Timeout``, or None for no timeout."""


def _bad_seconds(value: object, *, zero: bool = False) -> bool:
    """Not a usable number of seconds: not a number (bools are not), NaN, infinite, or <= 0
    (< 0 when ``zero`` is allowed: an httpx phase of 0, e.g. ``pool=0``, means "do not wait")."""
    return (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < 0
        or (value == 0 and not zero)
    )


def to_timeout(value: TimeoutTypes, name: str = "timeout") -> httpx.Timeout:
    """Normalise a user timeout; a number bounds every phase, connect at most 5 s.

    Args:
        value: seconds, an ``httpx.Timeout`` or None (no timeout).
        name: the argument the value came from, named in the error.

    Raises:
        ConfigurationError: not one of those, or a number (or an ``httpx.Timeout`` phase) that
            is not finite and positive.
    """
    accepted = (
        f"{name} must be a positive, finite number of seconds, an httpx.Timeout or None "
        "(no timeout)"
    )
    if isinstance(value, httpx.Timeout):
        phases = value.as_dict()
        bad = {
            phase: v for phase, v in phases.items() if v is not None and _bad_seconds(v, zero=True)
        }
        if bad:
            shown = ", ".join(f"{phase}={v!r}" for phase, v in bad.items())
            raise ConfigurationError(
                f"{accepted}; got an httpx.Timeout with {shown}. Give each phase a finite "
                "number of seconds >= 0, or None for no limit on that phase."
            )
        return value
    if value is None:
        return httpx.Timeout(None)
    if _bad_seconds(value):
        hint = " (for no timeout pass None)" if value == math.inf else ""
        raise ConfigurationError(f"{accepted}; got {value!r}{hint}")
    return httpx.Timeout(float(value), connect=min(float(value), DEFAULT_CONNECT_TIMEOUT))


def _max_bytes(value: int | Unset | None) -> int | None:
    """``max_response_bytes``: a positive int, or None for no limit."""
    if isinstance(value, Unset):
        return DEFAULT_MAX_RESPONSE_BYTES
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigurationError(
            "max_response_bytes must be a positive int, the largest answer read in bytes "
            f"(default {DEFAULT_MAX_RESPONSE_BYTES:,}), or None for no limit; got {value!r}"
        )
    return value


def _deadline(value: float | Unset | None) -> float | Unset | None:
    """``attempt_deadline``: positive finite seconds, None for none, UNSET for the default."""
    if isinstance(value, Unset) or value is None:
        return value
    if _bad_seconds(value):
        hint = " (for no deadline pass None)" if value == math.inf else ""
        raise ConfigurationError(
            "attempt_deadline must be a positive, finite number of seconds, None (no "
            f"deadline) or left out (twice each call's read timeout); got {value!r}{hint}"
        )
    return float(value)


def _check_text(value: object, name: str, env: str, *, show: bool = True) -> None:
    """An explicit setting that must be a string (None means "not given")."""
    if value is not None and not isinstance(value, str):
        got = (
            f"{value!r} ({type(value).__name__})"
            if show
            else f"a value of type {type(value).__name__}"
        )
        raise ConfigurationError(
            f"{name} must be a string (or None to read {env}); got {got}. Pass it as text, "
            f"e.g. {name}=str(value)."
        )


_warned_http_hosts: set[str] = set()
# The Tool Router API path a base URL must not end with (the client adds it): /api/v3, /api/v3.1
# (a gateway of its own, such as https://gw.example/api/v1/composio, is a fine base)
_API_PATH = re.compile(r"/api/v3(?:\.\d+)?(?:/tool_router)?/?$")


def _is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _normalise_base_url(raw: str) -> str:
    text = raw.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError as exc:
        raise ConfigurationError(
            f"base URL {raw!r} is malformed ({exc}); use an absolute http(s) URL such as "
            f"{DEFAULT_BASE_URL!r}. Pass base_url=... or set {ENV_BASE_URL}."
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(
            f"base URL must be an absolute http(s) URL such as {DEFAULT_BASE_URL!r}; got "
            f"{raw!r}. Pass base_url=... or set {ENV_BASE_URL}."
        )
    if parts.username or parts.password:
        raise ConfigurationError(
            f"base URL must not contain credentials; pass the key as api_key or set {ENV_API_KEY}."
        )
    if parts.query or parts.fragment:
        raise ConfigurationError(f"base URL must not have a query or fragment; got {raw!r}")
    api_path = _API_PATH.search(parts.path)
    if api_path is not None:
        # The client adds /api/<version>/... itself: this base would double it (a 404).
        raise ConfigurationError(
            f"base URL {raw!r} already has the API path {api_path.group(0)!r}; pass the "
            f"server's address without it, such as "
            f"{urlunsplit((parts.scheme, parts.netloc, parts.path[: api_path.start()], '', ''))!r}"
            " (the version comes from api_version)"
        )
    if parts.scheme == "http" and not _is_loopback(parts.hostname):
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in _warned_http_hosts:
            _warned_http_hosts.add(origin)
            logger.warning(
                "base URL %s is plain http to a non-loopback host: the API key will travel "
                "unencrypted. Use https unless this is a trusted test network.",
                origin,
            )
    return text


@dataclass(frozen=True)
class ToolRouterSettings:
    """Resolved client settings (build with :meth:`resolve`).

    Attributes:
        api_key: the project API key, sent only as ``x-api-key`` to ``base_url``'s origin.
        base_url: service root without trailing slash, e.g. ``https://backend.composio.dev``.
        api_version: ``v3`` (the default) or ``v3.1`` (what the official client uses).
        timeout: default timeout of every operation.
        execute_timeout: timeout of execute, execute_meta and proxy_execute.
        max_response_bytes: largest answer read, in decoded bytes (None: no limit).
        attempt_deadline: seconds one attempt may take, from sending the request to the last
            byte of its answer (None: no deadline; UNSET: twice the call's read timeout).
    """

    api_key: SecretStr = field(repr=False)
    base_url: str = DEFAULT_BASE_URL
    api_version: str = DEFAULT_API_VERSION
    timeout: httpx.Timeout = field(default_factory=lambda: DEFAULT_TIMEOUT)
    execute_timeout: httpx.Timeout = field(default_factory=lambda: DEFAULT_EXECUTE_TIMEOUT)
    max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES
    attempt_deadline: float | Unset | None = UNSET

    @classmethod
    def resolve(
        cls,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        api_version: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        execute_timeout: TimeoutTypes | Unset = UNSET,
        max_response_bytes: int | Unset | None = UNSET,
        attempt_deadline: float | Unset | None = UNSET,
    ) -> ToolRouterSettings:
        """Argument first, then ``COMPOSIO_API_KEY``/``COMPOSIO_BASE_URL``/``COMPOSIO_API_VERSION``.

        Raises:
            ConfigurationError: no key anywhere; a key, base URL or version that is not a
                string; an explicit empty base URL; or an unusable base URL, version, timeout,
                size limit or deadline.
        """
        if not isinstance(api_key, SecretStr):
            # The value is not shown: a key of the wrong type may still be a secret.
            _check_text(api_key, "api_key", ENV_API_KEY, show=False)
        _check_text(base_url, "base_url", ENV_BASE_URL)
        _check_text(api_version, "api_version", ENV_API_VERSION)
        key = api_key.get_secret_value() if isinstance(api_key, SecretStr) else api_key
        if key is None:
            key = os.environ.get(ENV_API_KEY)
        key = (key or "").strip()
        if not key:
            raise ConfigurationError(
                f"no Composio API key: pass api_key=... or set the {ENV_API_KEY} environment "
                "variable (project keys start with 'ak_'; find yours in the Composio dashboard). "
                "To run offline, start the emulator (`toolrouter-emulator`, from the [emulator] "
                f"extra) and set {ENV_BASE_URL}=http://127.0.0.1:8765 "
                f"{ENV_API_KEY}=ak_emulator_local."
            )
        if not all("!" <= char <= "~" for char in key):
            # Said without the key: an encoding error's repr would carry the whole value.
            raise ConfigurationError(
                f"the Composio API key (from api_key=... or {ENV_API_KEY}) contains a space, a "
                "control or a non-ASCII character; copy the key again from the dashboard."
            )
        # An explicit "" is a value (refused), not "not given": only None falls back.
        if base_url is not None and not base_url.strip():
            raise ConfigurationError(
                f"base_url is empty; pass the service root such as {DEFAULT_BASE_URL!r}, or "
                f"leave base_url out (None) to use {ENV_BASE_URL} or the default."
            )
        url = base_url if base_url is not None else os.environ.get(ENV_BASE_URL) or DEFAULT_BASE_URL
        version = (
            api_version
            if api_version is not None
            else os.environ.get(ENV_API_VERSION) or DEFAULT_API_VERSION
        ).strip()
        if version not in API_VERSIONS:
            raise ConfigurationError(
                f"api_version must be one of {', '.join(API_VERSIONS)}; got {version!r}. "
                f"Pass api_version=... or set {ENV_API_VERSION}."
            )
        return cls(
            api_key=SecretStr(key),
            base_url=_normalise_base_url(url),
            api_version=version,
            timeout=DEFAULT_TIMEOUT if isinstance(timeout, Unset) else to_timeout(timeout),
            execute_timeout=(
                DEFAULT_EXECUTE_TIMEOUT
                if isinstance(execute_timeout, Unset)
                else to_timeout(execute_timeout, "execute_timeout")
            ),
            max_response_bytes=_max_bytes(max_response_bytes),
            attempt_deadline=_deadline(attempt_deadline),
        )

    @cached_property
    def origin(self) -> tuple[str, str, int | None]:
        """(scheme, host, port) of the base URL: the only place the key may be sent."""
        url = httpx.URL(self.base_url)
        return (url.scheme, url.host, url.port)

    @property
    def api_root(self) -> str:
        """Absolute URL every operation path is appended to, e.g. ``.../api/v3``."""
        return f"{self.base_url}/api/{self.api_version}"
