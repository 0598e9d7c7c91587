"""Read a tool schema found in the wild as standard JSON Schema (draft 2020-12).

Tool catalogs publish schemas that are not quite JSON Schema: ``type: "dict"``/``"float"``/
``"tuple"``/``"any"``/``"String"``, roots that are a bare map of property schemas, draft-04/07
spellings, ``required`` naming an undefined property, ``properties`` on a string. This pass
rewrites each such form to its closest standard reading and records a report entry with the
JSON pointer of the original location. Everything downstream (the validator, the model-facing
schema, the pydantic model) reads only the *effective* schema produced here, so they all agree
on one meaning, and tests can use the effective schema as the oracle's input.

Standard schemas pass through unchanged in meaning (``$schema`` removed, since the result is
always 2020-12); one that declares an older draft is read as that draft reads it (the keywords
a later draft added are dropped and reported). Subtrees that need no rewrite are checked and
copied in one walk, which is most of what keeps a first build cheap; the result shares no dict
or list with the source (so editing the source later changes nothing here), and the source is
never modified. ``$ref`` pointers are rewritten when the structure moves (a bare-map root,
draft-07 tuple ``items``).
"""

from __future__ import annotations

import copy
import marshal
import math
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urldefrag, urljoin

from langchain_toolrouter.schema.ecma_regex import JS_NAMED_GROUP, compile_quietly, python_regex
from langchain_toolrouter.schema.errors import SchemaConversionError
from langchain_toolrouter.schema.formats import asserted_formats
from langchain_toolrouter.schema.pointers import (
    SCHEMA_LIST_KEYS,
    SCHEMA_MAP_KEYS,
    SUBSCHEMA_KEYS,
    iter_subschemas,
    join,
    ref_to_pointer,
    resolve,
)
from langchain_toolrouter.schema.report import ReportEntry, ReportKind

__all__ = ["Normalized", "normalize"]

_STANDARD_TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")

# Non-standard type names seen in tool catalogs, lower-cased, and their JSON Schema reading.
# ``None`` means "any JSON value" (the type constraint is removed).
_TYPE_ALIASES: dict[str, str | None] = {
    **{t: t for t in _STANDARD_TYPES},
    **dict.fromkeys(
        ("dict", "map", "hashmap", "hashtable", "treemap", "linkedhashmap", "jsonobject", "obj"),
        "object",
    ),
    **dict.fromkeys(
        ("list", "tuple", "arraylist", "linkedlist", "set", "vector", "jsonarray", "sequence"),
        "array",
    ),
    **dict.fromkeys(("str", "char", "character", "text", "uuid"), "string"),
    **dict.fromkeys(("float", "double", "decimal", "bigdecimal", "real", "numeric"), "number"),
    **dict.fromkeys(("int", "long", "short", "byte", "int32", "int64", "biginteger"), "integer"),
    **dict.fromkeys(("bool",), "boolean"),
    **dict.fromkeys(("none", "nonetype", "nil"), "null"),
    **dict.fromkeys(("any", "mixed", "*", "json", "unknown"), None),
}

_SUBSCHEMA_KEYS = tuple(k for k in SUBSCHEMA_KEYS if k != "items")  # "items" may be a list
_SCHEMA_MAP_KEYS = SCHEMA_MAP_KEYS
_SCHEMA_LIST_KEYS = SCHEMA_LIST_KEYS
_NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_COUNT_KEYS = (
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
)
_ANNOTATIONS = frozenset(
    (
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
    )
)
_OBJECT_ONLY = ("properties", "patternProperties", "additionalProperties", "required")
_OBJECT_ONLY_SET = frozenset(_OBJECT_ONLY)
# Keywords whose presence marks a mapping as a schema rather than a bare map of properties.
_KEYWORDS = frozenset(
    (
        "type",
        "properties",
        "required",
        "$ref",
        "$defs",
        "definitions",
        "anyOf",
        "oneOf",
        "allOf",
        "enum",
        "const",
        "items",
        "additionalProperties",
        "patternProperties",
        "$schema",
        "$id",
        "not",
        "if",
        "format",
        "minProperties",
        "maxProperties",
        "propertyNames",
    )
)
_SKIPPED = frozenset(("$ref", "$schema", "$id", "nullable", "$dynamicRef"))
# Sets for membership tests (the tuples above keep a stable order for iteration).
_ONE_SUBSCHEMA_SET = frozenset(_SUBSCHEMA_KEYS)
_SUBSCHEMA_KEYS_SET = _ONE_SUBSCHEMA_SET | {"items"}  # for the check-only walk
_SCHEMA_MAP_KEYS_SET = frozenset(_SCHEMA_MAP_KEYS)
_SCHEMA_LIST_KEYS_SET = frozenset(_SCHEMA_LIST_KEYS)
_COUNT_KEYS_SET = frozenset(_COUNT_KEYS)
_NUMBER_KEYS_SET = frozenset(_NUMBER_KEYS)
# Keywords this pass looks at; any other key is copied unchanged.
_HANDLED = (
    frozenset(
        (
            "type",
            "items",
            "additionalItems",
            "required",
            "dependencies",
            "enum",
            "pattern",
            "uniqueItems",
        )
    )
    | frozenset(_SUBSCHEMA_KEYS)
    | frozenset(_SCHEMA_MAP_KEYS)
    | frozenset(_SCHEMA_LIST_KEYS)
    | frozenset(_NUMBER_KEYS)
    | frozenset(_COUNT_KEYS)
    | _SKIPPED
)
# Under draft <= 7 a $ref replaces its siblings, except these (containers and metadata).
_KEPT_BESIDE_LEGACY_REF = _ANNOTATIONS | {"$ref", "$schema", "$id", "definitions", "$defs"}
_LEGACY_DRAFT = re.compile(r"draft-0([0-7])")
_LATEST_FORMATS = asserted_formats(None)


def _eff(pointer: str | None, *tokens: str | int) -> str | None:
    """An effective-schema pointer extended by ``tokens`` (None stays None: same as source)."""
    if pointer is None:
        return None
    for token in tokens:
        pointer = join(pointer, token)
    return pointer


# Keywords as Google's Gemini SDKs spell them in Python dicts (``type_`` in google-generativeai,
# the snake_case field names of google-genai's ``Schema.model_dump()``). They are no JSON Schema
# keywords, so calls are not checked against them (as every JSON Schema validator reads them:
# accepting what those accept is the exactness contract); kept as written, and reported, since
# the author surely meant the keyword.
_SNAKE_KEYWORDS = {
    "type_": "type",
    "format_": "format",
    "any_of": "anyOf",
    "min_items": "minItems",
    "max_items": "maxItems",
    "min_length": "minLength",
    "max_length": "maxLength",
    "min_properties": "minProperties",
    "max_properties": "maxProperties",
}

_FAST_PATH = True  # tests turn it off to check the rewriting path gives the same result
_DIRTY_KEYS = frozenset(
    (
        *_SNAKE_KEYWORDS,
        "$schema",
        "$id",
        "$dynamicRef",
        "nullable",
        "dependencies",
        "additionalItems",
        "unevaluatedProperties",
        "unevaluatedItems",
    )
)
_STANDARD_SET = frozenset(_STANDARD_TYPES)


# Annotation keywords and the JSON type the meta-schema demands of their value.
_ANNOTATION_TYPES: dict[str, type | tuple[type, ...]] = {
    "title": str,
    "description": str,
    "format": str,
    "$comment": str,
    "contentMediaType": str,
    "contentEncoding": str,
    "examples": list,
    "$recursiveAnchor": str,  # 2020-12's meta-schema keeps it, as an anchor name
    "$anchor": str,
    "$dynamicAnchor": str,
    "$recursiveRef": str,  # not a 2020-12 keyword, but its meta-schema wants a string
    "$vocabulary": dict,  # of booleans
    "deprecated": bool,
    "readOnly": bool,
    "writeOnly": bool,
    "dependentRequired": dict,
}
_ANNOTATION_KEYS = _ANNOTATION_TYPES.keys()
# Names the meta-schema restricts to this pattern ("anchorString"); any other string is invalid.
_ANCHOR_KEYWORDS = frozenset(("$anchor", "$dynamicAnchor", "$recursiveAnchor"))
_ANCHOR_NAME = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*\Z")


