"""``json_schema_to_model``: a tool's JSON Schema to a lazy :class:`Conversion`.

Pipeline, each step its own module, each run at most once per distinct schema and options:

1. ``normalize`` (eager, cheap): the source schema read as standard 2020-12 JSON Schema (the
   *effective* schema, a fresh copy: standard subtrees are checked and copied in one walk),
   with a report entry for every non-standard form it had to interpret.
2. ``llm`` (+ ``providers``) on first ``.llm_schema``/``.report``: the model-facing schema.
3. ``validator`` on first ``.validate``: the schema as it was at conversion time (re-read
   from the cache key) normalized and compiled to closures.
4. ``model`` on first ``.model``: the pydantic view, gated by the same validator.

Calls are validated by the compiled validator and the payload sent is a deep copy of the
caller's own JSON, so it equals what was given; pydantic never coerces what goes on the wire.

Caching (``cache``): the same schema object is found by identity, an equal schema from another
session by a serialization of its content (the cache key, which is also the record of what was
converted); both map to one shared :class:`ConversionCore`, and each tool name gets its own
light :class:`Conversion` over it. Nothing is shared with the caller's schema: editing it (or a
returned ``llm_schema``) never changes what is validated, and an identity hit counts only while
the schema still equals what was converted.
"""

from __future__ import annotations

import contextlib
import copy
import threading
import warnings
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from langchain_toolrouter.schema.cache import canonical_key, content_of, snapshot
from langchain_toolrouter.schema.errors import ArgsValidationError, SchemaConversionError
from langchain_toolrouter.schema.llm import inline_refs
from langchain_toolrouter.schema.model import ArgsModel, build_model
from langchain_toolrouter.schema.naming import field_names
from langchain_toolrouter.schema.normalize import Normalized, normalize
from langchain_toolrouter.schema.options import DEFAULT_OPTIONS, ConversionOptions
from langchain_toolrouter.schema.placeholders import PlaceholderNulls
from langchain_toolrouter.schema.pointers import iter_subschemas, join, to_pointer
from langchain_toolrouter.schema.providers import adapt_for_provider
from langchain_toolrouter.schema.report import ConversionReport, ReportEntry
from langchain_toolrouter.schema.validator import Check, Issue, accept_any, compile_schema
from langchain_toolrouter.schema.values import NotJSONError, json_copy

__all__ = ["Conversion", "ConversionCore", "clear_cache", "json_schema_to_model"]


# One validator is compiled at a time (a compile holds the GIL nearly throughout anyway); one
# lock for all cores instead of one allocated per schema on the load path.
_COMPILE_LOCK = threading.Lock()


