"""Options that change a conversion: which provider's schema dialect to target."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

__all__ = ["ConversionOptions", "StrictProvider"]

StrictProvider = Literal["openai", "gemini"]


@dataclass(frozen=True, slots=True)
class ConversionOptions:
    """How to convert a tool schema; frozen and hashable, so it is part of the cache key.

    Attributes:
        strict_provider: ``None`` (default) keeps the model-facing schema as close to the source
            as JSON Schema allows. ``"openai"`` produces a schema OpenAI's strict function
            calling accepts (every property required, optional ones nullable, closed objects,
            unsupported keywords removed); ``"gemini"`` keeps to Gemini's schema subset. Every
            change is reported, and calls are always validated against the source schema.
        recursion_depth: ``None`` keeps recursive ``$ref``s as ``$defs`` in the model-facing
            schema; an integer unrolls them that many levels instead (Gemini always unrolls,
            2 levels unless set).
        cache_key: every option's value as a plain tuple (set for you; what caches key on).
    """

    strict_provider: StrictProvider | None = None
    recursion_depth: int | None = None
    # Every field's value, computed once: the conversion caches key on this plain tuple, whose
    # hash is C-level (the dataclass ``__hash__`` is a Python call, paid on every lookup).
    cache_key: tuple[Any, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.strict_provider not in (None, "openai", "gemini"):
            raise ValueError(
                f"strict_provider must be None, 'openai' or 'gemini', got {self.strict_provider!r}"
            )
        depth = self.recursion_depth
        if depth is not None and (
            not isinstance(depth, int) or isinstance(depth, bool) or depth < 0
        ):
            raise ValueError(
                f"recursion_depth must be None or an integer >= 0, got {self.recursion_depth!r}"
            )
        key = tuple(getattr(self, f.name) for f in fields(self) if f.name != "cache_key")
        object.__setattr__(self, "cache_key", key)


DEFAULT_OPTIONS = ConversionOptions()