def _annotation_ok(key: str, value: Any) -> bool:
    """Whether the annotation keyword ``key`` has a value the meta-schema allows."""
    if type(value) is not _ANNOTATION_TYPES[key]:
        return False
    check = _ANNOTATION_CHECKS.get(key)
    return check is None or check(value)


def _annotations_ok(s: dict[str, Any]) -> bool:
    """Whether every annotation keyword of ``s`` has a value the meta-schema allows."""
    return all(_annotation_ok(key, s[key]) for key in s.keys() & _ANNOTATION_KEYS)


def _dependent_required_ok(value: Any) -> bool:
    return all(
        type(v) is list and all(type(n) is str for n in v) and len(set(v)) == len(v)
        for v in value.values()
    )


# Beyond the JSON type, for the keywords whose values the meta-schema restricts further, and
# what a report entry says a dropped value should have been (dependentRequired is repaired).
_ANNOTATION_CHECKS: dict[str, Callable[[Any], bool]] = {
    "dependentRequired": _dependent_required_ok,
    "$vocabulary": lambda value: all(type(v) is bool for v in value.values()),
    **dict.fromkeys(_ANCHOR_KEYWORDS, lambda value: _ANCHOR_NAME.match(value) is not None),
}
_ANNOTATION_EXPECTED = {
    "$vocabulary": "an object mapping URIs to booleans",
    **dict.fromkeys(
        _ANCHOR_KEYWORDS, 'a name (a letter or "_", then letters, digits, "-", "." or "_")'
    ),
}


def _clean_type(value: Any) -> bool:
    if type(value) is str:
        return value in _STANDARD_SET
    if type(value) is not list or not value:
        return False
    if not all(type(t) is str and t in _STANDARD_SET for t in value):
        return False
    return len(set(value)) == len(value) and not ("number" in value and "integer" in value)


_IMMUTABLE = frozenset((str, int, float, bool, type(None)))
# Annotation keywords whose value must be a string (any string: anchors have a pattern).
_STR_KEYWORDS = frozenset(k for k, t in _ANNOTATION_TYPES.items() if t is str) - _ANCHOR_KEYWORDS


# What the check-and-copy walk (``_Normalizer.fresh``) does with each keyword. One kind per
# check, so the walk branches once per key. ``fresh`` tests the kinds as literal numbers, in this
# order (how often each occurs in tool schemas; a literal is cheaper than a global, and an int
# kind for every key keeps the comparisons on the interpreter's int fast path): keep the two in
# step.
(
    _K_OTHER,  # 0: not a keyword this pass reads: kept as is, copied if mutable
    _K_TYPE,  # 1
    _K_STR,  # 2: a string annotation: the value must be a string
    _K_MAP,  # 3: a map of subschemas
    _K_PATTERN_MAP,  # 4: patternProperties: a map of subschemas keyed by regular expressions
    _K_DEFS,  # 5: $defs/definitions: a map of subschemas
    _K_ONE,  # 6: one subschema
    _K_REQUIRED,  # 7
    _K_VALUES,  # 8: a list of values (enum, examples)
    _K_REF,  # 9
    _K_BOUND,  # 10: minimum/maximum: a number, and no draft-04 boolean exclusive* beside it
    _K_COUNT,  # 11: a non-negative integer
    _K_NUMBER,  # 12: a number (multipleOf: > 0)
    _K_LIST,  # 13: a non-empty list of subschemas
    _K_BOOL,  # 14: a boolean (uniqueItems, deprecated, readOnly, writeOnly)
    _K_PATTERN,  # 15
    _K_DEPENDENT_REQUIRED,  # 16
    _K_DIRTY,  # 17: a keyword this pass always rewrites
) = range(18)
_KIND: dict[str, int] = {
    **dict.fromkeys(_STR_KEYWORDS, _K_STR),
    **dict.fromkeys(("uniqueItems", "deprecated", "readOnly", "writeOnly"), _K_BOOL),
    "examples": _K_VALUES,
    "dependentRequired": _K_DEPENDENT_REQUIRED,
    **dict.fromkeys(_SUBSCHEMA_KEYS_SET, _K_ONE),
    **dict.fromkeys(_SCHEMA_MAP_KEYS, _K_MAP),
    "patternProperties": _K_PATTERN_MAP,
    "$defs": _K_DEFS,
    "definitions": _K_DEFS,
    **dict.fromkeys(_SCHEMA_LIST_KEYS, _K_LIST),
    **dict.fromkeys(_COUNT_KEYS, _K_COUNT),
    **dict.fromkeys(_NUMBER_KEYS, _K_NUMBER),
    "minimum": _K_BOUND,
    "maximum": _K_BOUND,
    **dict.fromkeys(_DIRTY_KEYS, _K_DIRTY),
    # Rare in tool schemas, and restricted beyond their JSON type: the rewriting path checks them.
    **dict.fromkeys((*_ANCHOR_KEYWORDS, "$vocabulary"), _K_DIRTY),
    "type": _K_TYPE,
    "required": _K_REQUIRED,
    "enum": _K_VALUES,
    "pattern": _K_PATTERN,
    "$ref": _K_REF,
}
_KIND_OF = _KIND.get
# Keywords a plain leaf (see _Normalizer.child) never has: all this pass reads but "type" and the
# string annotations.
_NOT_PLAIN = frozenset(_KIND) - {"type"} - _STR_KEYWORDS
_VALUE_LISTS = frozenset(("enum", "examples"))  # a plain leaf may hold them (lists of values)
_NOT_PLAIN_LEAF = _NOT_PLAIN - _VALUE_LISTS

# Assertion keywords and the draft that introduced them: a schema declaring an older draft
# ($schema) is read as that draft reads it, which ignores them (201909: 2019-09, 202012: 2020-12).
_KEYWORD_SINCE = {
    **dict.fromkeys(("const", "contains", "propertyNames"), 6),
    **dict.fromkeys(("if", "then", "else"), 7),
    **dict.fromkeys(
        (
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
            "unevaluatedItems",
            "minContains",
            "maxContains",
        ),
        201909,
    ),
    **dict.fromkeys(("prefixItems", "$dynamicRef"), 202012),
}
_DRAFT_2019 = 201909
_RECURSIVE_KEYWORDS = frozenset(("$recursiveRef", "$recursiveAnchor"))


class _DraftTables:
    """What the check-and-copy walk reads differently under a declared draft before 2020-12."""

    __slots__ = ("fast", "foreign", "kind_of")

    def __init__(self, draft: int) -> None:
        # Keywords the draft does not have: always sent down the rewriting path, which drops them.
        self.foreign = frozenset(k for k, since in _KEYWORD_SINCE.items() if since > draft)
        self.kind_of = {**_KIND, **dict.fromkeys(self.foreign, _K_DIRTY)}.get
        # A plain leaf (``child``) is never looked at key by key: only keywords outside that
        # shape reach ``kind_of``. "const" (draft <= 5) is not one, nor 2019-09's
        # "$recursiveRef" (read by the rewriting path), so those drafts skip the walk.
        self.fast = self.foreign <= _NOT_PLAIN_LEAF and draft != _DRAFT_2019


_DRAFT_TABLES = {draft: _DraftTables(draft) for draft in (*range(8), _DRAFT_2019)}
_NO_KEYWORDS: frozenset[str] = frozenset()


