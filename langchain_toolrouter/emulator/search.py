"""Ranked tool search: BM25F over what a tool is, in any script.

A tool is indexed as five fields, each with its own weight: its name, its slug, its toolkit (slug
and display name), its description, and its parameters (names, descriptions and enum values,
nested ones too). Text is split into words at non-alphanumerics and at camelCase and letter-digit
humps (`getCurrentWeather`, `GITHUB_CREATE_AN_ISSUE` and `uber.eat.order` give their words);
English words are lower-cased, stopwords dropped and folded by a light suffix stemmer ("issues"
-> "issue", "sending" -> "send"); scripts written without spaces between words (Chinese,
Japanese, Thai, ...) and Korean give overlapping character pairs, so a query in them meets a tool
described in them. A query is scored BM25F (one saturation over the weighted fields, Robertson
and Zaragoza 2009) against every tool of the index; an index is built once per catalog (and the
session's custom tools) and cached, and a search keeps the tools the session may use.

`match_use_case` answers a use case as the service does: when it names apps ("my *calendar*
events"), with the tools of those apps; otherwise with the best tools of every app the session
allows. The best few that score near the best one are primary, the next ones related.
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from langchain_toolrouter.emulator.semantic import Embedder, document_text, wordllama

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from langchain_toolrouter.emulator.catalog import Catalog

    Mask = NDArray[np.bool_]
    Scores = NDArray[np.float64]

__all__ = [
    "FIELD_WEIGHTS",
    "SearchDocument",
    "SearchHit",
    "SearchIndex",
    "ToolSearch",
    "UseCaseMatch",
    "match_use_case",
    "parameter_text",
    "tokenize",
    "tool_document",
]

# --------------------------------------------------------------------------- tokens

_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# A word: letters and digits, with the combining marks some scripts write vowels and tones
# with (Thai, Devanagari, ...), which are not alphanumeric.
_MARKS = "".join(
    chr(c) for c in range(0x300, 0x10000) if unicodedata.category(chr(c)).startswith("M")
)
_WORD = re.compile(f"(?:[^\\W_]|[{re.escape(_MARKS)}])+")
# Scripts written without spaces between words, and Hangul (whose words carry particles):
# their text is indexed as overlapping character pairs.
_PAIRED = re.compile(
    r"([\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
    r"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af\uf900-\ufaff]+)"
)
_STOPWORD_TEXT = """a about all also am an and any are as at be been being but by can could did do does
    for from had has have he her him his how i if in into is it its just let like may me might
    must my need no not of on or our please s shall she should so some such than that the their
    them then there these they this those to too tool tools us use using very want was we were
    what when where which who whom why will with would you your"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())

_ADVERBS = tuple(f"{end}ly" for end in ("ent", "ant", "al", "ful", "ous", "ive", "ate"))


def _stem(word: str) -> str:
    """Fold common English inflections so "creates", "created" and "create" meet.

    Drops an adverb's -ly ("recently" -> "recent"), a plural (-ies -> -y, -es after a sibilant,
    -s), then one suffix (-ing, -ed, -tion -> -t, -er/-or on long words); undoubles a final
    consonant left by -ing/-ed, drops a final "e" (so "save", "saved" and "saving" meet) and
    turns a final "ll" into "l" on long stems ("labelled" -> "label"). Short words, words ending
    in "ss" and words outside a-z are kept.
    """
    if len(word) <= 3 or word.endswith("ss") or not word.isascii() or not word.isalpha():
        return word
    if word.endswith(_ADVERBS) and len(word) > 5:
        word = word[:-2]
    if len(word) > 4 and word.endswith("s") and not word.endswith(("us", "is")):
        if word.endswith("ies"):
            word = word[:-3] + "y"
        elif word.endswith(("ches", "shes", "xes", "zes", "sses")):
            word = word[:-2]
        else:
            word = word[:-1]
    stem = word
    if word.endswith("tion") and len(word) > 6:
        stem = word[:-3]
    elif word.endswith(("ing", "ed")):
        cut = 3 if word.endswith("ing") else 2
        if len(word) - cut >= 3:
            stem = word[:-cut]
            if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]
    elif word.endswith(("er", "or")) and len(word) >= 7:
        stem = word[:-2]
    if stem.endswith("e") and len(stem) > 3:
        stem = stem[:-1]
    if stem.endswith("ll") and len(stem) > 5:
        stem = stem[:-1]
    return stem


