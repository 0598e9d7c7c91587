"""Ranked tool search: BM25 (the `bm25s` package) over tool slugs, names and descriptions.

Documents are the tools a session may use: catalog tools allowed by its config plus the session's
custom tools (the only way the service lets a model find `LOCAL_*` tools). Text is lower-cased,
split on non-alphanumerics (so `GITHUB_CREATE_AN_ISSUE` gives `github create an issue`), English
stopwords are removed and a light suffix stemmer folds plurals and verb forms ("issues" ->
"issue", "sending" -> "send"). Indexes are cached per document set, so a session's repeated
searches reuse one index.

`match_use_case` answers a use case as the service does, with the tools of the app it is about
rather than the best few of every app: the toolkits the use case names ("my *calendar*
events"), or else the toolkit of the best match; then the tools of those toolkits that score
near the best as primary, and the rest that share its words as related.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import bm25s
from bm25s.stopwords import STOPWORDS_EN

__all__ = [
    "SearchDocument",
    "SearchHit",
    "ToolSearch",
    "UseCaseMatch",
    "match_use_case",
    "tokenize",
]

# bm25s sets its logger to DEBUG when imported, so its index-building lines reach any handler
# on the root logger (pytest's failure logs, a script's basicConfig): give the level back to
# the logging configuration.
logging.getLogger("bm25s").setLevel(logging.NOTSET)

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(STOPWORDS_EN) | {"tool", "tools", "use", "using", "want", "need", "please"}


def _stem(word: str) -> str:
    """Fold common English inflections so "creates", "created" and "create" meet.

    Strips one suffix (-ies -> -y, -ing, -ed, -es after a sibilant, -s), undoubles a final
    consonant left by -ing/-ed, then drops a final "e" on longer stems. Short words and words
    ending in "ss" are kept.
    """
    if len(word) <= 3 or word.endswith("ss"):
        return word
    stem = word
    if word.endswith("ies") and len(word) > 4:
        stem = word[:-3] + "y"
    elif word.endswith(("ing", "ed")):
        cut = 3 if word.endswith("ing") else 2
        if len(word) - cut >= 3:
            stem = word[:-cut]
            if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]
    elif word.endswith(("ches", "shes", "xes", "zes", "sses")):
        stem = word[:-2]
    elif word.endswith("s") and not word.endswith(("us", "is")):
        stem = word[:-1]
    if stem.endswith("e") and len(stem) > 4:
        stem = stem[:-1]
    return stem


def tokenize(text: str) -> list[str]:
    """Search tokens of a text (lower-case words, stopwords removed, stemmed)."""
    return [_stem(w) for w in _WORD.findall(text.lower().replace("_", " ")) if w not in _STOPWORDS]


@dataclass(frozen=True)
class SearchDocument:
    """One searchable tool."""

    slug: str
    toolkit: str
    name: str
    description: str

    @property
    def text(self) -> str:
        """The text indexed for this tool; the name counts twice (a cheap BM25F field boost)."""
        return f"{self.name} {self.name} {self.toolkit} {self.description}"


@dataclass(frozen=True)
class SearchHit:
    """A ranked result."""

    document: SearchDocument
    score: float


class _Index:
    def __init__(self, documents: Sequence[SearchDocument]) -> None:
        self.documents = list(documents)
        self.retriever = bm25s.BM25()
        if self.documents:  # bm25s cannot index an empty corpus
            corpus = [tokenize(d.text) or ["_empty_"] for d in self.documents]
            self.retriever.index(corpus, show_progress=False)

    def query(self, text: str, k: int) -> list[SearchHit]:
        tokens = tokenize(text)
        if not tokens or not self.documents:
            return []
        k = min(k, len(self.documents))
        ids, scores = self.retriever.retrieve([tokens], k=k, show_progress=False)
        return [
            SearchHit(self.documents[int(i)], float(s))
            for i, s in zip(ids[0], scores[0], strict=True)
            if float(s) > 0.0
        ]


class ToolSearch:
    """BM25 search with a small LRU cache of indexes keyed by the document set."""

    def __init__(self, cache_size: int = 64) -> None:
        self._cache: OrderedDict[tuple[SearchDocument, ...], _Index] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def _index(self, documents: Sequence[SearchDocument]) -> _Index:
        key = tuple(sorted(documents, key=lambda d: d.slug))
        with self._lock:
            index = self._cache.get(key)
            if index is not None:
                self._cache.move_to_end(key)
                return index
        index = _Index(key)
        with self._lock:
            self._cache[key] = index
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return index

    def search(
        self, documents: Sequence[SearchDocument], query: str, k: int = 10
    ) -> list[SearchHit]:
        """The best `k` documents for `query`, best first; documents sharing no word are left out."""
        return self._index(documents).query(query, k)


#: A primary tool scores at least this share of the best one in its toolkits.
PRIMARY_SHARE = 0.5
#: A related tool scores at least this share of the best one in its toolkits.
RELATED_SHARE = 0.25
#: The best match's toolkit is kept beside the named ones when it scores this many times
#: higher than their best tool (the use case names one app but asks for another's action).
OUTSCORE = 1.5


@dataclass(frozen=True)
class UseCaseMatch:
    """The tools that answer one use case."""

    primary: list[SearchDocument]
    related: list[SearchDocument]
    not_enabled: list[str]
    """Toolkits the use case names that the session does not allow (it found nothing else)."""


def _named_toolkits(use_case: str, names: Mapping[str, str]) -> list[str]:
    """The toolkits whose slug or a word of whose display name the use case mentions."""
    words = set(tokenize(use_case))
    return [slug for slug, name in names.items() if words & {*tokenize(slug), *tokenize(name)}]


def match_use_case(
    engine: ToolSearch,
    documents: Sequence[SearchDocument],
    use_case: str,
    *,
    known_fields: str = "",
    toolkit_names: Mapping[str, str],
    primary_limit: int = 3,
    related_limit: int = 5,
) -> UseCaseMatch:
    """The session's tools for `use_case` (see the module docstring).

    Args:
        engine: the search engine (its index cache is reused).
        documents: the tools the session may use.
        use_case: what the model wants to do; `known_fields` are ranked with it.
        toolkit_names: slug -> display name of every toolkit the service knows, allowed in the
            session or not (a use case naming one that is not allowed finds nothing).
    """
    text = f"{use_case} {known_fields}" if known_fields else use_case
    hits = engine.search(documents, text, k=len(documents))
    allowed = {doc.toolkit for doc in documents}
    named = _named_toolkits(use_case, toolkit_names)
    named_here = [slug for slug in named if slug in allowed]
    if not hits or (named and not named_here):
        return UseCaseMatch([], [], [slug for slug in named if slug not in allowed])
    best: dict[str, float] = {}
    for hit in hits:
        best.setdefault(hit.document.toolkit, hit.score)
    top = hits[0]
    wanted = {slug for slug in named_here if slug in best}
    if not wanted or top.score >= OUTSCORE * max(best[slug] for slug in wanted):
        wanted.add(top.document.toolkit)
    kept = [hit for hit in hits if hit.document.toolkit in wanted]
    ceiling = kept[0].score
    primary = [h.document for h in kept[:primary_limit] if h.score >= ceiling * PRIMARY_SHARE]
    related = [
        h.document for h in kept if h.document not in primary and h.score >= ceiling * RELATED_SHARE
    ][:related_limit]
    return UseCaseMatch(primary, related, [])
