"""The input model of a `@custom_tool` function, built from its signature.

Every parameter keeps its exact name in the schema the service and the model see, as app tool
properties do (`schema.naming`): a name pydantic or LangChain would take (`callbacks`,
`run_manager`, `_id`, `model_config`, ...) becomes a field with a safe Python name and the
parameter's name as its alias, and is passed back to the function under its own name.

Not part of the schema: the `CustomToolContext` parameter (also `CustomToolContext | None`),
and LangChain injected arguments that have a default (the default is used). An injected
argument without a default, or an `InjectedToolCallId`, is refused: the service's model calls a
custom tool with schema arguments only, so nothing could supply it. So are `*args` (a custom
tool is called with keyword arguments only) and, unless an explicit input schema says what the
arguments are, `**kwargs` (the model would see no property for it, so it would get nothing).
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from langchain_core.tools import InjectedToolArg, InjectedToolCallId
from langchain_core.tools.base import _infer_arg_descriptions
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PydanticInvalidForJsonSchema,
    PydanticUndefinedAnnotation,
    PydanticUserError,
    create_model,
)
from pydantic.fields import FieldInfo

from langchain_toolrouter.schema.naming import field_names

__all__ = [
    "SignatureModel",
    "check_injected_fields",
    "context_parameter",
    "injected_fields",
    "injected_parameters",
    "signature_model",
]

# Closed: an argument the function has no parameter for (a misspelt name) is refused, as an
# app tool's closed schema refuses it, instead of being dropped while a default takes its place.
_CONFIG = ConfigDict(arbitrary_types_allowed=True, extra="forbid")


@dataclass(frozen=True)
class SignatureModel:
    """A function's input model and how its fields map back to the function's parameters."""

    model: type[BaseModel]
    parameters: Mapping[str, str]
    """Python field name -> the function's parameter name."""
    context_param: str | None
    context_optional: bool
    always_passed: frozenset[str] = frozenset()
    """Fields passed even when the caller left them out: their default is the schema's (a
    pydantic `Field` default), not one the function itself has."""

    def schema(self) -> dict[str, Any]:
        """The input JSON Schema (parameter names as properties).

        Raises:
            TypeError: a parameter's type has no JSON Schema (an arbitrary class), naming it.
        """
        try:
            generated = self.model.model_json_schema()
        except PydanticUserError as exc:
            raise TypeError(self._no_schema_message(exc)) from exc
        schema = {"type": "object", "properties": {}, **generated}
        schema.pop("description", None)
        return schema

    def _no_schema_message(self, exc: PydanticUserError) -> str:
        """Which parameter's type has no JSON form, and what to do about it."""
        tool = self.model.__name__
        for attr, field in self.model.model_fields.items():
            try:
                # The field alone, in a model configured as the tool's is: a TypeAdapter would
                # refuse a config beside a pydantic model, dataclass or TypedDict.
                probe = create_model(
                    "probe", __config__=_CONFIG, value=(field.annotation or Any, ...)
                )
                probe.model_json_schema()
            except PydanticInvalidForJsonSchema:  # noqa: PERF203 - an error path, once per tool
                return (
                    f"custom tool {tool!r}: parameter {self.parameters[attr]!r} has type "
                    f"{field.annotation!r}, which has no JSON Schema, so the model could not "
                    "send it: annotate it with JSON types (str, int, float, bool, list, dict, "
                    "a pydantic model or TypedDict of them), or pass input_schema="
                )
            except Exception:  # noqa: S112 - another field's problem: keep looking
                continue
        return f"custom tool {tool!r}: its parameters have no JSON Schema ({exc})"

    def call_kwargs(self, instance: BaseModel) -> dict[str, Any]:
        """The function's keyword arguments: the fields the caller set, under their names."""
        passed = instance.model_fields_set | self.always_passed
        return {self.parameters[attr]: getattr(instance, attr) for attr in passed}


def injected_marks(annotation: Any, metadata: Any = ()) -> list[type[InjectedToolArg]]:
    """The LangChain injection markers of an annotation (`Annotated[str, InjectedToolArg]`)
    or of a pydantic field's metadata."""
    extras = list(metadata)
    if typing.get_origin(annotation) is typing.Annotated:
        extras.extend(typing.get_args(annotation)[1:])
    marks: list[type[InjectedToolArg]] = []
    for extra in extras:
        if isinstance(extra, type) and issubclass(extra, InjectedToolArg):
            marks.append(extra)
        elif isinstance(extra, InjectedToolArg):
            marks.append(type(extra))
    return marks


