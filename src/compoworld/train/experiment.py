"""``compoworld experiment``: does the data teach? base → SFT → GRPO × 3 schemes, on held-out tasks and BFCL.

Stages, each resumable, so a rerun after an interruption carries on where it stopped:

1. synthesize a training split and a held-out evaluation split (:mod:`compoworld.tasks.split`: apart
   by seed stream and by a held-out set of services);
2. roll the oracle out on the first training tasks and export its trajectories as the SFT set;
3. fine-tune the base model on them (``train sft``);
4. from that one SFT checkpoint, train GRPO with each reward scheme for the same number of steps on
   the remaining training tasks (``train grpo``);
5. evaluate base, SFT and the three GRPO models on the held-out tasks (``eval``), with 95 % intervals;
6. evaluate base and the best of the others on a BFCL subset, with BFCL's own data and checkers;
7. write ``results.md`` and ``results.json`` (one table) and plots: completion with intervals,
   GRPO reward curves, and the share of groups whose rewards were all equal, per scheme.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from compoworld.engine.jsonl import write_json_atomic
from compoworld.tasks.rewards import SCHEMES
from compoworld.tasks.split import Split
from compoworld.tasks.synthesis import SynthConfig
from compoworld.tasks.taskset import synthesize, write_subset
from compoworld.tasks.walk import WalkConfig
from compoworld.train.evaluate import evaluate
from compoworld.train.export import export_sft
from compoworld.train.grpo import train_grpo
from compoworld.train.logs import read_metrics
from compoworld.train.presets import Preset
from compoworld.train.report import save_plot
from compoworld.train.sft import train_sft

__all__ = ["run_experiment"]

BASE = "smollm2"
T = TypeVar("T")


class _Clock:
    """Wall time per stage, kept across resumes in ``times.json``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.times: dict[str, float] = json.loads(path.read_text()) if path.exists() else {}

    def run(self, stage: str, work: Callable[[], T]) -> T:
        started = time.perf_counter()
        result = work()
        self.times[stage] = round(self.times.get(stage, 0.0) + time.perf_counter() - started, 1)
        write_json_atomic(self.path, self.times)
        return result


def _synthesize(root: Path, preset: Preset, console: Console) -> tuple[Path, Path, Path]:
    """The SFT, GRPO and held-out task files."""
    x = preset.experiment
    walk = WalkConfig(min_length=x.min_length, max_length=x.max_length)
    config = SynthConfig(walk=walk, distractors=x.distractors)
    made = {}
    for name, count in (("train", x.train_tasks + x.grpo_tasks), ("eval", x.eval_tasks)):
        split = Split.make(name, None)
        stats = synthesize(root / "tasks" / name, count=count, seed=x.seed, config=config, split=split)
        if stats["kept"] < count:
            raise RuntimeError(f"the {name} split kept {stats['kept']} of {count} tasks; see {root / 'tasks' / name}")
        made[name] = stats
    held = made["eval"]["holdout"]
    console.print(
        f"   {x.train_tasks + x.grpo_tasks} training and {x.eval_tasks} held-out tasks; held out: {', '.join(held)}"
    )
    sft = write_subset(root / "tasks" / "train", root / "tasks" / "sft", start=0, count=x.train_tasks)
    grpo = write_subset(root / "tasks" / "train", root / "tasks" / "grpo", start=x.train_tasks, count=x.grpo_tasks)
    return sft, grpo, root / "tasks" / "eval" / "tasks.jsonl"


def _sft_data(root: Path, tasks: Path) -> Path:
    from compoworld.agents.policies import OraclePolicy
    from compoworld.agents.rollout import RolloutConfig, run_rollouts

    run_rollouts(tasks, OraclePolicy(), root / "oracle", RolloutConfig())
    # Slim tool schemas: the prompts a small model's context holds, as the in-process policy shows them.
    export_sft([root / "oracle"], root / "data", tool_detail="slim")
    return root / "data"


