"""The ``format`` values calls are checked against, and how.

JSON Schema makes asserting ``format`` optional. We assert the formats whose definition is crisp
and that services read the same way, as ``jsonschema``'s default format checker does: a date
(``YYYY-MM-DD``), an email address (holds an ``@``), IPv4 and IPv6 addresses, a UUID, a JSON
Pointer and a relative one, a regular expression (one Python compiles, as ``jsonschema``
checks it, or one ECMAScript does) and, when the ``idna`` package is installed (it comes with
httpx), an internationalized host name; each only from the draft that defines it. The rest stay
annotations: ``date-time`` among them, because services commonly take a bare date or a
date-time without an offset there (and their descriptions say so), and rejecting what the
service accepts would cost a retry.
A checked string is never parsed into anything: it is sent exactly as given.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from datetime import date
from uuid import UUID

from langchain_toolrouter.schema.ecma_regex import JS_NAMED_GROUP, python_regex

__all__ = ["FORMAT_CHECKS", "asserted_formats"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_POINTER = re.compile(r"(?:/(?:[^~/]|~[01])*)*")


def _date(value: str) -> bool:
    if _DATE.fullmatch(value) is None:
        return False
    try:
        date.fromisoformat(value)
    except ValueError:  # a month or day out of range
        return False
    return True


def _ipv4(value: str) -> bool:
    try:
        ipaddress.IPv4Address(value)
    except ValueError:
        return False
    return True


def _ipv6(value: str) -> bool:
    try:
        address = ipaddress.IPv6Address(value)
    except ValueError:
        return False
    return not address.scope_id  # "fe80::1%eth0" names an interface, not only an address


def _relative_pointer(value: str) -> bool:
    """A non-negative integer, then "#" or a JSON Pointer. Digits as ``str.isdigit`` reads
    them and a leading zero before another digit refused, as ``jsonschema`` does, but for its
    refusing any "0" followed by a digit ("100"), which the definition allows."""
    digits = 0
    while digits < len(value) and value[digits].isdigit():
        digits += 1
    if digits == 0 or (digits > 1 and value[0] == "0"):
        return False
    rest = value[digits:]
    return rest == "#" or _POINTER.fullmatch(rest) is not None


def _regex(value: str) -> bool:
    """Compiles in Python (what ``jsonschema`` checks) or, translated, as ECMAScript, which the
    format is defined by: ``\\p{L}`` or ``(?<name>x)`` is a regular expression to a JavaScript
    service."""
    named = JS_NAMED_GROUP.sub("(?P<", value)
    for candidate in (value,) if named == value else (value, named):
        try:
            python_regex(candidate)
        except (re.error, RecursionError, OverflowError):
            continue
        return True
    return False


def _uuid(value: str) -> bool:
    try:
        UUID(value)  # 32 hex digits, hyphens anywhere, braces or a "urn:uuid:" prefix...
    except ValueError:
        return False
    return all(value[i] == "-" for i in (8, 13, 18, 23))  # ...written 8-4-4-4-12


# format -> (its check, what the error message says was expected)
FORMAT_CHECKS: dict[str, tuple[Callable[[str], bool], str]] = {
    "date": (_date, "a date as YYYY-MM-DD (format 'date')"),
    "email": (lambda value: "@" in value, "an email address (format 'email')"),
    "idn-email": (lambda value: "@" in value, "an email address (format 'idn-email')"),
    "ipv4": (_ipv4, "an IPv4 address such as 192.0.2.1 (format 'ipv4')"),
    "ipv6": (_ipv6, "an IPv6 address such as 2001:db8::1 (format 'ipv6')"),
    "uuid": (
        _uuid,
        "a UUID such as 123e4567-e89b-12d3-a456-426614174000 (format 'uuid')",
    ),
    "json-pointer": (
        lambda value: _POINTER.fullmatch(value) is not None,
        "a JSON Pointer such as /a/0 (format 'json-pointer')",
    ),
    "relative-json-pointer": (
        _relative_pointer,
        "a relative JSON Pointer such as 0/a or 1# (format 'relative-json-pointer')",
    ),
    "regex": (_regex, "a regular expression that compiles (format 'regex')"),
}
try:
    import idna
except ImportError:  # pragma: no cover - httpx requires it; the schema layer does not
    pass
else:

    def _idn_hostname(value: str) -> bool:
        try:
            idna.encode(value)
        except (idna.IDNAError, UnicodeError):
            return False
        return True

    FORMAT_CHECKS["idn-hostname"] = (
        _idn_hostname,
        "an internationalized host name such as example.com (format 'idn-hostname')",
    )

# The draft that first defines each format; older drafts leave it an annotation.
_SINCE = {
    "json-pointer": 6,
    "date": 7,
    "relative-json-pointer": 7,
    "idn-hostname": 7,
    "uuid": 201909,
}
_LATEST = frozenset(FORMAT_CHECKS)
_BY_DRAFT: dict[int, frozenset[str]] = {}


def asserted_formats(draft: int | None) -> frozenset[str]:
    """The formats checked under ``draft`` (4, 6, 7... as declared by ``$schema``; None: 2020-12)."""
    if draft is None:
        return _LATEST
    found = _BY_DRAFT.get(draft)
    if found is None:
        found = _BY_DRAFT[draft] = frozenset(
            name for name in FORMAT_CHECKS if _SINCE.get(name, 0) <= draft
        )
    return found