def refuse_injected(slug: str, name: str, marks: list[type[InjectedToolArg]]) -> None:
    """Raise the definition-time error for an injected argument no one could supply."""
    what = marks[0].__name__
    if _has_call_id(marks):
        why = "custom tool calls carry no LangChain tool call id"
    else:
        why = "the service's model calls a custom tool with schema arguments only"
    msg = (
        f"custom tool {slug!r}: parameter {name!r} is an injected argument ({what}) and "
        f"nothing would supply it ({why}): give it a default, bind it yourself (a closure, "
        "or a def without that parameter that calls your function), or take a "
        "CustomToolContext parameter for the session's user and id"
    )
    raise TypeError(msg)


def check_injected_fields(slug: str, schema: object) -> None:
    """Refuse a LangChain tool whose args schema has an injected argument nothing can supply
    (the same rule as for a function's parameters; a dict schema is not checked)."""
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        return
    for name, info in schema.model_fields.items():
        marks = injected_marks(info.annotation, info.metadata)
        if marks and (info.is_required() or _has_call_id(marks)):
            refuse_injected(slug, info.alias or name, marks)


def injected_fields(schema: object) -> frozenset[str]:
    """The names (aliases) of a LangChain tool's injected arguments: its code gets them, the
    model must not set them (a dict schema has none)."""
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        return frozenset()
    return frozenset(
        info.alias or name
        for name, info in schema.model_fields.items()
        if injected_marks(info.annotation, info.metadata)
    )


def injected_parameters(fn: Callable[..., Any]) -> frozenset[str]:
    """The names of `fn`'s parameters marked as LangChain injected arguments (hidden from the
    model; the ones without a default are refused at definition)."""
    hints = _hints(fn)
    return frozenset(
        param.name
        for param in inspect.signature(fn).parameters.values()
        if injected_marks(hints.get(param.name, param.annotation))
    )


def _has_call_id(marks: list[type[InjectedToolArg]]) -> bool:
    return any(issubclass(mark, InjectedToolCallId) for mark in marks)


def _is_context(annotation: Any, context_type: type) -> bool:
    if isinstance(annotation, str):
        text = annotation.replace(" ", "").strip("'\"")
        name = context_type.__name__
        return text in {name, f"{name}|None", f"None|{name}", f"Optional[{name}]"}
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if annotation is context_type:
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        others = [a for a in typing.get_args(annotation) if a is not type(None)]
        return others == [context_type]
    return False


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """The function's annotations resolved (string annotations included), or as written when
    they cannot all be resolved here (enough to find the context parameter of a tool given
    an explicit `input_schema`; building a model from the signature needs them resolved)."""
    try:
        return typing.get_type_hints(fn, include_extras=True)
    except Exception:  # an unresolvable name: fall back to the raw annotations
        return dict(getattr(fn, "__annotations__", {}))


def signature_model(
    slug: str, fn: Callable[..., Any], *, context_type: type, parse_docstring: bool
) -> SignatureModel:
    """Build the input model of `fn` (see the module docstring).

    Raises:
        ValueError: several `CustomToolContext` parameters.
        TypeError: a positional-only, `*args` or `**kwargs` parameter, or an injected argument
            nothing can supply.
    """
    hints = _hints(fn)
    params = list(inspect.signature(fn).parameters.values())
    context = _context_params(slug, params, hints, context_type)
    kept = [
        p for p in params if p not in context and _in_schema(slug, p, hints, schema_given=False)
    ]
    try:
        _, descriptions = _infer_arg_descriptions(
            fn, parse_docstring=parse_docstring, error_on_invalid_docstring=False
        )
        names = field_names(p.name for p in kept)
        fields: dict[str, Any] = {
            names[p.name][0]: _field(p, hints.get(p.name, p.annotation), descriptions.get(p.name))
            for p in kept
        }
        model = create_model(slug, __config__=_CONFIG, __module__=fn.__module__, **fields)
    except (NameError, PydanticUndefinedAnnotation) as exc:
        msg = (
            f"custom tool {slug!r}: a parameter's annotation cannot be resolved ({exc}), so "
            "its schema cannot be built: define that type at module level (or import it "
            "where the function is defined), or pass input_schema="
        )
        raise TypeError(msg) from exc
    return SignatureModel(
        model=model,
        parameters={names[p.name][0]: p.name for p in kept},
        context_param=context[0].name if context else None,
        context_optional=bool(context) and context[0].default is not inspect.Parameter.empty,
        always_passed=frozenset(
            names[p.name][0]
            for p in kept
            if p.default is inspect.Parameter.empty or isinstance(p.default, FieldInfo)
        ),
    )


