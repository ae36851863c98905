"""Reports over rollout runs: Markdown and HTML with PNG plots (the ``report`` extra: matplotlib).

For each run (one policy on a task set): completion and criterion pass rates
overall, by walk length, by number of services and by service; where in the
chain agents fail (the solution step of the first failed criterion); reward
distributions under the completion-focused scheme; error types of calls;
turns and tokens.
"""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compoworld.agents.rollout import TRAJECTORIES, Trajectory, read_trajectories
from compoworld.tasks.rewards import RewardConfig
from compoworld.train.scoring import score_trajectories

__all__ = ["RunStats", "find_runs", "run_stats", "save_plot", "write_report"]


def find_runs(paths: Sequence[str | Path]) -> list[Path]:
    """Run directories among ``paths``: each one that holds trajectories, else its sub-directories that do.

    Raises:
        FileNotFoundError: when no run is found.
    """
    runs: list[Path] = []
    for p in map(Path, paths):
        if (p / TRAJECTORIES).exists():
            runs.append(p)
        elif p.is_dir():
            runs += sorted(d for d in p.iterdir() if (d / TRAJECTORIES).exists())
    if not runs:
        raise FileNotFoundError(f"no run directory (with {TRAJECTORIES}) in {', '.join(map(str, paths))}")
    return runs


@dataclass(slots=True)
class RunStats:
    """What a report shows of one run."""

    name: str
    policy: str
    trajectories: int
    tasks: int
    completion_rate: float
    criterion_pass_rate: float
    by_length: dict[int, tuple[int, int]]
    by_services: dict[int, tuple[int, int]]
    by_service: dict[str, tuple[int, int]]
    by_pattern: dict[str, tuple[int, int]]
    criterion_by_kind: dict[str, float]
    first_failure: Counter[str]
    rewards: list[float]
    zero_variance_share: float
    errors: Counter[str]
    stops: Counter[str]
    turns: list[int]
    tokens: list[int]


def _rate(pair: tuple[int, int]) -> float:
    return pair[0] / pair[1] if pair[1] else 0.0


def run_stats(name: str, trajectories: list[Trajectory]) -> RunStats:
    """Aggregate one run's trajectories for the report."""
    by_length: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_services: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_service: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_pattern: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    errors: Counter[str] = Counter()
    first: Counter[str] = Counter()
    for t in trajectories:
        ok = int(t.success)
        for key, table in (
            (int(t.metadata.get("length", 0)), by_length),
            (len(t.metadata.get("services", [])), by_services),
        ):
            table[key][0] += ok
            table[key][1] += 1
        for svc in t.metadata.get("services", []):
            by_service[svc][0] += ok
            by_service[svc][1] += 1
        # A task with several patterns counts under each; one without any under "none".
        for pattern in t.metadata.get("patterns") or ["none"]:
            by_pattern[str(pattern)][0] += ok
            by_pattern[str(pattern)][1] += 1
        for c in t.calls:
            if not c.ok:
                errors[str((c.error or {}).get("type", "unknown"))] += 1
        if not t.success:
            first[_first_failed_position(t)] += 1
    scored = score_trajectories(trajectories, RewardConfig(scheme="completion_focused"))
    summary = scored["summary"]
    return RunStats(
        name=name,
        policy=trajectories[0].policy if trajectories else "?",
        trajectories=len(trajectories),
        tasks=summary["tasks"],
        completion_rate=summary["completion_rate"],
        criterion_pass_rate=summary["criterion_pass_rate"],
        by_length={k: (v[0], v[1]) for k, v in sorted(by_length.items())},
        by_services={k: (v[0], v[1]) for k, v in sorted(by_services.items())},
        by_service={k: (v[0], v[1]) for k, v in sorted(by_service.items())},
        by_pattern={k: (v[0], v[1]) for k, v in sorted(by_pattern.items())},
        criterion_by_kind=summary["criterion_pass_rates"],
        first_failure=first,
        rewards=[r["reward"] for r in scored["rows"]],
        zero_variance_share=summary["zero_variance_group_share"],
        errors=errors,
        stops=Counter(t.stop for t in trajectories),
        turns=[t.turns for t in trajectories],
        tokens=[
            (t.prompt_tokens or 0) + (t.completion_tokens or 0) for t in trajectories if t.prompt_tokens is not None
        ],
    )


def _first_failed_position(t: Trajectory) -> str:
    """The position in the chain of the first failed criterion: ``step N`` (1-based), ``answer`` or ``collateral``."""
    for v in t.verdicts:
        if v.passed:
            continue
        if v.kind == "answer":
            return "answer"
        if v.kind == "no_collateral":
            return "collateral"
        step = _criterion_step(v.id, t)
        return f"step {step}" if step is not None else v.kind
    return "none"


