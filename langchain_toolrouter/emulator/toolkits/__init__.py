"""The built-in toolkits; each module builds its `TOOLKIT` from `emulator.definitions` alone."""

from __future__ import annotations

from langchain_toolrouter.emulator.definitions import Toolkit
from langchain_toolrouter.emulator.toolkits import calendar, github, mail, notes

__all__ = ["BUILT_IN"]

#: The default catalog's toolkits, in listing order.
BUILT_IN: tuple[Toolkit, ...] = (github.TOOLKIT, mail.TOOLKIT, calendar.TOOLKIT, notes.TOOLKIT)
