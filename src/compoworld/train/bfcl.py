"""Evaluate a policy on the Berkeley Function Calling Leaderboard (BFCL), with BFCL's own data and checkers.

``compoworld eval bfcl`` runs :func:`run_bfcl`: for each category it loads
BFCL's questions and possible answers from the installed ``bfcl-eval``
package, shows the policy the question's functions as OpenAI tools, reads the
tool calls it makes (native ``tool_calls`` or Hermes ``<tool_call>`` blocks)
and has BFCL's own checkers judge them:

* AST categories (``simple_python``, ``multiple``, ``parallel``, ``live_*``…):
  the calls, decoded as BFCL's OpenAI function-calling handler decodes them,
  go to BFCL's ``ast_checker``;
* relevance categories (``irrelevance``, ``live_irrelevance``,
  ``live_relevance``): an item passes when the policy makes no call (makes a
  call), BFCL's rule with its own ``is_empty_output``;
* multi-turn categories (``multi_turn_base``…): the policy plays every turn
  against BFCL's backend classes (a file system, a trading bot, …, plain
  Python that runs offline), executed by BFCL's ``execute_multi_turn_func_call``
  exactly as its inference loop does (up to its step limit per turn), and BFCL's
  ``multi_turn_checker`` replays the calls against the ground truth's.

Per item results go to ``bfcl_results.jsonl`` (resumable: items already there
are not asked again) and the per-category accuracies, with 95 % Wilson
intervals, to ``bfcl_summary.json``.

Install BFCL with :data:`BFCL_INSTALL`: ``--no-deps``, since its declared
dependencies pin numpy, networkx and filelock to versions other than
CompoWorld's and pull every model provider's SDK, sentence-transformers and
faiss, none of which its checkers use.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import importlib.metadata
import importlib.util
import json
import keyword
import os
import random
import re
import sys
import time
import types
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from compoworld.agents.chat import (
    ToolCallRequest,
    ToolDetail,
    assistant_message,
    compact_schema,
    parse_tool_calls,
    slim_tool,
)
from compoworld.agents.hf import cache_dir
from compoworld.agents.policies import Policy, PolicyUnavailable, RandomPolicy, TurnInput
from compoworld.engine.catalog import Catalog
from compoworld.engine.jsonl import append_line, recover, write_json_atomic
from compoworld.tasks.task import Task
from compoworld.train.evaluate import wilson
from compoworld.world.world import World

__all__ = [
    "AST_CATEGORIES",
    "BFCL_INSTALL",
    "BFCL_VERSION",
    "CATEGORIES",
    "CATEGORY_ALIASES",
    "DEFAULT_SYSTEM_PROMPT",
    "MULTI_TURN_CATEGORIES",
    "RELEVANCE_CATEGORIES",
    "RESULTS_FILE",
    "RUN_FILE",
    "SUMMARY_FILE",
    "BFCLItemResult",
    "BFCLSummary",
    "CategoryScore",
    "bfcl_openai_tools",
    "require_bfcl",
    "resolve_categories",
    "run_bfcl",
]

BFCL_VERSION = "2026.3.23"
"""The ``bfcl-eval`` release whose data and checkers this module was written against."""

BFCL_INSTALL = f"pip install --no-deps bfcl-eval=={BFCL_VERSION} filelock==4.3.1 mpmath==1.3.0"
"""How to install BFCL for this module: the package alone, plus the two libraries its
loaders (``filelock``) and multi-turn math backend (``mpmath``) import."""

AST_CATEGORIES: tuple[str, ...] = (
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
)
"""Single-turn categories judged by BFCL's AST checker against possible answers."""

RELEVANCE_CATEGORIES: tuple[str, ...] = ("irrelevance", "live_irrelevance", "live_relevance")
"""Single-turn categories judged only on whether the policy made a call (it should not; ``live_relevance``: it should)."""

MULTI_TURN_CATEGORIES: tuple[str, ...] = (
    "multi_turn_base",
    "multi_turn_miss_func",
    "multi_turn_miss_param",
    "multi_turn_long_context",
)
"""Categories played turn by turn against BFCL's backend classes and judged by its multi-turn checker."""

CATEGORIES: tuple[str, ...] = AST_CATEGORIES + RELEVANCE_CATEGORIES + MULTI_TURN_CATEGORIES
"""Every BFCL category :func:`run_bfcl` evaluates."""

CATEGORY_ALIASES: dict[str, str] = {"simple": "simple_python"}
"""Other names accepted for categories (BFCL v1-v3 called ``simple_python`` ``simple``)."""

_UNSUPPORTED: dict[str, str] = {
    "web_search_base": "its backend queries SerpAPI over the network",
    "web_search_no_snippet": "its backend queries SerpAPI over the network",
    "memory_kv": "its items build on prerequisite conversations the model must have had first",
    "memory_vector": "its backend downloads a sentence-transformers model when imported",
    "memory_rec_sum": "its items build on prerequisite conversations the model must have had first",
    "format_sensitivity": "it measures prompt formats of text-prompted models, not tool calling",
}

DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant."
"""The system turn given to questions that have none (BFCL's function-calling mode sends none;
CompoWorld's policies expect one, and this is the one the tool chat template falls back to)."""

RESULTS_FILE = "bfcl_results.jsonl"
SUMMARY_FILE = "bfcl_summary.json"
RUN_FILE = "bfcl_run.json"

_NAME_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
_CHECKER_MODEL = "compoworld"
_MODEL_CONFIG = "bfcl_eval.constants.model_config"
_AST_CHECKER = "bfcl_eval.eval_checker.ast_eval.ast_checker"


# --- BFCL's modules ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Bfcl:
    """The parts of BFCL this module calls, imported once (the package has no type hints)."""

    version: str
    load_dataset_entry: Callable[..., list[dict[str, Any]]]
    load_ground_truth_entry: Callable[[str], list[dict[str, Any]]]
    add_language_hint: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
    is_function_calling_format_output: Callable[[Any], bool]
    is_empty_output: Callable[[Any], bool]
    ast_checker: Callable[..., dict[str, Any]]
    languages: Mapping[str, Any]
    type_mapping: Mapping[str, str]
    execute: Callable[..., tuple[list[str], dict[str, Any]]]
    multi_turn_checker: Callable[..., dict[str, Any]]
    multi_turn_globals: dict[str, Any]
    max_steps: int
    more_functions_prompt: str


def _import_ast_checker() -> types.ModuleType:
    """BFCL's AST checker, imported without ``bfcl_eval.constants.model_config``.

    That module imports every model provider's SDK (anthropic, cohere, boto3,
    google-genai, qwen-agent…) only to build a registry the checker consults for
    function names with dots; :func:`run_bfcl` renames those before checking, so
    the registry is never read and an empty stand-in serves while the checker is
    imported. The stand-in is removed afterwards, so a later import of the real
    module is not shadowed.
    """
    if _AST_CHECKER in sys.modules:
        return sys.modules[_AST_CHECKER]
    if _MODEL_CONFIG in sys.modules:
        return importlib.import_module(_AST_CHECKER)
    stand_in = types.ModuleType(
        _MODEL_CONFIG, "Stand-in for BFCL's model registry (never read: see compoworld.train.bfcl)."
    )
    vars(stand_in)["MODEL_CONFIG_MAPPING"] = {}
    sys.modules[_MODEL_CONFIG] = stand_in
    try:
        return importlib.import_module(_AST_CHECKER)
    finally:
        if sys.modules.get(_MODEL_CONFIG) is stand_in:
            del sys.modules[_MODEL_CONFIG]


@cache
def _load_bfcl() -> _Bfcl:
    # BFCL creates result/score/lock directories under BFCL_PROJECT_ROOT when imported, by default
    # inside site-packages (read-only on some installs): keep them in CompoWorld's cache instead.
    os.environ.setdefault("BFCL_PROJECT_ROOT", str(cache_dir() / "bfcl"))
    try:
        utils = importlib.import_module("bfcl_eval.utils")
        enums = importlib.import_module("bfcl_eval.constants.enums")
        mappings = importlib.import_module("bfcl_eval.constants.type_mappings")
        prompts = importlib.import_module("bfcl_eval.constants.default_prompts")
        mt_utils = importlib.import_module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils")
        mt_checker = importlib.import_module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker")
        ast_checker = _import_ast_checker()
    except ModuleNotFoundError as exc:
        raise ImportError(f"BFCL's checkers need {exc.name}, which is not installed: run `{BFCL_INSTALL}`") from exc
    language = enums.Language
    return _Bfcl(
        version=importlib.metadata.version("bfcl-eval"),
        load_dataset_entry=utils.load_dataset_entry,
        load_ground_truth_entry=utils.load_ground_truth_entry,
        add_language_hint=utils.add_language_specific_hint_to_function_doc,
        is_function_calling_format_output=utils.is_function_calling_format_output,
        is_empty_output=utils.is_empty_output,
        ast_checker=ast_checker.ast_checker,
        languages={"python": language.PYTHON, "java": language.JAVA, "javascript": language.JAVASCRIPT},
        type_mapping=mappings.GORILLA_TO_OPENAPI,
        execute=mt_utils.execute_multi_turn_func_call,
        multi_turn_checker=mt_checker.multi_turn_checker,
        multi_turn_globals=vars(mt_utils),
        max_steps=int(prompts.MAXIMUM_STEP_LIMIT),
        more_functions_prompt=str(prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC),
    )


