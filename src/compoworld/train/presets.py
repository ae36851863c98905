"""Hyper-parameters of ``compoworld train`` and ``compoworld experiment``, and their presets.

Every value is a command-line option; a preset fills in the ones not given. ``cpu-small`` is sized for
SmolLM2-135M on two CPU cores (measured: about 60 trained tokens/s, an SFT step of 4 rows of 2,048
tokens in about 100 s, a GRPO step of 4 episodes in about 150 s): short tasks (three or four calls, no
distractor tools, slim tool schemas), 16 SFT rows, 2 GRPO steps per scheme, 10 held-out tasks; the whole
experiment took 71 minutes here. ``gpu`` is the same recipe at a scale a single GPU should train in
about an hour (an estimate: it has not been run).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["PRESETS", "EvalSettings", "ExperimentSettings", "GRPOSettings", "Preset", "SFTSettings", "preset"]


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SFTSettings(_Settings):
    """Supervised fine-tuning (TRL ``SFTTrainer``, loss on the assistant's tokens only).

    Attributes:
        epochs: Passes over the data.
        max_steps: Optimizer steps; when positive it wins over ``epochs``.
        samples: Train on the first N rows only (None: every row).
        batch_size: Rows per device per forward pass.
        grad_accum: Forward passes per optimizer step.
        learning_rate: Peak learning rate.
        warmup_ratio: Share of the steps warming the learning rate up.
        max_length: Tokens per row; longer conversations are cut at the end.
        save_steps: Steps between checkpoints (what a resume starts from).
        seed: Shuffling and initialisation seed.
        use_cpu: Train on the CPU even when an accelerator is there.
        bf16: Train in bfloat16 (GPUs).
    """

    epochs: float = 2.0
    max_steps: int = -1
    samples: int | None = None
    batch_size: int = 1
    grad_accum: int = 4
    learning_rate: float = 1e-4
    warmup_ratio: float = 0.1
    max_length: int = 2048
    save_steps: int = 2
    seed: int = 0
    use_cpu: bool = True
    bf16: bool = False


class GRPOSettings(_Settings):
    """Group-relative policy optimisation (TRL ``GRPOTrainer`` through the task rollout function).

    Attributes:
        steps: Optimizer steps.
        prompts_per_step: Tasks per step (each played ``num_generations`` times).
        num_generations: Rollouts per task: the group whose rewards are compared.
        max_completion_length: Tokens an episode may hold after its prompt (model turns and tool results).
        max_turns: Assistant turns per episode.
        max_turn_tokens: Most tokens one assistant turn may take (a turn still unfinished ends the episode);
            SmolLM2's tool calls on the CPU preset's tasks take 57 tokens at the median, 120 at most.
        learning_rate: Learning rate.
        temperature: Sampling temperature of the rollouts.
        beta: KL penalty towards the initial model (0: none, and no reference model is kept).
        save_steps: Steps between checkpoints.
        seed: Seed.
        use_cpu: Train on the CPU even when an accelerator is there.
        bf16: Train in bfloat16 (GPUs).
    """

    steps: int = 2
    prompts_per_step: int = 1
    num_generations: int = 4
    max_completion_length: int = 320
    max_turns: int = 4
    max_turn_tokens: int = 128
    learning_rate: float = 5e-6
    temperature: float = 1.0
    beta: float = 0.0
    save_steps: int = 2
    seed: int = 0
    use_cpu: bool = True
    bf16: bool = False


class EvalSettings(_Settings):
    """Evaluating a policy on tasks.

    Attributes:
        max_turns: Assistant turns per episode.
        max_tokens: Most tokens per model turn.
        temperature: Sampling temperature (0: greedy, the evaluation default).
        workers: Worker processes of in-process models.
    """

    max_turns: int = 6
    max_tokens: int = 128
    temperature: float = 0.0
    workers: int = 1


class ExperimentSettings(_Settings):
    """Sizes of ``compoworld experiment``.

    Attributes:
        train_tasks: Training tasks (their oracle trajectories are the SFT set; the GRPO tasks follow them).
        grpo_tasks: Training tasks GRPO draws its prompts from.
        eval_tasks: Held-out evaluation tasks.
        min_length: Fewest calls per task.
        max_length: Most calls per task.
        distractors: Tools shown beyond the solution's.
        bfcl_categories: BFCL categories evaluated.
        bfcl_items: Items per BFCL category.
        seed: Synthesis and run seed.
    """

    train_tasks: int = 16
    grpo_tasks: int = 8
    eval_tasks: int = 10
    min_length: int = 3
    max_length: int = 4
    distractors: int = 0
    bfcl_categories: tuple[str, ...] = ("simple_python", "multiple", "parallel", "irrelevance")
    bfcl_items: int = 5
    seed: int = 0


class Preset(_Settings):
    """A named set of all the settings.

    Attributes:
        name: The preset's name.
        sft: Supervised fine-tuning.
        grpo: GRPO.
        eval: Evaluation.
        experiment: The experiment's sizes.
    """

    name: str
    sft: SFTSettings = Field(default_factory=SFTSettings)
    grpo: GRPOSettings = Field(default_factory=GRPOSettings)
    eval: EvalSettings = Field(default_factory=EvalSettings)
    experiment: ExperimentSettings = Field(default_factory=ExperimentSettings)


PresetName = Literal["cpu-small", "gpu"]

PRESETS: dict[str, Preset] = {
    "cpu-small": Preset(name="cpu-small"),
    "gpu": Preset(
        name="gpu",
        sft=SFTSettings(
            epochs=3,
            batch_size=4,
            grad_accum=2,
            learning_rate=2e-5,
            max_length=8192,
            save_steps=50,
            use_cpu=False,
            bf16=True,
        ),
        grpo=GRPOSettings(
            steps=100,
            prompts_per_step=8,
            num_generations=8,
            max_completion_length=4096,
            max_turns=16,
            max_turn_tokens=512,
            learning_rate=1e-6,
            save_steps=25,
            use_cpu=False,
            bf16=True,
        ),
        eval=EvalSettings(max_turns=30, max_tokens=512, workers=4),
        experiment=ExperimentSettings(
            train_tasks=1000, grpo_tasks=300, eval_tasks=200, min_length=3, max_length=10, distractors=8, bfcl_items=200
        ),
    ),
}
"""The presets by name."""


def preset(name: str) -> Preset:
    """The preset called ``name``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; use {' or '.join(PRESETS)}") from None
