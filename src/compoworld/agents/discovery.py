"""Tool discovery mode: two meta-tools instead of a per-task tool list.

By default an agent is shown its task's tools (the solution's plus
distractors). In discovery mode it is shown two tools only:

* ``search_tools(query, top_k=5)`` ranks every tool of the task's world
  catalog against a query with BM25 and returns each hit's name, description
  and (compact) parameter schema;
* ``call_tool(name, arguments)`` calls one of those tools in the episode
  exactly as a direct call would run (the same validation, errors and result).

The index is BM25 (``rank-bm25``, the ``discovery`` extra) over each tool's
name split into words, its description and intent, and its parameters' names
and descriptions. It is built once per catalog (keyed by the catalog's
fingerprint) and ranks ties by name, so a search is deterministic.

This module also holds what the oracle and the recall report share: the
queries the oracle writes for a tool (:func:`discovery_queries`: its intent
and description words first, then a fuller query, then the exact name) and
:func:`discovery_recall`, the share of first queries that find their tool in
the top ``k``.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from compoworld.agents.chat import MAX_RESULT_CHARS, ToolDetail, compact_schema, slim_tool
from compoworld.engine.catalog import Catalog
from compoworld.engine.errors import ToolError
from compoworld.engine.runtime import parse_arguments
from compoworld.engine.tools import Tool
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, task_set_services

__all__ = [
    "CALL_TOOL",
    "DEFAULT_TOP_K",
    "DISCOVERY_EXTRA",
    "MAX_TOP_K",
    "META_TOOLS",
    "SEARCH_RESULT_CHARS",
    "SEARCH_TOOLS",
    "CallArguments",
    "DiscoveryUnavailable",
    "FoundTool",
    "RecallReport",
    "SearchArguments",
    "SearchHit",
    "SearchResult",
    "ToolIndex",
    "call_target",
    "discovery_queries",
    "discovery_recall",
    "discovery_recall_file",
    "is_discovery_toolset",
    "meta_tool_specs",
    "parse_call_arguments",
    "parse_search_arguments",
    "require_discovery",
    "tokenize",
    "tool_document",
    "unknown_tool_error",
]

SEARCH_TOOLS = "search_tools"
"""The meta-tool that ranks the catalog's tools against a query."""
CALL_TOOL = "call_tool"
"""The meta-tool that calls a catalog tool by name."""
META_TOOLS = (SEARCH_TOOLS, CALL_TOOL)
"""The two tools an agent is shown in discovery mode, in listing order."""
DEFAULT_TOP_K = 5
"""Results of a search when ``top_k`` is not given."""
MAX_TOP_K = 20
"""The most results one search returns."""
DISCOVERY_EXTRA = "pip install 'compoworld[discovery]'"
"""How to install what discovery mode needs (``rank-bm25``)."""
MAX_QUERY_CHARS = 2_000
SEARCH_RESULT_CHARS = MAX_RESULT_CHARS - 500
"""Most characters of a search result's JSON: within what a ``tool`` message carries uncut."""

_HOW_TO_FIND = (
    f"find tools with {SEARCH_TOOLS}(query=...) (describe what the tool does, e.g. 'refund a payment'), then "
    f"call one by the exact name a search returned: {CALL_TOOL}(name=..., arguments={{...}})"
)


class DiscoveryUnavailable(ImportError):
    """Discovery mode was asked for, but its BM25 library (the ``discovery`` extra) is not installed."""


def require_discovery() -> None:
    """Check that discovery mode can run.

    Raises:
        DiscoveryUnavailable: when ``rank-bm25`` (the ``discovery`` extra) is missing.
    """
    try:
        import rank_bm25  # noqa: F401
    except ImportError as exc:
        raise DiscoveryUnavailable(
            f"tool discovery mode needs the package's discovery extra (rank-bm25): {DISCOVERY_EXTRA}"
        ) from exc


# -- text ---------------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "their",
        "then",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
    ]
)


