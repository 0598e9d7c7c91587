"""The emulator's default limits, in a module that needs none of the extra's packages (the
command reads them for its help before it knows whether the extra is installed)."""

from __future__ import annotations

__all__ = ["DEFAULT_LOG_SIZE", "DEFAULT_MAX_BODY_BYTES"]

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body accepted (4 MiB); a larger one is answered 413 before it is read."""

DEFAULT_LOG_SIZE = 10_000
"""Requests the request log keeps (the oldest are dropped first)."""
