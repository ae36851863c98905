"""``compoworld service``: bring your own API, from an OpenAPI document to a checked service module.

``service new --from-openapi`` scaffolds a module (and a report of what it
inferred and left open) from a document; ``service check`` runs the
conformance suite and the graph check on a module kept outside the package.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from compoworld.cli.common import JsonOpt, LLMBaseUrlOpt, LLMModelOpt, SeedOpt, console, err, print_json

__all__ = ["service_app"]

service_app = typer.Typer(help="Bring your own API: scaffold and check service modules.", no_args_is_help=True)


@service_app.command("new")
def service_new(
    from_openapi: Annotated[
        Path, typer.Option("--from-openapi", help="The OpenAPI 3 document (.yaml, .yml or .json), self-contained.")
    ],
    name: Annotated[str, typer.Option("--name", help="The service's name: lower case letters, digits, '_'.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write NAME.py and NAME.report.json into.")] = Path(),
    category: Annotated[str, typer.Option("--category", help="The catalog category it joins.")] = "custom",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing module.")] = False,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = None,
    llm_rounds: Annotated[int, typer.Option("--llm-rounds", min=1, help="llm: refinement requests.")] = 2,
    llm_timeout: Annotated[float, typer.Option("--llm-timeout", help="llm: seconds per request.")] = 300.0,
    as_json: JsonOpt = False,
) -> None:
    """Scaffold a stateful service module from an OpenAPI document (offline, deterministic).

    With --llm-base-url and --llm-model, a model then refines it (domain rules, refusals, seeding); an attempt
    is kept only when `compoworld service check` passes on it, and every attempt is logged beside the module.
    """
    if (llm_base_url is None) != (llm_model is None):
        err.print("[red]give both --llm-base-url and --llm-model[/red] (or neither, for the offline scaffold)")
        raise typer.Exit(2)
    from compoworld.devtools.openapi import SpecError, scaffold

    try:
        made = scaffold(from_openapi, name, category=category)
    except SpecError as exc:
        err.print(f"[red]cannot scaffold:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    module = out / f"{name}.py"
    report_path = out / f"{name}.report.json"
    if module.exists() and not force:
        err.print(f"[red]{escape(str(module))} exists[/red]; pass --force to overwrite it")
        raise typer.Exit(1)
    out.mkdir(parents=True, exist_ok=True)
    report = made.report()
    module.write_text(made.source, encoding="utf-8")
    if llm_base_url is not None and llm_model is not None:
        report["refine"] = _refine(module, llm_base_url, llm_model, llm_rounds, llm_timeout)
    report_path.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if as_json:
        print_json({**report, "module": str(module), "report": str(report_path)})
        return
    console.print(
        f"wrote {escape(str(module))}: {len(report['resources'])} resources, "
        f"{report['operations_as_tools']} of {report['operations']} operations as tools, "
        f"{report['semantic_inferred']} fields with semantic types, {len(report['todos'])} TODO"
    )
    console.print(f"report: {escape(str(report_path))}; next: compoworld service check {escape(str(module))}")


def _refine(module: Path, base_url: str, model: str, rounds: int, timeout_s: float) -> list[dict[str, object]]:
    from compoworld.devtools.openapi.refine import refine

    try:
        attempts = refine(module, base_url=base_url, model=model, rounds=rounds, timeout_s=timeout_s)
    except (ValueError, RuntimeError) as exc:
        err.print(f"[red]cannot refine:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
    for a in attempts:
        mark = "[green]kept[/]" if a.kept else "[yellow]not kept[/]"
        err.print(f"refine round {a.round}: {mark}: {escape(a.reason)}")
    return [{"round": a.round, "kept": a.kept, "reason": a.reason} for a in attempts]


@service_app.command("check")
def service_check(
    path: Annotated[Path, typer.Argument(help="The service module (.py) to check.")],
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Run the conformance suite and the graph check on a service module outside the package; exit 1 on failure."""
    from compoworld.devtools.external import check_service, load_service_file
    from compoworld.engine.errors import CatalogError

    try:
        found = check_service(load_service_file(path), seed=seed)
    except CatalogError as exc:
        err.print(f"[red]cannot load the service:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    summary = found.summary()
    if as_json:
        print_json(summary)
    else:
        for r in found.failures:
            err.print(f"[red]FAIL[/red] {r.tool} {r.check}: {escape(str(r.detail))}")
        console.print(
            f"{summary['tools']} tools, {summary['checks']} checks, "
            f"[{'red' if found.failures else 'green'}]{summary['failed']} failed[/]"
        )
        console.print(
            f"graph: feeds {len(summary['feeds_services'])} services ({summary['links_out']} links), "
            f"consumes from {len(summary['consumes_services'])} ({summary['links_in']} links)"
            + ("" if found.connected else " [yellow]- not connected both ways: scenarios will not cross it[/]")
        )
    if found.failures:
        raise typer.Exit(1)