def _pairs(run: str) -> Iterator[str]:
    if len(run) == 1:
        yield run
    for i in range(len(run) - 1):
        yield run[i : i + 2]


def _word_tokens(word: str, tokens: list[str]) -> None:
    word = word.casefold()
    if word.isascii():
        if word not in _STOPWORDS and not word.isdigit():
            tokens.append(_stem(word))
        return
    for i, part in enumerate(_PAIRED.split(word)):
        if i % 2:
            tokens.extend(_pairs(part))
        elif part and not part.isdigit():
            tokens.append(part)


def tokenize(text: str) -> list[str]:
    """Search tokens of a text: stemmed lower-case words (stopwords and bare numbers, which
    are a request's values rather than what it asks for, dropped), and character pairs of the
    scripts written without spaces. camelCase words are split into their parts
    (`getCurrentWeather` gives "get", "current", "weather")."""
    tokens: list[str] = []
    for word in _WORD.findall(_HUMP.sub(" ", unicodedata.normalize("NFKC", text))):
        _word_tokens(word, tokens)
    return tokens


# --------------------------------------------------------------------------- documents


def _schema_words(schema: Any, depth: int, out: list[str]) -> None:
    if depth > 3 or not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            out.append(str(name))
            if isinstance(sub, dict):
                texts = [sub.get("title"), sub.get("description"), *sub.get("enum", ())]
                out += [text for text in texts if isinstance(text, str) and text != name]
                _schema_words(sub, depth + 1, out)
    for key in ("items", "additionalProperties"):
        _schema_words(schema.get(key), depth + 1, out)
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key) or ():
            _schema_words(branch, depth + 1, out)


def parameter_text(input_schema: Mapping[str, Any]) -> str:
    """The words of a tool's parameters: names, titles, descriptions and string enum values."""
    out: list[str] = []
    _schema_words(dict(input_schema), 0, out)
    return " ".join(out)


@dataclass(frozen=True)
class SearchDocument:
    """One searchable tool."""

    slug: str
    toolkit: str
    name: str
    description: str
    parameters: str = ""
    """Its parameters' words (`parameter_text`)."""
    toolkit_name: str = ""
    """Its toolkit's display name."""

    def fields(self) -> tuple[str, str, str, str, str]:
        """The indexed fields, in `FIELD_WEIGHTS` order."""
        return (
            self.name,
            self.slug,
            f"{self.toolkit} {self.toolkit_name}",
            self.description,
            self.parameters,
        )


#: Weight of each field (name, slug, toolkit, description, parameters) in a tool's score.
FIELD_WEIGHTS = (3.0, 1.0, 0.5, 1.5, 0.6)
#: How much each field's length normalises its term counts (BM25's b).
FIELD_NORMS = (0.5, 0.5, 0.0, 0.75, 0.75)
#: BM25's term-frequency saturation.
K1 = 1.2
_MASKS_KEPT = 16
#: Weight of the embeddings' cosine beside the BM25F score (a share of the best one's).
SEMANTIC = 1.0
#: The cosine a document sharing no token with the query needs to be found at all.
SEMANTIC_FLOOR = 0.45


@dataclass(frozen=True)
class SearchHit:
    """A ranked result."""

    document: SearchDocument
    score: float


