"""The serving commands: ``serve mcp`` and ``serve http``, with the options they share."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from compoworld.cli.common import SeedOpt, err, file_errors

__all__ = ["serve_app"]

serve_app = typer.Typer(
    help="Serve the services over MCP or HTTP (needs the package's serve extra).",
    no_args_is_help=True,
)

ServeServicesOpt = Annotated[
    list[str] | None, typer.Option("--services", help="Services to serve, comma-separated or repeated (default: all).")
]
TokenOpt = Annotated[
    str | None,
    typer.Option("--token", envvar="COMPOWORLD_TOKEN", help="Bearer token required of clients (needed off loopback)."),
]
MaxSessionsOpt = Annotated[int, typer.Option("--max-sessions", min=1, help="Live sessions at most.")]
IdleOpt = Annotated[float, typer.Option("--idle-timeout", min=0.1, help="Seconds before an idle session is dropped.")]
MaxBodyOpt = Annotated[int, typer.Option("--max-body-bytes", min=1024, help="Largest request body.")]


def _serve(run: Any, **kwargs: Any) -> None:
    from compoworld.serve.commands import StartError
    from compoworld.tasks.taskset import TaskFileError

    try:
        run(**kwargs)
    except StartError as exc:
        if isinstance(exc.__cause__, TaskFileError):
            # A --tasks/--task file that cannot be used reads as it does for every other command.
            with file_errors():
                raise exc.__cause__ from None
        err.print(f"[red]cannot serve:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except ModuleNotFoundError as exc:
        # Only a missing serve-extra dependency is the user's to fix; any other missing module is a bug.
        if (exc.name or "").split(".")[0] not in {"mcp", "mcp_types", "fastapi", "starlette", "uvicorn"}:
            raise
        err.print(f"[red]serving needs the package's serve extra[/red] (mcp, fastapi, uvicorn): {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except KeyboardInterrupt:
        pass


@serve_app.command("mcp")
def serve_mcp(
    services: ServeServicesOpt = None,
    task: Annotated[
        str | None, typer.Option("--task", help="Serve one task: FILE:ID (its tools plus a submit tool).")
    ] = None,
    http: Annotated[
        str | None, typer.Option("--http", help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio.")
    ] = None,
    seed: SeedOpt = 0,
    token: TokenOpt = None,
    max_sessions: MaxSessionsOpt = 256,
    idle_timeout: IdleOpt = 900.0,
    max_body_bytes: MaxBodyOpt = 1_000_000,
    page_size: Annotated[int, typer.Option("--page-size", min=1, help="Tools per tools/list page.")] = 100,
    discovery: Annotated[
        bool,
        typer.Option("--discovery", help="Tool discovery mode: list only search_tools and call_tool (and task tools)."),
    ] = False,
) -> None:
    """Serve services (or one task) over MCP: stdio by default, one private episode per session."""
    from compoworld.serve.commands import parse_services, run_mcp
    from compoworld.serve.sessions import ServeLimits

    limits = ServeLimits(max_sessions=max_sessions, idle_timeout_s=idle_timeout, max_body_bytes=max_body_bytes)
    _serve(
        run_mcp,
        services=parse_services(services),
        task=task,
        seed=seed,
        http=http,
        token=token,
        limits=limits,
        page_size=page_size,
        discovery=discovery,
    )


@serve_app.command("http")
def serve_http(
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8765,
    services: ServeServicesOpt = None,
    tasks: Annotated[
        list[Path] | None, typer.Option("--tasks", help="A tasks.jsonl file whose tasks sessions may use (repeatable).")
    ] = None,
    seed: SeedOpt = 0,
    token: TokenOpt = None,
    max_sessions: MaxSessionsOpt = 256,
    idle_timeout: IdleOpt = 900.0,
    max_body_bytes: MaxBodyOpt = 1_000_000,
) -> None:
    """Serve the HTTP/OpenAPI API: sessions, tool calls, diffs, snapshots, task evaluation."""
    from compoworld.serve.commands import parse_services, run_http
    from compoworld.serve.sessions import ServeLimits

    limits = ServeLimits(max_sessions=max_sessions, idle_timeout_s=idle_timeout, max_body_bytes=max_body_bytes)
    _serve(
        run_http,
        host=host,
        port=port,
        services=parse_services(services),
        task_files=tasks or [],
        seed=seed,
        token=token,
        limits=limits,
    )