def _stem(word: str) -> str:
    """A light plural folding, the same on both sides of a match (``accounts`` ~ ``account``)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """The terms of a text: lower-cased alphanumeric words (``_`` and ``__`` split), stop words out, plurals folded."""
    return [_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


def _words(name: str) -> str:
    return name.replace("_", " ")


def tool_document(tool: Tool) -> list[str]:
    """The terms a tool is indexed under: its name's words, intent, description, parameters' names and descriptions."""
    parts = [_words(tool.name), tool.intent, tool.description]
    for pname, (_, info) in tool.params.items():
        parts.append(_words(pname))
        if info.description:
            parts.append(info.description)
    return tokenize(" ".join(parts))


# -- the index ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked tool.

    Attributes:
        name: The tool's name.
        score: Its BM25 score for the query (0 and below are never returned).
    """

    name: str
    score: float


_INDEXES: OrderedDict[str, ToolIndex] = OrderedDict()
_INDEX_LOCK = threading.Lock()
_INDEX_CACHE_SIZE = 16


class ToolIndex:
    """BM25 over every tool of a catalog; use :meth:`of` to share one index per catalog.

    Args:
        catalog: The catalog whose tools are indexed.

    Raises:
        DiscoveryUnavailable: when ``rank-bm25`` is not installed.
    """

    def __init__(self, catalog: Catalog) -> None:
        require_discovery()
        from rank_bm25 import BM25Okapi

        self.catalog = catalog
        self.fingerprint = catalog.fingerprint
        self.names: list[str] = sorted(catalog.tools)
        self._position = {n: i for i, n in enumerate(self.names)}
        documents = [tool_document(catalog.tools[n]) for n in self.names]
        self._bm25 = BM25Okapi(documents)
        # Which documents hold each term: a tool without any query term scores 0, so only these are scored.
        postings: dict[str, list[int]] = defaultdict(list)
        for i, doc in enumerate(documents):
            for term in dict.fromkeys(doc):
                postings[term].append(i)
        self._postings = dict(postings)
        self._payloads: dict[tuple[str, bool], dict[str, Any]] = {}
        self._lock = threading.Lock()

    @classmethod
    def of(cls, catalog: Catalog) -> ToolIndex:
        """The index of a catalog, built once per catalog fingerprint (thread-safe).

        Raises:
            DiscoveryUnavailable: when ``rank-bm25`` is not installed.
        """
        key = catalog.fingerprint
        with _INDEX_LOCK:
            found = _INDEXES.get(key)
            if found is not None:
                _INDEXES.move_to_end(key)
                return found
        index = cls(catalog)
        with _INDEX_LOCK:
            found = _INDEXES.setdefault(key, index)
            _INDEXES.move_to_end(key)
            while len(_INDEXES) > _INDEX_CACHE_SIZE:
                _INDEXES.popitem(last=False)
        return found

    def __len__(self) -> int:
        return len(self.names)

    def rank(self, query: str, top_k: int = DEFAULT_TOP_K, allowed: frozenset[str] | None = None) -> list[SearchHit]:
        """The best ``top_k`` tools for a query, best first, ties by name.

        A query that is exactly a tool's name ranks that tool first. Tools that
        share no term with the query (score 0 or below) are left out.

        Args:
            query: Free text.
            top_k: Most hits.
            allowed: Rank only these tools (None: all).
        """
        terms = tokenize(query)
        hits: list[SearchHit] = []
        candidates = sorted({i for t in terms for i in self._postings.get(t, ())})
        if allowed is not None:
            candidates = [i for i in candidates if self.names[i] in allowed]
        if candidates:
            scores = self._bm25.get_batch_scores(terms, candidates)
            ranked = sorted((-float(s), self.names[i]) for i, s in zip(candidates, scores, strict=True) if s > 0)
            hits = [SearchHit(n, -s) for s, n in ranked]
        exact = query.strip()
        if exact in self._position and (allowed is None or exact in allowed):
            best = hits[0].score if hits else 0.0
            hits = [SearchHit(exact, max(best, 0.0) + 1.0), *(h for h in hits if h.name != exact)]
        return hits[: max(0, top_k)]

    def _payload(self, name: str, slim: bool = False) -> dict[str, Any]:
        """A hit as listed: its name, description and compact (or, ``slim``, short) parameter schema."""
        key = (name, slim)
        with self._lock:
            found = self._payloads.get(key)
        if found is None:
            tool = self.catalog.tools[name]
            if slim:
                fn = slim_tool(tool.openai())["function"]
                found = {"name": name, "description": fn["description"], "parameters": fn["parameters"], "slim": True}
            else:
                found = {
                    "name": name,
                    "description": tool.description,
                    "parameters": compact_schema(tool.parameters_schema),
                }
            with self._lock:
                self._payloads[key] = found
        return found

    def search(self, query: str, top_k: int = DEFAULT_TOP_K, allowed: frozenset[str] | None = None) -> dict[str, Any]:
        """What ``search_tools`` returns: the query and its hits with names, descriptions and parameter schemas.

        The result is kept within :data:`SEARCH_RESULT_CHARS` of JSON, so that it
        reaches an agent whole: when the hits' full schemas would not fit, the
        lowest-ranked hits are listed in short (``"slim": true``: parameter types,
        enums and first sentences, and if that is still too long, the name and
        first sentence only; failing that, the last hits are left out and
        ``left_out`` counts them), and a ``hint`` says how to see a full one.
        The best hit is always listed in full.

        Args:
            query: Free text.
            top_k: Most hits.
            allowed: Search only these tools (None: all).

        Returns:
            ``{"query", "results": [{"name", "description", "parameters", "score"}], "tools"}`` where
            ``tools`` is how many tools were searched; with no hit, a ``hint`` too.
        """
        hits = self.rank(query, top_k, allowed)
        results = [{**self._payload(h.name), "score": round(h.score, 4)} for h in hits]
        out: dict[str, Any] = {
            "query": query,
            "results": results,
            "tools": len(self.names) if allowed is None else len(allowed),
        }
        if not results:
            out["hint"] = (
                "no tool matches these words: describe what the tool does, the record it works on or its service"
            )
            return out
        # Too long for one message: the lowest-ranked hits go short, then to their name and first sentence.
        for stage in ("slim", "brief"):
            at = len(results)
            while at > 1 and _size(out) > SEARCH_RESULT_CHARS:
                at -= 1
                short = self._payload(hits[at].name, slim=True)
                if stage == "brief":
                    short = {k: v for k, v in short.items() if k != "parameters"}
                results[at] = {**short, "score": results[at]["score"]}
        while len(results) > 1 and _size(out) > SEARCH_RESULT_CHARS:
            results.pop()
            out["left_out"] = out.get("left_out", 0) + 1
        notes = []
        if any(r.get("slim") for r in results):
            notes.append("tools marked slim are shown in short: search a tool's exact name to see its full parameters")
        if out.get("left_out"):
            notes.append(f"{out['left_out']} more matched but did not fit: narrow the query or ask for fewer")
        if notes:
            out["hint"] = "; ".join(notes)
        return out


