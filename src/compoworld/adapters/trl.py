"""TRL adapter: reward functions and an ``environment_factory`` class for ``GRPOTrainer`` (TRL 1.16).

Rows come from :func:`compoworld.train.export.rl_rows` with ``fmt="trl"``: a
conversational ``prompt`` plus ``task_id`` and ``task`` (the whole task as
JSON), which TRL hands to reward functions as keyword lists and to
``environment.reset(**row)`` as keywords. Nothing here imports TRL.

Reward functions (:class:`CompoWorldReward`, :func:`compoworld_reward`) follow
TRL's signature ``f(prompts, completions, **kwargs) -> list[float | None]``.
Each completion is scored on its task's rubric: when TRL passes the
rollouts' environments (``environments=``, with ``environment_factory``) or
the sessions :class:`~compoworld.adapters.trl_rollout.CompoWorldRolloutFunc`
played (``compoworld_sessions=``), that episode is checked as it is; otherwise the completion's calls
(native ``tool_calls`` or Hermes ``<tool_call>`` text, and the environment's
``call_tool``/``submit_answer`` wrappers) are replayed on a fresh episode.
The reward scheme is then applied over the rows sharing a ``task_id`` within
the call: GRPO's group. TRL shows each process only its local share of a
batch and gathers rewards after the call, so with several processes a group
split between them is weighted on each share separately (with one process,
as on a CPU, the whole group is visible). Per-criterion pass rates are logged
through TRL's ``log_metric`` (``compoworld/pass_rate/<kind>``, completion rate,
zero-variance group share, and with the rollout function the share of episodes
ending in an answer, the length budget or the turn limit, ``compoworld/stop/<reason>``), and :func:`criterion_rewards` gives one reward
function per criterion kind, which TRL logs as ``rewards/compoworld_<kind>/mean``
(give them weight 0 to log without training on them).

:class:`CompoWorldToolEnvironment` is an ``environment_factory`` class: TRL
makes one per rollout, calls ``reset(**row)``, whose text extends the prompt
with the task's tools, and exposes its public methods as tools. Tool lists
differ per task, so the methods are generic: ``call_tool(name, arguments)``
runs one of the task's tools and ``submit_answer(answer)`` ends the episode.
Paired with :func:`compoworld_reward` in ``reward_funcs``, each rollout's
episode is scored with the group-weighted scheme. With ``discovery=True``
(tool discovery mode) the environment is a :class:`CompoWorldDiscoveryToolEnvironment`
(or :class:`CompoWorldDiscoveryEnvironment`): it also has ``search_tools(query, top_k)``,
over every tool of the world's catalog, ``call_tool`` runs any tool a search
finds, and :meth:`~CompoWorldToolEnvironment.reset` lists no task tools. :class:`CompoWorldEnvironment`
adds ``get_reward()``, which TRL then adds to the rewards by itself: it scores
the episode alone (``binary`` and ``uniform`` exactly, ``completion_focused``
on a group of one, since the weights need the group).
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self, cast

from compoworld.adapters.common import (
    CALL_TOOL,
    SUBMIT_ANSWER,
    ToolListing,
    replay_messages,
    tool_listing,
    tool_text,
    verdict_metrics,
)
from compoworld.agents.chat import ToolCallRequest, parse_tool_calls
from compoworld.agents.discovery import SEARCH_TOOLS, require_discovery
from compoworld.agents.session import DEFAULT_WORLDS, TaskSession, load_task
from compoworld.tasks.criteria import CRITERION_KINDS, Verdict
from compoworld.tasks.rewards import RewardConfig, Scheme, score_batch

__all__ = [
    "CompoWorldDiscoveryEnvironment",
    "CompoWorldDiscoveryToolEnvironment",
    "CompoWorldEnvironment",
    "CompoWorldReward",
    "CompoWorldToolEnvironment",
    "CriterionKindReward",
    "compoworld_reward",
    "criterion_rewards",
]

_CACHE_SIZE = 4096
_cache_lock = threading.Lock()
_verdict_cache: OrderedDict[tuple[str, str, str, bool], list[Verdict]] = OrderedDict()


def _messages(completion: Any) -> list[dict[str, Any]]:
    if isinstance(completion, str):
        return [{"role": "assistant", "content": completion}]
    if isinstance(completion, Mapping):
        return [dict(completion)]
    return [dict(m) for m in completion if isinstance(m, Mapping)]


def _final_prose(messages: Sequence[Mapping[str, Any]]) -> str:
    """The text of the completion's last assistant message when it asks for no call, else empty."""
    last = [m for m in messages if m.get("role", "assistant") == "assistant"]
    if not last:
        return ""
    prose, requests = parse_tool_calls(dict(last[-1]), 0)
    return "" if requests else prose