def _bfcl() -> _Bfcl:
    # Looked for on every call (cheap), so that a package removed or hidden later is reported as missing.
    if importlib.util.find_spec("bfcl_eval") is None:
        raise ImportError(
            f"BFCL is not installed: run `{BFCL_INSTALL}` (--no-deps: its declared dependencies "
            "pin numpy, networkx and filelock to other versions and pull SDKs its checkers never use)"
        )
    return _load_bfcl()


def require_bfcl() -> None:
    """Check that BFCL can be imported (and import it once).

    Raises:
        ImportError: when ``bfcl-eval`` or a library its checkers import is missing, saying how to install it.
    """
    _bfcl()


# --- categories ----------------------------------------------------------------------------------------


def resolve_categories(categories: Sequence[str]) -> list[str]:
    """BFCL category names, aliases resolved, duplicates dropped, in the order given.

    Args:
        categories: Names from :data:`CATEGORIES` or :data:`CATEGORY_ALIASES`.

    Raises:
        ValueError: for an unknown or unsupported category, listing the valid ones.
    """
    out: list[str] = []
    problems: list[str] = []
    for raw in categories:
        name = CATEGORY_ALIASES.get(raw, raw)
        if name in CATEGORIES:
            if name not in out:
                out.append(name)
        elif name in _UNSUPPORTED:
            problems.append(f"{name} is not supported here ({_UNSUPPORTED[name]})")
        else:
            problems.append(f"unknown BFCL category {raw!r}")
    if problems:
        aliases = ", ".join(f"{a} (= {c})" for a, c in CATEGORY_ALIASES.items())
        raise ValueError(f"{'; '.join(problems)}. Valid categories: {', '.join(CATEGORIES)}; aliases: {aliases}")
    if not out:
        raise ValueError(f"no BFCL category given. Valid categories: {', '.join(CATEGORIES)}")
    return out


def _language(category: str) -> str:
    if category.endswith("_java"):
        return "java"
    if category.endswith("_javascript"):
        return "javascript"
    return "python"


# --- tools ---------------------------------------------------------------------------------------------


def _schema(prop: Any, mapping: Mapping[str, str]) -> Any:
    """One parameter of a BFCL function doc as JSON schema, at every depth.

    BFCL's types (``dict``, ``float``, ``tuple``, ``any``…) are mapped by BFCL's own ``GORILLA_TO_OPENAPI`` table.
    """
    if not isinstance(prop, dict):
        return prop
    out = dict(prop)
    kind = prop.get("type")
    # As BFCL's OpenAI handler does: unknown types become strings, floats say so (JSON schema has only numbers).
    out["type"] = mapping.get(kind, "string") if isinstance(kind, str) else "string"
    if kind == "float":
        out["format"] = "float"
        out["description"] = f"{prop.get('description', '')} This is a float type value.".strip()
    if isinstance(prop.get("properties"), dict):
        out["properties"] = {k: _schema(v, mapping) for k, v in prop["properties"].items()}
    if isinstance(prop.get("items"), dict):
        out["items"] = _schema(prop["items"], mapping)
    if "required" in out and not isinstance(out["required"], list):
        del out["required"]  # a stray flag, not JSON schema's list of names
    return out


def _shown_name(name: str, taken: set[str]) -> str:
    """A tool name OpenAI accepts (``[a-zA-Z0-9_-]{1,64}``): BFCL's dots become underscores, as its handler does."""
    base = _NAME_CHARS.sub("_", name)[:64] or "function"
    candidate, n = base, 2
    while candidate in taken:
        suffix = f"_{n}"
        candidate, n = base[: 64 - len(suffix)] + suffix, n + 1
    return candidate


