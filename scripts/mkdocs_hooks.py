"""mkdocs hooks: the strict build fails on reStructuredText that Markdown would show raw.

Docstrings are rendered as Markdown (mkdocstrings, Google style), so a reST directive such as
``.. code-block:: python`` in a docstring reaches the API reference as plain text. The build is
strict, so the warning logged here fails it, naming the page and the directive.
"""

from __future__ import annotations

import logging
import re
from typing import Any

_log = logging.getLogger("mkdocs.hooks.rest")

# A directive at the start of a paragraph (`<p>.. code-block:: python`) or of a line in one.
_DIRECTIVE = re.compile(r"(?:^|>)\s*(\.\. [A-Za-z][\w-]*::[^<\n]*)", re.MULTILINE)
# Code blocks may show reST on purpose.
_CODE = re.compile(r"<pre\b.*?</pre>|<code\b.*?</code>", re.DOTALL)


def on_page_content(html: str, page: Any, **_: Any) -> str:
    """Warn (and so fail the strict build) for each raw reST directive on the page."""
    for match in _DIRECTIVE.finditer(_CODE.sub("", html)):
        _log.warning(
            "%s shows the reStructuredText directive %r as text: write a Markdown fence "
            "(```python ... ```) in the docstring instead",
            page.file.src_path,
            match.group(1).strip(),
        )
    return html
