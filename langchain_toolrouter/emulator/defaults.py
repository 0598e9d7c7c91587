"""The emulator's default limits, in a module that needs none of the extra's packages (the
command reads them for its help before it knows whether the extra is installed)."""

from __future__ import annotations

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_KEEP_ALIVE_TIMEOUT",
    "DEFAULT_LOG_SIZE",
    "DEFAULT_MAX_BODY_BYTES",
]

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body accepted (4 MiB); a larger one is answered 413 before it is read."""

DEFAULT_LOG_SIZE = 10_000
"""Requests the request log keeps (the oldest are dropped first)."""

DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's head (from its opening, or from the first
byte after a pause between requests); then it is closed. Tighter than nginx's 60 s."""

DEFAULT_BODY_TIMEOUT = 30.0
"""Seconds a request's whole body may take to arrive after its head; then the connection is
closed (logged as a 408). A 100 MB upload needs under 2 s on loopback."""

DEFAULT_KEEP_ALIVE_TIMEOUT = 5.0
"""Seconds an idle connection is kept open between two requests (uvicorn's default)."""