def bfcl_openai_tools(
    functions: Sequence[dict[str, Any]], *, detail: ToolDetail = "full"
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """BFCL function docs as OpenAI tools, with valid names.

    Args:
        functions: BFCL function docs (``name``, ``description``, ``parameters`` with BFCL's types).
        detail: ``full`` schemas, ``compact`` or ``slim`` (see :func:`compoworld.agents.chat.task_tools`).

    Returns:
        The tools, and each tool's name as shown mapped to its BFCL name.
    """
    mapping = _bfcl().type_mapping
    tools: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for fn in functions:
        shown = _shown_name(str(fn["name"]), set(names))
        names[shown] = str(fn["name"])
        params = fn.get("parameters") or {}
        schema = {k: v for k, v in params.items() if k not in ("type", "properties")}
        schema["type"] = "object"
        schema["properties"] = {k: _schema(v, mapping) for k, v in (params.get("properties") or {}).items()}
        if "required" in schema and not isinstance(schema["required"], list):
            del schema["required"]
        tool = {
            "type": "function",
            "function": {"name": shown, "description": str(fn.get("description", "")), "parameters": schema},
        }
        if detail == "compact":
            tool = compact_schema(tool)
        elif detail == "slim":
            tool = slim_tool(tool)
        tools.append(tool)
    return tools, names


# --- results -------------------------------------------------------------------------------------------


class BFCLItemResult(BaseModel):
    """One BFCL item as the policy answered it and BFCL's checker judged it (a line of ``bfcl_results.jsonl``)."""

    id: str = Field(description="BFCL's question id, e.g. simple_python_12.")
    category: str = Field(description="The BFCL category.")
    policy: str = Field(description="The policy's name.")
    valid: bool = Field(description="BFCL's verdict.")
    calls: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Single-turn: the calls made, as BFCL's checker reads them ({BFCL function name: arguments}); "
        "arguments that were not valid JSON stay text.",
    )
    turns: list[list[list[str]]] | None = Field(
        default=None, description="Multi-turn: per turn, per step, the calls executed, as BFCL writes them."
    )
    answer: str | None = Field(default=None, description="The policy's text beside its calls (single-turn).")
    error: list[str] = Field(default_factory=list, description="The checker's error messages (empty when valid).")
    error_type: str | None = Field(default=None, description="The checker's error type, or policy_error.")
    steps: int = Field(default=0, description="Turns the policy was asked for.")
    prompt_tokens: int | None = Field(default=None, description="Prompt tokens over all steps, when reported.")
    completion_tokens: int | None = Field(default=None, description="Completion tokens over all steps, when reported.")
    policy_s: float = Field(default=0.0, description="Seconds spent in the policy.")
    wall_s: float = Field(default=0.0, description="Seconds the item took.")


class CategoryScore(BaseModel):
    """Accuracy on one category (or on all requested items pooled)."""

    category: str
    items: int = Field(description="Items selected (the first `limit` of the category).")
    scored: int = Field(description="Items with a result.")
    correct: int = Field(description="Items BFCL judged valid.")
    accuracy: float | None = Field(description="correct / scored (None when nothing was scored).")
    ci95: tuple[float, float] | None = Field(description="95 % Wilson interval of the accuracy.")
    policy_errors: int = Field(description="Items where the policy produced no usable turn (counted wrong).")
    mean_policy_s: float | None = Field(description="Mean seconds in the policy per item.")


class BFCLSummary(BaseModel):
    """What :func:`run_bfcl` measured (``bfcl_summary.json``)."""

    bfcl_version: str = Field(description="The installed bfcl-eval release.")
    policy: str
    categories: dict[str, CategoryScore] = Field(description="Per category, in the order requested.")
    pooled: CategoryScore = Field(description="All requested items pooled (not BFCL's weighted overall score).")
    limit: int | None = Field(description="Items per category (None: all).")
    seed: int
    tool_detail: ToolDetail
    done_before: int = Field(description="Selected items already in the results file.")
    done_now: int = Field(description="Items this call asked the policy about.")
    failures: list[tuple[str, str]] = Field(
        default_factory=list,
        description="(item id, why) for items the policy could not answer (endpoint down): not recorded, so retried.",
    )
    elapsed_s: float
    results: str = Field(description="The per-item results file.")

    @property
    def complete(self) -> bool:
        """Whether every selected item has a result."""
        return self.pooled.scored == self.pooled.items


def _score(category: str, items: int, results: Sequence[BFCLItemResult]) -> CategoryScore:
    correct = sum(r.valid for r in results)
    n = len(results)
    rate = wilson(correct, n)
    return CategoryScore(
        category=category,
        items=items,
        scored=n,
        correct=correct,
        accuracy=correct / n if n else None,
        ci95=(rate.low, rate.high) if n else None,
        policy_errors=sum(r.error_type == "policy_error" for r in results),
        mean_policy_s=round(sum(r.policy_s for r in results) / n, 4) if n else None,
    )


# --- one item ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Item:
    index: int
    category: str
    entry: dict[str, Any]  # BFCL's entry, function docs as its checker reads them
    shown_functions: list[dict[str, Any]]  # the docs with BFCL's language hint, as its inference shows them
    ground_truth: Any


@dataclass(slots=True)
class _Progress:
    """What one item's policy turns cost."""

    steps: int = 0
    policy_s: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    started: float = field(default_factory=time.perf_counter)


class _DecodeError(ValueError):
    """The policy's calls cannot be read as BFCL's function-calling handler reads them."""


def _decode(requests: Sequence[ToolCallRequest]) -> list[dict[str, Any]]:
    """The calls as BFCL's OpenAI function-calling handler decodes them: ``[{name: arguments}]``."""
    out: list[dict[str, Any]] = []
    for req in requests:
        if req.problem:
            raise _DecodeError(req.problem)
        try:
            out.append({req.name: json.loads(req.arguments)})
        except ValueError as exc:
            raise _DecodeError(f"the arguments of {req.name!r} are not valid JSON: {exc}") from exc
    return out


