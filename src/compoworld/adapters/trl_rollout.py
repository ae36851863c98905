"""TRL adapter, second path: a ``rollout_func`` that gives each task its own tools (TRL 1.16).

The ``environment_factory`` path (:mod:`compoworld.adapters.trl`) exposes the
same two functions for every task, since TRL builds one tool list from the
environment's methods. :class:`CompoWorldRolloutFunc` is the path for when
the tool list must differ per task: every prompt is rendered with its task's
own tools in the OpenAI format, as the SFT export renders them, so a model
sees the same conversations in SFT and RL. It plays whole episodes with the
trainer's model: it generates a turn, runs the turn's tool calls on a
:class:`~compoworld.agents.session.TaskSession`, appends the results in the
chat template's format and generates again, until the model answers without
a call, the turn limit or the completion budget (``max_completion_length``).

It returns what ``GRPOTrainer`` asks of a rollout function: ``prompt_ids``,
``completion_ids`` (the model's tokens and the tool results between them),
``logprobs`` (None: TRL recomputes them), ``env_mask`` (1 for the model's
tokens, 0 for tool results, so only the model's own tokens are trained) and
``compoworld_sessions``, each rollout's finished session, and ``compoworld_stops``,
why it ended, which TRL passes on to the reward functions: :func:`compoworld.adapters.trl.compoworld_reward`
and :func:`~compoworld.adapters.trl.criterion_rewards` score it as played.

With ``discovery=True`` every prompt is rendered with the discovery mode's two
meta-tools instead (``search_tools`` over every tool of the world's catalog,
and ``call_tool``), and the episodes run in that mode.

The prompts carry no task id, so the task of each prompt is found by its
user message, the task's instruction: build the function from the same
tasks as the dataset. It generates with the trainer's own model and
``generation_config`` (plain ``transformers`` generation, one process per
device); it does not drive vLLM.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compoworld.adapters.common import take_turn
from compoworld.agents.chat import ToolDetail, tool_message
from compoworld.agents.discovery import require_discovery
from compoworld.agents.session import DEFAULT_WORLDS, TaskSession, WorldCache, load_task
from compoworld.tasks.task import Task

__all__ = ["CompoWorldRolloutFunc", "RolloutEpisode"]


@dataclass(slots=True)
class RolloutEpisode:
    """One rollout being played: its session, conversation and tokens.

    Attributes:
        session: The task's episode.
        tools: The task's tools in the OpenAI format, as rendered in the prompt.
        prompt_ids: The rendered prompt's tokens.
        completion_ids: The model's tokens and the tool results' tokens after the prompt.
        env_mask: Per completion token, 1 if the model wrote it, 0 if a tool result.
        turns: Assistant turns generated.
        stop: Why it ended: ``answer``, ``turn_limit``, ``length`` (budget spent), or None while running.
    """

    session: TaskSession
    tools: list[dict[str, Any]]
    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    turns: int = 0
    stop: str | None = None


def _instruction(prompt: Sequence[Mapping[str, Any]] | str) -> str:
    if isinstance(prompt, str):
        return prompt
    users = [m.get("content") for m in prompt if m.get("role") == "user"]
    if not users or not isinstance(users[0], str):
        raise ValueError("a prompt without a user message: expected the rows of `compoworld export rl --format trl`")
    return users[0]


class CompoWorldRolloutFunc:
    """A ``GRPOTrainer`` ``rollout_func`` playing each task's episode with the task's own tools.

    Args:
        tasks: The dataset's tasks (:class:`~compoworld.tasks.task.Task`, their JSON,
            or TRL rows with a ``task`` column).
        services: The services of the task set's world (default: the rows' ``services``
            column, else each task's own).
        max_turns: Most assistant turns per episode.
        tool_detail: How much of each tool's schema the prompt shows (``slim`` keeps
            types, enums and first sentences; ``full``; ``compact``).
        worlds: Where worlds come from (default: the process's shared cache).
        discovery: Tool discovery mode: the prompts show ``search_tools`` and ``call_tool``
            instead of each task's tools.
        max_turn_tokens: Most tokens one assistant turn may take (None: what is left of the budget). A
            turn still unfinished then ends the episode as ``length``: a CPU pays for every token of a
            rambling turn, and a tool call takes a few dozen.

    Raises:
        ValueError: when two different tasks share an instruction (their prompts
            could not be told apart).
        DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.

    Example:
        >>> rollout = CompoWorldRolloutFunc([row["task"] for row in rows])  # doctest: +SKIP
        >>> GRPOTrainer(model, reward_funcs=[compoworld_reward()], rollout_func=rollout, ...)  # doctest: +SKIP
    """

    def __init__(
        self,
        tasks: Iterable[Task | str | bytes | Mapping[str, Any]],
        *,
        services: Sequence[str] | None = None,
        max_turns: int = 8,
        tool_detail: ToolDetail = "slim",
        worlds: WorldCache | None = None,
        discovery: bool = False,
        max_turn_tokens: int | None = None,
    ) -> None:
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}")
        if max_turn_tokens is not None and max_turn_tokens < 1:
            raise ValueError(f"max_turn_tokens must be at least 1, got {max_turn_tokens}")
        self.max_turn_tokens = max_turn_tokens
        if discovery:
            require_discovery()
        self.discovery = discovery
        self.services = list(services) if services else None
        self.max_turns = max_turns
        self.tool_detail: ToolDetail = tool_detail
        self.worlds = worlds or DEFAULT_WORLDS
        self.tasks: dict[str, Task] = {}
        self.row_services: dict[str, list[str]] = {}
        for item in tasks:
            raw = item.get("task", item) if isinstance(item, Mapping) else item
            task = load_task(raw)
            if isinstance(item, Mapping) and item.get("services"):
                self.row_services[task.id] = list(item["services"])
            known = self.tasks.setdefault(task.instruction, task)
            if known.id != task.id:
                raise ValueError(f"tasks {known.id} and {task.id} share an instruction; prompts cannot tell them apart")

    def task_for(self, prompt: Sequence[Mapping[str, Any]] | str) -> Task:
        """The task a prompt asks for.

        Raises:
            KeyError: when no task given to this function has the prompt's instruction.
        """
        text = _instruction(prompt)
        try:
            return self.tasks[text]
        except KeyError:
            raise KeyError(
                f"no task has the instruction {text[:80]!r}: build the rollout function from the dataset's tasks"
            ) from None

    def start(self, prompt: Sequence[Mapping[str, Any]] | str, tokenizer: Any) -> RolloutEpisode:
        """A fresh episode of the prompt's task, its prompt rendered with the task's tools (or the meta-tools)."""
        task = self.task_for(prompt)
        services = self.services or self.row_services.get(task.id)
        session = TaskSession(task, services=services, worlds=self.worlds, discovery=self.discovery)
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else [dict(m) for m in prompt]
        tools = session.tool_specs(self.tool_detail)
        ids = _render(tokenizer, messages, tools, add_generation_prompt=True)
        text = tokenizer.decode(ids)
        missing = [t["function"]["name"] for t in tools if t["function"]["name"] not in text]
        if missing:
            raise ValueError(
                f"the chat template does not render the tools ({', '.join(missing[:3])} missing): use a tool-aware "
                "template, e.g. the one compoworld.agents.hf.prepare_smollm2 stores (compoworld.agents.hf.TOOL_CHAT_TEMPLATE)"
            )
        return RolloutEpisode(session, tools, ids)

    def __call__(self, prompts: Sequence[Any], trainer: Any) -> dict[str, Any]:
        """Play one episode per prompt with the trainer's model.

        Args:
            prompts: This process's prompts, one per completion to produce
                (TRL has already repeated each prompt ``num_generations`` times).
            trainer: The ``GRPOTrainer``: its model, tokenizer, ``generation_config``
                and ``max_completion_length`` are used.

        Returns:
            ``prompt_ids``, ``completion_ids``, ``logprobs`` (None), ``env_mask``,
            ``compoworld_sessions`` and ``compoworld_stops`` (why each episode
            ended), one entry per prompt.
        """
        tokenizer = getattr(trainer.processing_class, "tokenizer", trainer.processing_class)
        config = getattr(trainer, "generation_config", None)
        if config is None:
            raise ValueError("CompoWorldRolloutFunc generates with the trainer's model: turn use_vllm off")
        budget = int(trainer.max_completion_length)
        eos = set(trainer.eos_token_ids)
        episodes = [self.start(p, tokenizer) for p in prompts]
        model = trainer.accelerator.unwrap_model(trainer.model)
        active = list(episodes)
        while active:
            inputs = [e.prompt_ids + e.completion_ids for e in active]
            room = [budget - len(e.completion_ids) for e in active]
            if self.max_turn_tokens is not None:
                room = [min(r, self.max_turn_tokens) for r in room]
            outputs = _generate(model, tokenizer, config, inputs, room)
            running = []
            for episode, new in zip(active, outputs, strict=True):
                if self._advance(episode, new, eos, tokenizer, budget):
                    running.append(episode)
            active = running
        return {
            "prompt_ids": [e.prompt_ids for e in episodes],
            "completion_ids": [e.completion_ids for e in episodes],
            "logprobs": None,
            "env_mask": [e.env_mask for e in episodes],
            "compoworld_sessions": [e.session for e in episodes],
            "compoworld_stops": [e.stop for e in episodes],
        }

    def _advance(self, episode: RolloutEpisode, new: list[int], eos: set[int], tokenizer: Any, budget: int) -> bool:
        """Take the generated turn into the episode; True while the episode goes on."""
        cut = next((i + 1 for i, t in enumerate(new) if t in eos), None)
        ended = cut is not None
        new = new[:cut] if cut is not None else new
        episode.completion_ids += new
        episode.env_mask += [1] * len(new)
        text = tokenizer.decode([t for t in new if t not in eos], skip_special_tokens=False)
        outcome = take_turn(episode.session, {"role": "assistant", "content": text}, episode.turns)
        episode.turns += 1
        if outcome.answer is not None:
            episode.stop = "answer" if ended else "length"
            return False
        if not ended or len(episode.completion_ids) >= budget:
            episode.stop = "length"
            return False
        if episode.turns >= self.max_turns:
            episode.stop = "turn_limit"
            return False
        results = [tool_message(request, result) for request, result in outcome.calls]
        suffix = _tool_suffix(tokenizer, results, episode.tools)
        if len(episode.completion_ids) + len(suffix) >= budget:
            episode.stop = "length"
            return False
        episode.completion_ids += suffix
        episode.env_mask += [0] * len(suffix)
        return True


def _render(tokenizer: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> list[int]:
    out = tokenizer.apply_chat_template(messages, tools=tools or None, tokenize=True, return_dict=False, **kwargs)
    return [int(t) for t in out]


def _tool_suffix(tokenizer: Any, results: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[int]:
    """The tokens a chat template puts after an assistant turn that ended in EOS.

    They are the tool results, then the next assistant header, rendered on a small conversation: the
    template must render a conversation's start the same whatever follows it.
    """
    call = {"type": "function", "function": {"name": results[0]["name"] if results else "tool", "arguments": {}}}
    head: list[dict[str, Any]] = [
        {"role": "user", "content": "-"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
    ]
    prefix = _render(tokenizer, head, tools)
    full = _render(tokenizer, head + results, tools, add_generation_prompt=True)
    eos_at = [i for i, t in enumerate(prefix) if t == tokenizer.eos_token_id]
    if eos_at:
        prefix = prefix[: eos_at[-1] + 1]
    if full[: len(prefix)] != prefix:
        raise ValueError("the chat template does not preserve prefixes: tool results cannot be appended token-wise")
    return full[len(prefix) :]


def _generate(model: Any, tokenizer: Any, config: Any, inputs: list[list[int]], room: list[int]) -> list[list[int]]:
    """One turn for each sequence: left-padded batch generation, at most ``room`` new tokens each."""
    import torch

    width = max(len(ids) for ids in inputs)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    input_ids = torch.tensor([[pad] * (width - len(ids)) + ids for ids in inputs])
    attention = torch.tensor([[0] * (width - len(ids)) + [1] * len(ids) for ids in inputs])
    turn_config = copy.deepcopy(config)
    turn_config.max_new_tokens = max(1, max(room))
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            out = model.generate(
                input_ids=input_ids.to(device), attention_mask=attention.to(device), generation_config=turn_config
            )
    finally:
        model.train(was_training)
    return [row[width:].tolist()[: max(1, r)] for row, r in zip(out, room, strict=True)]