class ConversionCore:
    """The name-independent part of a conversion, shared by every tool with the same schema."""

    __slots__ = (
        "_check",
        "_check_entries",
        "_has_refs",
        "_key",
        "_llm",
        "_placeholders",
        "_pristine",
        "_renames",
        "effective_schema",
        "normalize_entries",
        "options",
    )

    def __init__(
        self, schema: Mapping[str, Any], options: ConversionOptions, key: bytes | str
    ) -> None:
        # The effective schema is a fresh copy (normalize shares nothing with ``schema``).
        # ``key`` (the schema's content at conversion time) is what the validator is compiled
        # from, so not even an edit to the returned model-facing schema can change what calls
        # are accepted; a key that is not bytes (JSON text) comes with a private deep copy.
        self._key = key
        self._pristine = None if isinstance(key, bytes) else copy.deepcopy(dict(schema))
        normalized = _normalize_isolated(schema)
        self.effective_schema: dict[str, Any] = normalized.schema
        self.normalize_entries = tuple(normalized.entries)
        self._has_refs = normalized.has_refs
        self._renames: tuple[ReportEntry, ...] | None = None
        self.options = options
        # With nothing to inline or adapt, the effective schema is the model-facing one.
        self._llm: tuple[dict[str, Any], tuple[ReportEntry, ...]] | None = (
            None
            if self._has_refs or options.strict_provider is not None
            else (self.effective_schema, ())
        )
        self._check: Check | None = None
        self._check_entries: tuple[ReportEntry, ...] = ()  # why calls go unchecked, if they do
        self._placeholders: PlaceholderNulls | None = None

    @property
    def llm(self) -> tuple[dict[str, Any], tuple[ReportEntry, ...]]:
        if self._llm is None:
            try:
                schema, entries = self._model_facing(self.effective_schema, self._has_refs)
            except Exception as exc:
                # Degrade as normalize and the validator do, rather than fail loading the tool
                # (and every tool loaded with it).
                entry = _degraded(
                    _why(exc, "build its model-facing form", "could not be shown to the model"),
                    "the model sees an object with any properties",
                    stacklevel=3,
                )
                schema, entries = self._model_facing({"type": "object"}, False)
                entries = [entry, *entries]
            self._llm = (schema, tuple(entries))
        return self._llm

    def _model_facing(
        self, schema: dict[str, Any], has_refs: bool
    ) -> tuple[dict[str, Any], list[ReportEntry]]:
        """``schema`` with its refs inlined and adapted to the strict provider, if any."""
        opts = self.options
        entries: list[ReportEntry] = []
        if has_refs:
            bounded = opts.recursion_depth
            if opts.strict_provider == "gemini" and bounded is None:
                bounded = 2
            schema, entries = inline_refs(schema, bounded=bounded)
        if opts.strict_provider is not None:
            schema, more = adapt_for_provider(schema, opts.strict_provider)
            entries = entries + more
        return schema, entries

    @property
    def renames(self) -> tuple[ReportEntry, ...]:
        if self._renames is None:
            self._renames = tuple(_rename_entries(self.effective_schema))
        return self._renames

    @property
    def placeholders(self) -> PlaceholderNulls | None:
        """The null-placeholder cleaner, for conversions that target OpenAI strict mode."""
        if self.options.strict_provider != "openai":
            return None
        if self._placeholders is None:
            self._placeholders = PlaceholderNulls(self.effective_schema)
        return self._placeholders

    def converted_content(self) -> Any:
        """A fresh copy of the source schema as it was when converted."""
        if isinstance(self._key, bytes):
            return content_of(self._key)
        return copy.deepcopy(self._pristine)

    def still_converts(self, schema: Mapping[str, Any]) -> bool:
        """Whether ``schema`` still has exactly the content this core was converted from."""
        return canonical_key(schema) == self._key

    @property
    def check(self) -> Check:
        if self._check is None:
            with _COMPILE_LOCK:
                if self._check is None:
                    try:
                        pristine = normalize(self.converted_content())
                    except Exception:  # reported (and warned about) by the first normalization
                        pristine = Normalized(self.effective_schema, [], has_refs=True)
                    try:
                        self._check = compile_schema(
                            pristine.schema,
                            integer_by_type=pristine.integer_by_type,
                            formats=pristine.formats,
                        )
                    except RecursionError as exc:
                        # Compiling takes frames per level: a schema read at load may not
                        # compile on a first call made deeper in the stack (or, before Python
                        # 3.12, at all). Degrade as normalize does, rather than fail every call.
                        self._check_entries = (
                            _degraded(
                                _why(exc, "compile its validator", ""), _UNCHECKED, stacklevel=4
                            ),
                        )
                        self._check = accept_any  # any object: validate made sure
        return self._check