def _criterion_step(criterion_id: str, t: Trajectory) -> int | None:
    ordered = [v.id for v in t.verdicts if v.kind in ("state", "transition")]
    return ordered.index(criterion_id) + 1 if criterion_id in ordered else None


def save_plot(path: Path, draw: Callable[[Any], None], *, width: float = 8.5, height: float = 3.6) -> Path:
    """Draw one matplotlib chart with ``draw(ax)`` and save it as a PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height), dpi=110)
    draw(ax)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _grouped_bars(ax: Any, runs: list[RunStats], keys: list[Any], value: Callable[[RunStats, Any], float]) -> None:
    width = 0.8 / max(1, len(runs))
    for i, r in enumerate(runs):
        xs = [j + i * width for j in range(len(keys))]
        ax.bar(xs, [value(r, k) for k in keys], width=width, label=r.name)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(keys))], [str(k) for k in keys])
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _plots(runs: list[RunStats], out: Path) -> dict[str, Path]:
    plots: dict[str, Path] = {}

    def overall(ax: Any) -> None:
        _grouped_bars(
            ax,
            runs,
            ["completion", "criteria"],
            lambda r, k: r.completion_rate if k == "completion" else r.criterion_pass_rate,
        )
        ax.set_ylim(0, 1.05)
        ax.set_title("Completion and criterion pass rate")

    plots["overall"] = save_plot(out / "overall.png", overall)

    for attr, title, fname in (
        ("by_length", "Completion rate by walk length (steps)", "by_length.png"),
        ("by_services", "Completion rate by number of services", "by_services.png"),
        ("by_pattern", "Completion rate by difficulty pattern", "by_pattern.png"),
    ):
        keys = sorted({k for r in runs for k in getattr(r, attr)})

        def draw(ax: Any, attr: str = attr, keys: list[Any] = keys, title: str = title) -> None:
            def value(run: RunStats, key: Any) -> float:
                return _rate(getattr(run, attr).get(key, (0, 0)))

            _grouped_bars(ax, runs, keys, value)
            ax.set_ylim(0, 1.05)
            ax.set_title(title)

        plots[attr] = save_plot(out / fname, draw)

    services = sorted({k for r in runs for k in r.by_service})

    def by_service(ax: Any) -> None:
        height = 0.8 / max(1, len(runs))
        for i, r in enumerate(runs):
            ys = [j + i * height for j in range(len(services))]
            ax.barh(ys, [_rate(r.by_service.get(s, (0, 0))) for s in services], height=height, label=r.name)
        ax.set_yticks([j + 0.4 - height / 2 for j in range(len(services))], services, fontsize=7)
        ax.set_xlim(0, 1.05)
        ax.set_title("Completion rate of tasks involving each service")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    plots["by_service"] = save_plot(out / "by_service.png", by_service, height=max(3.6, 0.22 * len(services) + 1))

    positions = sorted({k for r in runs for k in r.first_failure}, key=_position_order)

    def first(ax: Any) -> None:
        _grouped_bars(ax, runs, positions, lambda r, k: r.first_failure.get(k, 0) / max(1, r.trajectories))
        ax.set_title("Where the chain breaks: first failed criterion (share of trajectories)")

    plots["first_failure"] = save_plot(out / "first_failure.png", first)

    def rewards(ax: Any) -> None:
        for r in runs:
            ax.hist(r.rewards, bins=20, range=(0, 1), alpha=0.5, label=r.name)
        ax.set_title("Reward distribution (completion_focused)")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    plots["rewards"] = save_plot(out / "rewards.png", rewards)

    kinds = sorted({k for r in runs for k in r.errors})

    def errors(ax: Any) -> None:
        _grouped_bars(ax, runs, kinds, lambda r, k: r.errors.get(k, 0) / max(1, r.trajectories))
        ax.set_title("Failed calls per trajectory, by error type")

    plots["errors"] = save_plot(out / "errors.png", errors)

    def turns(ax: Any) -> None:
        top = max((max(r.turns) for r in runs if r.turns), default=1)
        for r in runs:
            ax.hist(r.turns, bins=range(1, top + 2), alpha=0.5, label=r.name, align="left")
        ax.set_title("Turns per trajectory")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    plots["turns"] = save_plot(out / "turns.png", turns)
    return plots


def _position_order(key: str) -> tuple[int, int]:
    if key.startswith("step "):
        return 0, int(key.split()[1])
    return 1, {"answer": 0, "collateral": 1}.get(key, 2)


def _table(header: list[str], rows: list[list[Any]]) -> tuple[str, str]:
    md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    md += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return "\n".join(md), f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def write_report(paths: Sequence[str | Path], out: str | Path | None = None) -> list[Path]:
    """Write ``report.md``, ``report.html`` and the PNG plots for the runs under ``paths``.

    Args:
        paths: Run directories, or directories holding runs.
        out: Output directory (default: the first of ``paths``).

    Returns:
        The Markdown file, the HTML file and the plots.
    """
    run_dirs = find_runs(paths)
    out_dir = Path(out) if out is not None else Path(paths[0])
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = [run_stats(d.name, read_trajectories(d)) for d in run_dirs]
    plots = _plots(runs, out_dir)
    sections: list[tuple[str, str, str]] = []  # (title, markdown, html)

    def pct(x: float) -> str:
        return f"{100 * x:.1f} %"

    md, ht = _table(
        ["run", "policy", "trajectories", "tasks", "completion", "criteria passed", "zero-variance groups"],
        [
            [
                r.name,
                r.policy,
                r.trajectories,
                r.tasks,
                pct(r.completion_rate),
                pct(r.criterion_pass_rate),
                pct(r.zero_variance_share),
            ]
            for r in runs
        ],
    )
    sections.append(("Overview", md, ht))
    kinds = sorted({k for r in runs for k in r.criterion_by_kind})
    md, ht = _table(["run", *kinds], [[r.name, *(pct(r.criterion_by_kind.get(k, 0.0)) for k in kinds)] for r in runs])
    sections.append(("Criterion pass rate by kind", md, ht))
    for attr, title in (
        ("by_length", "By walk length"),
        ("by_services", "By number of services"),
        ("by_pattern", "By difficulty pattern (a task counts under each of its patterns)"),
    ):
        keys = sorted({k for r in runs for k in getattr(r, attr)})
        md, ht = _table(
            ["run", *map(str, keys)],
            [[r.name, *(_cell(getattr(r, attr).get(k)) for k in keys)] for r in runs],
        )
        sections.append((title, md, ht))
    md, ht = _table(
        ["run", "stop reasons", "error types (failed calls)", "mean turns", "mean tokens"],
        [
            [
                r.name,
                json.dumps(dict(r.stops.most_common())),
                json.dumps(dict(r.errors.most_common())),
                f"{sum(r.turns) / max(1, len(r.turns)):.2f}",
                f"{sum(r.tokens) / len(r.tokens):.0f}" if r.tokens else "n/a (policy reports no tokens)",
            ]
            for r in runs
        ],
    )
    sections.append(("Stops, errors, turns and tokens", md, ht))
    titles = {
        "overall": "Completion and criteria",
        "by_length": "By walk length",
        "by_services": "By number of services",
        "by_pattern": "By difficulty pattern",
        "by_service": "By service",
        "first_failure": "Where in the chain agents fail",
        "rewards": "Rewards",
        "errors": "Error types",
        "turns": "Turns",
    }
    md_lines = ["# CompoWorld rollout report", "", f"Runs: {', '.join(str(d) for d in run_dirs)}", ""]
    html_parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>CompoWorld rollout report</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:.2em .5em}img{max-width:100%}</style></head><body>",
        "<h1>CompoWorld rollout report</h1>",
        f"<p>Runs: {html.escape(', '.join(str(d) for d in run_dirs))}</p>",
    ]
    for title, md, ht in sections:
        md_lines += [f"## {title}", "", md, ""]
        html_parts += [f"<h2>{html.escape(title)}</h2>", ht]
    md_lines += ["## Plots", ""]
    html_parts.append("<h2>Plots</h2>")
    for key, path in plots.items():
        md_lines += [f"### {titles[key]}", "", f"![{titles[key]}]({path.name})", ""]
        html_parts += [f"<h3>{html.escape(titles[key])}</h3>", f"<img src='{html.escape(path.name)}' alt=''>"]
    html_parts.append("</body></html>")
    md_path = out_dir / "report.md"
    md_path.write_text("\n".join(md_lines))
    html_path = out_dir / "report.html"
    html_path.write_text("\n".join(html_parts))
    return [md_path, html_path, *plots.values()]


def _cell(pair: tuple[int, int] | None) -> str:
    if not pair or not pair[1]:
        return "—"
    return f"{100 * pair[0] / pair[1]:.0f} % of {pair[1]}"