def _replayed_verdicts(
    task_json: Any, completion: Any, services: Sequence[str] | None, discovery: bool = False
) -> list[Verdict]:
    task = load_task(task_json)
    messages = _messages(completion)
    digest = hashlib.sha256(json.dumps(messages, sort_keys=True, default=str).encode()).hexdigest()
    key = (task.id, task.world_version, digest, discovery)
    with _cache_lock:
        hit = _verdict_cache.get(key)
        if hit is not None:
            _verdict_cache.move_to_end(key)
            return hit
    session = TaskSession(task, services=services, discovery=discovery)
    answer = replay_messages(session, messages)
    verdicts = session.verdicts(answer)
    with _cache_lock:
        _verdict_cache[key] = verdicts
        while len(_verdict_cache) > _CACHE_SIZE:
            _verdict_cache.popitem(last=False)
    return verdicts


def _column(kwargs: Mapping[str, Any], name: str, n: int) -> list[Any]:
    values = kwargs.get(name)
    return list(values) if isinstance(values, Sequence) and not isinstance(values, str) else [None] * n


def _verdicts(
    completions: Sequence[Any], kwargs: Mapping[str, Any], services: Sequence[str] | None
) -> tuple[list[list[Verdict] | None], list[str]]:
    """Per completion its verdicts (None without a task) and its group key."""
    n = len(completions)
    tasks = _column(kwargs, "task", n)
    ids = _column(kwargs, "task_id", n)
    row_services = _column(kwargs, "services", n)
    envs = _column(kwargs, "environments", n)
    played = _column(kwargs, "compoworld_sessions", n)
    modes = _column(kwargs, "discovery", n)
    out: list[list[Verdict] | None] = []
    keys: list[str] = []
    for i, completion in enumerate(completions):
        env, rolled = envs[i], played[i]
        session = env.session if isinstance(env, CompoWorldToolEnvironment) else None
        if isinstance(rolled, TaskSession):  # played by CompoWorldRolloutFunc: its episode is as it ended
            session = rolled
        task_json = tasks[i]
        if session is not None and (task_json is None or load_task(task_json).id == session.task.id):
            if session.answer is not None:
                answer = session.answer
            elif session is rolled:  # its completion text mixes turns and tool results: no answer in it
                answer = ""
            else:
                answer = _final_prose(_messages(completion))
            out.append(session.verdicts(answer))
            keys.append(str(ids[i] or session.task.id))
            continue
        if task_json is None:
            out.append(None)
            keys.append(str(ids[i]))
            continue
        svc = row_services[i] or services
        out.append(_replayed_verdicts(task_json, completion, svc, bool(modes[i])))
        keys.append(str(ids[i] or load_task(task_json).id))
    return out, keys


class CompoWorldReward:
    """A TRL reward function scoring completions on their task's rubric with a reward scheme.

    Args:
        config: The scheme and its parameters (default: ``completion_focused``).
        services: The services of the task set's world (default: each task's own; a
            ``services`` column, when the rows have one, wins).
        log_metrics: Log per-criterion pass rates through TRL's ``log_metric`` and a
            per-completion verdict summary through ``log_extra``.
        name: The name TRL logs the reward under (default ``compoworld_<scheme>``).

    Calling it returns one reward per completion, None for rows without a ``task``.
    Instances pickle (TRL may ship reward functions to other processes).
    """

    def __init__(
        self,
        config: RewardConfig | None = None,
        *,
        services: Sequence[str] | None = None,
        log_metrics: bool = True,
        name: str | None = None,
    ) -> None:
        self.config = config or RewardConfig()
        self.services = list(services) if services else None
        self.log_metrics = log_metrics
        self.__name__ = name or f"compoworld_{self.config.scheme}"

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        """Score a batch of completions.

        Args:
            prompts: The prompts (unused: the task comes from the ``task`` column).
            completions: The completions, conversational or plain text.
            **kwargs: TRL's columns (``task``, ``task_id``, optionally ``services``)
                and extras (``environments``, ``log_metric``, ``log_extra``).
        """
        verdicts, keys = _verdicts(completions, kwargs, self.services)
        batch = score_batch(keys, verdicts, self.config)
        if self.log_metrics:
            self._log(kwargs, verdicts, batch.zero_variance_groups, batch.multi_rollout_groups)
        return batch.rewards

    def _log(
        self,
        kwargs: Mapping[str, Any],
        verdicts: Sequence[list[Verdict] | None],
        zero_variance: int,
        groups: int,
    ) -> None:
        log_metric: Callable[[str, float], None] | None = kwargs.get("log_metric")
        log_extra: Callable[[str, list[Any]], None] | None = kwargs.get("log_extra")
        scored = [m for m in (verdict_metrics(v) for v in verdicts if v is not None)]
        if log_metric is not None and scored:
            sums: dict[str, list[float]] = defaultdict(list)
            for m in scored:
                for k, value in m.items():
                    sums[k].append(value)
            log_metric("compoworld/completion_rate", sum(sums["completion"]) / len(scored))
            log_metric("compoworld/criteria_pass_rate", sum(sums["criteria_pass_rate"]) / len(scored))
            for k, values in sorted(sums.items()):
                if k.startswith("pass_"):
                    log_metric(f"compoworld/pass_rate/{k[5:]}", sum(values) / len(values))
            if groups:
                log_metric("compoworld/zero_variance_group_share", zero_variance / groups)
            stops = [s for s in kwargs.get("compoworld_stops") or [] if s is not None]
            if stops:
                for reason in ("answer", "length", "turn_limit"):
                    log_metric(f"compoworld/stop/{reason}", stops.count(reason) / len(stops))
        if log_extra is not None:
            log_extra(
                "compoworld_failed",
                [
                    None if v is None else " ".join(f"{x.id}:{x.kind}" for x in v if not x.passed) or "-"
                    for v in verdicts
                ],
            )


