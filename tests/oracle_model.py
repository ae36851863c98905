"""A scripted stand-in for a causal LM that writes the oracle's turns, for rollout-function tests.

It generates token ids exactly as ``model.generate`` returns them (prompt, then the new tokens, right-padded),
so a rollout function or a trainer cannot tell it from a model that solves every task.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from compoworld.agents.policies import oracle_message
from compoworld.tasks.task import Task

__all__ = ["OracleModel", "trainer_for"]


class OracleModel:
    """Generates the oracle's next turn as Hermes text, found from the instruction and the turns so far.

    ``message(task, turn)`` writes another script's turns instead (an assistant message with Hermes text).
    """

    def __init__(
        self,
        tokenizer: Any,
        tasks: list[Task],
        *,
        suffix: str = "<|im_end|>",
        message: Callable[[Task, int], dict[str, Any]] | None = None,
    ) -> None:
        import torch

        self.torch = torch
        self.tok = tokenizer
        self.tasks = tasks
        self.suffix = suffix
        self.message = message or (lambda task, turn: oracle_message(task, turn, hermes=True))
        self.training = True
        self.weight = torch.zeros(1)
        self.calls = 0

    def parameters(self) -> Any:
        yield self.weight

    def eval(self) -> OracleModel:
        self.training = False
        return self

    def train(self, mode: bool = True) -> OracleModel:
        self.training = mode
        return self

    def generate(self, input_ids: Any, attention_mask: Any, generation_config: Any) -> Any:
        assert not self.training, "generation runs in eval mode"
        self.calls += 1
        rows = []
        for ids, mask in zip(input_ids, attention_mask, strict=True):
            text = self.tok.decode(ids[mask.bool()])
            task = next(t for t in self.tasks if t.instruction in text)
            turn = text.count("<|im_start|>assistant") - 1
            content = str(self.message(task, turn)["content"]) + self.suffix
            new = self.tok(content, add_special_tokens=False)["input_ids"][: generation_config.max_new_tokens]
            rows.append(ids.tolist() + new)
        width = max(len(r) for r in rows)
        return self.torch.tensor([r + [self.tok.pad_token_id] * (width - len(r)) for r in rows])


def trainer_for(tokenizer: Any, model: Any, budget: int, accelerator: Any = None) -> Any:
    """The parts of a GRPOTrainer a rollout function reads, around ``model``."""
    from transformers import GenerationConfig

    return SimpleNamespace(
        processing_class=tokenizer,
        model=model,
        generation_config=GenerationConfig(max_new_tokens=budget, do_sample=False),
        max_completion_length=budget,
        eos_token_ids=[tokenizer.convert_tokens_to_ids("<|im_end|>")],
        accelerator=accelerator or SimpleNamespace(unwrap_model=lambda m: m),
    )