def _copied(value: Any) -> Any:
    """A deep copy of a value kept from the source schema (shared when it is immutable)."""
    if type(value) in _IMMUTABLE:
        return value
    if type(value) is list:  # enum, required, examples: most hold only strings or numbers
        for item in value:
            if type(item) not in _IMMUTABLE:
                break
        else:
            return list(value)
    try:
        return marshal.loads(marshal.dumps(value, 2))  # noqa: S302 - bytes we just wrote
    except ValueError:  # what marshal cannot write (a dict subclass, a non-JSON object)
        return copy.deepcopy(value)


def _regex_error(pattern: str) -> re.error | None:
    """Why Python cannot compile ``pattern`` as written, or None when it can."""
    try:
        compile_quietly(pattern)
    except re.error as exc:
        return exc
    return None


def _untranslatable(pattern: str) -> re.error | None:
    """Why ``pattern`` cannot be run even with ECMAScript property escapes translated."""
    try:
        python_regex(pattern)
    except re.error as exc:
        return exc
    return None


_UNICODE_PROPERTIES_NOTE = (
    "ECMAScript Unicode property escapes (\\p{...}) are checked with the matching general "
    "categories of Python's Unicode database"
)


class Normalized:
    """The effective 2020-12 schema and the report entries the rewrite produced."""

    __slots__ = ("entries", "formats", "has_refs", "integer_by_type", "schema")

    def __init__(
        self,
        schema: dict[str, Any],
        entries: list[ReportEntry],
        has_refs: bool,
        integer_by_type: bool = False,
        formats: frozenset[str] = _LATEST_FORMATS,
    ) -> None:
        self.schema = schema
        self.entries = entries
        self.has_refs = has_refs  # any $ref or $defs/definitions left in ``schema``
        # Draft-04 (and earlier) semantics: "integer" excludes floats such as 1.0, which
        # 2020-12 cannot say, so the validator is told separately.
        self.integer_by_type = integer_by_type
        # The "format" values the declared draft defines and calls are checked against.
        self.formats = formats