def _best(results: dict[str, dict[str, Any]]) -> str:
    """The trained model with the highest held-out completion, ties broken by criteria passed."""
    trained = {k: v for k, v in results.items() if k != "base"}
    return max(trained, key=lambda k: (trained[k]["completion"]["rate"], trained[k]["criteria"]["rate"]))


def run_experiment(out: Path, preset: Preset, *, console: Console, bfcl: bool = True) -> dict[str, Any]:
    """Run the whole experiment into ``out`` (resumable) and return its results.

    Args:
        out: The experiment directory.
        preset: Every setting (see :data:`compoworld.train.presets.PRESETS`).
        console: Where progress goes.
        bfcl: Evaluate on the BFCL subset too (needs the ``bfcl`` extra).

    Returns:
        What ``results.json`` holds: the table rows, the trainings' summaries, the stage times.
    """
    out.mkdir(parents=True, exist_ok=True)
    clock = _Clock(out / "times.json")
    console.print(f"[bold]1. synthesizing the training and held-out splits[/bold] into {out / 'tasks'}")
    sft_tasks, grpo_tasks, eval_tasks = clock.run("synthesis", lambda: _synthesize(out, preset, console))
    console.print("[bold]2. the oracle's trajectories as the SFT set[/bold]")
    data = clock.run("sft_data", lambda: _sft_data(out, sft_tasks))
    console.print("[bold]3. supervised fine-tuning[/bold]")
    trainings: dict[str, dict[str, Any]] = {
        "sft": clock.run("sft", lambda: train_sft(data, BASE, out / "sft", preset.sft))
    }
    models = {"base": BASE, "sft": f"hf:{out / 'sft' / 'model'}"}
    for i, scheme in enumerate(SCHEMES, start=1):
        console.print(f"[bold]4.{i} GRPO, {scheme}[/bold], {preset.grpo.steps} steps from the SFT model")
        run = out / f"grpo-{scheme}"
        trainings[f"grpo-{scheme}"] = clock.run(
            f"grpo-{scheme}",
            partial(train_grpo, grpo_tasks, models["sft"], run, preset.grpo, scheme=scheme),
        )
        models[f"grpo-{scheme}"] = f"hf:{run / 'model'}"
    results: dict[str, dict[str, Any]] = {}
    for name, model in models.items():
        console.print(f"[bold]5. evaluating {name}[/bold] on the held-out tasks")
        results[name] = clock.run(
            f"eval-{name}", partial(evaluate, model, eval_tasks, out / "eval" / name, preset.eval)
        )
        c = results[name]["completion"]
        console.print(
            f"   completion {c['passed']}/{c['total']}, criteria {100 * results[name]['criteria']['rate']:.1f} %"
        )
    bfcl_results: dict[str, dict[str, Any]] = {}
    if bfcl:
        best = _best(results)
        for name in ("base", best):
            console.print(f"[bold]6. BFCL subset[/bold]: {name}")
            bfcl_results[name] = clock.run(f"bfcl-{name}", partial(_bfcl, models[name], out / "bfcl" / name, preset))
    total_s = round(sum(clock.times.values()), 1)
    summary: dict[str, Any] = {
        "preset": preset.model_dump(),
        "held_out": results,
        "bfcl": bfcl_results,
        "trainings": trainings,
        "times_s": clock.times,
        "total_s": total_s,
    }
    console.print(f"[bold]7. the table and plots[/bold] in {out}")
    write_json_atomic(out / "results.json", summary)
    (out / "results.md").write_text(results_markdown(summary))
    _plots(out, summary)
    console.print(f"\n[bold green]done[/bold green] in {total_s / 60:.1f} min: {out / 'results.md'}")
    return summary


def _bfcl(model: str, out: Path, preset: Preset) -> dict[str, Any]:
    from compoworld.agents.factory import make_policy
    from compoworld.train.bfcl import run_bfcl

    x = preset.experiment
    policy = make_policy(model, temperature=0.0, max_tokens=preset.eval.max_tokens)
    return run_bfcl(policy, x.bfcl_categories, limit=x.bfcl_items, out=out).model_dump(mode="json")


