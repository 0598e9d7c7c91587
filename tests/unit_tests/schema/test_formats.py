"""``format`` checks: the formats asserted, per draft, agree with jsonschema's format checker,
and a checked string is sent exactly as given."""

from __future__ import annotations

import string
import warnings
from collections.abc import Callable
from typing import Any, cast

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_jsonschema._from_schema import STRING_FORMATS

from langchain_toolrouter.schema import ArgsValidationError, json_schema_to_model
from langchain_toolrouter.schema.formats import FORMAT_CHECKS

_JSONSCHEMA = jsonschema.Draft202012Validator.FORMAT_CHECKER

EXAMPLES: dict[str, tuple[list[str], list[str]]] = {
    "date": (
        ["2024-02-29", "0001-01-01"],
        ["2023-02-29", "2024-1-01", "20240101", "2024-01-01T00:00:00Z"],
    ),
    "email": (["a@b.co", "@"], ["ab.co", ""]),
    "idn-email": (["ü@ö.de"], ["üö.de"]),
    "ipv4": (["192.0.2.1", "0.0.0.0"], ["192.0.2.256", "192.0.2", "01.2.3.4", "::1"]),
    "ipv6": (
        ["2001:db8::1", "::ffff:192.0.2.1", "::"],
        ["2001:db8::g", "fe80::1%eth0", "192.0.2.1"],
    ),
    "uuid": (
        ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"],
        ["123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "x"],
    ),
    "json-pointer": (["", "/", "/a/0", "/a~0b/c~1d"], ["a", "/a~2", "/a~"]),
    "relative-json-pointer": (
        ["0", "1#", "0/a/0", "10/a~1b"],
        ["", "#", "01/a", "-1/a", "a", "0a"],
    ),
    "regex": (["[a-z]+", "^(a|b)*$", "(?P<n>x)"], ["(", "a{2,1}", "[z-a]"]),
    "idn-hostname": (["example.com", "xn--mnchen-3ya.de", "münchen.de"], ["a b", "-a.com"]),
}
# Where we accept more than jsonschema's checker, on purpose: a relative pointer "100/a"
# (it refuses any "0" after a digit; the definition does not), and ECMAScript regular
# expressions Python cannot compile as written (the format is defined by ECMAScript).
LENIENT: dict[str, list[str]] = {
    "relative-json-pointer": ["100/a", "20#"],
    "regex": ["(?<name>x)", "\\p{L}+"],
}


def _schema(fmt: str, draft: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"v": {"type": "string", "format": fmt}},
    }
    if draft is not None:
        schema["$schema"] = draft
    return schema


@pytest.mark.parametrize("fmt", list(EXAMPLES))
def test_examples_match_jsonschema_and_are_sent_exactly(fmt: str) -> None:
    conversion = json_schema_to_model(_schema(fmt), name="t")
    good, bad = EXAMPLES[fmt]
    for value in good:
        assert _JSONSCHEMA.conforms(value, fmt), value
        assert conversion.validate({"v": value}) == {"v": value}
    for value in bad:
        assert not _JSONSCHEMA.conforms(value, fmt), value
        with pytest.raises(ArgsValidationError) as caught:
            conversion.validate({"v": value})
        assert caught.value.errors[0]["path"] == "/v"
        assert f"format '{fmt}'" in caught.value.errors[0]["expected"]


@pytest.mark.parametrize("fmt", list(LENIENT))
def test_valid_values_jsonschema_refuses_are_accepted(fmt: str) -> None:
    conversion = json_schema_to_model(_schema(fmt), name="t")
    for value in LENIENT[fmt]:
        assert conversion.validate({"v": value}) == {"v": value}


def test_asserted_formats_are_those_jsonschema_checks() -> None:
    checked = {f for f in _JSONSCHEMA.checkers if f in FORMAT_CHECKS}
    assert checked == set(FORMAT_CHECKS)


_TEXT = st.text(alphabet=string.hexdigits + string.punctuation + "-:./~@ %", max_size=45)