def compoworld_reward(
    scheme: Scheme = "completion_focused",
    *,
    alpha: float = 1.0,
    epsilon: float = 0.05,
    lam: float = 0.5,
    gating: bool = True,
    services: Sequence[str] | None = None,
    log_metrics: bool = True,
) -> CompoWorldReward:
    """A TRL reward function for a scheme (see :class:`CompoWorldReward` and docs/design.md §6).

    Args:
        scheme: ``binary``, ``uniform`` or ``completion_focused``.
        alpha: Exponent of the failure-prone weight.
        epsilon: Floor of every weight.
        lam: Share of the reward that is completion, λ.
        gating: Gate criteria on their prerequisites.
        services: The services of the task set's world (default: each task's own).
        log_metrics: Log per-criterion pass rates and verdict summaries.

    Example:
        >>> reward = compoworld_reward("completion_focused")  # doctest: +SKIP
        >>> GRPOTrainer(model, reward_funcs=[reward], train_dataset=rows, ...)  # doctest: +SKIP
    """
    config = RewardConfig(scheme=scheme, alpha=alpha, epsilon=epsilon, lam=lam, gating=gating)
    return CompoWorldReward(config, services=services, log_metrics=log_metrics)


class CriterionKindReward:
    """A TRL reward function: the share of a completion's criteria of one kind that pass.

    None for completions whose task has no criterion of that kind (TRL then
    leaves them out of that function's mean). Logged as ``rewards/compoworld_<kind>``.

    Args:
        kind: One of :data:`~compoworld.tasks.criteria.CRITERION_KINDS`.
        services: The services of the task set's world (default: each task's own).
    """

    def __init__(self, kind: str, *, services: Sequence[str] | None = None) -> None:
        self.kind = kind
        self.services = list(services) if services else None
        self.__name__ = f"compoworld_{kind}"

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        """The pass share of this kind per completion (see :class:`CompoWorldReward` for the arguments)."""
        verdicts, _ = _verdicts(completions, kwargs, self.services)
        out: list[float | None] = []
        for vs in verdicts:
            of_kind = [v.passed for v in vs or [] if v.kind == self.kind]
            out.append(sum(of_kind) / len(of_kind) if of_kind else None)
        return out


def criterion_rewards(services: Sequence[str] | None = None) -> list[CriterionKindReward]:
    """One reward function per criterion kind, for per-criterion curves in TRL's logs."""
    return [CriterionKindReward(k, services=services) for k in CRITERION_KINDS]


_DISCOVERY_GUIDE = (
    "\n\nYou act through three functions. `{search}(query, top_k)` searches every tool of the company's "
    "applications by what it does (e.g. 'refund a payment') and returns the best matches with their parameters. "
    "`{call}(name, arguments)` runs one of them: `name` is the exact name a search returned and `arguments` a JSON "
    "object with its parameters. When the request is done, call `{submit}(answer)` once with a short final answer."
)