def context_parameter(
    slug: str, fn: Callable[..., Any], *, context_type: type
) -> tuple[str | None, bool]:
    """`(name, optional)` of `fn`'s context parameter, for a tool whose input schema is given
    (its signature is not read for a model, so unresolvable annotations do not matter).

    Raises:
        ValueError: several `CustomToolContext` parameters.
        TypeError: a positional-only or `*args` parameter, or an injected argument nothing
            can supply (`**kwargs` is fine here: it receives the arguments the schema has).
    """
    params = list(inspect.signature(fn).parameters.values())
    hints = _hints(fn)
    context = _context_params(slug, params, hints, context_type)
    for param in params:  # the same definition-time refusals as for a signature's model
        if param not in context:
            _in_schema(slug, param, hints, schema_given=True)
    if not context:
        return None, False
    return context[0].name, context[0].default is not inspect.Parameter.empty


def _context_params(
    slug: str, params: list[inspect.Parameter], hints: Mapping[str, Any], context_type: type
) -> list[inspect.Parameter]:
    context = [p for p in params if _is_context(hints.get(p.name, p.annotation), context_type)]
    if len(context) > 1:
        msg = f"custom tool {slug!r} has several CustomToolContext parameters; keep one"
        raise ValueError(msg)
    return context


def _in_schema(
    slug: str, param: inspect.Parameter, hints: Mapping[str, Any], *, schema_given: bool
) -> bool:
    """Whether `param` is a property of the schema built from the signature; raises the
    definition-time error of a parameter nothing could fill."""
    if param.kind is param.VAR_POSITIONAL:
        msg = (
            f"custom tool {slug!r}: parameter '*{param.name}' would always be empty, as a "
            f"custom tool is called with keyword arguments only: take a list instead "
            f"(e.g. '{param.name}: list[str]')"
        )
        raise TypeError(msg)
    if param.kind is param.VAR_KEYWORD:
        if schema_given:  # the given schema says what the arguments are; all are passed
            return False
        msg = (
            f"custom tool {slug!r}: parameter '**{param.name}' would receive nothing, as "
            "the model sees only the named parameters: declare each argument as a parameter, "
            "or pass input_schema={...} describing them (they then arrive as keyword "
            f"arguments, '**{param.name}' included)"
        )
        raise TypeError(msg)
    if param.kind is param.POSITIONAL_ONLY:
        msg = (
            f"custom tool {slug!r}: parameter {param.name!r} is positional-only, but a "
            "custom tool is called with keyword arguments: remove the '/' from the signature"
        )
        raise TypeError(msg)
    marks = injected_marks(hints.get(param.name, param.annotation))
    if not marks:
        return True
    if param.default is inspect.Parameter.empty or _has_call_id(marks):
        refuse_injected(slug, param.name, marks)
    return False  # hidden from the model; the function's default is used


def _field(
    param: inspect.Parameter, annotation: Any, description: str | None
) -> tuple[Any, FieldInfo]:
    """The `(type, FieldInfo)` of a parameter's field, named after the parameter."""
    annotation = Any if annotation is inspect.Parameter.empty else annotation
    if isinstance(param.default, FieldInfo):  # `x: int = Field(3, ge=1, description=...)`
        # A fresh Field from what the user set, its constraints kept on the type: setting
        # `alias` on a copy of theirs would not reach validation or serialization.
        given = param.default
        kept = {k: v for k, v in given._attributes_set.items() if k not in _NAMING}
        kept["description"] = given.description or description
        if given.metadata:
            parts = (annotation, *given.metadata)
            annotation = Annotated[parts]  # Annotated[T, *metadata]
        info: FieldInfo = Field(**kept, alias=param.name)
        return annotation, info
    if param.default is inspect.Parameter.empty:
        # No default given here, so one in `Annotated[int, Field(default=5)]` applies (an
        # explicit `...` would make the field required on pydantic before 2.10).
        required: FieldInfo = Field(alias=param.name, description=description)
        return annotation, required
    plain: FieldInfo = Field(param.default, alias=param.name, description=description)
    return annotation, plain


#: What names a field: always the parameter's own name here.
_NAMING = frozenset(("alias", "alias_priority", "validation_alias", "serialization_alias"))
