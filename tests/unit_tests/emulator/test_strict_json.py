"""`member_text`: the text of a member, as sent, of any JSON text the strict reader accepts."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from langchain_toolrouter.emulator.strict_json import member_text, read_json

KEYS = st.sampled_from(["params", "arguments", "a", 'q"uote', "back\\slash", "é", "\u2028"])
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12,
)
LAYOUTS = st.sampled_from(
    [
        {},
        {"separators": (",", ":")},
        {"indent": 2},
        {"ensure_ascii": False},
        {"indent": "\t", "separators": (" ,", " : ")},
    ]
)


def _at(value: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


@given(st.dictionaries(KEYS, VALUES, max_size=4), LAYOUTS, st.sampled_from([1, 2]))
def test_member_text_is_the_members_own_text(
    value: dict[str, Any], layout: Any, depth: int
) -> None:
    text = json.dumps(value, **layout)
    assert read_json(text.encode()) == value
    keys = ("params", "arguments")[:depth]
    found = member_text(text, *keys)
    expected = _at(value, keys)
    if expected is None and found in (None, "null"):
        return
    assert found is not None
    assert json.loads(found) == expected
    assert found in text  # a slice of what was sent, not written again


def test_a_key_sent_twice_counts_last_and_escaped_keys_are_read() -> None:
    text = '{"params": {"arguments": {"a": 1}, "\\u0061rguments": {"a": 2}}, "params ": 3}'
    assert member_text(text, "params", "arguments") == '{"a": 2}'
    assert member_text(" [1] ", "params") is None
    assert member_text("{}", "params") is None
