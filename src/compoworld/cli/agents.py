"""The agent commands: ``rollout``, ``score``, ``report`` and ``demo``.

They run policies on task sets, score and compare the runs, and chain every
step into the main job.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from compoworld.cli.common import (
    ExecutorOpt,
    RayAddressOpt,
    SkipBadLinesOpt,
    WorkersOpt,
    console,
    err,
    file_errors,
    make_executor,
)

if TYPE_CHECKING:
    from compoworld.agents.policies import Policy
    from compoworld.agents.rollout import RolloutConfig, RunResult
    from compoworld.tasks.parallel import Executor

__all__ = ["demo", "report", "rollout", "score"]


def rollout(
    tasks: Annotated[Path, typer.Option("--tasks", help="A tasks.jsonl file.")],
    policy: Annotated[
        str, typer.Option("--policy", help="oracle, oracle-hermes, random, openai, smollm2 or hf:<checkpoint dir>.")
    ],
    out: Annotated[Path, typer.Option("--out", help="Run directory (resumed if it holds the same run).")],
    group_size: Annotated[int, typer.Option("--group-size", min=1, help="Rollouts per task.")] = 1,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Episodes in flight at once.")] = 8,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes of in-process models.")] = 1,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1, help="Assistant turns per episode.")] = 50,
    turn_timeout: Annotated[float, typer.Option("--turn-timeout", help="Seconds per policy turn.")] = 300.0,
    limit: Annotated[int | None, typer.Option("--limit", help="Use only the first N tasks.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Run seed.")] = 0,
    base_url: Annotated[
        str | None, typer.Option("--base-url", envvar="COMPOWORLD_AGENT_BASE_URL", help="openai: endpoint URL.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", envvar="COMPOWORLD_AGENT_MODEL", help="openai: model.")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option("--api-key", envvar="COMPOWORLD_AGENT_API_KEY", help="openai: key.")
    ] = None,
    temperature: Annotated[float, typer.Option("--temperature", help="Sampling temperature of models.")] = 0.7,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", help="Most tokens per model turn.")] = None,
    skip_bad_lines: SkipBadLinesOpt = False,
    discovery: Annotated[
        bool,
        typer.Option(
            "--discovery", help="Tool discovery mode: give the agent search_tools and call_tool, not the task's tools."
        ),
    ] = False,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    ray_workers: WorkersOpt = 2,
) -> None:
    """Roll out a policy on every task, GROUP_SIZE times each, into OUT/trajectories.jsonl (resumable).

    A resume keeps every valid line and repairs only a torn last line; a damaged line stops it (exit 1)
    unless --skip-bad-lines moves it to OUT/trajectories.jsonl.bad and runs its episode again.

    With --executor ray, each Ray actor loads the tasks' worlds and the policy once and runs CONCURRENCY
    episodes at a time; a lost actor's episodes run on another, and each (task, rollout) is written once.
    """
    from compoworld.agents.factory import make_policy
    from compoworld.agents.rollout import RolloutConfig

    if discovery:
        from compoworld.agents.discovery import require_discovery

        try:
            require_discovery()
        except ImportError as exc:
            err.print(f"[red]--discovery:[/red] {escape(str(exc))}")
            raise typer.Exit(2) from exc
    try:
        agent = make_policy(
            policy,
            base_url=base_url,
            model=model,
            api_key=api_key,
            temperature=temperature,
            max_tokens=max_tokens,
            workers=workers,
        )
    except (ValueError, FileNotFoundError, ImportError) as exc:
        err.print(f"[red]cannot make policy {escape(repr(policy))}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    config = RolloutConfig(
        group_size=group_size,
        concurrency=concurrency,
        max_turns=max_turns,
        turn_timeout_s=turn_timeout,
        seed=seed,
        discovery=discovery,
    )
    spec = {
        "spec": policy,
        "base_url": base_url,
        "model": model,
        "api_key": api_key,
        "temperature": temperature,
        "max_tokens": max_tokens,
        "workers": workers,
    }
    pool = make_executor(executor, ray_address, ray_workers)
    try:
        result = _run_with_progress(tasks, agent, out, config, limit, skip_bad_lines, pool, spec)
    finally:
        if pool is not None:
            pool.close()
    _report_rollout(result)


def _run_with_progress(
    tasks: Path,
    agent: Policy,
    out: Path,
    config: RolloutConfig,
    limit: int | None,
    skip_bad_lines: bool,
    executor: Executor | None = None,
    policy_spec: dict[str, Any] | None = None,
) -> RunResult:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from compoworld.agents.rollout import run_rollouts

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        job = bar.add_task(f"rollout {agent.name}", total=None)
        try:
            with file_errors("--skip-bad-lines"):
                return run_rollouts(
                    tasks,
                    agent,
                    out,
                    config,
                    limit=limit,
                    progress=lambda n: bar.advance(job, n),
                    on_start=lambda total, done: bar.update(job, total=total, completed=done),
                    skip_bad_lines=skip_bad_lines,
                    executor=executor,
                    policy_spec=policy_spec,
                )
        except (ValueError, FileNotFoundError) as exc:
            err.print(f"[red]rollout failed:[/red] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(2) from exc


def _report_rollout(result: RunResult) -> None:
    if result.skipped_lines:
        err.print(
            f"[yellow]moved {result.skipped_lines} damaged line(s) to {escape(str(result.bad_lines_file))}; "
            "their episodes are run again[/yellow]",
            soft_wrap=True,
        )
    console.print(
        f"{result.done_now} new trajectories ({result.done_before} already there, {result.total} in all) "
        f"in {result.out} in {result.elapsed_s:.1f} s"
    )
    if result.failures:
        for task_id, r, why in result.failures[:5]:
            err.print(f"[red]not run[/red] {task_id} #{r}: {escape(str(why))}")
        err.print(f"[red]{len(result.failures)} episodes could not run; run the same command again to retry them[/red]")
        raise typer.Exit(1)
    if not result.complete:
        err.print("[red]the run stopped early; run the same command again to finish it[/red]")
        raise typer.Exit(1)


def score(
    run: Annotated[Path, typer.Argument(help="A run directory written by `compoworld rollout`.")],
    scheme: Annotated[str, typer.Option("--scheme", help="binary, uniform or completion_focused.")] = "binary",
    alpha: Annotated[float, typer.Option("--alpha", help="completion_focused: weight exponent α.")] = 1.0,
    epsilon: Annotated[float, typer.Option("--epsilon", help="completion_focused: weight floor ε.")] = 0.05,
    lam: Annotated[float, typer.Option("--lam", help="completion_focused: completion share λ.")] = 0.5,
    gating: Annotated[bool, typer.Option("--gating/--no-gating", help="completion_focused: gate on the DAG.")] = True,
    advantage: Annotated[str, typer.Option("--advantage", help="grpo or dr_grpo.")] = "grpo",
    out: Annotated[Path | None, typer.Option("--out", help="Write per-trajectory rewards here (JSONL).")] = None,
    per_criterion: Annotated[bool, typer.Option("--per-criterion", help="Include every task's criteria.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    ray_workers: WorkersOpt = 2,
) -> None:
    """Score every trajectory of a run against its task's criteria and print the summary.

    With --executor ray, shards of task groups are scored by Ray actors; the summary and rows are the same.
    """
    from compoworld.tasks.rewards import RewardConfig
    from compoworld.train.scoring import score_run

    try:
        config = RewardConfig(
            scheme=scheme,  # type: ignore[arg-type]  # checked by RewardConfig
            alpha=alpha,
            epsilon=epsilon,
            lam=lam,
            gating=gating,
            advantage=advantage,  # type: ignore[arg-type]
        )
        pool = make_executor(executor, ray_address, ray_workers)
        try:
            summary = score_run(run, config, out, executor=pool)
        finally:
            if pool is not None:
                pool.close()
    except typer.Exit:
        raise
    except (ValueError, FileNotFoundError, RuntimeError) as exc:  # RuntimeError: Ray workers that keep dying
        err.print(f"[red]score failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    if not per_criterion:
        summary.pop("per_criterion")
    if as_json:
        print(json.dumps(summary, indent=1, sort_keys=True))
        return
    for key in ("trajectories", "tasks", "completion_rate", "mean_reward", "zero_variance_group_share"):
        console.print(f"{key}: {summary[key]}")
    console.print(f"criterion pass rates: {summary['criterion_pass_rates']}")


def report(
    runs: Annotated[list[Path], typer.Argument(help="Run directories (or one directory holding runs).")],
    out: Annotated[Path | None, typer.Option("--out", help="Where to write (default: the first directory).")] = None,
) -> None:
    """Write report.md, report.html and PNG plots comparing the runs."""
    from compoworld.train.report import write_report

    try:
        paths = write_report(runs, out)
    except (ValueError, FileNotFoundError, ImportError) as exc:
        err.print(f"[red]report failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    console.print("report: " + ", ".join(str(p) for p in paths))


def demo(
    preset: Annotated[str, typer.Option("--preset", help="small (minutes) or paper (3,000 SFT / 1,000 RL).")] = "small",
    out: Annotated[Path, typer.Option("--out", help="Output directory (resumed if it holds a run).")] = Path(
        "out/demo"
    ),
    smollm2: Annotated[
        bool | None, typer.Option("--smollm2/--no-smollm2", help="Roll out SmolLM2 too (default: when installed).")
    ] = None,
) -> None:
    """The main job: synthesize tasks, roll out oracle, random (and SmolLM2), score, export SFT and RL sets, report."""
    from compoworld.train.pipeline import PRESETS, run_main_job

    if preset not in PRESETS:
        err.print(f"[red]unknown preset {escape(repr(preset))}[/red]; use one of {', '.join(PRESETS)}")
        raise typer.Exit(2)
    try:
        run_main_job(out, PRESETS[preset], console=console, smollm2=smollm2)
    except (RuntimeError, ValueError, FileNotFoundError, ImportError) as exc:
        err.print(f"[red]demo failed:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
