"""The ``compoworld`` command line: the root app, where every command group is registered, and ``main``.

The commands live in one module per group (:mod:`~compoworld.cli.catalog`,
:mod:`~compoworld.cli.tasks`, :mod:`~compoworld.cli.agents`,
:mod:`~compoworld.cli.bench`, :mod:`~compoworld.cli.serve`,
:mod:`~compoworld.cli.export`, :mod:`~compoworld.cli.train`); what they share is in
:mod:`~compoworld.cli.common`.
"""

from __future__ import annotations

import typer

from compoworld.cli.agents import demo, report, rollout, score
from compoworld.cli.bench import bench_app
from compoworld.cli.catalog import call_tool, catalog_app, check, tour
from compoworld.cli.explore import explore
from compoworld.cli.export import export_app
from compoworld.cli.serve import serve_app
from compoworld.cli.service import service_app
from compoworld.cli.tasks import audit, discovery_recall, graph_app, render_tasks, synth, verify
from compoworld.cli.train import eval_app, experiment, train_app

__all__ = ["app", "main"]

app = typer.Typer(help="CompoWorld: verifiable multi-service worlds for tool-using agents.", no_args_is_help=True)

# Registered in the order ``compoworld --help`` lists them: typer shows the commands, then the groups.
app.command("check")(check)
app.command("call")(call_tool)
app.command("synth")(synth)
app.command("verify")(verify)
app.command("render")(render_tasks)
app.command("audit")(audit)
app.command("discovery-recall")(discovery_recall)
app.command("tour")(tour)
app.command("demo")(demo)
app.command("rollout")(rollout)
app.command("score")(score)
app.command("report")(report)
app.command("experiment")(experiment)
app.command("explore")(explore)
app.add_typer(catalog_app, name="catalog")
app.add_typer(bench_app, name="bench")
app.add_typer(graph_app, name="graph")
app.add_typer(serve_app, name="serve")
app.add_typer(service_app, name="service")
app.add_typer(export_app, name="export")
app.add_typer(train_app, name="train")
app.add_typer(eval_app, name="eval")


def main() -> None:
    """Entry point."""
    app()


if __name__ == "__main__":
    main()
