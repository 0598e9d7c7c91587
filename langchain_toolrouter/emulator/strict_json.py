"""The text rules every request body follows, over REST and MCP alike.

A body is JSON as RFC 8259 says, in UTF-8: no byte order mark, no NaN or infinities (nor numbers
too large for a float, such as `1e999`), no integer too long to read, nesting at most
`MAX_BODY_DEPTH` levels, and no lone UTF-16 surrogate (a `\\uD800`-`\\uDFFF` escape without its
pair) anywhere in a key or a value. Anything else is refused with the service's 400, naming the
problem, before a handler (or the MCP library) sees the value: nothing stored can then break a
later answer, and no value is quietly changed on its way (NaN stored as null).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from langchain_toolrouter.emulator.errors import EmulatorError, bad_request

__all__ = ["MAX_BODY_DEPTH", "member_text", "read_json"]

#: Deepest array/object nesting a JSON body may have: far beyond any real request, well below
#: what parsing, validation and the response's serialization can handle.
MAX_BODY_DEPTH = 128


def _not_json(constant: str) -> float:
    """Python's reader takes NaN and Infinity; JSON (RFC 8259) has neither."""
    raise ValueError(f"{constant} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError(f"{text} is out of the range of a JSON number")
    return value


_DECODER = json.JSONDecoder(parse_constant=_not_json, parse_float=_finite)
#: The decoder's reader of one value at an index (the C scanner): `(value, end)`.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def read_json(raw: bytes) -> Any:
    """The value of a request body, read by the rules above.

    Raises:
        EmulatorError: 400 (`ToolRouterV2_BadRequest`) naming what is wrong: an empty body,
            text that is not UTF-8, JSON that is not valid, nesting too deep, a lone surrogate.
    """
    if not raw.strip():
        raise bad_request(
            "The request body is empty; this operation takes a JSON object.",
            suggested_fix="Send a JSON object with Content-Type: application/json ({} when no "
            "field is needed).",
            errors=["(body): a JSON body is required"],
        )
    try:
        # Strict UTF-8: json.loads on bytes would let encoded surrogates through.
        text = raw.decode("utf-8")
        if text.startswith("\ufeff"):
            raise ValueError("it starts with a byte order mark (U+FEFF), which JSON forbids")
        data = _DECODER.decode(text)
    except RecursionError as exc:
        raise _too_deep() from exc
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, NaN, a too long integer
        raise bad_request(
            f"The request body is not valid JSON: {exc}",
            suggested_fix="Send a JSON object in UTF-8 with Content-Type: application/json.",
            errors=["(body): invalid JSON"],
        ) from exc
    # Nesting is at most the number of brackets: most bodies need no walk at all.
    if text.count("[") + text.count("{") > MAX_BODY_DEPTH and _depth_exceeds(text, MAX_BODY_DEPTH):
        raise _too_deep()
    if _SURROGATE_ESCAPE.search(text):
        _refuse_lone_surrogates(data)
    return data


#: A `\uD800`-`\uDFFF` escape: a lone one would be stored as text that cannot be encoded
#: again (every later answer holding it would fail), so such bodies are checked string by string.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(data: Any) -> None:
    """400 naming the first string (key or value) with a lone UTF-16 surrogate."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                path = f"{where}.{key}" if where else str(key)
                if not _encodable(key):
                    raise _lone_surrogate(path)
                stack.append((value, path))
        elif isinstance(item, list):
            stack.extend(
                (value, f"{where}.{i}" if where else str(i)) for i, value in enumerate(item)
            )
        elif isinstance(item, str) and not _encodable(item):
            raise _lone_surrogate(where or "(body)")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _lone_surrogate(where: str) -> EmulatorError:
    printable = where.encode("utf-8", "backslashreplace").decode("utf-8")
    return bad_request(
        f"The request body has a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its "
        f"pair) at {printable}; it is not text.",
        suggested_fix="Escape characters outside the BMP as a surrogate pair (e.g. "
        "\\ud83d\\ude00), or send them as UTF-8.",
        errors=[f"{printable}: lone surrogate"],
    )


def _too_deep() -> EmulatorError:
    return bad_request(
        f"The request body is not valid JSON: it is nested more than {MAX_BODY_DEPTH} levels deep.",
        suggested_fix="Send a JSON object with fewer levels of nesting.",
        errors=["(body): invalid JSON, nested too deeply"],
    )


_INNERMOST = re.compile(r"\{\}|\[\]")
_QUOTES_AND_BRACKETS = {code: None for code in range(128) if chr(code) not in '"[]{}'}


def _depth_exceeds(text: str, limit: int) -> bool:
    """Whether the arrays/objects of a valid JSON text nest deeper than `limit`.

    Read off the text with string methods, not by walking the parsed value (millions of small
    objects took seconds): escaped backslashes and quotes out, quotes and brackets alone kept,
    the strings (every other piece between quotes) dropped; then one level of innermost pairs
    is removed per pass, and the text nests as deep as the passes it takes to empty.
    """
    plain = text.replace("\\\\", "").replace('\\"', "").translate(_QUOTES_AND_BRACKETS)
    brackets = "".join(plain.split('"')[::2])
    for _ in range(limit):
        if not brackets:
            return False
        brackets = _INNERMOST.sub("", brackets)
    return bool(brackets)


#: An object member's key and the colon after it (a member's value starts where it ends).
_KEY = re.compile(r'[ \t\n\r]*"((?:[^"\\]|\\.)*)"[ \t\n\r]*:[ \t\n\r]*')
#: What follows a member's value: the comma before the next member, or the object's end.
_AFTER_VALUE = re.compile(r"[ \t\n\r]*([,}])")
_OBJECT_START = re.compile(r"[ \t\n\r]*\{[ \t\n\r]*")


def member_text(text: str, *keys: str) -> str | None:
    """The JSON text of the member at `keys` (an object in an object...) of a text `read_json`
    accepted, as it was sent; None when a key is missing or a value on the way is not an object.

    It walks the objects on the path member by member (a key sent twice counts last, as when
    the text is read), so that the value can be passed on unchanged: not read and written again.
    """
    span = (0, len(text))
    for key in keys:
        found = _member(text, span[0], key)
        if found is None:
            return None
        span = found
    return text[span[0] : span[1]]


def _member(text: str, start: int, key: str) -> tuple[int, int] | None:
    """Where the value of `key` lies in the object starting at `text[start]` (after spaces);
    None if it is not an object or has no such key."""
    opened = _OBJECT_START.match(text, start)
    if opened is None:
        return None
    found = None
    i = opened.end()
    if text[i] == "}":
        return None
    while True:
        member = _KEY.match(text, i)
        assert member is not None  # the text is valid JSON
        name = member.group(1)
        if "\\" in name:  # escapes: read it as JSON does
            name = json.loads(f'"{name}"')
        _, end = _SCAN(text, member.end())
        if name == key:
            found = (member.end(), end)
        after = _AFTER_VALUE.match(text, end)
        assert after is not None
        if after.group(1) == "}":
            return found
        i = after.end()