class SearchIndex:
    """BM25F over a fixed set of documents (each term's per-document score computed once),
    mixed with the cosine of static embeddings when an `embed` function is given."""

    def __init__(self, documents: Sequence[SearchDocument], embed: Embedder | None = None) -> None:
        self.documents = tuple(documents)
        self.positions = {doc.slug: i for i, doc in enumerate(self.documents)}
        counts = [[Counter(tokenize(text)) for text in doc.fields()] for doc in self.documents]
        total = max(len(counts), 1)
        averages = [
            max(sum(sum(doc[f].values()) for doc in counts) / total, 1.0)
            for f in range(len(FIELD_WEIGHTS))
        ]
        weighted: dict[str, list[tuple[int, float]]] = {}
        for position, doc in enumerate(counts):
            merged: dict[str, float] = {}
            for f, field_counts in enumerate(doc):
                length = sum(field_counts.values())
                norm = 1.0 - FIELD_NORMS[f] + FIELD_NORMS[f] * length / averages[f]
                for term, count in field_counts.items():
                    merged[term] = merged.get(term, 0.0) + FIELD_WEIGHTS[f] * count / norm
            for term, tf in merged.items():
                weighted.setdefault(term, []).append((position, tf))
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for term, entries in weighted.items():
            idf = math.log(1.0 + (total - len(entries) + 0.5) / (len(entries) + 0.5))
            self.postings[term] = [(pos, idf * tf * (K1 + 1) / (K1 + tf)) for pos, tf in entries]
        self.toolkits: dict[str, int] = {}
        self.toolkit_ids = np.array(
            [self.toolkits.setdefault(d.toolkit, len(self.toolkits)) for d in self.documents],
            dtype=np.intp,
        )
        self._masks: OrderedDict[frozenset[str], Mask] = OrderedDict()
        self._lock = threading.Lock()
        self.embed = embed
        self.vectors = (
            embed([document_text(d.name, d.description, d.parameters) for d in self.documents])
            if embed is not None
            else None
        )

    def scores(self, tokens: Sequence[str]) -> dict[int, float]:
        """Position -> BM25F score of every document sharing a token with the query."""
        scores: dict[int, float] = {}
        for term in dict.fromkeys(tokens):
            for position, weight in self.postings.get(term, ()):
                scores[position] = scores.get(position, 0.0) + weight
        return scores

    def mask(self, allowed: Collection[str] | None) -> Mask:
        """Which documents `allowed` names (by slug; all of them when None); a frozenset's mask
        is kept, so a session's searches build it once."""
        if allowed is None:
            return np.ones(len(self.documents), dtype=bool)
        key = allowed if isinstance(allowed, frozenset) else frozenset(allowed)
        with self._lock:
            mask = self._masks.get(key)
            if mask is not None:
                self._masks.move_to_end(key)
                return mask
        mask = np.zeros(len(self.documents), dtype=bool)
        mask[[i for slug, i in self.positions.items() if slug in key]] = True
        with self._lock:
            self._masks[key] = mask
            while len(self._masks) > _MASKS_KEPT:
                self._masks.popitem(last=False)
        return mask

    def toolkit_mask(self, toolkits: Collection[str]) -> Mask:
        """Which documents belong to one of `toolkits`."""
        return np.isin(self.toolkit_ids, [self.toolkits[t] for t in toolkits if t in self.toolkits])

    def rank(self, text: str, allowed: Mask) -> Scores:
        """Every document's score for `text` (-inf for those not found or not `allowed`).

        A document's score is its BM25F score as a share of the best allowed one's, plus
        `SEMANTIC` times the cosine of its vector and the query's; documents that share no
        token with the query are found only when that cosine reaches `SEMANTIC_FLOOR`.
        """
        scores = np.full(len(self.documents), -np.inf)
        lexical = self.scores(tokenize(text))
        positions = np.fromiter(lexical, dtype=np.intp, count=len(lexical))
        values = np.fromiter(lexical.values(), dtype=np.float64, count=len(lexical))
        if self.embed is None or self.vectors is None:
            scores[positions] = values
        else:
            # einsum runs in this thread: a BLAS product (`@`) hands a product this small to
            # a thread pool whose start-up costs more than the product on a busy machine.
            cosines = np.einsum("ij,j->i", self.vectors, self.embed([text])[0])
            semantic = SEMANTIC * cosines.astype(np.float64)
            near = semantic >= SEMANTIC * SEMANTIC_FLOOR
            scores[near] = semantic[near]
            if len(values):
                best = values[allowed[positions]]
                top = float(best.max()) if len(best) else 1.0
                scores[positions] = values / top + semantic[positions]
        scores[~allowed | (scores <= 0.0)] = -np.inf
        return scores

    def top(self, scores: Scores, k: int, where: Mask | None = None) -> list[SearchHit]:
        """The best `k` documents by `scores` (among `where`), best first; ties in index order."""
        found = np.isfinite(scores) if where is None else np.isfinite(scores) & where
        candidates = np.flatnonzero(found)
        if len(candidates) > k:
            candidates = candidates[np.argpartition(-scores[candidates], k - 1)[:k]]
        order = candidates[np.lexsort((candidates, -scores[candidates]))]
        return [SearchHit(self.documents[p], float(scores[p])) for p in order.tolist()]

    def query(
        self, text: str, k: int, *, allowed: Collection[str] | None = None
    ) -> list[SearchHit]:
        """The best `k` documents for `text` among those whose slug is `allowed` (all when
        None), best first (see `rank`)."""
        return self.top(self.rank(text, self.mask(allowed)), k)


