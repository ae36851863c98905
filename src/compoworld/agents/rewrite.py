"""Optional LLM rewrite of task instructions, re-checked by the validity gates.

The template instruction is exact but stiff. An OpenAI-compatible endpoint may
rephrase it as a colleague would; the rewrite is kept only if it still states
every given fact and literal verbatim and passes every validity gate (so it
names nothing the agent must discover). Otherwise the template stays.
"""

from __future__ import annotations

import json
from typing import Any

from compoworld.agents.llm import openai_client
from compoworld.tasks.gates import validate_task
from compoworld.tasks.task import Task
from compoworld.world.world import World

__all__ = ["InstructionRewriter", "stated_values"]

_PROMPT = (
    "Rewrite the numbered task below as one natural request that a colleague would write to an assistant "
    "who can use the named apps. Keep the order of the work. Keep every quoted value and number exactly as "
    "written. Do not add ids, names, e-mail addresses or any other value that is not in the task. "
    "Answer with the request only."
)


def stated_values(task: Task) -> list[str]:
    """The values an instruction must state verbatim: givens and literals, as text."""
    out = []
    for step in task.solution:
        for name, prov in step.provenance.items():
            if prov.get("kind") in ("given", "literal"):
                value = step.arguments[name]
                if isinstance(value, str | int | float) and not isinstance(value, bool):
                    out.append(str(value))
    return out


class InstructionRewriter:
    """Rephrases instructions through an OpenAI-compatible endpoint.

    Args:
        base_url: The endpoint (``http://host:port/v1``).
        model: The model name.
        api_key: The key (default: ``COMPOWORLD_LLM_API_KEY``, then ``OPENAI_API_KEY``).
        timeout_s: Timeout of one request.
        max_attempts: Requests per instruction before keeping the template.
    """

    def __init__(
        self, base_url: str, model: str, *, api_key: str | None = None, timeout_s: float = 30.0, max_attempts: int = 2
    ) -> None:
        self._client, base_error = openai_client(base_url, api_key, timeout_s, "instruction rewriting")
        self._errors: tuple[type[Exception], ...] = (base_error,)
        self.model = model
        self.max_attempts = max(1, max_attempts)
        self.accepted = 0
        self.refused = 0

    def _ask(self, instruction: str, problem: str) -> str | None:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": _PROMPT},
            {"role": "user", "content": instruction},
        ]
        if problem:
            messages.append({"role": "user", "content": f"That rewrite was refused: {problem}. Try again."})
        request: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": 0.7}
        try:
            response = self._client.chat.completions.create(**request)
        except self._errors:
            return None
        content = response.choices[0].message.content
        return content.strip() if content else None

    def rewrite(self, world: World, task: Task) -> Task:
        """Return the task with a rewritten instruction, or unchanged if no rewrite holds.

        Args:
            world: The task's world (the gates run in it).
            task: The task with its template instruction.

        Returns:
            The task; ``metadata["instruction"]`` says ``llm`` or ``template``.
        """
        must = stated_values(task)
        problem = ""
        for _ in range(self.max_attempts):
            text = self._ask(task.instruction, problem)
            if not text:
                break
            missing = [v for v in must if v not in text]
            if missing:
                problem = f"it leaves out {json.dumps(missing[:5])}"
                continue
            candidate = task.model_copy(
                update={"instruction": text, "metadata": task.metadata | {"instruction": "llm"}}
            )
            reason = validate_task(world, candidate)
            if reason is None:
                self.accepted += 1
                return candidate
            problem = f"it fails the {reason} gate (it must not state values the assistant has to find out)"
        self.refused += 1
        return task.model_copy(update={"metadata": task.metadata | {"instruction": "template"}})