class Conversion:
    """One tool schema converted: model-facing schema, call validator, pydantic model, report.

    Everything is built lazily and shared through the cache; treat returned schemas as
    read-only (they are shared between conversions of equal schemas).
    """

    __slots__ = ("_core", "_model", "name")

    def __init__(self, core: ConversionCore, name: str) -> None:
        self._core = core
        self.name = name
        self._model: type[ArgsModel] | None = None

    def __repr__(self) -> str:
        return f"Conversion(name={self.name!r}, report={len(self.report)} entries)"

    @property
    def options(self) -> ConversionOptions:
        """The options this conversion was made with."""
        return self._core.options

    @property
    def effective_schema(self) -> dict[str, Any]:
        """The source schema read as standard JSON Schema 2020-12: what calls are checked against.

        One thing 2020-12 cannot say: under a declared draft-04, ``integer`` also refuses
        ``1.0``, and calls are checked that way (``Normalized.integer_by_type``).
        """
        return self._core.effective_schema

    @property
    def llm_schema(self) -> dict[str, Any]:
        """The model-facing JSON Schema (original names, ``$ref``s inlined).

        Editing it changes neither the caller's schema nor what calls are accepted, but it is
        shared by every conversion of an equal schema (a copy per tool would cost a deep copy
        on every first build): copy it before editing.
        """
        llm = self._core._llm
        return (llm if llm is not None else self._core.llm)[0]

    @property
    def report(self) -> ConversionReport:
        """Everything renamed, approximated or dropped, each with a JSON pointer and a reason.

        A validator that cannot be compiled (a schema a few hundred levels deep) is found at
        the first call: from then on the report says so too.
        """
        core = self._core
        return ConversionReport(
            core.normalize_entries + core.llm[1] + core.renames + core._check_entries
        )

    @property
    def model(self) -> type[BaseModel]:
        """The pydantic v2 args model (built on first access; validation is exact, see model.py)."""
        if self._model is None:
            self._model = build_model(
                self.name, self.effective_schema, self.validate, self.llm_schema
            )
        return self._model

    def validate(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Check a call's arguments; return the exact payload to send (a deep copy of them).

        With ``strict_provider="openai"``, a call the source schema rejects is checked again
        without the ``null`` placeholders strict mode makes the model send for optional
        properties (see ``placeholders``); a call it accepts is always sent as given.

        Raises:
            ArgsValidationError: the arguments break the schema; ``.errors`` lists each path.
        """
        if not isinstance(payload, Mapping):
            raise ArgsValidationError(
                [
                    {
                        "path": "",
                        "message": f"got {type(payload).__name__}",
                        "expected": "an object of named arguments",
                    }
                ],
                tool=self.name,
            )
        try:
            copied: dict[str, Any] = json_copy(dict(payload))
        except NotJSONError as exc:
            raise ArgsValidationError(
                [
                    {
                        "path": to_pointer(exc.path),
                        "message": exc.detail,
                        "expected": "a plain JSON value",
                    }
                ],
                tool=self.name,
            ) from None
        check = self._core.check
        issues: list[Issue] = []
        try:
            ok = check(copied, (), issues)
            placeholders = self._core.placeholders
            if not ok and placeholders is not None:
                # Only a call the source schema rejects can hold strict-mode placeholders: a
                # call it accepts is sent exactly as given, nulls included.
                cleaned = placeholders.clean(copied, self.effective_schema)
                if cleaned is not copied:
                    issues = []
                    ok = check(cleaned, (), issues)
                    copied = cleaned
        except RecursionError:  # a recursive schema deeper than the stack: refuse, never crash
            ok, issues = (
                False,
                [Issue((), "the value is nested too deeply to check", "less nesting")],
            )
        if not ok:
            raise ArgsValidationError(
                [i.as_dict() for i in issues]
                or [
                    {
                        "path": "",
                        "message": "the arguments do not match the schema",
                        "expected": "arguments matching the tool schema",
                    }
                ],
                tool=self.name,
            )
        return copied

    def payload(self, instance: BaseModel) -> dict[str, Any]:
        """The exact wire payload for a validated model instance (original names, nothing added)."""
        if (
            isinstance(instance, ArgsModel)
            and instance._wire_payload is not None
            and instance._wire_owner == id(instance)  # not a model_copy(update=...) of it
        ):
            return instance.wire_payload()
        if not isinstance(instance, BaseModel):
            raise TypeError(
                f"payload() takes an instance of this conversion's .model, got "
                f"{type(instance).__name__}; check a dict of arguments with validate()"
            )
        dumped = instance.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return self.validate(dumped)


def _normalize_isolated(schema: Mapping[str, Any]) -> Normalized:
    """``normalize``, except that a failure inside an object schema degrades instead of raising.

    One tool's odd schema must never stop the others from loading: the tool then accepts any
    JSON object, and the report and a warning say why.
    """
    try:
        return normalize(schema)
    except SchemaConversionError:
        raise
    except Exception as exc:  # a converter bug must not break loading every other tool
        entry = _degraded(_why(exc, "read", "could not be converted"), _UNCHECKED, stacklevel=4)
        return Normalized({"type": "object"}, [entry], has_refs=False)


_UNCHECKED = "the tool accepts any JSON object and calls are not checked"


def _why(exc: BaseException, task: str, failed: str) -> str:
    """Why ``task`` failed with ``exc``: a schema too deep for the stack, or our bug."""
    if isinstance(exc, RecursionError):
        return (
            f"is nested too deeply to {task} (more levels than Python's recursion limit allows; "
            "flatten it, e.g. with $defs and $ref for repeated parts)"
        )
    return f"{failed} ({type(exc).__name__}: {exc}; please report this schema)"


def _degraded(why: str, outcome: str, *, stacklevel: int) -> ReportEntry:
    """Warn that a tool schema is degraded (``the schema <why>; <outcome>``); its report entry."""
    reason = f"the schema {why}; {outcome}"
    warnings.warn(f"tool schema degraded: {reason}", RuntimeWarning, stacklevel=stacklevel + 1)
    return ReportEntry("dropped", "", reason)


def _rename_entries(schema: Any) -> list[ReportEntry]:
    """A ``renamed`` entry for every property whose Python attribute differs from its name."""
    out: list[ReportEntry] = []
    for node, here in iter_subschemas(schema, ""):
        props = node.get("properties")
        if isinstance(props, dict):
            for prop, (attr, why) in field_names(props).items():
                if why is not None:
                    out.append(
                        ReportEntry(
                            "renamed",
                            join(join(here, "properties"), prop),
                            f"property {prop!r} {why}: the pydantic attribute is {attr!r}; "
                            f"wire and model-facing name stay {prop!r} (alias)",
                        )
                    )
    return out


# (content key, options) -> the core and its light per-name conversions, least recently used
# first. The cache entry, not the core, holds the conversions: each conversion holds its core,
# and a cycle between them would outlive ``clear_cache`` and eviction until a garbage
# collection. Used without a lock: each OrderedDict operation is atomic, and a race between
# two threads costs at most a second conversion of the same schema.
_CORES: OrderedDict[
    tuple[bytes | str, tuple[Any, ...]], tuple[ConversionCore, dict[str, Conversion]]
] = OrderedDict()
_CORES_MAX = 4096
# (id, options, name) -> (the schema object, its conversion, a snapshot of its content once it
# was asked for again)
_BY_IDENTITY: dict[tuple[int, tuple[Any, ...], str], list[Any]] = {}
_IDENTITY_MAX = 8192


def json_schema_to_model(
    schema: Mapping[str, Any], *, name: str, options: ConversionOptions | None = None
) -> Conversion:
    """Convert a tool's input JSON Schema; cached, and lazy beyond reading the schema once.

    Args:
        schema: the tool's ``input_schema`` (any JSON object; non-standard forms are read
            as closely as possible and reported).
        name: the tool name (used for the model class name and in error messages).
        options: see :class:`ConversionOptions`.

    Raises:
        SchemaConversionError: ``schema`` is not an object schema at all (not a mapping, or a
            ``type`` that excludes objects), or is nested too deeply to read. Nothing else
            about the schema raises: what cannot be honoured is degraded and reported.
        TypeError: ``name`` is not a string, or ``options`` not a ``ConversionOptions``.
    """
    if options is None:
        opts = DEFAULT_OPTIONS
    elif isinstance(options, ConversionOptions):
        opts = options
    else:
        raise TypeError(
            f"options must be a ConversionOptions, got {type(options).__name__}; "
            'e.g. ConversionOptions(strict_provider="openai")'
        )
    if type(name) is not str and not isinstance(name, str):
        raise TypeError(
            f"name must be a string (the tool's name, used in errors and as the model's class "
            f"name), got {type(name).__name__}"
        )
    ident = (id(schema), opts.cache_key, name)
    hit = _BY_IDENTITY.get(ident)
    # An identity hit counts only while the schema still equals what was converted: a schema
    # edited in place is converted again. The first hit compares cache keys and keeps a
    # snapshot; later hits compare with it (``==`` is a C-level walk, ~1 us for most schemas).
    if hit is not None and hit[0] is schema:
        copied = hit[2]
        if copied is not None:
            try:
                if schema == copied:
                    return hit[1]  # type: ignore[no-any-return]
            except RecursionError:  # too deep to compare here: found by its key below
                pass
        elif hit[1]._core.still_converts(schema):
            # Too deep to copy: every repeat compares keys instead.
            with contextlib.suppress(RecursionError):
                hit[2] = snapshot(schema)
            return hit[1]  # type: ignore[no-any-return]
    raw: Any = schema
    if type(raw) is not dict and not isinstance(raw, Mapping):
        normalize(raw)  # raises the SchemaConversionError that explains the problem
    key = canonical_key(schema)
    content = (key, opts.cache_key)
    entry = _CORES.get(content)
    if entry is None:
        entry = _CORES[content] = (ConversionCore(schema, opts, key), {})
        if len(_CORES) > _CORES_MAX:
            with contextlib.suppress(KeyError):  # emptied by another thread meanwhile
                _CORES.popitem(last=False)
    else:
        # not contextlib.suppress: this is the cached path
        try:  # noqa: SIM105
            _CORES.move_to_end(content)
        except KeyError:  # evicted by another thread meanwhile
            pass
    core, by_name = entry
    conversion = by_name.get(name)
    if conversion is None:
        conversion = by_name[name] = Conversion(core, name)
    if len(_BY_IDENTITY) >= _IDENTITY_MAX:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[ident] = [schema, conversion, None]
    return conversion


def clear_cache() -> None:
    """Forget every cached conversion (tests and long-lived processes that reload schemas)."""
    _CORES.clear()
    _BY_IDENTITY.clear()