_GUIDE = (
    "\n\nYou act through two functions. `{call}(name, arguments)` runs one of the tools listed below: `name` is "
    "the tool's exact name and `arguments` a JSON object with its parameters. When the request is done, call "
    "`{submit}(answer)` once with a short final answer.\n\nTools:\n{tools}"
)


class CompoWorldToolEnvironment:
    """A TRL ``environment_factory`` environment without a reward of its own: one task's episode per rollout.

    TRL adds an environment's ``get_reward`` to the rewards by itself (weight
    1); this class has none, so the rewards are exactly ``reward_funcs``: use it
    with :func:`compoworld_reward`, which reads each rollout's episode through
    ``environments=`` and weighs criteria over the group
    (``completion_focused``). :class:`CompoWorldEnvironment` adds ``get_reward``.

    ``GRPOTrainer(..., environment_factory=CompoWorldToolEnvironment)`` works
    as it is; to configure it, pass :meth:`factory`'s result instead. TRL turns
    every public method but ``reset`` and ``get_reward`` into a tool, built
    from the type hints and docstrings: here ``call_tool`` and ``submit_answer``.

    Args:
        reward: The scheme :meth:`CompoWorldEnvironment.get_reward` uses (default:
            ``completion_focused``, on a group of one).
        services: The services of the task set's world (default: each task's own;
            a ``services`` column, when the rows have one, wins).
        tool_listing: How :meth:`reset` lists the tools: JSON schemas (``slim``: types,
            enums and first sentences; ``compact``; ``full``), or ``signature``: one
            line per tool, the shortest (a small model on a CPU pays for every prompt token).
        discovery: Tool discovery mode: the environment made is the class's discovery
            variant (:class:`CompoWorldDiscoveryToolEnvironment` for this class), whose
            tools are ``search_tools``, ``call_tool`` and ``submit_answer`` (TRL lists an
            environment's tools from its class, so the mode needs a class of its own).

    Raises:
        DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """An instance of the class, or of its discovery variant when ``discovery=True``."""
        target: type[Any] = cls
        if kwargs.get("discovery") and not issubclass(cls, _SearchTools):
            target = _discovery_variant(cls)
        return cast(Self, object.__new__(target))

    def __init__(
        self,
        reward: RewardConfig | None = None,
        *,
        services: Sequence[str] | None = None,
        tool_listing: ToolListing = "slim",
        discovery: bool = False,
    ) -> None:
        self.discovery = discovery or isinstance(self, _SearchTools)
        if self.discovery:
            require_discovery()
        self.reward_config = reward or RewardConfig()
        self.services = list(services) if services else None
        self.tool_listing: ToolListing = tool_listing
        self.session: TaskSession | None = None

    @classmethod
    def factory(
        cls,
        reward: RewardConfig | None = None,
        *,
        services: Sequence[str] | None = None,
        tool_listing: ToolListing = "slim",
        discovery: bool = False,
    ) -> Callable[[], Self]:
        """A no-argument factory for ``environment_factory`` with these settings."""
        return functools.partial(cls, reward, services=services, tool_listing=tool_listing, discovery=discovery)

    def reset(self, **kwargs: Any) -> str | None:
        """Start an episode of the row's task; return the text that extends the prompt.

        Args:
            **kwargs: The dataset row: ``task`` (the task JSON) is required,
                ``services`` optional; other columns are ignored.

        Raises:
            ValueError: when the row has no ``task`` (export rows with ``rl_rows(..., "trl")``).
        """
        task = kwargs.get("task")
        if task is None:
            raise ValueError(
                "the row has no `task` column: export the task set with `compoworld export rl --format trl`"
            )
        services = kwargs.get("services") or self.services
        self.session = TaskSession(task, services=services, worlds=DEFAULT_WORLDS, discovery=self.discovery)
        if self.discovery:
            return _DISCOVERY_GUIDE.format(search=SEARCH_TOOLS, call=CALL_TOOL, submit=SUBMIT_ANSWER)
        tools = tool_listing(self.session, self.tool_listing)
        return _GUIDE.format(call=CALL_TOOL, submit=SUBMIT_ANSWER, tools=tools)

    def call_tool(self, name: str, arguments: str = "{}") -> str:
        """Call one of the tools listed for this task.

        Args:
            name: The tool's exact name, e.g. crm__search_contacts.
            arguments: The tool's arguments as a JSON object, e.g. {"email": "ana@example.com"}.

        Returns:
            The tool's result as JSON, or an error with a hint on what to do instead.
        """
        if self.session is None:
            return json.dumps({"error": {"type": "rule_violation", "message": "no episode: reset first"}})
        raw: Any = arguments
        request_id = f"call_{self.session.calls}"
        if self.discovery:  # the session's own call_tool: any tool of the catalog
            outcome = self.session.call(CALL_TOOL, {"name": name, "arguments": raw}, call_id=request_id)
        else:
            outcome = self.session.call(str(name), raw, call_id=request_id)
        return tool_text(ToolCallRequest(request_id, str(name), ""), outcome)

    def submit_answer(self, answer: str) -> str:
        """Finish the task with a final answer; call it once, when the request is done.

        Args:
            answer: A short final answer that states what you found or did.

        Returns:
            A confirmation, or an error if an answer was already submitted.
        """
        if self.session is None:
            return json.dumps({"error": {"type": "rule_violation", "message": "no episode: reset first"}})
        if not self.session.submit(str(answer)):
            return json.dumps({"error": {"type": "rule_violation", "message": "an answer was already submitted"}})
        return json.dumps({"ok": True, "message": "answer recorded; the episode is over"})


class CompoWorldEnvironment(CompoWorldToolEnvironment):
    """A TRL ``environment_factory`` environment that also scores its episode (``get_reward``).

    TRL calls ``get_reward()`` once per finished rollout and adds it to the
    rewards (weight 1, logged under this class's name). It scores the episode
    alone: ``binary`` and ``uniform`` exactly, ``completion_focused`` on a group
    of one, since its weights need the group (for those, use
    :class:`CompoWorldToolEnvironment` with :func:`compoworld_reward`). Only an
    answer given through ``submit_answer`` counts as the final answer here;
    the reward functions also read a final answer written as plain text.
    """

    def get_reward(self) -> float:
        """The episode's reward with the configured scheme, on this rollout alone (0.0 before any reset)."""
        if self.session is None:
            return 0.0
        return self.session.reward(self.reward_config)


class _SearchTools(CompoWorldToolEnvironment):
    """What the discovery variants add (TRL lists a class's public methods as tools): ``search_tools``."""

    def call_tool(self, name: str, arguments: str = "{}") -> str:
        """Call a tool that search_tools found, by its exact name.

        Args:
            name: The tool's exact name, as search_tools returned it, e.g. crm__search_contacts.
            arguments: The tool's arguments as a JSON object, e.g. {"email": "ana@example.com"}.

        Returns:
            The tool's result as JSON, or an error with a hint on what to do instead.
        """
        return super().call_tool(name, arguments)

    def search_tools(self, query: str, top_k: int = 5) -> str:
        """Search every tool of the company's applications by what it does; returns the best matches.

        Args:
            query: What you want to do, in words, e.g. refund a payment or find a contact by e-mail address.
            top_k: How many tools to return (1 to 20).

        Returns:
            The matching tools as JSON: each one's exact name, description and parameters.
        """
        if self.session is None:
            return json.dumps({"error": {"type": "rule_violation", "message": "no episode: reset first"}})
        request_id = f"call_{self.session.calls}"
        outcome = self.session.call(SEARCH_TOOLS, {"query": query, "top_k": top_k}, call_id=request_id)
        return tool_text(ToolCallRequest(request_id, SEARCH_TOOLS, ""), outcome)


class CompoWorldDiscoveryToolEnvironment(_SearchTools, CompoWorldToolEnvironment):
    """:class:`CompoWorldToolEnvironment` in tool discovery mode: ``search_tools``, ``call_tool``, ``submit_answer``.

    Made by ``CompoWorldToolEnvironment(discovery=True)`` or
    ``CompoWorldToolEnvironment.factory(discovery=True)``, or directly.
    """


class CompoWorldDiscoveryEnvironment(_SearchTools, CompoWorldEnvironment):
    """:class:`CompoWorldEnvironment` (with ``get_reward``) in tool discovery mode."""


_DISCOVERY_VARIANTS: dict[type[Any], type[Any]] = {
    CompoWorldToolEnvironment: CompoWorldDiscoveryToolEnvironment,
    CompoWorldEnvironment: CompoWorldDiscoveryEnvironment,
}
_variants_lock = threading.Lock()


def _discovery_variant(cls: type[Any]) -> type[Any]:
    """The discovery variant of an environment class (made once for a user's subclass)."""
    with _variants_lock:
        variant = _DISCOVERY_VARIANTS.get(cls)
        if variant is None:
            variant = _DISCOVERY_VARIANTS[cls] = type(
                f"{cls.__name__}Discovery", (_SearchTools, cls), {"__module__": cls.__module__}
            )
        return variant
