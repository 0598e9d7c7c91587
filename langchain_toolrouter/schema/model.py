"""The pydantic args model: a typed view of a tool's arguments whose validation is the gate.

The model's fields mirror the schema (nested objects become nested models, enums ``Literal``,
alternatives ``Union``; what cannot be typed is ``Any``), with every property under its exact
original name as the alias. But pydantic's lax conversions never decide what is accepted: a
``wrap`` model validator first runs the conversion's compiled JSON Schema validator on the raw
input and raises on any violation, then builds the typed view, and keeps a deep copy of the raw
input as the wire payload (``Conversion.payload(instance)`` returns it). So
``Model.model_validate(x)`` is exactly as strict as ``Conversion.validate(x)``, and what is sent
is the caller's JSON, never a re-serialisation of converted values.

``model_json_schema()`` returns the conversion's model-facing schema (original names, enums and
required sets), not pydantic's rendering of the Python fields.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    create_model,
    model_validator,
)

from langchain_toolrouter.schema.naming import field_names
from langchain_toolrouter.schema.pointers import ref_to_pointer, resolve

__all__ = ["ArgsModel", "build_model"]

_MAX_DEPTH = 12


class _View(BaseModel):
    """Base of nested object models: a typed view only (the gate runs at the top level)."""

    model_config = ConfigDict(
        extra="allow", protected_namespaces=(), populate_by_name=False, frozen=True
    )


class ArgsModel(BaseModel):
    """Base of every generated args model; see the module docstring for the contract.

    Instances are frozen (the wire payload is the validated input, so an edited instance would
    send stale values); ``model_copy(update=...)`` copies are re-validated from their fields.
    Keyword construction takes Python attribute names (``M(from_=2)``) and sends the original
    property name (``"from"``).
    """

    model_config = ConfigDict(
        extra="allow", protected_namespaces=(), populate_by_name=False, frozen=True
    )

    __toolrouter_gate__: ClassVar[Callable[[Any], dict[str, Any]]]
    __toolrouter_llm_schema__: ClassVar[dict[str, Any]]
    _wire_payload: dict[str, Any] | None = PrivateAttr(default=None)
    _wire_owner: int = PrivateAttr(default=0)  # id() of the instance the payload belongs to

    def __init__(self, /, **data: Any) -> None:
        fields = type(self).model_fields
        aliases = {f.alias for f in fields.values() if f.alias}
        renamed = {attr: f.alias for attr, f in fields.items() if f.alias and f.alias != attr}
        built = type(self).model_validate(
            {(renamed[k] if k in renamed and k not in aliases else k): v for k, v in data.items()}
        )
        # Validating into ``self`` (pydantic's way) loses the raw view the gate answers with
        # when a typed field is narrower than the schema: take the state of what it built.
        for slot in ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__"):
            object.__setattr__(self, slot, getattr(built, slot))
        private = dict(built.__pydantic_private__ or {})
        private["_wire_owner"] = id(self)
        object.__setattr__(self, "__pydantic_private__", private)

    # Not a "custom" __init__ to pydantic (RootModel does the same): validation never calls it,
    # so ``model_validate`` returns what the gate built instead of validating into a new
    # instance through ``__init__``, which dropped the raw view.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @model_validator(mode="wrap")
    @classmethod
    def _gate(cls, data: Any, handler: Callable[[Any], ArgsModel]) -> ArgsModel:
        if isinstance(data, cls):
            return data
        payload = cls.__toolrouter_gate__(data)
        try:
            instance = handler(payload)
        except ValidationError:
            # The JSON Schema accepted the call but a typed field is narrower than the schema
            # (e.g. 1.0 for an integer enum): keep the raw values as the view.
            instance = cls._raw_view(payload)
        instance._wire_payload = payload
        instance._wire_owner = id(instance)
        return instance

    @classmethod
    def _raw_view(cls, payload: dict[str, Any]) -> ArgsModel:
        """What ``model_construct`` builds from ``payload``, without passing its names as
        keywords: a property named ``cls`` or ``_fields_set`` would collide with that method's
        own parameters. Each property sets the field whose alias it is; the rest are extra."""
        instance = cls.model_construct()  # private attributes and defaults set up
        field_of = {(info.alias or attr): attr for attr, info in cls.model_fields.items()}
        values = dict(instance.__dict__)
        extra: dict[str, Any] = {}
        given: set[str] = set()
        for key, value in payload.items():
            attr = field_of.get(key)
            if attr is None:
                extra[key] = value
            else:
                values[attr] = value
                given.add(attr)
        object.__setattr__(instance, "__dict__", values)
        object.__setattr__(instance, "__pydantic_fields_set__", given)
        object.__setattr__(instance, "__pydantic_extra__", extra)
        return instance

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The model-facing JSON Schema of the tool (original names), not pydantic's rendering."""
        return copy.deepcopy(cls.__toolrouter_llm_schema__)

    def wire_payload(self) -> dict[str, Any]:
        """A deep copy of the exact arguments this instance was validated from."""
        if self._wire_payload is None or self._wire_owner != id(self):
            raise ValueError(
                f"{type(self).__name__} was not built by model_validate, so it has no wire "
                "payload; validate the arguments with Model.model_validate(args)"
            )
        return copy.deepcopy(self._wire_payload)