def _raw_calls(requests: Sequence[ToolCallRequest], to_bfcl: Mapping[str, str]) -> list[dict[str, Any]]:
    """The calls with BFCL's function names, for the results file (arguments that are not JSON kept as text)."""
    out: list[dict[str, Any]] = []
    for req in requests:
        try:
            args: Any = json.loads(req.arguments)
        except ValueError:
            args = req.arguments
        out.append({to_bfcl.get(req.name, req.name): args})
    return out


def _error_texts(error: Any) -> list[str]:
    items = error if isinstance(error, list) else [error]
    return [e if isinstance(e, str) else json.dumps(e, ensure_ascii=False, default=str) for e in items]


class _Evaluator:
    """Asks the policy about BFCL items and has BFCL judge the answers."""

    def __init__(
        self,
        policy: Policy,
        bfcl: _Bfcl,
        *,
        seed: int,
        detail: ToolDetail,
        system_prompt: str | None,
        turn_timeout_s: float,
    ) -> None:
        self.policy = policy
        self.bfcl = bfcl
        self.seed = seed
        self.detail = detail
        self.system_prompt = system_prompt
        self.turn_timeout_s = turn_timeout_s
        # Policies take a CompoWorld task and world: BFCL items get a stand-in of each with nothing to read.
        self.world = World(Catalog([]), 0, 0.01)

    def _task(self, item: _Item, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Task:
        instruction = next((m.get("content") for m in messages if m.get("role") == "user"), "") or ""
        return Task(
            id=item.entry["id"],
            seed=self.seed,
            index=item.index,
            world_seed=0,
            world_version=self.world.version,
            catalog=self.world.catalog.fingerprint,
            setup=[],
            instruction=str(instruction),
            given={},
            tools=[t["function"]["name"] for t in tools],
            solution=[],
            criteria=[],
            metadata={"source": "bfcl", "category": item.category},
        )

    def _opening(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.system_prompt and (not messages or messages[0].get("role") != "system"):
            return [{"role": "system", "content": self.system_prompt}, *messages]
        return list(messages)

    async def _ask(
        self, task: Task, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: random.Random, p: _Progress
    ) -> tuple[dict[str, Any] | None, str | None]:
        """One policy turn: its message, or why there is none."""
        t0 = time.perf_counter()
        inp = TurnInput(task, list(messages), tools, p.steps, 0, rng, self.world)
        try:
            out = await asyncio.wait_for(self.policy.act(inp), timeout=self.turn_timeout_s)
        except TimeoutError:
            return None, f"turn {p.steps} took more than {self.turn_timeout_s} s"
        finally:
            p.policy_s += time.perf_counter() - t0
            p.steps += 1
        if out.prompt_tokens is not None:
            p.prompt_tokens = (p.prompt_tokens or 0) + out.prompt_tokens
        if out.completion_tokens is not None:
            p.completion_tokens = (p.completion_tokens or 0) + out.completion_tokens
        return (None, out.error) if out.error is not None else (out.message, None)

    def _result(self, item: _Item, p: _Progress, **fields: Any) -> BFCLItemResult:
        return BFCLItemResult(
            id=item.entry["id"],
            category=item.category,
            policy=self.policy.name,
            steps=p.steps,
            prompt_tokens=p.prompt_tokens,
            completion_tokens=p.completion_tokens,
            policy_s=round(p.policy_s, 4),
            wall_s=round(time.perf_counter() - p.started, 4),
            **fields,
        )

    async def run(self, item: _Item) -> BFCLItemResult:
        """Ask the policy about one item and judge its answer.

        Raises:
            PolicyUnavailable: when the policy cannot answer for reasons outside the agent.
        """
        if item.category in MULTI_TURN_CATEGORIES:
            return await self._multi_turn(item)
        return await self._single_turn(item)

    async def _single_turn(self, item: _Item) -> BFCLItemResult:
        p = _Progress()
        tools, to_bfcl = bfcl_openai_tools(item.shown_functions, detail=self.detail)
        messages = self._opening(item.entry["question"][0])
        rng = random.Random(f"{self.seed}:{item.entry['id']}")
        message, problem = await self._ask(self._task(item, messages, tools), messages, tools, rng, p)
        if message is None:
            return self._result(item, p, valid=False, error=[f"policy error: {problem}"], error_type="policy_error")
        prose, requests = parse_tool_calls(message, 0)
        calls = _raw_calls(requests, to_bfcl)
        valid, error, error_type = self._judge_single(item, requests, {v: k for k, v in to_bfcl.items()})
        return self._result(item, p, valid=valid, calls=calls, answer=prose or None, error=error, error_type=error_type)

    def _judge_single(
        self, item: _Item, requests: Sequence[ToolCallRequest], to_shown: Mapping[str, str]
    ) -> tuple[bool, list[str], str | None]:
        """BFCL's verdict on a single-turn answer: ``(valid, errors, error type)``.

        The decoding and the messages follow BFCL's ``eval_runner`` for function-calling
        models (whose module cannot be imported without every provider's SDK); the
        judging is BFCL's own ``is_empty_output`` and ``ast_checker``.
        """
        decoded: list[dict[str, Any]] | None = None
        decode_error = "the model made no tool call"
        if requests:  # an answer without calls is text, which BFCL's decoder of calls refuses
            try:
                decoded = _decode(requests)
            except _DecodeError as exc:
                decode_error = str(exc)
        if item.category in RELEVANCE_CATEGORIES:
            called = decoded is not None and not self.bfcl.is_empty_output(decoded)
            if "irrelevance" in item.category:
                if called:
                    return (
                        False,
                        ["Valid syntax. Successfully decode AST when it should not."],
                        "irrelevance_error:decoder_success",
                    )
                return True, [], None
            if not called:
                return (
                    False,
                    [f"Invalid syntax. Failed to decode AST when it should have. {decode_error}"],
                    "relevance_error:decoder_failed",
                )
            return True, [], None
        if decoded is None:
            return False, [f"Invalid syntax. Failed to decode AST. {decode_error}"], "ast_decoder:decoder_failed"
        if not self.bfcl.is_function_calling_format_output(decoded):
            return False, ["Did not output in the specified format."], "ast_decoder:decoder_wrong_output_format"
        # The checker sees the names the policy was shown, so BFCL's dotted names never reach its model registry.
        functions = [{**fn, "name": to_shown.get(fn["name"], fn["name"])} for fn in item.entry["function"]]
        answers = [{to_shown.get(k, k): v for k, v in a.items()} for a in item.ground_truth]
        result = self.bfcl.ast_checker(
            functions, decoded, answers, self.bfcl.languages[_language(item.category)], item.category, _CHECKER_MODEL
        )
        if result["valid"]:
            return True, [], None
        return False, _error_texts(result.get("error", [])), result.get("error_type")

    def _executable(
        self, requests: Sequence[ToolCallRequest], to_bfcl: Mapping[str, str]
    ) -> list[tuple[ToolCallRequest, str | None, str | None]]:
        """Each call as the Python call BFCL executes (``name(key=repr(value), …)``), or why it cannot run.

        Raises:
            _DecodeError: when a call cannot be decoded at all (BFCL then ends the turn).
        """
        out: list[tuple[ToolCallRequest, str | None, str | None]] = []
        for req, call in zip(requests, _decode(requests), strict=True):
            args = call[req.name]
            if not isinstance(args, dict):
                raise _DecodeError(f"the arguments of {req.name!r} are not a JSON object")
            name = to_bfcl.get(req.name)
            # BFCL evaluates these strings: only known functions with identifier keys are built,
            # so a model cannot make it run anything else.
            if name is None:
                out.append((req, None, f"Error during execution: name {req.name!r} is not defined"))
            elif bad := [k for k in args if not k.isidentifier() or keyword.iskeyword(k)]:
                out.append((req, None, f"Error during execution: invalid parameter name(s) {bad}"))
            else:
                out.append((req, f"{name}({','.join(f'{k}={v!r}' for k, v in args.items())})", None))
        return out

    async def _multi_turn(self, item: _Item) -> BFCLItemResult:
        """Play every turn against BFCL's backends, as BFCL's function-calling inference loop does."""
        p = _Progress()
        entry = item.entry
        bfcl = self.bfcl
        # BFCL keeps backend instances in a module's globals under the model's name: a fresh name per item
        # keeps items apart, and they are dropped afterwards.
        run_name = f"compoworld_{uuid.uuid4().hex}"
        long_context = "long_context" in item.category or "composite" in item.category
        holdout: dict[str, list[dict[str, Any]]] = entry.get("missed_function") or {}
        functions = list(item.shown_functions)
        rng = random.Random(f"{self.seed}:{entry['id']}")
        messages: list[dict[str, Any]] = []
        turns: list[list[list[str]]] = []

        def execute(calls: list[str], name: str = run_name) -> list[str]:
            results, _ = bfcl.execute(
                calls,
                entry.get("initial_config", {}),
                entry["involved_classes"],
                name,
                entry["id"],
                long_context=long_context,
                is_evaL_run=False,
            )
            return results

        try:
            execute([])  # loads each backend's initial state, as BFCL does before the first turn
            force_quit = False
            for turn_index, turn_messages in enumerate(entry["question"]):
                if str(turn_index) in holdout:
                    functions.extend(holdout[str(turn_index)])
                    turn_messages = [{"role": "user", "content": bfcl.more_functions_prompt}]
                tools, to_bfcl = bfcl_openai_tools(functions, detail=self.detail)
                messages = self._opening(turn_messages) if turn_index == 0 else [*messages, *turn_messages]
                task = self._task(item, messages, tools)
                steps: list[list[str]] = []
                count = 0
                while True:
                    message, problem = await self._ask(task, messages, tools, rng, p)
                    if message is None:
                        turns.append(steps)
                        return self._result(
                            item,
                            p,
                            valid=False,
                            turns=turns,
                            error=[f"policy error: {problem}"],
                            error_type="policy_error",
                        )
                    prose, requests = parse_tool_calls(message, p.steps)
                    messages.append(assistant_message(prose, requests))
                    if not requests:
                        break
                    try:
                        planned = self._executable(requests, to_bfcl)
                    except _DecodeError as exc:
                        # BFCL ends the turn on calls it cannot decode; each still gets an answer,
                        # as chat endpoints refuse a conversation with unanswered calls.
                        note = f"Error during decoding: {exc}"
                        for req in requests:
                            messages.append({"role": "tool", "tool_call_id": req.id, "name": req.name, "content": note})
                        break
                    calls = [c for _, c, _ in planned if c is not None]
                    results = iter(execute(calls) if calls else [])
                    for req, call, refusal in planned:
                        content = next(results) if call is not None else refusal
                        messages.append({"role": "tool", "tool_call_id": req.id, "name": req.name, "content": content})
                    steps.append(calls)
                    count += 1
                    if count > bfcl.max_steps:
                        force_quit = True
                        break
                turns.append(steps)
                if force_quit:
                    break
            valid, error, error_type = self._judge_multi_turn(item, turns, run_name)
            return self._result(item, p, valid=valid, turns=turns, error=error, error_type=error_type)
        finally:
            for key in [k for k in bfcl.multi_turn_globals if k.startswith(run_name)]:
                del bfcl.multi_turn_globals[key]

    def _judge_multi_turn(
        self, item: _Item, turns: list[list[list[str]]], run_name: str
    ) -> tuple[bool, list[str], str | None]:
        """BFCL's verdict on a played item: its ``multi_turn_checker``, after its runner's force-termination check."""
        truth: list[list[str]] = item.ground_truth
        if len(turns) != len(truth):
            return (
                False,
                [
                    "Model was force-terminated during inference phase. The length of the model result turns "
                    f"({len(turns)}) does not match the length of the ground truth turns ({len(truth)})."
                ],
                "multi_turn:force_terminated",
            )
        # The runner skips steps that decoded to no call; ours never hold one but a refused step may be empty.
        decoded = [[step for step in turn if step] for turn in turns]
        result = self.bfcl.multi_turn_checker(decoded, truth, item.entry, item.category, run_name)
        if result.get("valid"):
            return True, [], None
        return False, _error_texts(result.get("error_message", "")), result.get("error_type")


# --- the run -------------------------------------------------------------------------------------------


def _load_items(bfcl: _Bfcl, category: str, limit: int | None) -> list[_Item]:
    entries = bfcl.load_dataset_entry(category, include_prereq=False, include_language_specific_hint=False)
    if limit is not None:
        entries = entries[:limit]
    truth: dict[str, Any] = {}
    if category not in RELEVANCE_CATEGORIES:
        truth = {a["id"]: a["ground_truth"] for a in bfcl.load_ground_truth_entry(category)}
    # What BFCL's inference shows the model: the docs with its language hint appended.
    shown = bfcl.add_language_hint(copy.deepcopy(entries))
    return [
        _Item(i, category, entry, hinted["function"], truth.get(entry["id"]))
        for i, (entry, hinted) in enumerate(zip(entries, shown, strict=True))
    ]


def _check_run_info(out: Path, info: dict[str, Any]) -> None:
    path = out / RUN_FILE
    if path.exists():
        old = json.loads(path.read_text())
        changed = [k for k in info if old.get(k) != info[k]]
        if changed:
            raise ValueError(
                f"{out} holds a BFCL run with other settings ({', '.join(f'{k}: {old.get(k)!r}' for k in changed)}); "
                "resume it with the same settings or use another --out directory"
            )
    write_json_atomic(path, info)


async def _run_items(
    evaluator: _Evaluator,
    pending: list[_Item],
    concurrency: int,
    path: Path,
    progress: Callable[[int], None] | None,
    done: list[BFCLItemResult],
    failures: list[tuple[str, str]],
) -> None:
    queue: asyncio.Queue[_Item] = asyncio.Queue()
    for item in pending:
        queue.put_nowait(item)
    # A dead endpoint fails every item: stop scheduling after this many failures in a row.
    give_up_after = max(8, 2 * concurrency)
    streak = 0
    with path.open("a") as fh:

        async def worker() -> None:
            nonlocal streak
            while not queue.empty() and streak < give_up_after:
                item = queue.get_nowait()
                try:
                    result = await evaluator.run(item)
                except PolicyUnavailable as exc:
                    streak += 1
                    failures.append((item.entry["id"], str(exc)))
                    continue
                streak = 0
                append_line(fh, result.model_dump_json())
                done.append(result)
                if progress is not None:
                    progress(1)

        try:
            await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
        finally:
            await evaluator.policy.aclose()


def run_bfcl(
    policy: Policy,
    categories: Sequence[str],
    *,
    out: str | Path,
    limit: int | None = None,
    seed: int = 0,
    concurrency: int = 1,
    tool_detail: ToolDetail | None = None,
    system_prompt: str | None = DEFAULT_SYSTEM_PROMPT,
    turn_timeout_s: float = 300.0,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> BFCLSummary:
    """Evaluate a policy on BFCL categories with BFCL's own data and checkers, resuming a previous run.

    Each item's question and function docs come from the installed ``bfcl-eval``;
    the functions are shown as OpenAI tools (BFCL's types mapped to JSON schema
    as its OpenAI handler maps them, dotted names with underscores), and the
    policy's calls are judged by BFCL's checkers (see the module's description).
    An item whose policy turn fails (a conversation too long for the model's
    context, a turn past ``turn_timeout_s``) counts as wrong, with error type
    ``policy_error``. Items already in ``out/bfcl_results.jsonl`` are not asked
    again; the policy is closed at the end.

    Policies see a stand-in task (the question's first user message, the tools'
    names) and an empty world: model policies need nothing else; ``oracle`` has
    no solution to replay, so it answers without calls; ``random`` draws from a
    world's values and is refused.

    Args:
        policy: The policy (e.g. from :func:`compoworld.agents.factory.make_policy`).
        categories: BFCL categories (:data:`CATEGORIES`; aliases in :data:`CATEGORY_ALIASES`).
        out: Directory for ``bfcl_results.jsonl``, ``bfcl_summary.json`` and ``bfcl_run.json``.
        limit: Evaluate the first ``limit`` items of each category (None: all).
        seed: Seeds each item's source of randomness (with the item's id).
        concurrency: Items evaluated at once.
        tool_detail: How much of the schemas to show (default: the policy's own ``tool_detail``).
        system_prompt: The system turn for questions without one (None: none).
        turn_timeout_s: Seconds a policy turn may take.
        progress: Called with 1 after each item evaluated.
        on_start: Called with ``(selected items, already done)`` before the first item.

    Returns:
        Per-category and pooled accuracies with 95 % Wilson intervals, over the selected
        items that have results (also written to ``out/bfcl_summary.json``).

    Raises:
        ImportError: when BFCL is not installed (the message says how to install it).
        ValueError: for unknown categories (listing the valid ones), the ``random``
            policy, or an ``out`` holding a run with other settings.
        BadLines: when the results file has damaged lines.
    """
    started = time.perf_counter()
    names = resolve_categories(categories)
    if isinstance(policy, RandomPolicy):
        raise ValueError("the random policy draws from a CompoWorld world's values; BFCL items have none")
    if limit is not None and limit < 1:
        raise ValueError("limit must be at least 1")
    bfcl = _bfcl()
    detail: ToolDetail = tool_detail or policy.tool_detail
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    info = {
        "policy": policy.name,
        "seed": seed,
        "tool_detail": detail,
        "system_prompt": system_prompt,
        "bfcl_version": bfcl.version,
    }
    _check_run_info(out_dir, info)
    items = {name: _load_items(bfcl, name, limit) for name in names}
    path = out_dir / RESULTS_FILE
    found = recover(path, BFCLItemResult.model_validate_json)
    by_id = {r.id: r for r in found.records}
    selected = [item for group in items.values() for item in group]
    pending = [item for item in selected if item.entry["id"] not in by_id]
    done_before = len(selected) - len(pending)
    if on_start is not None:
        on_start(len(selected), done_before)
    evaluator = _Evaluator(
        policy, bfcl, seed=seed, detail=detail, system_prompt=system_prompt, turn_timeout_s=turn_timeout_s
    )
    done: list[BFCLItemResult] = []
    failures: list[tuple[str, str]] = []
    asyncio.run(_run_items(evaluator, pending, concurrency, path, progress, done, failures))
    by_id.update((r.id, r) for r in done)
    per_category: dict[str, CategoryScore] = {}
    pooled: list[BFCLItemResult] = []
    for name, group in items.items():
        results = [by_id[i.entry["id"]] for i in group if i.entry["id"] in by_id]
        per_category[name] = _score(name, len(group), results)
        pooled.extend(results)
    summary = BFCLSummary(
        bfcl_version=bfcl.version,
        policy=policy.name,
        categories=per_category,
        pooled=_score("all", len(selected), pooled),
        limit=limit,
        seed=seed,
        tool_detail=detail,
        done_before=done_before,
        done_now=len(done),
        failures=failures,
        elapsed_s=round(time.perf_counter() - started, 3),
        results=str(path),
    )
    write_json_atomic(out_dir / SUMMARY_FILE, summary.model_dump(mode="json"))
    return summary
