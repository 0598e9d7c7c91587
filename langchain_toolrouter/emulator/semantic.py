"""Static word embeddings for tool search: the WordLlama model its package ships.

WordLlama (`wordllama` on PyPI) is a table of token vectors taken from a large language model's
embedding layer and trained for sentence similarity: a text's vector is the weighted mean of its
tokens' vectors, so encoding a query costs a tokenizer pass and a sum (a fraction of a
millisecond), with no neural network to run. Its 256-dimension model and tokenizer come inside
the package: nothing is downloaded, ever (the loader is told so).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Vectors = NDArray[np.float32]

__all__ = ["Embedder", "document_text", "wordllama"]

Embedder = Callable[[Sequence[str]], "Vectors"]
"""Texts -> one unit-length row vector per text."""

_SEPARATORS = re.compile(r"(?<=[a-z])(?=[A-Z])|[._]")
_lock = threading.Lock()
_model: list[Any] = []


def document_text(name: str, description: str, parameters: str) -> str:
    """What a tool's vector is made of: its name as words, its description, its parameters."""
    return f"{_SEPARATORS.sub(' ', name)}. {description} {_SEPARATORS.sub(' ', parameters)}"


def _import_wordllama() -> Any:
    """`wordllama`, imported without the root logging configuration it sets on import (a
    `logging.basicConfig(level=INFO)`, which would print every INFO line of the process)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        import wordllama
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return wordllama


def _load() -> Any:
    with _lock:
        if not _model:
            wordllama = _import_wordllama()
            # The package holds the weights and the tokenizer; pointing its cache at the
            # package itself makes the loader find both there and never try the network.
            _model.append(
                wordllama.WordLlama.load(
                    cache_dir=Path(wordllama.__file__).parent, disable_download=True
                )
            )
        return _model[0]


def wordllama(texts: Sequence[str]) -> Vectors:
    """The unit-length WordLlama vectors of `texts` (the model is loaded on first use)."""
    if not texts:
        return np.zeros((0, 256), dtype=np.float32)
    vectors: Vectors = np.asarray(_load().embed(list(texts), norm=True), dtype=np.float32)
    return vectors
