"""ECMAScript Unicode property escapes (``\\p{L}``, ``\\P{Lu}``...) rewritten for Python ``re``.

Tool schemas written with zod (``.regex(/\\p{L}+/u)``) carry ECMA-262 patterns that Python's
``re`` cannot compile. General-category escapes are translated to explicit code point ranges
from Python's own Unicode database (exact for that Unicode version, which may differ slightly
from the JavaScript engine's); scripts and binary properties (``\\p{Script=Latin}``) are not
translated, and the caller drops such a pattern with a report entry. Also here: ECMAScript's
spelling of a named group, and compiling someone else's pattern without Python's warnings.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
import warnings

__all__ = ["JS_NAMED_GROUP", "compile_quietly", "python_regex", "translate_unicode_properties"]

# An ECMAScript named group's opening, "(?<name>"; Python spells it "(?P<name>".
JS_NAMED_GROUP = re.compile(r"\(\?<(?![=!])")

_LONG_NAMES = {
    "letter": "L",
    "cased_letter": "LC",
    "uppercase_letter": "Lu",
    "lowercase_letter": "Ll",
    "titlecase_letter": "Lt",
    "modifier_letter": "Lm",
    "other_letter": "Lo",
    "mark": "M",
    "combining_mark": "M",
    "nonspacing_mark": "Mn",
    "spacing_mark": "Mc",
    "enclosing_mark": "Me",
    "number": "N",
    "decimal_number": "Nd",
    "digit": "Nd",
    "letter_number": "Nl",
    "other_number": "No",
    "punctuation": "P",
    "punct": "P",
    "connector_punctuation": "Pc",
    "dash_punctuation": "Pd",
    "open_punctuation": "Ps",
    "close_punctuation": "Pe",
    "initial_punctuation": "Pi",
    "final_punctuation": "Pf",
    "other_punctuation": "Po",
    "symbol": "S",
    "math_symbol": "Sm",
    "currency_symbol": "Sc",
    "modifier_symbol": "Sk",
    "other_symbol": "So",
    "separator": "Z",
    "space_separator": "Zs",
    "line_separator": "Zl",
    "paragraph_separator": "Zp",
    "other": "C",
    "control": "Cc",
    "cntrl": "Cc",
    "format": "Cf",
    "surrogate": "Cs",
    "private_use": "Co",
    "unassigned": "Cn",
}
_ESCAPE = re.compile(r"\\[pP]\{([A-Za-z_=]+)\}")


@functools.cache
def _categories() -> dict[str, list[tuple[int, int]]]:
    """Code point ranges of every two-letter general category (built once, ~0.2 s)."""
    out: dict[str, list[tuple[int, int]]] = {}
    category = unicodedata.category
    previous, start = "", 0
    for cp in range(sys.maxunicode + 1):
        cat = category(chr(cp))
        if cat != previous:
            if previous:
                out.setdefault(previous, []).append((start, cp - 1))
            previous, start = cat, cp
    out.setdefault(previous, []).append((start, sys.maxunicode))
    return out


def _category_code(name: str) -> str | None:
    if "=" in name:
        key, _, name = name.partition("=")
        if key.lower() not in ("gc", "general_category"):
            return None
    code = _LONG_NAMES.get(name.lower(), name)
    if code == "LC" or (len(code) in (1, 2) and code[0] in "LMNPSZC"):
        return code
    return None


@functools.cache
def _class_body(code: str) -> str:
    cats = _categories()
    names = ("Lu", "Ll", "Lt") if code == "LC" else [c for c in cats if c.startswith(code)]
    ranges = sorted(r for name in names for r in cats.get(name, ()))
    return "".join(_char(a) if a == b else f"{_char(a)}-{_char(b)}" for a, b in ranges)


def _char(cp: int) -> str:
    return f"\\U{cp:08x}" if cp > 0xFFFF else f"\\u{cp:04x}"


def translate_unicode_properties(pattern: str) -> str | None:
    """``pattern`` with its ``\\p{..}``/``\\P{..}`` escapes as ranges; None if one cannot be
    translated (an unknown property, or ``\\P`` inside a character class)."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            match = _ESCAPE.match(pattern, i)
            if match is None:
                out.append(pattern[i : i + 2])
                i += 2
                continue
            code = _category_code(match.group(1))
            if code is None:
                return None
            body = _class_body(code)
            negated = pattern[i + 1] == "P"
            if in_class:
                if negated:
                    return None
                out.append(body)
            else:
                out.append(f"[{'^' if negated else ''}{body}]")
            i = match.end()
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def compile_quietly(pattern: str) -> re.Pattern[str]:
    """``re.compile`` without the FutureWarning Python gives for "[[" or "&&" in a set: the
    pattern is a schema's or a caller's, not ours to change, and a warning turned into an
    error (``-W error``) must not break its conversion or check. Cached: entering
    ``catch_warnings`` costs ~5 us, 10x a cached ``re.compile``, and every schema with a
    ``pattern`` is checked with it at load."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(pattern)


@functools.lru_cache(maxsize=4096)
def python_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled for Python, translating Unicode property escapes if needed.

    Raises:
        re.error: neither the pattern nor its translation compiles.
    """
    try:
        return compile_quietly(pattern)
    except re.error:
        translated = (
            translate_unicode_properties(pattern) if "\\p" in pattern or "\\P" in pattern else None
        )
        if translated is None:
            raise
        return compile_quietly(translated)