def build_model(
    name: str,
    schema: dict[str, Any],
    gate: Callable[[Any], dict[str, Any]],
    llm_schema: dict[str, Any],
) -> type[ArgsModel]:
    """Build the args model class for the effective object schema ``schema``."""
    try:
        fields = _Builder(schema, name).fields(_fields_schema(schema), name, ())
    except Exception as exc:  # the typed view is a convenience: never let it block a tool
        warnings.warn(
            f"tool {name!r}: typed args model degraded to untyped fields "
            f"({type(exc).__name__}: {exc}); calls are still validated exactly",
            RuntimeWarning,
            stacklevel=3,
        )
        fields = {
            attr: (Any, Field(default=None, alias=prop))
            for prop, (attr, _) in field_names(schema.get("properties", {})).items()
        }
    model = create_model(
        _class_name(name), __base__=ArgsModel, __doc__=schema.get("description"), **fields
    )
    model.__toolrouter_gate__ = staticmethod(gate)
    model.__toolrouter_llm_schema__ = llm_schema
    return model


def _fields_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The object schema whose properties are the fields: the root, or its root ``$ref`` target
    (the zod-to-json-schema "named" form puts everything behind ``{"$ref": "#/definitions/X"}``).
    """
    root, seen = schema, set[str]()
    while "properties" not in schema and isinstance(schema.get("$ref"), str):
        pointer = ref_to_pointer(schema["$ref"])
        if pointer is None or pointer in seen:
            break
        seen.add(pointer)
        try:
            target = resolve(root, pointer)
        except KeyError:
            break
        if not isinstance(target, dict):
            break
        schema = target
    return schema


def _class_name(name: str) -> str:
    cleaned = "".join(ch if ch.isalnum() else "_" for ch in name).strip("_") or "Tool"
    return cleaned if cleaned[0].isalpha() else "T_" + cleaned


class _Builder:
    def __init__(self, root: dict[str, Any], name: str) -> None:
        self.root = root
        self.name = name
        self.targets: dict[str, Any] = {}  # $ref target pointer -> its annotation

    def fields(self, schema: dict[str, Any], owner: str, stack: tuple[str, ...]) -> dict[str, Any]:
        props: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", ()))
        out: dict[str, Any] = {}
        for prop, (attr, _) in field_names(props).items():
            sub = props[prop]
            annotation = self.annotation(sub, f"{owner}_{attr}", stack)
            info: dict[str, Any] = {"alias": prop}
            if isinstance(sub, dict) and isinstance(sub.get("description"), str):
                info["description"] = sub["description"]
            if prop in required:
                out[attr] = (annotation, Field(**info))
            else:
                default = sub.get("default") if isinstance(sub, dict) else None
                out[attr] = (
                    annotation | None if annotation is not Any else Any,
                    Field(default=copy.deepcopy(default), **info),
                )
        return out

    def annotation(self, schema: Any, owner: str, stack: tuple[str, ...]) -> Any:
        if not isinstance(schema, dict) or len(stack) > _MAX_DEPTH:
            return Any
        if "$ref" in schema:
            pointer = ref_to_pointer(schema["$ref"]) or ""
            if pointer in stack:
                return Any
            try:
                target = resolve(self.root, pointer)
            except KeyError:
                return Any
            if len(schema) > 1:
                return Any  # $ref with sibling constraints: no single Python type says both
            # Built once per target: targets that use each other would otherwise be built
            # once per path, exponentially many. (A first build cut short by a recursion or
            # the depth limit is reused as it is: it is a typed view, not the gate.)
            built = self.targets.get(pointer)
            if built is None:
                built = self.targets[pointer] = self.annotation(target, owner, (*stack, pointer))
            return built
        if "const" in schema:
            return _literal([schema["const"]])
        if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
            return _literal(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                branches = [
                    self.annotation(b, f"{owner}_{i}", stack) for i, b in enumerate(schema[key])
                ]
                return _union(branches)
        if "allOf" in schema and len(schema["allOf"]) == 1 and "type" not in schema:
            return self.annotation(schema["allOf"][0], owner, stack)
        types = schema.get("type")
        if types is None:
            return Any
        names = [types] if isinstance(types, str) else list(types)
        return _union([self.of_type(t, schema, owner, stack) for t in names])

    def of_type(self, name: str, schema: dict[str, Any], owner: str, stack: tuple[str, ...]) -> Any:
        if name == "string":
            return str
        if name == "integer":
            return int
        if name == "number":
            return float
        if name == "boolean":
            return bool
        if name == "null":
            return type(None)
        if name == "array":
            items = schema.get("items")
            if "prefixItems" in schema or items is None:
                return list[Any]
            return list[self.annotation(items, owner + "_item", stack)]  # type: ignore[misc]
        if name == "object":
            if schema.get("properties"):
                fields = self.fields(schema, owner, stack)
                return create_model(_class_name(owner), __base__=_View, **fields)
            extra = schema.get("additionalProperties", True)
            value = (
                self.annotation(extra, owner + "_value", stack) if isinstance(extra, dict) else Any
            )
            return dict[str, value]  # type: ignore[valid-type]
        return Any


def _literal(values: list[Any]) -> Any:
    if all(v is None or isinstance(v, (str, int, float, bool)) for v in values):
        return Literal[tuple(values)]
    return Any


def _union(options: list[Any]) -> Any:
    unique: list[Any] = []
    for option in options:
        if option is Any:
            return Any
        if option not in unique:
            unique.append(option)
    if len(unique) == 1:
        return unique[0]
    return Union[tuple(unique)]  # noqa: UP007
