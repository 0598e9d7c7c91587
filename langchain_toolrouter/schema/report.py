"""What a conversion could not carry over exactly: one entry per change, with a JSON pointer.

Every departure from the source schema lands here, so nothing is changed silently:

- ``renamed``: a property's Python field name differs from its wire name (the wire and the
  model-facing schema keep the original name; only the pydantic attribute is different);
- ``approximated``: a construct was read in the closest standard way (``type: "dict"`` as
  ``"object"``, a recursive ``$ref`` kept in ``$defs``, an optional field made nullable for a
  strict provider...);
- ``dropped``: a keyword could not be honoured and was removed (an uncompilable ``pattern``, an
  unresolvable ``$ref``, a keyword a strict provider rejects...).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = ["ConversionReport", "ReportEntry", "ReportKind"]

ReportKind = Literal["renamed", "approximated", "dropped"]


@dataclass(frozen=True, slots=True)
class ReportEntry:
    """One change made while converting; ``pointer`` is a JSON pointer into the source schema."""

    kind: ReportKind
    pointer: str
    reason: str

    def __str__(self) -> str:
        return f"{self.kind} at {self.pointer or '(root)'}: {self.reason}"


@dataclass(frozen=True, slots=True)
class ConversionReport:
    """All changes of one conversion; falsy (and empty) when the conversion is exact."""

    entries: tuple[ReportEntry, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[ReportEntry]:
        return iter(self.entries)

    def of_kind(self, kind: ReportKind) -> tuple[ReportEntry, ...]:
        """The entries of one kind, in the order they were recorded."""
        return tuple(e for e in self.entries if e.kind == kind)

    def __str__(self) -> str:
        if not self.entries:
            return "exact conversion: nothing renamed, approximated or dropped"
        return "\n".join(str(e) for e in self.entries)