def normalize(raw: Any) -> Normalized:
    """Rewrite ``raw`` (a tool's input schema) as a standard object schema.

    Raises:
        SchemaConversionError: ``raw`` is not a mapping, or its type excludes objects.
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise SchemaConversionError(
            f"a tool input schema must be a JSON object, got {type(raw).__name__}; "
            'pass an object schema such as {"type": "object", "properties": {...}}',
            pointer="",
        )
    return _Normalizer(raw).run()


class _Normalizer:
    __slots__ = (
        "aliased",
        "draft4",
        "entries",
        "failed",
        "fast",
        "foreign",
        "formats",
        "has_clean_refs",
        "has_defs",
        "id_scopes",
        "kind_of",
        "legacy",
        "moved",
        "nested_ids",
        "prefix",
        "raw",
        "recursive_refs",
        "ref_verdicts",
        "refs",
        "root_written",
        "unlifted",
        "uris",
    )

    def __init__(self, raw: Mapping[str, Any]) -> None:
        # Only what the check-and-copy walk reads; the rewriting path adds the rest (rewriting).
        self.raw = raw
        self.entries: list[ReportEntry] = []
        schema_uri = raw.get("$schema")
        self.legacy = self.draft4 = False
        self.recursive_refs = False  # 2019-09: "$recursiveRef" is a keyword
        self.formats = _LATEST_FORMATS
        self.foreign = _NO_KEYWORDS
        self.kind_of = _KIND_OF
        self.fast = _FAST_PATH
        if isinstance(schema_uri, str):
            legacy = _LEGACY_DRAFT.search(schema_uri)
            draft = (
                int(legacy.group(1))
                if legacy is not None
                else _DRAFT_2019
                if "2019-09" in schema_uri
                else None
            )
            if draft is not None:
                self.legacy = legacy is not None
                self.draft4 = draft <= 4
                self.recursive_refs = draft == _DRAFT_2019
                self.formats = asserted_formats(draft)
                tables = _DRAFT_TABLES[draft]
                self.foreign = tables.foreign
                self.kind_of = tables.kind_of
                self.fast = self.fast and tables.fast
        self.prefix = ""  # added in front of every effective pointer (bare-map root)
        self.has_defs = False
        self.has_clean_refs = False
        self.id_scopes = 0  # > 0 while inside a non-root "$id": refs resolve against it
        self.ref_verdicts: dict[str, bool] = {}  # clean_ref's answer per $ref string
        # ids of source subschemas the check found in need of a rewrite (never checked twice)
        self.failed: set[int] = set()
        # copies whose non-standard type name the check renamed: id -> (copy, name as given);
        # reported by note_aliases once the copy's place (its pointer) is known
        self.aliased: dict[int, tuple[dict[str, Any], str]] = {}

    def rewriting(self) -> None:
        """Set up the state only the rewriting path (``node``) uses."""
        self.moved: dict[str, str] = {}  # source pointer -> effective pointer, where they differ
        self.refs: list[tuple[dict[str, Any], str]] = []  # ($ref node, source pointer)
        self.uris: _UriIndex | None = None  # built on the first non-pointer $ref
        self.nested_ids: bool | None = None  # any "$id" below the root (found on demand)
        # The root's "type" as written, once fix_root_type narrowed it (_ABSENT: none given)
        self.root_written: Any = None
        # Draft-03 "required": true pointers no "properties" lifted into a list (yet), in order
        self.unlifted: dict[str, None] = {}

    def note(self, kind: ReportKind, pointer: str, reason: str) -> None:
        self.entries.append(ReportEntry(kind, pointer, reason))

    def run(self) -> Normalized:
        raw = self.raw
        root_type = raw.get("type")
        if (
            self.fast
            and type(raw) is dict
            and type(root_type) is str
            and (root_type == "object" or _TYPE_ALIASES.get(root_type.lower()) == "object")
        ):
            copied = self.fresh(raw, True)
            if copied is not None:  # standard throughout, but for renamed type names
                if self.aliased:
                    self.note_aliases(copied, "")
                return Normalized(
                    copied,
                    self.entries,
                    self.has_defs or self.has_clean_refs,
                    self.draft4,
                    self.formats,
                )
            self.failed.add(id(raw))
        self.rewriting()
        if (
            raw
            and raw.keys().isdisjoint(_KEYWORDS)
            and all(isinstance(v, Mapping) for v in raw.values())
        ):
            self.note(
                "approximated",
                "",
                "the root is a bare map of property schemas (no type/properties); it is read as "
                'the "properties" of an object schema with no required property',
            )
            self.prefix = "/properties"
            props = {k: self.node(v, join("", k), join("/properties", k)) for k, v in raw.items()}
            root: dict[str, Any] = {"type": "object", "properties": props}
        else:
            node = self.node(raw, "", None)  # a new dict (never the caller's), or a boolean
            root = node if isinstance(node, dict) else {}
            self.fix_root_type(root)
        for pointer in self.unlifted:
            below_bare_root = bool(self.prefix) and pointer.count("/") == 2
            self.note("dropped", pointer, _UNLIFTED_REQUIRED[below_bare_root])
        if self.has_clean_refs:
            self.repoint_clean_refs(root)
        self.rewrite_refs(root)
        return Normalized(
            root,
            self.entries,
            bool(self.refs) or self.has_defs or self.has_clean_refs,
            self.draft4,
            self.formats,
        )

    def fix_root_type(self, root: dict[str, Any]) -> None:
        types = root.get("type")
        if types is None:
            self.root_written = _ABSENT
            root["type"] = "object"
            if self.raw:
                self.note(
                    "approximated", "", 'the root has no "type"; tool arguments are a JSON object'
                )
            return
        listed = [types] if isinstance(types, str) else list(types)
        if "object" not in listed:
            raise SchemaConversionError(
                f"a tool input schema must describe a JSON object, but its type is {types!r}; "
                'use {"type": "object", "properties": {...}} and put the value in a property',
                pointer="/type",
            )
        if listed != ["object"]:
            self.root_written = types
            self.note(
                "approximated",
                "/type",
                f"root type {types!r} narrowed to 'object': tool arguments are always an object",
            )
        root["type"] = "object"

    # -- one schema node ----------------------------------------------------------------------

    def node(self, s: Any, src: str, eff: str | None) -> Any:
        """The effective form of the subschema ``s`` found at source pointer ``src``.

        ``eff`` is its pointer in the effective schema, or None while that is ``src`` itself.
        """
        if eff is not None and src != eff:
            self.moved[src] = eff
        elif self.fast and type(s) is dict and not self.id_scopes and id(s) not in self.failed:
            # Checked again when the check of a parent that then needed a rewrite met it (at
            # most twice in all: its copy was not kept). Not inside a nested "$id" resource:
            # its "#/..." refs are relative to that resource, which the check assumes not.
            copied = self.fresh(s, not src and eff is None)
            if copied is not None:
                if self.aliased:
                    self.note_aliases(copied, src)
                return copied  # already standard: a plain copy
            self.failed.add(id(s))
        if type(s) is not dict:
            if isinstance(s, bool):
                return s
            s = self.coerce_node(s, src)
            if s is None:
                return {}
        out: dict[str, Any] = {}
        if "$ref" in s:
            if self.legacy and len(s) > 1:
                # Definitions containers are never "siblings": they hold the targets.
                ignored = sorted(k for k in s if k not in _KEPT_BESIDE_LEGACY_REF)
                if ignored:
                    self.note(
                        "dropped",
                        src,
                        f"keywords {ignored} beside $ref are ignored under the declared draft",
                    )
                s = {k: v for k, v in s.items() if k in _KEPT_BESIDE_LEGACY_REF}
            ref = s["$ref"]
            if isinstance(ref, str):
                out["$ref"] = ref
                self.refs.append((out, src))
            else:
                self.note("dropped", join(src, "$ref"), "$ref must be a string")
        elif isinstance(s.get("$dynamicRef"), str) and "$dynamicRef" not in self.foreign:
            self.static_ref(
                out,
                s,
                "$dynamicRef",
                src,
                "to the matching $dynamicAnchor in this document; dynamic scope is not followed",
            )
        elif self.recursive_refs and isinstance(s.get("$recursiveRef"), str):
            self.static_ref(
                out,
                s,
                "$recursiveRef",
                src,
                'dynamic scope through "$recursiveAnchor" is not followed',
            )
        if self.recursive_refs:
            # 2019-09's dynamic-scope keywords, read statically above: 2020-12 has neither.
            s = {k: v for k, v in s.items() if k not in _RECURSIVE_KEYWORDS}
        scoped = "$id" in s and bool(src)
        self.id_scopes += scoped
        foreign = self.foreign
        for key, value in s.items():
            if foreign and key in foreign:
                self.note(
                    "dropped",
                    join(src, key),
                    f'"{key}" is not a keyword of the draft the schema declares; ignored, as '
                    "that draft does",
                )
            elif key not in _HANDLED:
                out[key] = _copied(value)  # annotations and vendor keywords: kept as they are
                standard = _SNAKE_KEYWORDS.get(key)
                if standard is not None and standard not in s and value is not None:
                    self.note(
                        "dropped",
                        join(src, key),
                        f'"{key}" is how Google\'s SDKs spell "{standard}", not a JSON '
                        "Schema keyword: calls are not checked against it (no JSON Schema "
                        f'validator would); write "{standard}" to have them checked',
                    )
            elif key == "type" and value in _STANDARD_TYPES:
                out[key] = value
            elif key not in _SKIPPED:
                self.keyword(out, key, value, s, src=src, eff=eff)
        if "nullable" in s:
            if s["nullable"] is True:
                self.make_nullable(out, src)
            else:
                out["nullable"] = _copied(s["nullable"])
        if "type" in out:
            self.fix_type_scoped(out, src)
        if not _annotations_ok(out):
            self.fix_annotations(out, src)
        if "unevaluatedProperties" in out or "unevaluatedItems" in out:
            self.unevaluated(out, src)
        self.id_scopes -= scoped
        return out

    def static_ref(
        self, out: dict[str, Any], s: Mapping[str, Any], keyword: str, src: str, how: str
    ) -> None:
        """Read a dynamic reference (``keyword`` of ``s``) as a ``$ref`` to its static target."""
        ref = s[keyword]
        out["$ref"] = ref
        self.refs.append((out, src))
        self.note(
            "approximated",
            join(src, keyword),
            f"{keyword} {ref!r} resolved statically, like $ref ({how})",
        )

    def fresh(self, s: dict[str, Any], root: bool = False) -> dict[str, Any] | None:
        """A deep copy of the subschema ``s`` when it (and all below it) is standard 2020-12
        that this pass would copy unchanged; None when some part needs a rewrite.

        Checking and copying in one walk is what keeps a first build cheap (the common case is
        a schema that is standard throughout), and the copy is what isolates the conversion
        from the caller's schema. One table lookup and one branch per key; plain leaves (see
        ``child``) skip even that. Must agree with the rewriting path: a test checks both
        give equal results on the corpus and on generated schemas. ``root``: ``$schema`` is
        allowed (and dropped) at the root.
        """
        out = dict(s)
        types: Any = None
        required: set[str] | None = None
        kind_of = self.kind_of
        for key, value in s.items():
            kind = kind_of(key, 0)
            if kind == 1:  # _K_TYPE
                types = value
                if type(value) is str:
                    if value not in _STANDARD_SET:
                        # A catalog's name for a standard type ("dict", "float", "String"):
                        # renamed here, reported by note_aliases, as the rewriting path does.
                        mapped = _TYPE_ALIASES.get(value.lower())
                        if mapped is None:
                            return None
                        out[key] = types = mapped
                        self.aliased[id(out)] = (out, value)
                elif _clean_type(value):
                    out[key] = list(value)
                else:
                    return None
            elif kind == 2:  # _K_STR
                if type(value) is not str:
                    return None
            elif kind <= 5:  # _K_MAP, _K_PATTERN_MAP, _K_DEFS (or 0, _K_OTHER)
                if kind == 0:  # _K_OTHER: not a keyword this pass reads: kept as is
                    if type(value) not in _IMMUTABLE:
                        out[key] = _copied(value)
                    continue
                if type(value) is not dict:
                    return None
                if kind == 4:  # _K_PATTERN_MAP
                    for pattern in value:
                        if _regex_error(pattern) is not None:
                            return None
                copied_map = dict(value)  # sized once; each subschema replaced by its copy
                for name, v in value.items():
                    if type(v) is dict:
                        c = self.child(v)
                        if c is None:
                            return None
                        copied_map[name] = c
                    elif type(v) is not bool:
                        return None
                out[key] = copied_map
                if kind == 5:  # _K_DEFS
                    self.has_defs = True
            elif kind == 6:  # _K_ONE
                if type(value) is dict:
                    c = self.child(value)
                    if c is None:
                        return None
                    out[key] = c
                elif type(value) is not bool:
                    return None
            elif kind == 7:  # _K_REQUIRED
                if type(value) is not list:
                    return None
                for item in value:
                    if type(item) is not str:
                        return None
                required = set(value)
                if len(required) != len(value):
                    return None
                out[key] = list(value)
            elif kind == 8:  # _K_VALUES
                if type(value) is not list:
                    return None
                out[key] = _copied(value)
            elif kind == 9:  # _K_REF
                if not self.clean_ref(value, s):
                    return None
            elif kind == 10:  # _K_BOUND
                if (type(value) is not int and type(value) is not float) or type(
                    s.get("exclusiveMinimum" if key == "minimum" else "exclusiveMaximum")
                ) is bool:
                    return None
            elif kind == 11:  # _K_COUNT
                if type(value) is not int or value < 0:
                    return None
            elif kind == 12:  # _K_NUMBER
                if (type(value) is not int and type(value) is not float) or (
                    key == "multipleOf" and not value > 0
                ):
                    return None
            elif kind == 13:  # _K_LIST
                if type(value) is not list or not value:
                    return None
                copied_list: list[Any] = []
                for v in value:
                    if type(v) is dict:
                        c = self.child(v)
                        if c is None:
                            return None
                        copied_list.append(c)
                    elif type(v) is bool:
                        copied_list.append(v)
                    else:
                        return None
                out[key] = copied_list
            elif kind == 14:  # _K_BOOL
                if type(value) is not bool:
                    return None
            elif kind == 15:  # _K_PATTERN
                if type(value) is not str or _regex_error(value) is not None:
                    return None
            elif kind == 16:  # _K_DEPENDENT_REQUIRED
                if type(value) is not dict or not _dependent_required_ok(value):
                    return None
                out[key] = _copied(value)
            elif root and key == "$schema":
                del out[key]  # the result is always 2020-12; its draft was read in __init__
            else:  # _K_DIRTY: a keyword this pass always rewrites
                return None
        if types is not None:
            if types == "object" or (type(types) is list and "object" in types):
                if required:
                    props = s.get("properties")
                    if props is None or not props.keys() >= required:
                        return None
            elif not _OBJECT_ONLY_SET.isdisjoint(s):
                return None
        return out

    def child(self, s: dict[str, Any]) -> dict[str, Any] | None:
        """``fresh`` for a subschema met inside another; a subtree that needs a rewrite is
        remembered as such (never checked again).

        A plain leaf, most of a typical tool schema, is copied with one ``dict()``: a standard
        ``type`` and string annotations, every value immutable (so ``dict(s)`` is a full copy),
        vendor keywords included: ``{"type": "string", "description": ..., "default": None}``;
        ``enum`` and ``examples`` lists of immutable values are copied with one ``list()``.
        """
        if _NOT_PLAIN.isdisjoint(s):  # no "enum"/"examples" either: one dict() copies it
            for key, value in s.items():
                if type(value) is not str and (
                    type(value) not in _IMMUTABLE or key in _STR_KEYWORDS
                ):
                    break
            else:
                if s.get("type", "object") in _STANDARD_SET:
                    return dict(s)
        elif _NOT_PLAIN_LEAF.isdisjoint(s):
            lists: list[str] = []  # the enum/examples lists to copy
            for key, value in s.items():
                if key in _VALUE_LISTS:  # (a string or null here is not a plain leaf)
                    if type(value) is not list or not _IMMUTABLE.issuperset(map(type, value)):
                        break
                    lists.append(key)
                elif type(value) is not str and (
                    type(value) not in _IMMUTABLE or key in _STR_KEYWORDS
                ):
                    break
            else:
                if s.get("type", "object") in _STANDARD_SET:
                    out = dict(s)
                    for key in lists:
                        out[key] = list(out[key])
                    return out
        copied = self.fresh(s)
        if copied is None:
            self.failed.add(id(s))
        return copied

    def note_aliases(self, copied: dict[str, Any], pointer: str) -> None:
        """Report the type names ``fresh`` renamed in ``copied`` (its copy of the source node at
        ``pointer``), in the order the rewriting path reports them: keys in order, depth first.
        """
        if not self.aliased:  # all reported: nothing below to look for
            return
        renamed = self.aliased.pop(id(copied), None)
        for key, value in copied.items():
            if key == "type":
                if renamed is not None and renamed[0] is copied:
                    self.note(
                        "approximated",
                        join(pointer, key),
                        f"non-standard type {renamed[1]!r} read as {value!r}",
                    )
            elif type(value) is dict:
                if key in _SUBSCHEMA_KEYS_SET:
                    self.note_aliases(value, join(pointer, key))
                elif key in _SCHEMA_MAP_KEYS_SET:
                    here = join(pointer, key)
                    for name, sub in value.items():
                        if type(sub) is dict:
                            self.note_aliases(sub, join(here, name))
            elif type(value) is list and key in _SCHEMA_LIST_KEYS_SET:
                here = join(pointer, key)
                for index, sub in enumerate(value):
                    if type(sub) is dict:
                        self.note_aliases(sub, join(here, index))

    def fix_annotations(self, out: dict[str, Any], src: str) -> None:
        """Drop (or repair) annotation values the meta-schema does not allow: the result must
        be valid JSON Schema."""
        for key in sorted(out.keys() & _ANNOTATION_KEYS):
            value = out[key]
            if _annotation_ok(key, value):
                continue
            if key == "dependentRequired" and type(value) is dict:
                kept = {
                    k: list(dict.fromkeys(n for n in v if type(n) is str))
                    for k, v in value.items()
                    if type(v) is list
                }
                if kept != value:
                    out[key] = kept
                    self.note(
                        "dropped", join(src, key), "entries that are not lists of names removed"
                    )
            else:
                del out[key]
                expected = (
                    _ANNOTATION_EXPECTED[key]  # the right JSON type, but not an allowed value
                    if type(value) is _ANNOTATION_TYPES[key]
                    else "a " + getattr(_ANNOTATION_TYPES[key], "__name__", "")
                )
                self.note("dropped", join(src, key), f'"{key}" must be {expected}, got {value!r}')

    def clean_ref(self, ref: Any, s: dict[str, Any]) -> bool:
        """Whether a ``$ref`` stays exactly as written: local, resolvable, nothing moves."""
        if (
            type(ref) is not str
            or self.prefix
            or self.id_scopes
            or (self.legacy and len(s) > 1)
            or "%" in ref
        ):
            return False
        verdict = self.ref_verdicts.get(ref)
        if verdict is None:
            verdict = self.ref_verdicts[ref] = self.resolves_in_place(ref)
        if verdict:
            self.has_clean_refs = True
        return verdict

    def resolves_in_place(self, ref: str) -> bool:
        """Whether ``ref`` is a JSON pointer to a schema of this document that stays where it is."""
        pointer = ref_to_pointer(ref)
        # A list "items" moves to prefixItems; the root's type may be narrowed (rewrite_refs).
        if not pointer or "/items/" in pointer:
            return False
        try:
            target = resolve(self.raw, pointer)
        except KeyError:
            return False
        return type(target) is dict or type(target) is bool

    def unevaluated(self, out: dict[str, Any], src: str) -> None:
        """Read ``unevaluated*`` as ``additionalProperties``/``items`` where that is exact.

        That is where nothing beside it evaluates anything in place. Elsewhere the keyword is
        kept as written: the call validator enforces it exactly (it collects what the node and
        its in-place subschemas evaluate), and the model is shown it as published.
        """
        if any(
            k in out for k in ("allOf", "anyOf", "oneOf", "$ref", "if", "dependentSchemas", "not")
        ):
            return
        for key, plain, blockers in (
            ("unevaluatedProperties", "additionalProperties", ()),
            ("unevaluatedItems", "items", ("prefixItems", "contains")),
        ):
            if key in out and plain not in out and not any(b in out for b in blockers):
                out[plain] = out.pop(key)

    def check_pattern_keys(self, patterns: dict[str, Any], here: str) -> None:
        for pattern in list(patterns):
            if _regex_error(pattern) is None:
                continue
            exc = _untranslatable(pattern)
            if exc is None:
                self.note("approximated", join(here, pattern), _UNICODE_PROPERTIES_NOTE)
            else:
                del patterns[pattern]
                self.note(
                    "dropped",
                    join(here, pattern),
                    f"patternProperties key {pattern!r} is not a regular expression Python can "
                    f"run ({exc}); names matching it are treated as additional properties",
                )

    def coerce_node(self, s: Any, src: str) -> Mapping[str, Any] | None:
        """A non-dict schema read as a mapping, or None (reported) when it is not one at all."""
        if isinstance(s, Mapping):
            return s
        if isinstance(s, str) and s.lower() in _TYPE_ALIASES:
            self.note("approximated", src, f"schema given as the bare string {s!r}; read as a type")
            return {"type": s}
        self.note(
            "dropped",
            src,
            f"a schema must be an object or boolean, got {type(s).__name__}; any JSON value "
            "is accepted here",
        )
        return None

    def keyword(
        self,
        out: dict[str, Any],
        key: str,
        value: Any,
        s: Mapping[str, Any],
        *,
        src: str,
        eff: str | None,
    ) -> None:
        here = join(src, key)
        if key == "type":
            self.type_keyword(out, value, here)
        elif key in _ONE_SUBSCHEMA_SET:
            out[key] = self.node(value, here, _eff(eff, key))
        elif key in _SCHEMA_MAP_KEYS_SET:
            if key in ("$defs", "definitions"):
                self.has_defs = True
            if isinstance(value, Mapping):
                out[key] = {
                    k: self.node(v, join(here, k), _eff(eff, key, k)) for k, v in value.items()
                }
                if key == "properties":
                    self.lift_boolean_required(out, value, src)
                elif key == "patternProperties":
                    self.check_pattern_keys(out[key], here)
            else:
                self.note("dropped", here, f'"{key}" must map names to schemas')
        elif key in _SCHEMA_LIST_KEYS_SET:
            if isinstance(value, list) and value:
                out[key] = [
                    self.node(v, join(here, i), _eff(eff, key, i)) for i, v in enumerate(value)
                ]
            else:
                self.note("dropped", here, f'"{key}" must be a non-empty list of schemas')
        elif key == "items":
            self.items_keyword(out, value, s, here, eff)
        elif key == "additionalItems":
            if not isinstance(s.get("items"), list):
                self.note("dropped", here, '"additionalItems" has no effect without a list "items"')
        elif key == "required":
            self.required_keyword(out, value, here)
        elif key == "dependencies":
            if not isinstance(value, Mapping):
                self.note("dropped", here, '"dependencies" must map names to schemas or lists')
                return
            if not self.legacy:
                # As jsonschema reads it: not a keyword, so nothing is checked against it.
                self.note(
                    "dropped",
                    here,
                    '"dependencies" is a draft-07 keyword, which 2019-09 and 2020-12 (the draft '
                    "this schema is read as: it declares no older one) no longer define: calls "
                    "are not checked against it, and the model is not shown it. Declare "
                    '"$schema": "http://json-schema.org/draft-07/schema#", or write it as '
                    "dependentRequired/dependentSchemas",
                )
                return
            for name, dep in value.items():
                if isinstance(dep, list):
                    out.setdefault("dependentRequired", {})[name] = _copied(dep)
                else:
                    out.setdefault("dependentSchemas", {})[name] = self.node(
                        dep, join(here, name), _eff(eff, "dependentSchemas", name)
                    )
        elif key in _NUMBER_KEYS_SET:
            self.number_keyword(out, key, value, s, here)
        elif key in _COUNT_KEYS_SET:
            if (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and 0 <= value < math.inf
            ):
                if isinstance(value, int) or value.is_integer():
                    out[key] = int(value)
                else:
                    # A count is whole: "at least 1.5" is "at least 2", "at most 2.5" "at most 2".
                    out[key] = math.ceil(value) if key.startswith("min") else math.floor(value)
                    self.note(
                        "approximated",
                        here,
                        f'"{key}" must be an integer; {value!r} read as {out[key]}, which '
                        "accepts the same values",
                    )
            else:
                self.note("dropped", here, f'"{key}" must be a non-negative integer, got {value!r}')
        elif key == "enum":
            if isinstance(value, list):
                out[key] = _copied(value)
            elif value is None:
                self.note("dropped", here, '"enum" must be a list; null read as no enum')
            else:
                self.note("approximated", here, '"enum" must be a list; read as a one-value enum')
                out[key] = [_copied(value)]
        elif key == "pattern":
            self.pattern_keyword(out, value, here)
        elif key == "uniqueItems":
            if isinstance(value, bool):
                out[key] = value
            else:
                self.note("dropped", here, '"uniqueItems" must be a boolean')
        else:
            out[key] = _copied(value)

    def type_keyword(self, out: dict[str, Any], value: Any, here: str) -> None:
        names = value if isinstance(value, list) else [value]
        kept: list[str] = []
        any_type = False
        for name in names:
            mapped = _TYPE_ALIASES.get(name.lower(), "?") if isinstance(name, str) else "?"
            if mapped == "?":
                self.note(
                    "dropped",
                    here,
                    f"unknown type {name!r}; "
                    + (
                        "that alternative accepts any JSON value"
                        if isinstance(value, list)
                        else "any JSON value is accepted here"
                    ),
                )
                any_type = True
            elif mapped is None:
                if name != "any" or len(names) > 1:
                    self.note("approximated", here, f"type {name!r} read as any JSON value")
                any_type = True
            else:
                if mapped != name:
                    self.note(
                        "approximated", here, f"non-standard type {name!r} read as {mapped!r}"
                    )
                if mapped not in kept:
                    kept.append(mapped)
                elif name == mapped:
                    self.note("approximated", here, f"type {name!r} listed twice")
        if any_type:
            if names and names[0] == "any" and len(names) == 1:
                self.note("approximated", here, "type 'any' read as any JSON value")
            return
        if not kept:
            self.note("dropped", here, "empty type list read as any JSON value")
            return
        if "number" in kept and "integer" in kept:
            kept.remove("integer")
        out["type"] = kept[0] if len(kept) == 1 and not isinstance(value, list) else kept

    def items_keyword(
        self, out: dict[str, Any], value: Any, s: Mapping[str, Any], here: str, eff: str | None
    ) -> None:
        if isinstance(value, list):
            self.note(
                "approximated",
                here,
                'a list "items" (draft-07 tuple form) is read as "prefixItems"',
            )
            node_pointer = here[: -len("/items")]
            base = node_pointer if eff is None else eff  # the structure moves from here on
            if value:  # an empty list constrains no position (2020-12 wants a non-empty one)
                out["prefixItems"] = [
                    self.node(v, join(here, i), _eff(base, "prefixItems", i))
                    for i, v in enumerate(value)
                ]
            if "additionalItems" in s:
                out["items"] = self.node(
                    s["additionalItems"],
                    join(node_pointer, "additionalItems"),
                    _eff(base, "items"),
                )
            return
        out["items"] = self.node(value, here, _eff(eff, "items"))

    def required_keyword(self, out: dict[str, Any], value: Any, here: str) -> None:
        if isinstance(value, bool):
            # Draft-03 boolean form: lifted into the parent by lift_boolean_required when this
            # is one of its "properties"; reported at the end of run() otherwise.
            if value:
                self.unlifted[here] = None
            return
        if isinstance(value, str):
            self.note("approximated", here, '"required" given as a string; read as a one-name list')
            value = [value]
        if not isinstance(value, list):
            self.note("dropped", here, '"required" must be a list of property names')
            return
        names: list[str] = []
        for name in value:
            if not isinstance(name, str):
                self.note("dropped", here, f"required entry {name!r} is not a property name")
            elif name in names:
                self.note("approximated", here, f"required name {name!r} listed twice")
            else:
                names.append(name)
        # Names a draft-03 "required": true lifted here already ("properties" came first).
        names.extend(n for n in out.get("required", ()) if n not in names)
        out["required"] = names

    def lift_boolean_required(
        self, out: dict[str, Any], props: Mapping[str, Any], src: str
    ) -> None:
        for name, prop in props.items():
            if isinstance(prop, Mapping) and prop.get("required") is True:
                pointer = join(join(join(src, "properties"), name), "required")
                self.unlifted.pop(pointer, None)
                self.note(
                    "approximated",
                    pointer,
                    f"draft-03 'required: true' read as {name!r} in the parent's required list",
                )
                required = out.setdefault("required", [])
                if name not in required:
                    required.append(name)

    def number_keyword(
        self, out: dict[str, Any], key: str, value: Any, s: Mapping[str, Any], here: str
    ) -> None:
        if key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            if value and isinstance(s.get(bound), (int, float)):
                self.note("approximated", here, f"draft-04 boolean {key} read as the 2020-12 form")
                out[key] = s[bound]
                out.pop(bound, None)
            elif value:  # (false, the draft-04 default, means an inclusive bound: nothing lost)
                self.note(
                    "dropped",
                    here,
                    f'draft-04 boolean {key} with no numeric "{bound}" beside it has no bound to '
                    "make exclusive; ignored",
                )
            return
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            self.note("dropped", here, f'"{key}" must be a number, got {value!r}')
            return
        if key == "multipleOf" and value <= 0:
            self.note("dropped", here, '"multipleOf" must be greater than 0')
            return
        if key in ("minimum", "maximum") and s.get("exclusive" + key[:1].upper() + key[1:]) is True:
            return  # folded into the exclusive keyword above
        out[key] = value

    def pattern_keyword(self, out: dict[str, Any], value: Any, here: str) -> None:
        if not isinstance(value, str):
            self.note("dropped", here, '"pattern" must be a string')
            return
        exc = _regex_error(value)
        if exc is None:
            out["pattern"] = value
            return
        if _untranslatable(value) is None:
            out["pattern"] = value  # shown to the model as written; the validator translates
            self.note("approximated", here, _UNICODE_PROPERTIES_NOTE)
            return
        translated = JS_NAMED_GROUP.sub("(?P<", value)
        if translated != value and _regex_error(translated) is None:
            out["pattern"] = translated
            self.note(
                "approximated",
                here,
                f"ECMAScript named groups in {value!r} rewritten in Python syntax as {translated!r}",
            )
            return
        self.note(
            "dropped",
            here,
            f"pattern {value!r} is not a regular expression Python can run ({exc}); "
            "strings are not checked against it",
        )

    def make_nullable(self, out: dict[str, Any], src: str) -> None:
        """Keep OpenAPI ``nullable: true`` as an annotation; calls follow JSON Schema (null is
        rejected unless the schema allows it some other way).

        Why not read it as a null type: ``nullable`` is not a JSON Schema keyword, so every
        standard validator (and the call's receiver, if it validates) rejects null there; and
        adding ``null`` to the type or enum would change what the model is shown. Keeping it
        as written leaves both the verdict and the model-facing schema as published.
        """
        out["nullable"] = True
        self.note(
            "approximated",
            join(src, "nullable"),
            "OpenAPI 'nullable: true' is not a JSON Schema keyword: kept as an annotation, and "
            "null is accepted only where the schema itself allows it",
        )

    def fix_type_scoped(self, out: dict[str, Any], src: str) -> None:
        types = out.get("type")
        if types is None:
            return
        listed = [types] if isinstance(types, str) else types
        if "object" not in listed:
            for key in _OBJECT_ONLY:
                if key in out:
                    del out[key]
                    self.note(
                        "dropped",
                        join(src, key),
                        f'"{key}" on a schema of type {types!r} has no effect (it applies to objects)',
                    )
            return
        props = out.get("properties")
        required = out.get("required")
        if required:
            props = out.setdefault("properties", {}) if props is None else props
            extra = out.get("additionalProperties")
            counted: bool | None = None  # whether unevaluatedProperties sees this node's names
            for name in required:
                if name in props or self.covered_elsewhere(out, name):
                    continue
                if extra is False:
                    self.note(
                        "approximated",
                        join(src, "required"),
                        f'{name!r} is required but has no schema in "properties" and '
                        '"additionalProperties" is false: no call can satisfy this schema, and '
                        "every call is rejected",
                    )
                    continue
                defined_in = [
                    key
                    for key, sub in _in_place_parts(out)
                    if isinstance(sub.get("properties"), dict) and name in sub["properties"]
                ]
                places = ", ".join(f'"{key}"' for key in dict.fromkeys(defined_in))
                checked = f"; calls are checked against its schema in {places}" if places else ""
                if counted is None:
                    counted = self.unevaluated_sees(out, src)
                if counted and not defined_in and out.get("unevaluatedProperties") is False:
                    self.note(
                        "approximated",
                        join(src, "required"),
                        f"{name!r} is required but no subschema here defines it and "
                        '"unevaluatedProperties" is false: no call can satisfy this schema, and '
                        "every call is rejected",
                    )
                    continue
                if counted:
                    # A schema in "properties" would count as evaluating the name: calls an
                    # unevaluatedProperties here or above rejects would be accepted.
                    self.note(
                        "approximated",
                        join(src, "required"),
                        f'{name!r} is required but has no schema in "properties"; none is added '
                        'there since "unevaluatedProperties" applies to this object (it would '
                        f"count the name as evaluated), so it is not shown to the model{checked}",
                    )
                    continue
                if isinstance(extra, dict):
                    copied = props[name] = dict(extra)
                    # A $ref the rewrite resolves (an anchor, a URI, the root) is resolved in
                    # the copy too: rewrite_refs runs after this.
                    self.refs.extend((copied, at) for node, at in list(self.refs) if node is extra)
                else:
                    props[name] = {}
                value = (
                    'is checked against "additionalProperties"'
                    if isinstance(extra, dict)
                    else "is shown to the model as any JSON value"
                    if defined_in
                    else "accepts any JSON value"
                )
                self.note(
                    "approximated",
                    join(src, "required"),
                    f'{name!r} is required but has no schema in "properties"; it is kept '
                    f"required and its value {value}{checked}",
                )

    def unevaluated_sees(self, out: Mapping[str, Any], src: str) -> bool:
        """Whether an ``unevaluatedProperties`` (other than ``true``) applies to the object the
        node at ``src`` (effective copy ``out``) checks: on the node, or on a node that applies
        it in place (allOf/anyOf/oneOf/not/if/then/else/dependentSchemas); with any ``$ref`` in
        the schema, anywhere (a reference may apply the node in place)."""
        if out.get("unevaluatedProperties", True) is not True:
            return True
        closing = refs = False
        for sub, _ in iter_subschemas(self.raw, ""):
            closing = closing or sub.get("unevaluatedProperties", True) is not True
            refs = refs or "$ref" in sub or "$dynamicRef" in sub
        if not closing:
            return False
        if refs:
            return True
        tokens = (
            [t.replace("~1", "/").replace("~0", "~") for t in src[1:].split("/")] if src else []
        )
        steps: list[tuple[Any, bool]] = []  # (ancestor, whether it applies the next in place)
        node: Any = self.raw
        i = 0
        try:
            while i < len(tokens):
                key = tokens[i]
                value = node[key]
                two = key in _SCHEMA_MAP_KEYS_SET or isinstance(value, list)
                steps.append((node, key in _IN_PLACE))
                node = (
                    value[int(tokens[i + 1]) if isinstance(value, list) else tokens[i + 1]]
                    if two
                    else value
                )
                i += 2 if two else 1
        except (KeyError, IndexError, ValueError, TypeError):
            return True  # the node moved (a rewritten form): assume it is seen
        for ancestor, in_place in reversed(steps):
            if not in_place:
                return False
            if (
                isinstance(ancestor, Mapping)
                and ancestor.get("unevaluatedProperties", True) is not True
            ):
                return True
        return False

    @staticmethod
    def covered_elsewhere(out: Mapping[str, Any], name: str) -> bool:
        """Whether ``name`` gets a schema some other way (pattern, combinator, $ref)."""
        if any(k in out for k in ("$ref", "allOf", "anyOf", "oneOf")):
            return True
        return any(
            isinstance(p, str) and python_regex(p).search(name)
            for p in out.get("patternProperties", ())
        )

    # -- $ref fix-ups -------------------------------------------------------------------------

    def rewrite_refs(self, root: dict[str, Any]) -> None:
        as_written: str | None = None  # where the root as written is kept, once a $ref needs it
        for node, src in self.refs:
            ref = node["$ref"]
            pointer = ref_to_pointer(ref)
            if pointer is None or self.id_scopes_in(src):
                if self.uris is None:
                    self.uris = _UriIndex(self.raw)
                pointer = self.uris.resolve(ref, src)
            if pointer is None:
                self.unresolved(node, src, f"$ref {ref!r} is not a reference into this document")
                continue
            if self.prefix and pointer and not pointer.startswith("/properties"):
                pointer = self.prefix + pointer
            target = self.moved.get(pointer, pointer)
            for old, new in self.moved.items():
                if pointer.startswith(old + "/"):
                    target = new + pointer[len(old) :]
                    break
            try:
                resolved = resolve(root, target)
            except KeyError:
                self.unresolved(node, src, f"$ref {ref!r} points to nothing in this schema")
                continue
            if not isinstance(resolved, (dict, bool)):
                self.unresolved(node, src, f"$ref {ref!r} does not point to a schema")
                continue
            if not target and self.root_written is not None:
                # Only the arguments themselves must be an object: a value nested through a
                # $ref to the root takes every type the root was written with.
                if as_written is None:
                    as_written = _free_name(root.get("$defs", {}), "root")
                target = join("/$defs", as_written)
            node["$ref"] = "#" + target
        if as_written is not None:
            self.keep_root_as_written(root, as_written)

    def keep_root_as_written(self, root: dict[str, Any], name: str) -> None:
        """Put a copy of ``root`` with its type as written (before ``fix_root_type``) in
        ``$defs`` under ``name``: what ``$ref``s to the root now point to."""
        kept = copy.deepcopy({k: v for k, v in root.items() if k not in _NOT_COPIED_WITH_ROOT})
        if self.root_written is _ABSENT:
            del kept["type"]
        else:
            kept["type"] = copy.deepcopy(self.root_written)
        root.setdefault("$defs", {})[name] = kept  # a $defs left here is a dict (keyword())
        self.note(
            "approximated",
            "",
            f"$refs to the root point to a copy of it at {join('/$defs', name)} that keeps the "
            "root's type as written: only the arguments themselves must be an object",
        )

    def repoint_clean_refs(self, root: dict[str, Any]) -> None:
        """Point each ``$ref`` the check-and-copy walk kept as written, but whose target the
        rewrite then moved or dropped (a schema under ``dependencies``, ``properties`` beside a
        legacy ``$ref``...), to a copy of that target, read the same way, in ``$defs``."""
        rewritten = {id(node) for node, _ in self.refs}  # rewrite_refs resolves those
        copies: dict[str, str] = {}  # source pointer -> where its copy is
        pending = [root]
        while pending:
            for node, _ in iter_subschemas(pending.pop(), ""):
                ref = node.get("$ref")
                if type(ref) is not str or id(node) in rewritten:
                    continue
                pointer = ref_to_pointer(ref)
                if pointer is None:
                    continue
                where = copies.get(pointer)
                if where is None:
                    try:
                        target = resolve(root, pointer)
                    except KeyError:
                        target = None
                    if type(target) is dict or type(target) is bool:
                        continue  # still there
                    source = resolve(self.raw, pointer)  # clean: it resolves in the source
                    defs = root.setdefault("$defs", {})
                    name = _free_name(defs, "ref_target")
                    where = copies[pointer] = join("/$defs", name)
                    kept = self.node(source, pointer, where)  # moved: a new copy
                    defs[name] = kept
                    pending.append(kept)
                node["$ref"] = "#" + where

    def id_scopes_in(self, src: str) -> bool:
        """Whether the node at ``src`` sits inside (or is) a non-root ``$id`` resource."""
        if self.uris is None:
            if self.nested_ids is None:
                self.nested_ids = any(
                    "$id" in node for node, here in iter_subschemas(self.raw, "") if here
                )
            if not self.nested_ids:
                return False
            self.uris = _UriIndex(self.raw)
        return self.uris.nested_base(src)

    def unresolved(self, node: dict[str, Any], src: str, why: str) -> None:
        del node["$ref"]
        self.note("dropped", join(src, "$ref"), f"{why}; any JSON value is accepted there")


class _UriIndex:
    """Where ``$id`` resources and ``$anchor``/``$dynamicAnchor`` names sit in the source, so a
    ``$ref`` by URI (absolute, relative to an enclosing ``$id``, or ``#anchor``) resolves to a
    source pointer when its target is in this document."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.bases: dict[str, str] = {}  # source pointer of a node with $id -> its base URI
        self.resources: dict[str, str] = {}  # base URI (no fragment) -> source pointer
        self.anchors: dict[tuple[str, str], str] = {}  # (base URI, anchor) -> source pointer
        root_id = raw.get("$id")
        root_base = urldefrag(root_id)[0] if isinstance(root_id, str) else ""
        self.bases[""] = root_base
        self.resources[root_base] = ""
        for node, here in sorted(iter_subschemas(raw, ""), key=lambda item: len(item[1])):
            base = self.base_of(here)
            node_id = node.get("$id")
            if here and isinstance(node_id, str):
                uri, fragment = urldefrag(urljoin(base, node_id))
                if fragment and not fragment.startswith("/"):
                    # Draft <= 7 spelling of an anchor ("$id": "#foo", or "other#foo").
                    self.anchors.setdefault((uri, fragment), here)
                if uri != base:
                    base = self.bases[here] = uri
                    self.resources.setdefault(base, here)
            for key in ("$anchor", "$dynamicAnchor"):
                name = node.get(key)
                if isinstance(name, str):
                    self.anchors.setdefault((base, name), here)

    def base_of(self, pointer: str) -> str:
        while pointer not in self.bases:
            pointer = pointer.rsplit("/", 1)[0] if "/" in pointer else ""
        return self.bases[pointer]

    def nested_base(self, pointer: str) -> bool:
        while pointer not in self.bases:
            pointer = pointer.rsplit("/", 1)[0] if "/" in pointer else ""
        return pointer != ""

    def resolve(self, ref: str, src: str) -> str | None:
        """The source pointer ``ref`` (found at ``src``) names, or None when not local."""
        uri, fragment = urldefrag(urljoin(self.base_of(src), ref))
        resource = self.resources.get(uri)
        if resource is None:
            return None
        pointer = ref_to_pointer("#" + fragment)
        if pointer is not None:
            return resource + pointer
        return self.anchors.get((uri, fragment))


# Keywords whose subschemas apply to the same instance (their evaluations count for
# unevaluatedProperties beside or above them).
_IN_PLACE = frozenset(("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"))


# Root keywords a copy of the root in $defs leaves out: definitions and resource identity.
_NOT_COPIED_WITH_ROOT = frozenset(("$defs", "definitions", "$id", "$anchor", "$dynamicAnchor"))
_ABSENT = object()  # the root had no "type"
# Why a draft-03 "required": true was not applied: [anywhere but below a bare-map root, there]
_UNLIFTED_REQUIRED = (
    "draft-03 'required: true' applies only to a schema in a \"properties\" map (it is lifted "
    "into that object's required list); ignored here",
    "draft-03 'required: true' ignored: the root is a bare map of properties, read with no "
    'required property; to require it, use {"type": "object", "properties": {...}, '
    '"required": [...]}',
)


def _free_name(defs: dict[str, Any], wanted: str) -> str:
    """``wanted``, or ``wanted`` with the first number suffix no ``defs`` entry has."""
    if wanted not in defs:
        return wanted
    number = 2
    while f"{wanted}_{number}" in defs:
        number += 1
    return f"{wanted}_{number}"


def _in_place_parts(node: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The subschemas ``if``/``then``/``else``/``dependentSchemas`` apply to the same object."""
    out: list[tuple[str, dict[str, Any]]] = []
    for key in ("if", "then", "else"):
        sub = node.get(key)
        if isinstance(sub, dict):
            out.append((key, sub))
    deps = node.get("dependentSchemas")
    if isinstance(deps, dict):
        out.extend(("dependentSchemas", sub) for sub in deps.values() if isinstance(sub, dict))
    return out