def _pct(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{100 * rate['rate']:.1f} % [{100 * low:.0f}–{100 * high:.0f}] ({rate['passed']}/{rate['total']})"


def _bfcl_cell(score: dict[str, Any]) -> str:
    if score["accuracy"] is None:
        return "–"
    low, high = score["ci95"]
    return f"{100 * score['accuracy']:.0f} % [{100 * low:.0f}–{100 * high:.0f}] ({score['correct']}/{score['scored']})"


def _training(t: dict[str, Any]) -> str:
    size = f"{t['rows']} rows" if t["kind"] == "sft" else f"{t['episodes']} episodes"
    return f"{size}, {t['steps']} steps, {t['seconds'] / 60:.1f} min"


def results_markdown(summary: dict[str, Any]) -> str:
    """The experiment's table as Markdown."""
    lines = [
        "# Experiment: base → SFT → GRPO × 3 schemes",
        "",
        f"Preset `{summary['preset']['name']}`; total wall time {summary['total_s'] / 60:.1f} min.",
        "",
        "| model | held-out completion [95 % CI] | must criteria [95 % CI] | must-not criteria | episodes with a call | stops | training |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in summary["held_out"].items():
        t = summary["trainings"].get(name)
        training = "" if t is None else _training(t)
        stops = ", ".join(f"{k} {v}" for k, v in r["stops"].items())
        lines.append(
            f"| {name} | {_pct(r['completion'])} | {_pct(r['must'])} | {_pct(r['must_not'])} "
            f"| {r['episodes_with_a_call']}/{r['episodes']} | {stops} | {training} |"
        )
    if summary["bfcl"]:
        lines += ["", "## BFCL subset (BFCL's own data and checkers)", ""]
        categories = list(next(iter(summary["bfcl"].values()))["categories"])
        lines += [f"| model | {' | '.join(categories)} | all |", "|---|" + "---|" * (len(categories) + 1)]
        for name, b in summary["bfcl"].items():
            cells = [_bfcl_cell(b["categories"][c]) for c in categories] + [_bfcl_cell(b["pooled"])]
            lines.append(f"| {name} | {' | '.join(cells)} |")
    lines += ["", "## Stage times (s)", "", *(f"- {k}: {v}" for k, v in summary["times_s"].items()), ""]
    return "\n".join(lines)


def _plots(out: Path, summary: dict[str, Any]) -> None:
    names = list(summary["held_out"])

    def completion(ax: Any) -> None:
        for offset, key in ((-0.2, "completion"), (0.2, "must")):
            rates = [summary["held_out"][n][key] for n in names]
            values = [r["rate"] for r in rates]
            errors = [
                [v - r["ci95"][0] for v, r in zip(values, rates, strict=True)],
                [r["ci95"][1] - v for v, r in zip(values, rates, strict=True)],
            ]
            label = "completion" if key == "completion" else "must criteria"
            ax.bar([i + offset for i in range(len(names))], values, width=0.4, yerr=errors, capsize=3, label=label)
        ax.set_xticks(range(len(names)), names)
        ax.set_ylim(0, 1)
        ax.set_ylabel("held-out rate (95 % CI)")
        ax.legend(fontsize=8)

    def rewards(ax: Any) -> None:
        for scheme in SCHEMES:
            steps = [m for m in read_metrics(out / f"grpo-{scheme}") if "loss" in m]
            ax.plot([m["step"] for m in steps], [m.get("reward", 0.0) for m in steps], marker="o", label=scheme)
        ax.set_xlabel("GRPO step")
        ax.set_ylabel("mean reward")
        ax.legend(fontsize=8)

    def zero_variance(ax: Any) -> None:
        shares = [summary["trainings"][f"grpo-{s}"].get("zero_variance_share") or 0.0 for s in SCHEMES]
        ax.bar(list(SCHEMES), shares)
        ax.set_ylim(0, 1)
        ax.set_ylabel("groups with equal rewards")

    save_plot(out / "completion.png", completion)
    save_plot(out / "rewards.png", rewards)
    save_plot(out / "zero_variance.png", zero_variance, width=5.5)