def tool_document(
    slug: str,
    toolkit: str,
    name: str,
    description: str,
    input_schema: Mapping[str, Any],
    *,
    toolkit_name: str = "",
) -> SearchDocument:
    """The search document of a tool."""
    return SearchDocument(
        slug, toolkit, name, description, parameter_text(input_schema), toolkit_name
    )


class ToolSearch:
    """Search indexes, built on first use and kept in a small LRU cache.

    An index covers a base of documents (a catalog's, built once by `catalog_documents`, and
    recognised by identity) and a few more compared by value (a session's custom tools).
    """

    def __init__(self, cache_size: int = 64, embed: Embedder | None = wordllama) -> None:
        self.embed = embed
        self._cache: OrderedDict[
            tuple[int, tuple[SearchDocument, ...]], tuple[tuple[SearchDocument, ...], SearchIndex]
        ] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._catalog: tuple[Catalog, tuple[SearchDocument, ...]] | None = None

    def catalog_documents(self, catalog: Catalog) -> tuple[SearchDocument, ...]:
        """One document per catalog tool, in catalog order (built once per catalog)."""
        with self._lock:
            if self._catalog is not None and self._catalog[0] is catalog:
                return self._catalog[1]
        names = {slug: toolkit.name for slug, toolkit in catalog.toolkits.items()}
        documents = tuple(
            tool_document(
                t.slug,
                t.toolkit,
                t.name,
                t.description,
                t.input_schema,
                toolkit_name=names[t.toolkit],
            )
            for t in catalog.tools.values()
        )
        with self._lock:
            self._catalog = (catalog, documents)
        return documents

    def index(
        self, documents: Sequence[SearchDocument], *, base: tuple[SearchDocument, ...] = ()
    ) -> SearchIndex:
        """The index of `base` (the same tuple each time: it is compared by identity) and of
        `documents` (compared by value, in any order)."""
        extra = tuple(sorted(documents, key=lambda d: d.slug))
        key = (id(base), extra)
        with self._lock:
            entry = self._cache.get(key)
            if entry is not None and entry[0] is base:
                self._cache.move_to_end(key)
                return entry[1]
        index = SearchIndex(base + extra, self.embed)
        with self._lock:
            self._cache[key] = (base, index)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return index

    def search(
        self, documents: Sequence[SearchDocument], query: str, k: int = 10
    ) -> list[SearchHit]:
        """The best `k` documents for `query`, best first; documents sharing no word are left out."""
        return self.index(documents).query(query, k)


# --------------------------------------------------------------------------- use cases

#: A primary tool scores at least this share of the best one.
PRIMARY_SHARE = 0.5
#: A related tool scores at least this share of the best one.
RELATED_SHARE = 0.3
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
    index: SearchIndex,
    use_case: str,
    *,
    allowed: Collection[str],
    toolkits: Collection[str],
    known_fields: str = "",
    toolkit_names: Mapping[str, str],
    primary_limit: int = 3,
    related_limit: int = 5,
) -> UseCaseMatch:
    """The session's tools for `use_case` (see the module docstring).

    Args:
        index: the index of the catalog and the session's custom tools.
        use_case: what the model wants to do; `known_fields` are ranked with it.
        allowed: the slugs of the tools the session may use.
        toolkits: the toolkits of those tools.
        toolkit_names: slug -> display name of every toolkit the service knows, allowed in the
            session or not (a use case naming one that is not allowed finds nothing).
    """
    text = f"{use_case} {known_fields}" if known_fields else use_case
    scores = index.rank(text, index.mask(allowed))
    named = _named_toolkits(use_case, toolkit_names)
    named_here = [slug for slug in named if slug in toolkits]
    if not np.isfinite(scores).any() or (named and not named_here):
        return UseCaseMatch([], [], [slug for slug in named if slug not in toolkits])
    where = None
    if named_here:
        in_named = np.where(index.toolkit_mask(named_here), scores, -np.inf)
        best = int(np.argmax(scores))
        wanted = set(named_here)
        if not np.isfinite(in_named).any() or scores[best] >= OUTSCORE * in_named.max():
            wanted.add(index.documents[best].toolkit)
        where = index.toolkit_mask(wanted)
    kept = index.top(scores, primary_limit + related_limit, where)
    ceiling = kept[0].score
    primary = [h.document for h in kept[:primary_limit] if h.score >= ceiling * PRIMARY_SHARE]
    related = [
        h.document
        for h in kept[len(primary) : len(primary) + related_limit]
        if h.score >= ceiling * RELATED_SHARE
    ]
    return UseCaseMatch(primary, related, [])