@pytest.mark.parametrize("fmt", list(FORMAT_CHECKS))
@given(data=st.data())
def test_format_check_agrees_with_jsonschema(fmt: str, data: st.DataObject) -> None:
    # Conforming strings: hypothesis-jsonschema's own, and UUIDs (it has none) in two spellings.
    conforming: st.SearchStrategy[str] = (
        st.one_of(st.uuids().map(str), st.uuids().map(lambda u: u.hex))
        if fmt == "uuid"
        else st.text().map(lambda s: "/" + s.replace("~", "~0").replace("/", "~1"))
        if fmt == "json-pointer"  # STRING_FORMATS holds a function of the alphabet for it
        else cast("Callable[[Any], st.SearchStrategy[str]]", STRING_FORMATS[fmt])(st.characters())
        if fmt == "relative-json-pointer"  # and for this one
        else cast("st.SearchStrategy[str]", STRING_FORMATS[fmt])
    )
    strategy = st.one_of(_TEXT, conforming)
    value = data.draw(strategy)
    with warnings.catch_warnings():  # Python's own, for "[[" in a regex jsonschema compiles
        warnings.simplefilter("ignore", FutureWarning)
        theirs = _JSONSCHEMA.conforms(value, fmt)
    ours = FORMAT_CHECKS[fmt][0](value)
    if fmt in LENIENT:
        assert ours or not theirs  # never refuse what jsonschema accepts
    else:
        assert ours == theirs


@pytest.mark.parametrize(
    ("draft", "fmt", "value", "checked"),
    [
        ("http://json-schema.org/draft-07/schema#", "uuid", "x", False),
        ("https://json-schema.org/draft/2019-09/schema", "uuid", "x", True),
        ("http://json-schema.org/draft-07/schema#", "date", "x", True),
        ("http://json-schema.org/draft-06/schema#", "date", "x", False),
        ("http://json-schema.org/draft-06/schema#", "json-pointer", "x", True),
        ("http://json-schema.org/draft-04/schema#", "json-pointer", "x", False),
        ("http://json-schema.org/draft-04/schema#", "ipv4", "x", True),
    ],
)
def test_a_format_is_checked_from_the_draft_that_defines_it(
    draft: str, fmt: str, value: str, checked: bool
) -> None:
    conversion = json_schema_to_model(_schema(fmt, draft), name="t")
    try:
        conversion.validate({"v": value})
    except ArgsValidationError:
        rejected = True
    else:
        rejected = False
    assert rejected is checked
    dialect = jsonschema.validators.validator_for(_schema(fmt, draft))
    assert (
        dialect(_schema(fmt, draft), format_checker=dialect.FORMAT_CHECKER).is_valid({"v": value})
        is not checked
    )


@pytest.mark.parametrize("fmt", ["date-time", "time", "uri", "hostname", "binary", "int64"])
def test_other_formats_stay_annotations(fmt: str) -> None:
    # date-time among them: services take a bare date or no offset there, and say so.
    conversion = json_schema_to_model(_schema(fmt), name="t")
    assert conversion.validate({"v": "2024-01-02"}) == {"v": "2024-01-02"}
    assert conversion.validate({"v": "(("}) == {"v": "(("}


def test_format_inside_alternatives_names_each_format() -> None:
    schema = {
        "type": "object",
        "properties": {"ip": {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}},
    }
    conversion = json_schema_to_model(schema, name="t")
    assert conversion.validate({"ip": "::1"}) == {"ip": "::1"}
    with pytest.raises(ArgsValidationError) as caught:
        conversion.validate({"ip": "1.2.3.4x"})
    expected = caught.value.errors[0]["expected"]
    assert "format 'ipv4'" in expected
    assert "format 'ipv6'" in expected


def test_format_on_a_non_string_is_ignored() -> None:
    schema = {"type": "object", "properties": {"v": {"format": "uuid"}}}
    conversion = json_schema_to_model(schema, name="t")
    assert conversion.validate({"v": 5}) == {"v": 5}
