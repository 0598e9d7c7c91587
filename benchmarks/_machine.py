"""Where and when a benchmark ran: the date, the machine and its load, as its JSON keeps them.

Every benchmark's JSON carries these facts under ``"machine"``, so a figure or a chart made from
it (``scripts/charts.py``) can say which run it shows, on what, and how busy the machine was.
"""

from __future__ import annotations

import os
import platform
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


def cpu_model() -> str | None:
    """The processor's model name (Linux), or ``None`` where it cannot be read."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and value.strip():
            return " ".join(value.split())
    return None


def load_average() -> list[float] | None:
    """The 1, 5 and 15-minute load averages, or ``None`` where the system has none."""
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None


def run_facts() -> dict[str, Any]:
    """The date (UTC), the machine (processor, cores, platform, Python) and its load now."""
    return {
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_avg": load_average(),
    }