def _size(data: Any) -> int:
    """Characters of data as a ``tool`` message carries it."""
    return len(json.dumps(data, ensure_ascii=False, sort_keys=True))


# -- the meta-tools -----------------------------------------------------------------------------


class SearchArguments(BaseModel):
    """Search the catalog of tools by what they do; returns the best matches with their parameters."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="What you want to do, in words, e.g. 'refund a payment' or 'find a contact by e-mail address'.",
    )
    top_k: int = Field(
        default=DEFAULT_TOP_K, ge=1, le=MAX_TOP_K, description=f"How many tools to return (1 to {MAX_TOP_K})."
    )


class CallArguments(BaseModel):
    """Call a tool that search_tools found, by its exact name; returns the tool's own result or error."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=200, description="The tool's exact name, as search_tools returned it.")
    arguments: dict[str, Any] = Field(
        default_factory=dict,
        description="The tool's arguments: a JSON object matching the parameters search_tools showed.",
    )

    @field_validator("name", mode="before")
    @classmethod
    def _a_string(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("the tool name must be a string")
        return value

    @field_validator("arguments", mode="before")
    @classmethod
    def _object(cls, value: Any) -> Any:
        if value is None:
            return {}
        if isinstance(value, str):  # models often write the object as JSON text
            try:
                value = json.loads(value) if value.strip() else {}
            except ValueError as exc:
                raise ValueError(f"arguments are not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ValueError("arguments must be a JSON object")
        return value


class FoundTool(BaseModel):
    """One tool a search found."""

    name: str = Field(description="The tool's exact name: pass it to call_tool.")
    description: str = Field(description="What the tool does.")
    parameters: dict[str, Any] | None = Field(
        default=None, description="JSON Schema of its arguments (short when slim; absent when the result ran long)."
    )
    score: float = Field(description="How well it matches the query (BM25; higher is better).")
    slim: bool | None = Field(default=None, description="True when the tool is shown in short.")


class SearchResult(BaseModel):
    """What search_tools returns."""

    query: str = Field(description="The query searched.")
    results: list[FoundTool] = Field(description="The best matches, best first.")
    tools: int = Field(description="How many tools were searched.")
    left_out: int | None = Field(default=None, description="Matches left out for length.")
    hint: str | None = Field(default=None, description="What to do next, when the result is short or empty.")


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = compact_schema(model.model_json_schema())
    assert isinstance(schema, dict)
    return schema


_SPECS: tuple[dict[str, Any], ...] = tuple(
    {
        "type": "function",
        "function": {"name": name, "description": str(model.__doc__).strip(), "parameters": _schema(model)},
    }
    for name, model in ((SEARCH_TOOLS, SearchArguments), (CALL_TOOL, CallArguments))
)


def meta_tool_specs(detail: ToolDetail = "full") -> list[dict[str, Any]]:
    """The two meta-tools in the OpenAI ``tools`` format (``slim`` keeps first sentences only).

    Args:
        detail: As for :func:`compoworld.agents.chat.task_tools`.
    """
    specs = [json.loads(json.dumps(s)) for s in _SPECS]
    return [slim_tool(s) for s in specs] if detail == "slim" else specs


def is_discovery_toolset(tools: Iterable[Mapping[str, Any] | str]) -> bool:
    """Whether a tool list (names, or OpenAI specs) is exactly the discovery mode's two meta-tools."""
    names = [t if isinstance(t, str) else str(t.get("function", t).get("name")) for t in tools]
    return sorted(names) == sorted(META_TOOLS)


def _invalid(exc: ValidationError, hint: str) -> ToolError:
    first = exc.errors(include_url=False)[0]
    loc = ".".join(str(p) for p in first.get("loc", ())) or None
    msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return ToolError("invalid_arguments", f"{loc or 'arguments'}: {msg}", loc, hint)


def parse_search_arguments(arguments: Any) -> SearchArguments | ToolError:
    """The arguments of a ``search_tools`` call (a dict, JSON text or None), or the structured error."""
    args = parse_arguments(arguments)
    if isinstance(args, ToolError):
        return args
    try:
        return SearchArguments.model_validate(args)
    except ValidationError as exc:
        return _invalid(exc, f'call {SEARCH_TOOLS} as {{"query": "what the tool does", "top_k": {DEFAULT_TOP_K}}}')


def parse_call_arguments(arguments: Any) -> CallArguments | ToolError:
    """The arguments of a ``call_tool`` call (a dict, JSON text or None), or the structured error."""
    args = parse_arguments(arguments)
    if isinstance(args, ToolError):
        return args
    try:
        return CallArguments.model_validate(args)
    except ValidationError as exc:
        return _invalid(exc, f'call {CALL_TOOL} as {{"name": "<tool name from {SEARCH_TOOLS}>", "arguments": {{...}}}}')


def call_target(arguments: Any) -> str | None:
    """The catalog tool a ``call_tool`` call names (its arguments as a dict or JSON text), None if unreadable."""
    parsed = parse_call_arguments(arguments)
    return None if isinstance(parsed, ToolError) else parsed.name


def unknown_tool_error(name: str, *, direct: bool) -> ToolError:
    """The refusal of a tool name discovery mode does not run.

    Args:
        name: The name as written.
        direct: The name was called directly (not through ``call_tool``).
    """
    text = name[:100]
    if direct:
        return ToolError(
            "unknown_tool",
            f"{text!r} is not a tool you were given: in this mode the tools are {SEARCH_TOOLS} and {CALL_TOOL}",
            None,
            _HOW_TO_FIND,
        )
    return ToolError("unknown_tool", f"no tool named {text!r} in the catalog", "name", _HOW_TO_FIND)


# -- the oracle's queries and their recall ------------------------------------------------------


def _first_sentence(text: str) -> str:
    paragraph = text.strip().split("\n\n")[0]
    return re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0].strip()


def discovery_queries(tool: Tool, catalog: Catalog) -> list[str]:
    """The queries the oracle searches for a tool with, in order, until one finds it.

    1. its intent and the first sentence of its description (what it does, never its name);
    2. a fuller query: its description's first paragraph, its service's title and name and
       its parameters' names;
    3. its exact name.

    Args:
        tool: The tool looked for.
        catalog: Its catalog (for the service's title).
    """
    first = f"{tool.intent}: {_first_sentence(tool.description)}"
    service = catalog.services.get(tool.service)
    title = service.title if service is not None else ""
    params = " ".join(_words(p) for p in tool.parameters_schema.get("properties", {}))
    paragraph = tool.description.strip().split("\n\n")[0]
    fuller = " ".join(p for p in (tool.intent + ":", paragraph, title, tool.service, params) if p)
    return [first, fuller, tool.name]


@dataclass(slots=True)
class RecallReport:
    """Recall of the oracle's first queries: how often the intended tool is in the top ``k``.

    Attributes:
        k: The cut-off.
        tools: Catalog tools searched.
        queries: First queries checked (one per solution step).
        found: Of them, those whose tool was in the top ``k``.
        per_service: ``service -> [found, queries]``.
        misses: ``(task id, tool, query, rank or None)`` of the queries that missed, at most 50.
    """

    k: int
    tools: int
    queries: int = 0
    found: int = 0
    per_service: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    misses: list[tuple[str, str, str, int | None]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        """The share of queries whose tool was in the top ``k`` (1.0 with none)."""
        return self.found / self.queries if self.queries else 1.0

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "k": self.k,
            "tools": self.tools,
            "queries": self.queries,
            "found": self.found,
            f"recall_at_{self.k}": round(self.recall, 4),
            "per_service": {
                s: {"queries": n, "found": f, f"recall_at_{self.k}": round(f / n, 4) if n else 1.0}
                for s, (f, n) in sorted(self.per_service.items())
            },
            "misses": [{"task_id": t, "tool": n, "query": q, "rank": r} for t, n, q, r in self.misses],
        }


def discovery_recall(tasks: Sequence[Task], catalog: Catalog, *, k: int = DEFAULT_TOP_K) -> RecallReport:
    """For every solution step of every task, whether the oracle's first query finds its tool in the top ``k``.

    Args:
        tasks: The tasks.
        catalog: The catalog of their world (every tool is searched).
        k: The cut-off.

    Raises:
        DiscoveryUnavailable: when ``rank-bm25`` is not installed.
        KeyError: naming a solution tool the catalog lacks.
    """
    index = ToolIndex.of(catalog)
    report = RecallReport(k=k, tools=len(index))
    for task in tasks:
        for step in task.solution:
            tool = catalog.tools[step.tool]
            query = discovery_queries(tool, catalog)[0]
            ranked = [h.name for h in index.rank(query, len(index))]
            rank = ranked.index(tool.name) + 1 if tool.name in ranked else None
            hit = rank is not None and rank <= k
            report.queries += 1
            report.found += hit
            counts = report.per_service[tool.service]
            counts[0] += hit
            counts[1] += 1
            if not hit and len(report.misses) < 50:
                report.misses.append((task.id, tool.name, query, rank))
    return report


def discovery_recall_file(
    path: str | Path, services: Sequence[str] | None = None, *, k: int = DEFAULT_TOP_K
) -> RecallReport:
    """:func:`discovery_recall` of a task file, over the catalog of its world.

    Args:
        path: A ``tasks.jsonl`` file.
        services: The services of the task set's world (default: those its ``stats.json`` names, else all).
        k: The cut-off.

    Raises:
        TaskFileError: when the task file cannot be used.
        CatalogError: for an unknown service.
        DiscoveryUnavailable: when ``rank-bm25`` is not installed.
        KeyError: naming a solution tool the catalog lacks.
    """
    require_discovery()
    tasks = read_tasks(path)
    chosen = list(services) if services else task_set_services(path)
    return discovery_recall(tasks, Catalog.load(chosen), k=k)
