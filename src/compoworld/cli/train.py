"""The training commands: ``train sft``, ``train grpo``, ``eval`` (and ``eval bfcl``) and ``experiment``.

Every hyper-parameter is an option; ``--preset`` fills in those not given (see
:mod:`compoworld.train.presets`). They need the ``train`` extra; ``eval bfcl`` needs the ``bfcl`` one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from pydantic import BaseModel, ValidationError
from rich.markup import escape

from compoworld.cli.common import (
    ExecutorOpt,
    RayAddressOpt,
    WorkersOpt,
    console,
    err,
    make_executor,
    print_json,
)

__all__ = ["eval_app", "experiment", "train_app"]

train_app = typer.Typer(help="Train models on CompoWorld data: SFT and GRPO (TRL).", no_args_is_help=True)
eval_app = typer.Typer(
    help="Evaluate a policy: on a task set (--policy, --tasks, --out), or on BFCL (eval bfcl).",
    invoke_without_command=True,
)

PresetOpt = Annotated[str, typer.Option("--preset", help="cpu-small or gpu: fills in every option not given.")]
OutOpt = Annotated[Path, typer.Option("--out", help="Run directory (resumed if it holds the same run).")]
S = TypeVar("S", bound=BaseModel)


def _settings(preset_name: str, part: str, **given: Any) -> Any:
    """The preset's settings for ``part`` with the options given on the command line (not None) put over them."""
    from compoworld.train.presets import preset

    try:
        base: BaseModel = getattr(preset(preset_name), part)
        return base.model_validate(base.model_dump() | {k: v for k, v in given.items() if v is not None})
    except (ValueError, ValidationError) as exc:
        err.print(f"[red]bad settings:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def _fail(what: str, exc: BaseException, code: int = 1) -> typer.Exit:
    err.print(f"[red]{what}:[/red] {escape(str(exc))}", soft_wrap=True)
    return typer.Exit(code)


@train_app.command("sft")
def train_sft_cmd(
    data: Annotated[Path, typer.Option("--data", help="The SFT export: a directory from `export sft`, or its file.")],
    out: OutOpt,
    model: Annotated[str, typer.Option("--model", help="smollm2 or hf:<checkpoint dir>.")] = "smollm2",
    preset_name: PresetOpt = "cpu-small",
    epochs: Annotated[float | None, typer.Option(help="Passes over the data.")] = None,
    max_steps: Annotated[int | None, typer.Option(help="Optimizer steps (wins over --epochs when positive).")] = None,
    samples: Annotated[int | None, typer.Option(help="Train on the first N rows only.")] = None,
    batch_size: Annotated[int | None, typer.Option(help="Rows per forward pass.")] = None,
    grad_accum: Annotated[int | None, typer.Option(help="Forward passes per optimizer step.")] = None,
    learning_rate: Annotated[float | None, typer.Option(help="Peak learning rate.")] = None,
    warmup_ratio: Annotated[float | None, typer.Option(help="Share of steps warming up.")] = None,
    max_length: Annotated[int | None, typer.Option(help="Tokens per row (longer rows are cut at the end).")] = None,
    save_steps: Annotated[int | None, typer.Option(help="Steps between checkpoints.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed.")] = None,
    use_cpu: Annotated[bool | None, typer.Option("--use-cpu/--no-use-cpu", help="Train on the CPU.")] = None,
    bf16: Annotated[bool | None, typer.Option("--bf16/--no-bf16", help="Train in bfloat16.")] = None,
) -> None:
    """Fine-tune a model on SFT rows (TRL SFTTrainer, loss on assistant tokens); OUT/model loads as hf:OUT/model."""
    from compoworld.train.sft import train_sft

    settings = _settings(
        preset_name,
        "sft",
        epochs=epochs,
        max_steps=max_steps,
        samples=samples,
        batch_size=batch_size,
        grad_accum=grad_accum,
        learning_rate=learning_rate,
        warmup_ratio=warmup_ratio,
        max_length=max_length,
        save_steps=save_steps,
        seed=seed,
        use_cpu=use_cpu,
        bf16=bf16,
    )
    try:
        summary = train_sft(data, model, out, settings)
    except (FileNotFoundError, ValueError, ImportError) as exc:
        raise _fail("train sft", exc) from exc
    print_json(summary)


@train_app.command("grpo")
def train_grpo_cmd(
    tasks: Annotated[Path, typer.Option("--tasks", help="A tasks.jsonl file.")],
    out: OutOpt,
    init: Annotated[
        str, typer.Option("--init", help="The starting model: smollm2 or hf:<checkpoint dir>.")
    ] = "smollm2",
    scheme: Annotated[
        str, typer.Option("--scheme", help="completion_focused, uniform or binary.")
    ] = "completion_focused",
    preset_name: PresetOpt = "cpu-small",
    limit: Annotated[int | None, typer.Option("--limit", help="Use only the first N tasks.")] = None,
    steps: Annotated[int | None, typer.Option(help="Optimizer steps.")] = None,
    prompts_per_step: Annotated[int | None, typer.Option(help="Tasks per step.")] = None,
    num_generations: Annotated[int | None, typer.Option(help="Rollouts per task (the group).")] = None,
    max_completion_length: Annotated[int | None, typer.Option(help="Tokens per episode after the prompt.")] = None,
    max_turns: Annotated[int | None, typer.Option(help="Assistant turns per episode.")] = None,
    max_turn_tokens: Annotated[int | None, typer.Option(help="Tokens per assistant turn.")] = None,
    learning_rate: Annotated[float | None, typer.Option(help="Learning rate.")] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    beta: Annotated[float | None, typer.Option(help="KL penalty towards the initial model.")] = None,
    save_steps: Annotated[int | None, typer.Option(help="Steps between checkpoints.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed.")] = None,
    use_cpu: Annotated[bool | None, typer.Option("--use-cpu/--no-use-cpu", help="Train on the CPU.")] = None,
    bf16: Annotated[bool | None, typer.Option("--bf16/--no-bf16", help="Train in bfloat16.")] = None,
) -> None:
    """Train a model with GRPO on tasks, each episode played whole and rewarded on its rubric with SCHEME."""
    from compoworld.train.grpo import train_grpo

    settings = _settings(
        preset_name,
        "grpo",
        steps=steps,
        prompts_per_step=prompts_per_step,
        num_generations=num_generations,
        max_completion_length=max_completion_length,
        max_turns=max_turns,
        max_turn_tokens=max_turn_tokens,
        learning_rate=learning_rate,
        temperature=temperature,
        beta=beta,
        save_steps=save_steps,
        seed=seed,
        use_cpu=use_cpu,
        bf16=bf16,
    )
    try:
        summary = train_grpo(tasks, init, out, settings, scheme=scheme, limit=limit)
    except (FileNotFoundError, ValueError, ImportError) as exc:
        raise _fail("train grpo", exc) from exc
    print_json(summary)


@eval_app.callback()
def eval_cmd(
    ctx: typer.Context,
    policy: Annotated[
        str | None, typer.Option("--policy", help="oracle, random, openai, smollm2 or hf:<checkpoint dir>.")
    ] = None,
    tasks: Annotated[Path | None, typer.Option("--tasks", help="A tasks.jsonl file.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Run directory (resumed if it holds the same run).")] = None,
    preset_name: PresetOpt = "cpu-small",
    limit: Annotated[int | None, typer.Option("--limit", help="Use only the first N tasks.")] = None,
    max_turns: Annotated[int | None, typer.Option(help="Assistant turns per episode.")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Most tokens per model turn.")] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature (default 0: greedy).")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes of in-process models.")] = None,
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
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole summary as JSON.")] = False,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    ray_workers: WorkersOpt = 2,
) -> None:
    """Evaluate a policy on a task set: completion and criteria with 95 % intervals, by pattern and length.

    OUT is a run directory `compoworld report` reads too; the summary is in OUT/eval.json. With --executor ray
    the episodes are played by Ray actors, as `compoworld rollout --executor ray` plays them.
    """
    if ctx.invoked_subcommand is not None:
        return
    if policy is None or tasks is None or out is None:
        err.print("[red]eval needs --policy, --tasks and --out[/red] (or a subcommand: eval bfcl)")
        raise typer.Exit(2)
    from compoworld.train.evaluate import evaluate

    settings = _settings(
        preset_name, "eval", max_turns=max_turns, max_tokens=max_tokens, temperature=temperature, workers=workers
    )
    pool = make_executor(executor, ray_address, ray_workers)
    try:
        summary = evaluate(
            policy,
            tasks,
            out,
            settings,
            limit=limit,
            seed=seed,
            base_url=base_url,
            model=model,
            api_key=api_key,
            executor=pool,
        )
    except (FileNotFoundError, ValueError, ImportError, RuntimeError) as exc:
        raise _fail("eval", exc, 2 if isinstance(exc, ValueError | ImportError) else 1) from exc
    finally:
        if pool is not None:
            pool.close()
    if as_json:
        print_json(summary)
        return
    _print_summary(summary)


def _print_summary(summary: dict[str, Any]) -> None:
    from rich.table import Table

    def cell(rate: dict[str, Any]) -> str:
        low, high = rate["ci95"]
        return f"{100 * rate['rate']:.1f} % [{100 * low:.0f}–{100 * high:.0f}] ({rate['passed']}/{rate['total']})"

    table = Table(title=f"{summary['policy']} on {summary['tasks']} tasks")
    table.add_column("")
    table.add_column("completion [95 % CI]")
    table.add_row("all", cell(summary["completion"]))
    table.add_row("criteria passed", cell(summary["criteria"]))
    table.add_row("  must (the work asked)", cell(summary["must"]))
    table.add_row("  must not (left alone)", cell(summary["must_not"]))
    for k, v in summary["by_pattern"].items():
        table.add_row(f"pattern {k}", cell(v))
    for k, v in summary["by_length"].items():
        table.add_row(f"{k} calls", cell(v))
    console.print(table)
    console.print(f"stops: {summary['stops']}; call errors: {summary['call_errors'] or 'none'}")


@eval_app.command("bfcl")
def eval_bfcl_cmd(
    policy: Annotated[str, typer.Option("--policy", help="oracle, openai, smollm2 or hf:<checkpoint dir>.")],
    out: OutOpt,
    categories: Annotated[
        list[str] | None, typer.Option("--categories", help="BFCL categories (repeatable; default: the preset's).")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Items per category.")] = None,
    preset_name: PresetOpt = "cpu-small",
    max_tokens: Annotated[int | None, typer.Option(help="Most tokens per model turn.")] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", envvar="COMPOWORLD_AGENT_BASE_URL", help="openai: endpoint URL.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", envvar="COMPOWORLD_AGENT_MODEL", help="openai: model.")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option("--api-key", envvar="COMPOWORLD_AGENT_API_KEY", help="openai: key.")
    ] = None,
) -> None:
    """Evaluate a policy on BFCL with BFCL's own data and checkers (the `bfcl` extra)."""
    from compoworld.agents.factory import make_policy
    from compoworld.train.bfcl import run_bfcl
    from compoworld.train.presets import preset

    chosen = preset(preset_name)
    try:
        agent = make_policy(
            policy,
            base_url=base_url,
            model=model,
            api_key=api_key,
            temperature=0.0,
            max_tokens=max_tokens or chosen.eval.max_tokens,
        )
        summary = run_bfcl(
            agent,
            categories or list(chosen.experiment.bfcl_categories),
            limit=limit or chosen.experiment.bfcl_items,
            out=out,
        )
    except (FileNotFoundError, ValueError, ImportError) as exc:
        raise _fail("eval bfcl", exc, 2) from exc
    print_json(summary.model_dump(mode="json"))


def experiment(
    out: Annotated[Path, typer.Option("--out", help="Experiment directory (resumed).")] = Path("out/experiment"),
    preset_name: PresetOpt = "cpu-small",
    bfcl: Annotated[bool, typer.Option("--bfcl/--no-bfcl", help="Evaluate on the BFCL subset too.")] = True,
) -> None:
    """Base → SFT → GRPO with each scheme from one SFT checkpoint; evaluate on held-out tasks and BFCL.

    Writes OUT/results.md and OUT/results.json (one table) and plots; every stage resumes.
    """
    from compoworld.train.experiment import run_experiment
    from compoworld.train.presets import preset

    try:
        chosen = preset(preset_name)
    except ValueError as exc:
        raise _fail("experiment", exc, 2) from exc
    try:
        run_experiment(out, chosen, console=console, bfcl=bfcl)
    except (FileNotFoundError, ValueError, ImportError, RuntimeError) as exc:
        raise _fail("experiment", exc) from exc
