"""A small JSON Schema (2020-12) validator compiled to closures, one per schema node.

Why our own: a tool call must be accepted exactly when the tool's schema accepts it, and the
payload sent must be the caller's JSON untouched. pydantic validates by *converting* (``"5"`` to
5, a URL to ``Url``, a date-time to ``datetime``), which is the wrong tool for a gate; ``jsonschema``
is exact but is not a runtime dependency and is slower. Each node compiles once (on first
validation) into a function ``check(value, path, errors) -> bool``; with ``errors=None`` it only
answers yes/no and stops at the first failure (used inside ``anyOf``/``oneOf``/``not``).

Deliberate readings, matching the JSON Schema specification:

- ``1.0`` is an integer (JSON Schema defines integers by value; under a declared draft-04 it is
  not, as in that draft); booleans are never numbers;
- ``enum``/``const``/``uniqueItems`` compare by JSON equality (``1 == 1.0``, ``true != 1``);
- ``format`` is asserted where its definition is crisp (a date, an email address, IPv4/IPv6, a
  UUID, a JSON Pointer: see ``formats``) and an annotation otherwise (``date-time``, ``uri``...);
  either way a string is sent as it is, never parsed into a Python object;
- ``pattern`` uses Python's ``re.search`` (JSON Schema patterns are not anchored);
- ``unevaluatedProperties``/``unevaluatedItems`` see what the node and the subschemas applied
  in place that accept the value evaluate (2020-12 annotation collection); only nodes carrying
  one of them compile the extra check and its collectors.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from langchain_toolrouter.schema.ecma_regex import python_regex
from langchain_toolrouter.schema.formats import FORMAT_CHECKS, asserted_formats
from langchain_toolrouter.schema.pointers import ref_to_pointer, resolve, to_pointer
from langchain_toolrouter.schema.values import describe, freeze, json_equal

__all__ = ["Check", "Issue", "Path", "accept_any", "compile_schema", "is_json_type"]

Path = tuple[str | int, ...]


class Issue:
    """One validation problem: where (a path of keys/indices), what, and what was expected."""

    __slots__ = ("expected", "message", "path")

    def __init__(self, path: Path, message: str, expected: str) -> None:
        self.path = path
        self.message = message
        self.expected = expected

    def as_dict(self) -> dict[str, Any]:
        return {"path": to_pointer(self.path), "message": self.message, "expected": self.expected}


Errors = list[Issue] | None
Check = Callable[[Any, Path, Errors], bool]
# Adds to ``seen`` the property names (of an object) or indices (of an array) that a schema
# evaluates on a value it accepts; True when it evaluates them all (``seen`` is then partial).
Collect = Callable[[Any, set[Any]], bool]


def accept_any(value: Any, path: Path, errors: Errors) -> bool:
    """The check of ``true`` (or ``{}``): any value."""
    return True


def _reject(value: Any, path: Path, errors: Errors) -> bool:
    if errors is not None:
        errors.append(Issue(path, "no value is allowed here", "this key to be left out"))
    return False


def is_json_type(value: Any, name: str) -> bool:
    """Whether ``value`` is of JSON type ``name`` (``1.0`` is an integer, ``true`` no number)."""
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float))
    return False


def _join_alternatives(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _summary(schema: Any) -> str:
    """A short human reading of what a schema expects, for error messages."""
    if schema is True or schema == {}:
        return "any JSON value"
    if schema is False:
        return "nothing"
    if not isinstance(schema, dict):
        return "a valid value"
    if "const" in schema:
        return f"the constant {_show(schema['const'])}"
    if "enum" in schema and isinstance(schema["enum"], list):
        if not schema["enum"]:
            return "no value (the schema's enum is empty, so nothing is allowed here)"
        return "one of " + _listed(schema["enum"])
    types = schema.get("type")
    fmt = schema.get("format")
    if type(fmt) is str and fmt in FORMAT_CHECKS and types in (None, "string"):
        return FORMAT_CHECKS[fmt][1]
    if isinstance(types, str):
        return _type_phrase(types)
    if isinstance(types, list) and types:
        return _join_alternatives([_type_phrase(t) for t in types])
    if "$ref" in schema:
        return "a value matching " + str(schema["$ref"])
    return "a value matching the schema"


def _listed(values: list[Any], most: int = 20) -> str:
    """Up to ``most`` of ``values`` shown, saying how many there are when that is not all."""
    shown = ", ".join(_show(v) for v in values[:most])
    return shown if len(values) <= most else f"{shown}, ... ({len(values)} in all)"


def _type_phrase(name: str) -> str:
    return {"integer": "an integer", "array": "an array", "object": "an object"}.get(
        name, f"a {name}" if name != "null" else "null"
    )


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def compile_schema(
    schema: Any,
    *,
    root: dict[str, Any] | None = None,
    integer_by_type: bool = False,
    formats: frozenset[str] = asserted_formats(None),
) -> Check:
    """Compile an effective (normalized) schema into its check.

    ``root`` is the document ``$ref`` pointers resolve in (``schema`` itself by default).
    ``integer_by_type``: draft-04 semantics, where ``1.0`` is a number but not an integer.
    ``formats``: the ``format`` values asserted (the declared draft's, see ``Normalized``).
    """
    document = schema if root is None else root
    compiler = _Compiler(document, integer_by_type=integer_by_type, formats=formats)
    return compiler.compile(schema, "")


def _is_type_draft4(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return is_json_type(value, name)


class _Compiler:
    def __init__(
        self, root: dict[str, Any], *, integer_by_type: bool, formats: frozenset[str]
    ) -> None:
        self.root = root
        self.is_type = _is_type_draft4 if integer_by_type else is_json_type
        self.formats = formats
        self.by_pointer: dict[str, list[Check]] = {}
        # $ref target pointer -> its collector (see ``collector``), per instance kind.
        self.collectors: dict[tuple[str, bool], list[Collect]] = {}

    def compile(self, schema: Any, pointer: str) -> Check:
        if schema is True or schema == {}:
            return accept_any
        if schema is False:
            return _reject
        if not isinstance(schema, dict):
            return accept_any
        checks: list[Check] = []
        type_check = self.type_check(schema)
        for maker in (
            self.ref,
            self.enum_const,
            self.numeric,
            self.string,
            self.array,
            self.object,
            self.combinators,
            self.conditional,
        ):
            checks.extend(maker(schema, pointer))
        if "unevaluatedProperties" in schema or "unevaluatedItems" in schema:
            checks.extend(self.unevaluated(schema, pointer))  # last: see ``unevaluated``
        return _node(type_check, tuple(checks))

    # -- keywords -----------------------------------------------------------------------------

    def type_check(self, schema: dict[str, Any]) -> Check | None:
        types = schema.get("type")
        if types is None:
            return None
        names = (types,) if isinstance(types, str) else tuple(types)
        expected = self.contradiction(schema) or _join_alternatives(
            [_type_phrase(t) for t in names]
        )
        is_type = self.is_type
        if len(names) == 1:
            name = names[0]

            def check(value: Any, path: Path, errors: Errors) -> bool:
                if is_type(value, name):
                    return True
                if errors is not None:
                    errors.append(Issue(path, f"got {describe(value)}", expected))
                return False

            return check

        def check_any(value: Any, path: Path, errors: Errors) -> bool:
            for name in names:
                if is_type(value, name):
                    return True
            if errors is not None:
                errors.append(Issue(path, f"got {describe(value)}", expected))
            return False

        return check_any

    def ref(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return []
        target_pointer = ref_to_pointer(ref)
        if target_pointer is None:
            return []
        cell = self.by_pointer.get(target_pointer)
        if cell is None:
            cell = []
            self.by_pointer[target_pointer] = cell
            try:
                target = resolve(self.root, target_pointer)
            except KeyError:
                target = True
            cell.append(self.compile(target, target_pointer))

        def check(value: Any, path: Path, errors: Errors) -> bool:
            return cell[0](value, path, errors)

        return [check]

    def contradiction(self, schema: dict[str, Any]) -> str | None:
        """What to expect where ``type`` excludes every value ``enum``/``const`` allows (a
        published schema can say ``{"type": "integer", "enum": ["1", "2"]}``): nothing, and
        why, rather than two errors that each point at the other."""
        types = schema.get("type")
        if "const" in schema:
            members = [schema["const"]]
        elif isinstance(schema.get("enum"), list) and schema["enum"]:
            members = schema["enum"]
        else:
            return None
        if not isinstance(types, (str, list)) or not types:
            return None
        names = [types] if isinstance(types, str) else types
        if any(self.is_type(m, t) for m in members for t in names):
            return None
        allowed = _listed(members)
        kinds = _join_alternatives([_type_phrase(t) for t in names])
        return (
            f"no value (the schema allows only {allowed} but also requires {kinds}: it "
            "contradicts itself, so nothing is allowed here)"
        )

    def enum_const(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        checks: list[Check] = []
        contradiction = self.contradiction(schema)
        if "enum" in schema:
            members = schema["enum"]
            allowed = {freeze(m) for m in members}
            expected = contradiction or _summary({"enum": members})

            def check_enum(value: Any, path: Path, errors: Errors) -> bool:
                if freeze(value) in allowed:
                    return True
                if errors is not None:
                    errors.append(Issue(path, f"{describe(value)} is not allowed", expected))
                return False

            checks.append(check_enum)
        if "const" in schema:
            const = schema["const"]
            expected_const = contradiction or _summary({"const": const})

            def check_const(value: Any, path: Path, errors: Errors) -> bool:
                if json_equal(value, const):
                    return True
                if errors is not None:
                    errors.append(Issue(path, f"{describe(value)} is not allowed", expected_const))
                return False

            checks.append(check_const)
        return checks

    def numeric(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        bounds: list[tuple[str, float, Callable[[Any, Any], bool], str]] = []
        if "minimum" in schema:
            bounds.append(("minimum", schema["minimum"], lambda v, b: v >= b, ">= {}"))
        if "maximum" in schema:
            bounds.append(("maximum", schema["maximum"], lambda v, b: v <= b, "<= {}"))
        if "exclusiveMinimum" in schema:
            bounds.append(
                ("exclusiveMinimum", schema["exclusiveMinimum"], lambda v, b: v > b, "> {}")
            )
        if "exclusiveMaximum" in schema:
            bounds.append(
                ("exclusiveMaximum", schema["exclusiveMaximum"], lambda v, b: v < b, "< {}")
            )
        multiple = schema.get("multipleOf")
        if not bounds and multiple is None:
            return []

        def check(value: Any, path: Path, errors: Errors) -> bool:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return True
            ok = True
            for _, bound, test, phrase in bounds:
                if not test(value, bound):
                    if errors is None:
                        return False
                    errors.append(
                        Issue(
                            path, f"{value!r} is out of range", "a number " + phrase.format(bound)
                        )
                    )
                    ok = False
            if multiple is not None and not _is_multiple(value, multiple):
                if errors is None:
                    return False
                errors.append(
                    Issue(
                        path,
                        f"{value!r} is not a multiple of {multiple!r}",
                        f"a multiple of {multiple!r}",
                    )
                )
                ok = False
            return ok

        return [check]

    def string(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        min_len = schema.get("minLength")
        max_len = schema.get("maxLength")
        pattern_text = schema.get("pattern")
        pattern = python_regex(pattern_text) if isinstance(pattern_text, str) else None
        fmt = schema.get("format")
        format_check = FORMAT_CHECKS.get(fmt) if type(fmt) is str and fmt in self.formats else None
        if min_len is None and max_len is None and pattern is None and format_check is None:
            return []

        def check(value: Any, path: Path, errors: Errors) -> bool:
            if not isinstance(value, str):
                return True
            ok = True
            if min_len is not None and len(value) < min_len:
                if errors is None:
                    return False
                errors.append(
                    Issue(
                        path,
                        f"string has {len(value)} characters",
                        f"at least {min_len} characters",
                    )
                )
                ok = False
            if max_len is not None and len(value) > max_len:
                if errors is None:
                    return False
                errors.append(
                    Issue(
                        path, f"string has {len(value)} characters", f"at most {max_len} characters"
                    )
                )
                ok = False
            if pattern is not None and pattern.search(value) is None:
                if errors is None:
                    return False
                errors.append(
                    Issue(
                        path,
                        f"{describe(value)} does not match the pattern",
                        f"a string matching {pattern_text!r}",
                    )
                )
                ok = False
            if format_check is not None and not format_check[0](value):
                if errors is None:
                    return False
                errors.append(Issue(path, f"got {describe(value)}", format_check[1]))
                ok = False
            return ok

        return [check]

    def array(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        prefix = tuple(
            self.compile(s, f"{pointer}/prefixItems/{i}")
            for i, s in enumerate(schema.get("prefixItems", ()))
        )
        items = self.compile(schema["items"], pointer + "/items") if "items" in schema else None
        if items is accept_any:
            items = None
        min_items = schema.get("minItems")
        max_items = schema.get("maxItems")
        unique = schema.get("uniqueItems") is True
        contains = (
            self.compile(schema["contains"], pointer + "/contains")
            if "contains" in schema
            else None
        )
        min_contains = schema.get("minContains", 1)
        max_contains = schema.get("maxContains")
        if (
            not prefix
            and items is None
            and min_items is None
            and max_items is None
            and not unique
            and contains is None
        ):
            return []
        n_prefix = len(prefix)

        def check(value: Any, path: Path, errors: Errors) -> bool:
            if not isinstance(value, list):
                return True
            ok = True
            size = len(value)
            if min_items is not None and size < min_items:
                if errors is None:
                    return False
                errors.append(Issue(path, f"array has {size} items", f"at least {min_items} items"))
                ok = False
            if max_items is not None and size > max_items:
                if errors is None:
                    return False
                errors.append(Issue(path, f"array has {size} items", f"at most {max_items} items"))
                ok = False
            for i, (item, item_check) in enumerate(zip(value, prefix, strict=False)):
                if not item_check(item, (*path, i), errors):
                    if errors is None:
                        return False
                    ok = False
            if items is not None:
                for i in range(n_prefix, size):
                    if not items(value[i], (*path, i), errors):
                        if errors is None:
                            return False
                        ok = False
            if unique and size > 1:
                seen: set[Any] = set()
                for item in value:
                    key = freeze(item)
                    if key in seen:
                        if errors is None:
                            return False
                        errors.append(
                            Issue(
                                path,
                                f"duplicate item {_show(item)}",
                                "items that are all different",
                            )
                        )
                        ok = False
                        break
                    seen.add(key)
            if contains is not None:
                count = sum(1 for item in value if contains(item, path, None))
                if count < min_contains or (max_contains is not None and count > max_contains):
                    if errors is None:
                        return False
                    errors.append(
                        Issue(
                            path,
                            f"{count} items match 'contains'",
                            f"between {min_contains} and {max_contains if max_contains is not None else 'any number of'} matching items",
                        )
                    )
                    ok = False
            return ok

        return [check]

    def object(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        props = {
            name: self.compile(s, f"{pointer}/properties/{name}")
            for name, s in schema.get("properties", {}).items()
        }
        patterns = tuple(
            (python_regex(p), self.compile(s, f"{pointer}/patternProperties/{p}"))
            for p, s in schema.get("patternProperties", {}).items()
        )
        additional_schema = schema.get("additionalProperties", True)
        additional = self.compile(additional_schema, pointer + "/additionalProperties")
        closed = additional_schema is False
        required = tuple(schema.get("required", ()))
        names = (
            self.compile(schema["propertyNames"], pointer + "/propertyNames")
            if "propertyNames" in schema
            else None
        )
        min_props = schema.get("minProperties")
        max_props = schema.get("maxProperties")
        dep_required = {
            k: [n for n in v if isinstance(n, str)]
            for k, v in schema.get("dependentRequired", {}).items()
            if isinstance(v, list)
        }
        dep_schemas = {
            k: self.compile(s, f"{pointer}/dependentSchemas/{k}")
            for k, s in schema.get("dependentSchemas", {}).items()
        }
        known = ", ".join(sorted(props)) or "none"
        if (
            not props
            and not patterns
            and additional is accept_any
            and not required
            and names is None
            and min_props is None
            and max_props is None
            and not dep_required
            and not dep_schemas
        ):
            return []

        def check(value: Any, path: Path, errors: Errors) -> bool:
            if not isinstance(value, dict):
                return True
            ok = True
            for name in required:
                if name not in value:
                    if errors is None:
                        return False
                    errors.append(
                        Issue(
                            (*path, name),
                            f"required property {name!r} is missing",
                            f"a value for {name!r}",
                        )
                    )
                    ok = False
            for key, item in value.items():
                sub = props.get(key)
                matched = sub is not None
                if sub is not None and not sub(item, (*path, key), errors):
                    if errors is None:
                        return False
                    ok = False
                for regex, pattern_check in patterns:
                    if regex.search(key):
                        matched = True
                        if not pattern_check(item, (*path, key), errors):
                            if errors is None:
                                return False
                            ok = False
                if not matched:
                    if closed:
                        if errors is None:
                            return False
                        errors.append(
                            Issue(
                                (*path, key),
                                f"unknown property {key!r}",
                                f"only these properties: {known}",
                            )
                        )
                        ok = False
                    elif not additional(item, (*path, key), errors):
                        if errors is None:
                            return False
                        ok = False
                if names is not None and not names(key, path, None):
                    if errors is None:
                        return False
                    errors.append(
                        Issue(
                            (*path, key),
                            f"property name {key!r} is not allowed",
                            "property names matching propertyNames",
                        )
                    )
                    ok = False
            size = len(value)
            if min_props is not None and size < min_props:
                if errors is None:
                    return False
                errors.append(
                    Issue(path, f"object has {size} properties", f"at least {min_props} properties")
                )
                ok = False
            if max_props is not None and size > max_props:
                if errors is None:
                    return False
                errors.append(
                    Issue(path, f"object has {size} properties", f"at most {max_props} properties")
                )
                ok = False
            for trigger, needed in dep_required.items():
                if trigger in value:
                    for name in needed:
                        if name not in value:
                            if errors is None:
                                return False
                            errors.append(
                                Issue(
                                    (*path, name),
                                    f"{name!r} is missing (required when {trigger!r} is given)",
                                    f"a value for {name!r}",
                                )
                            )
                            ok = False
            for trigger, dep in dep_schemas.items():
                if trigger in value and not dep(value, path, errors):
                    if errors is None:
                        return False
                    ok = False
            return ok

        return [check]

    def combinators(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        checks: list[Check] = []
        if "allOf" in schema:
            parts = tuple(
                self.compile(s, f"{pointer}/allOf/{i}") for i, s in enumerate(schema["allOf"])
            )

            def check_all(value: Any, path: Path, errors: Errors) -> bool:
                ok = True
                for part in parts:
                    if not part(value, path, errors):
                        if errors is None:
                            return False
                        ok = False
                return ok

            checks.append(check_all)
        checks.extend(
            self.alternatives(key, schema[key], pointer)
            for key in ("anyOf", "oneOf")
            if key in schema
        )
        if "not" in schema:
            negated = self.compile(schema["not"], pointer + "/not")
            expected = "a value that does not match " + _summary(schema["not"])

            def check_not(value: Any, path: Path, errors: Errors) -> bool:
                if not negated(value, path, None):
                    return True
                if errors is not None:
                    errors.append(
                        Issue(path, f"{describe(value)} matches a forbidden schema", expected)
                    )
                return False

            checks.append(check_not)
        return checks

    def alternatives(self, key: str, branches: list[Any], pointer: str) -> Check:
        compiled = tuple(self.compile(s, f"{pointer}/{key}/{i}") for i, s in enumerate(branches))
        expected = _join_alternatives([_summary(b) for b in branches])
        exactly_one = key == "oneOf"

        def check(value: Any, path: Path, errors: Errors) -> bool:
            matches = 0
            for branch in compiled:
                if branch(value, path, None):
                    matches += 1
                    if not exactly_one or matches > 1:
                        break
            if matches == 1 or (matches > 1 and not exactly_one):
                return True
            if errors is not None:
                if matches > 1:
                    errors.append(
                        Issue(
                            path,
                            "the value matches more than one oneOf alternative",
                            "exactly one of: " + expected,
                        )
                    )
                else:
                    errors.extend(
                        _closest_failure(compiled, value, path)
                        or [
                            Issue(
                                path,
                                f"{describe(value)} matches none of the alternatives",
                                expected,
                            )
                        ]
                    )
            return False

        return check

    def conditional(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        if "if" not in schema:
            return []
        cond = self.compile(schema["if"], pointer + "/if")
        then = self.compile(schema.get("then", True), pointer + "/then")
        other = self.compile(schema.get("else", True), pointer + "/else")

        def check(value: Any, path: Path, errors: Errors) -> bool:
            return (
                then(value, path, errors) if cond(value, path, None) else other(value, path, errors)
            )

        return [check]

    # -- unevaluatedProperties / unevaluatedItems ---------------------------------------------

    def unevaluated(self, schema: dict[str, Any], pointer: str) -> list[Check]:
        """The checks of ``unevaluatedProperties``/``unevaluatedItems`` (JSON Schema 2020-12).

        A property (an item) is evaluated when this node, or a subschema applied in place to the
        same value that accepts it, evaluates it: see ``collector``. The collector assumes every
        other keyword of this node accepted the value. That holds for the verdict: these checks
        come last, and a node stops at its first failure when ``errors`` is None. When errors
        are collected and something else failed, the call is rejected anyway; a failing
        ``allOf``/``$ref`` branch then still counts as evaluating its names, so what is
        reported is the real cause rather than every name of that branch twice.
        Only nodes with these keywords (and the subschemas they apply in place) pay for this.
        """
        checks: list[Check] = []
        for key, objects in (("unevaluatedProperties", True), ("unevaluatedItems", False)):
            if key not in schema:
                continue
            collect = self.collector(schema, pointer, objects, own=True)
            rest = self.compile(schema[key], f"{pointer}/{key}")
            if collect is _collect_all or rest is accept_any:
                continue  # every name (item) is evaluated, or any value is fine
            checks.append(_unevaluated(collect, rest, closed=schema[key] is False, objects=objects))
        return checks

    def collector(self, schema: Any, pointer: str, objects: bool, *, own: bool = False) -> Collect:
        """What ``schema`` evaluates of an object (``objects``) or an array that it accepts.

        Names: ``properties``, ``patternProperties`` matches, everything under
        ``additionalProperties`` or a nested ``unevaluatedProperties``. Items: ``prefixItems``
        indices, ``contains`` matches, everything under ``items`` or a nested
        ``unevaluatedItems``. Then, recursively, what the in-place subschemas that accept the
        value evaluate: every ``allOf`` branch and ``$ref`` target and triggered
        ``dependentSchemas`` entry (all accept it, since ``schema`` does), the ``anyOf``/
        ``oneOf`` branches that accept it, ``if`` with ``then`` or else ``else``; ``not``
        evaluates nothing. ``own``: leave out the node's own unevaluated keyword.
        """
        if not isinstance(schema, dict):
            return _collect_none
        contains: Check | None = None
        if objects:
            if "additionalProperties" in schema or (not own and "unevaluatedProperties" in schema):
                return _collect_all
            static: frozenset[Any] = frozenset(schema.get("properties", ()))
            regexes = tuple(python_regex(p) for p in schema.get("patternProperties", ()))
        else:
            if "items" in schema or (not own and "unevaluatedItems" in schema):
                return _collect_all
            static = frozenset(range(len(schema.get("prefixItems", ()))))
            regexes = ()
            if "contains" in schema:
                contains = self.compile(schema["contains"], pointer + "/contains")
        always = [
            self.collector(s, f"{pointer}/allOf/{i}", objects)
            for i, s in enumerate(schema.get("allOf", ()))
        ]
        ref = self.ref_collector(schema, objects)
        if ref is not None:
            always.append(ref)
        if _collect_all in always:
            return _collect_all
        dependent = tuple(
            (trigger, c)
            for trigger, s in (schema.get("dependentSchemas", {}) if objects else {}).items()
            if (c := self.collector(s, f"{pointer}/dependentSchemas/{trigger}", objects))
            is not _collect_none
        )
        alternatives = tuple(
            (self.compile(s, f"{pointer}/{key}/{i}"), c)
            for key in ("anyOf", "oneOf")
            for i, s in enumerate(schema.get(key, ()))
            if (c := self.collector(s, f"{pointer}/{key}/{i}", objects)) is not _collect_none
        )
        conditional: tuple[Check, Collect, Collect, Collect] | None = None
        if "if" in schema:
            conditional = (
                self.compile(schema["if"], pointer + "/if"),
                self.collector(schema["if"], pointer + "/if", objects),
                self.collector(schema.get("then", True), pointer + "/then", objects),
                self.collector(schema.get("else", True), pointer + "/else", objects),
            )
            if conditional[1:] == (_collect_none,) * 3:
                conditional = None
        calls = tuple(c for c in always if c is not _collect_none)
        if not (regexes or contains or calls or dependent or alternatives or conditional):
            if not static:
                return _collect_none

            def collect_static(value: Any, seen: set[Any]) -> bool:
                seen.update(static)
                return False

            return collect_static

        def collect(value: Any, seen: set[Any]) -> bool:
            seen.update(static)
            for key in value if regexes else ():
                for regex in regexes:
                    if regex.search(key):
                        seen.add(key)
                        break
            if contains is not None:
                seen.update(i for i, item in enumerate(value) if contains(item, (), None))
            for sub in calls:
                if sub(value, seen):
                    return True
            for trigger, sub in dependent:
                if trigger in value and sub(value, seen):
                    return True
            for test, sub in alternatives:
                if test(value, (), None) and sub(value, seen):
                    return True
            if conditional is not None:
                test, if_sub, then_sub, else_sub = conditional
                if test(value, (), None):
                    return if_sub(value, seen) or then_sub(value, seen)
                return else_sub(value, seen)
            return False

        return collect

    def ref_collector(self, schema: dict[str, Any], objects: bool) -> Collect | None:
        """The collector of the ``$ref`` target of ``schema`` (None without a local ``$ref``)."""
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return None
        target_pointer = ref_to_pointer(ref)
        if target_pointer is None:
            return None
        cell = self.collectors.get((target_pointer, objects))
        if cell is None:
            cell = []
            self.collectors[(target_pointer, objects)] = cell
            try:
                target = resolve(self.root, target_pointer)
            except KeyError:
                target = True
            cell.append(self.collector(target, target_pointer, objects))
        if cell:
            return cell[0]

        def deferred(value: Any, seen: set[Any]) -> bool:  # a cycle: compiled by then
            return cell[0](value, seen)

        return deferred


def _closest_failure(branches: tuple[Check, ...], value: Any, path: Path) -> list[Issue]:
    """The errors of the only branch whose failure is deeper than the value's own type.

    When exactly one alternative accepts the value's shape, its specific errors ("missing 'id'")
    help the caller far more than "matches none of the alternatives"; otherwise return nothing.
    """
    candidates: list[list[Issue]] = []
    for branch in branches:
        issues: list[Issue] = []
        branch(value, path, issues)
        if not any(i.path == path and i.message.startswith("got ") for i in issues):
            candidates.append(issues)
    return candidates[0] if len(candidates) == 1 and candidates[0] else []


def _is_multiple(value: Any, multiple: Any) -> bool:
    """``multipleOf`` as the ``jsonschema`` package computes it (floats by quotient)."""
    if isinstance(multiple, float):
        try:
            quotient = value / multiple
            return bool(int(quotient) == quotient)
        except OverflowError:
            return (Fraction(value) / Fraction(multiple)).denominator == 1
    return not value % multiple


def _node(type_check: Check | None, checks: tuple[Check, ...]) -> Check:
    if type_check is not None and not checks:
        return type_check
    if type_check is None and len(checks) == 1:
        return checks[0]

    def check(value: Any, path: Path, errors: Errors) -> bool:
        if type_check is not None and not type_check(value, path, errors):
            return False
        ok = True
        for c in checks:
            if not c(value, path, errors):
                if errors is None:
                    return False
                ok = False
        return ok

    return check


def _collect_all(value: Any, seen: set[Any]) -> bool:
    return True


def _collect_none(value: Any, seen: set[Any]) -> bool:
    return False


def _unevaluated(collect: Collect, rest: Check, *, closed: bool, objects: bool) -> Check:
    """The check of ``unevaluatedProperties`` (``objects``) or ``unevaluatedItems``: every name
    (index) ``collect`` does not count as evaluated must pass ``rest`` (none may exist when
    ``closed``, the keyword being ``false``)."""
    kind = dict if objects else list

    def check(value: Any, path: Path, errors: Errors) -> bool:
        if not isinstance(value, kind) or not value:
            return True
        seen: set[Any] = set()
        if collect(value, seen):
            return True
        ok = True
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if key in seen:
                continue
            if closed:
                if errors is None:
                    return False
                errors.append(_unevaluated_issue((*path, key), item, seen, objects=objects))
                ok = False
            elif not rest(item, (*path, key), errors):
                if errors is None:
                    return False
                ok = False
        return ok

    return check


def _unevaluated_issue(path: Path, item: Any, seen: set[Any], *, objects: bool) -> Issue:
    """What a closed ``unevaluatedProperties``/``unevaluatedItems`` says of a value it refuses."""
    if objects:
        known = ", ".join(sorted(k for k in seen if isinstance(k, str))) or "none"
        return Issue(path, f"unknown property {path[-1]!r}", f"only these properties: {known}")
    return Issue(
        path,
        f"unexpected item {_show(item)} at index {path[-1]}",
        "only the items the schema describes (prefixItems, items, contains)",
    )
