"""The explorer's web app: server-rendered pages over an :class:`~compoworld.explore.store.Explorer`.

Pages are Jinja2 templates rendered on the server; the only script is the
playground's, which drives the HTTP server's own API, mounted under ``/api``.
With a token, every request must carry it: as ``Authorization: Bearer``, or as the
cookie a browser gets by opening any page once with ``?token=...``.
"""

from __future__ import annotations

import hmac
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from compoworld.engine.catalog import Catalog
from compoworld.engine.errors import CatalogError
from compoworld.engine.version import __version__
from compoworld.explore.graphs import criteria_graph
from compoworld.explore.index import TaskFilter, first_failed, trigger_kind
from compoworld.explore.store import Explorer, criterion_calls
from compoworld.serve.http_server import create_app as create_api
from compoworld.serve.security import error_body, send_json
from compoworld.serve.sessions import ServeBackend, ServeError, SessionManager
from compoworld.tasks.criteria import NEGATIVE_KINDS
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import task_set_services

__all__ = ["COOKIE", "PAGE_SIZE", "create_app", "run_explorer"]

PAGE_SIZE = 50
"""Rows per page of the task and run tables."""

COOKIE = "compoworld_explore"
"""The cookie that carries the token for a browser."""

_TRAPS = frozenset({"unchanged", "not_sent", "count"})


class _TokenGate:
    """Require the token as a bearer header or a cookie; ``?token=`` sets the cookie and drops itself from the URL."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    def _ok(self, value: str) -> bool:
        return hmac.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        auth = request.headers.get("authorization", "")
        if auth.startswith("Bearer ") and self._ok(auth[7:]):
            await self.app(scope, receive, send)
            return
        if self._ok(request.cookies.get(COOKIE, "")):
            await self.app(scope, receive, send)
            return
        given = request.query_params.get("token")
        if given is not None and self._ok(given):
            rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
            target = request.url.path + (("?" + urlencode(rest)) if rest else "")
            response = RedirectResponse(target, status_code=303)
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="strict")
            await response(scope, receive, send)
            return
        await send_json(
            send,
            401,
            error_body("unauthorized", "missing or wrong token", "open the explorer once with ?token=<token>"),
            [(b"www-authenticate", b"Bearer")],
        )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def create_app(explorer: Explorer, *, token: str | None = None, seed: int = 0) -> FastAPI:
    """Build the explorer's ASGI app.

    Args:
        explorer: What it shows.
        token: A token every request must carry (None: none; only for loopback).
        seed: The world seed of playground sessions of services.

    Returns:
        The app; ``app.state.explorer`` and ``app.state.manager`` hold its data and playground sessions.
    """
    backend = ServeBackend(explorer.catalog, seed=seed)
    manager = SessionManager()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        manager.close_all()

    app = FastAPI(title="CompoWorld explorer", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.explorer = explorer
    app.state.manager = manager
    env = Environment(loader=PackageLoader("compoworld.explore", "templates"), autoescape=select_autoescape())
    static = Path(__file__).with_name("static")
    app.mount("/static", StaticFiles(directory=static), name="static")
    app.mount("/api", create_api(backend, manager))
    if token:
        app.add_middleware(_TokenGate, token=token)

    def page(name: str, title: str, status: int = 200, **values: Any) -> HTMLResponse:
        html = env.get_template(name).render(root="", title=title, **values)
        return HTMLResponse(html, status_code=status)

    def not_found(what: str) -> HTMLResponse:
        return page("error.html", "Not found", 404, message=what)

    def catalog_stats() -> dict[str, int]:
        cat = explorer.catalog
        return {
            "services": len(cat.services),
            "categories": len({s.category for s in cat.services.values()}),
            "tools": len(cat.tools),
        }

    def task_href(task_id: str) -> str:
        found = explorer.find_task(task_id)
        return f"/tasks/{found[0]}/{task_id}" if found else "#"

    @app.get("/", response_class=HTMLResponse)
    def home() -> HTMLResponse:
        files = [{"path": str(f.source), "count": f.count()} for f in explorer.task_files]
        runs = [(name, r.summary()) for name, r in explorer.runs.items()]
        return page("home.html", "Home", stats=catalog_stats(), files=files, runs=runs)

    @app.get("/catalog", response_class=HTMLResponse)
    def catalog(q: str = "") -> HTMLResponse:
        if q.strip():
            return page("catalog.html", f"Search {q}", q=q, hits=explorer.search(q), stats=catalog_stats())
        return page("catalog.html", "Catalog", q="", categories=explorer.categories(), stats=catalog_stats())

    @app.get("/catalog/{service}", response_class=HTMLResponse)
    def service(service: str) -> HTMLResponse:
        if service not in explorer.catalog.services:
            return not_found(f"no service {service} in the catalog")
        return page("service.html", service, s=explorer.service(service))

    @app.get("/tools/{name}", response_class=HTMLResponse)
    def tool(name: str) -> HTMLResponse:
        if name not in explorer.catalog.tools:
            return not_found(f"no tool {name} in the catalog")
        return page("tool.html", name, t=explorer.tool(name))

    @app.get("/tasks", response_class=HTMLResponse)
    def tasks(request: Request) -> HTMLResponse:
        qp = request.query_params
        files = [{"path": str(f.source), "count": f.count()} for f in explorer.task_files]
        if not files:
            return page("tasks.html", "Tasks", files=[])
        file = min(max(_int(qp.get("file")) or 0, 0), len(files) - 1)
        index = explorer.task_files[file]
        flt = TaskFilter(
            service=qp.get("service", ""),
            pattern=qp.get("pattern", ""),
            trigger=qp.get("trigger", ""),
            min_length=_int(qp.get("min_length")),
            max_length=_int(qp.get("max_length")),
            min_writes=_int(qp.get("min_writes")),
            text=qp.get("text", ""),
        )
        sort = qp.get("sort", "idx")
        matching = index.matching(flt)
        pages = max(1, math.ceil(matching / PAGE_SIZE))
        current = min(max(_int(qp.get("page")) or 1, 1), pages)
        rows = index.rows(flt, sort=sort, offset=(current - 1) * PAGE_SIZE, limit=PAGE_SIZE)
        kept = [(k, v) for k, v in qp.multi_items() if k != "page" and v != ""]

        def page_url(n: int) -> str:
            return "/tasks?" + urlencode([*kept, ("page", str(n))])

        return page(
            "tasks.html",
            "Tasks",
            files=files,
            file=file,
            flt=flt,
            sort=sort,
            facets=index.facets(),
            rows=rows,
            matching=matching,
            total=index.count(),
            page=current,
            pages=pages,
            page_url=page_url,
        )

    @app.get("/tasks/{file}/{task_id}", response_class=HTMLResponse)
    def task(file: int, task_id: str) -> HTMLResponse:
        if not 0 <= file < len(explorer.task_files):
            return not_found(f"no task file number {file}")
        index = explorer.task_files[file]
        t = index.get(task_id)
        if t is None:
            return not_found(f"no task {task_id} in {index.source}")
        runs = [(name, rolls) for name, r in explorer.runs.items() if (rolls := r.by_task([task_id]).get(task_id))]
        return page(
            "task.html",
            task_id,
            t=t,
            file=file,
            path=str(index.source),
            trigger=trigger_kind(t),
            used={s["tool"] for s in t["solution"]},
            graph=criteria_graph(t),
            negative=NEGATIVE_KINDS,
            traps=_TRAPS,
            runs=runs,
        )

    @app.get("/runs", response_class=HTMLResponse)
    def runs(request: Request) -> HTMLResponse:
        qp = request.query_params
        failed = qp.get("failed", "0") == "1"
        if not explorer.runs:
            return page("runs.html", "Runs", runs={})
        every = explorer.run_matrix(failed_only=failed)
        total = len(every)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        current = min(max(_int(qp.get("page")) or 1, 1), pages)
        ids = every[(current - 1) * PAGE_SIZE : current * PAGE_SIZE]
        cells = {name: r.by_task(ids) for name, r in explorer.runs.items()}
        return page(
            "runs.html",
            "Runs",
            runs=explorer.runs,
            summaries=[(name, r.summary()) for name, r in explorer.runs.items()],
            names=list(explorer.runs),
            ids=ids,
            cells=cells,
            total=total,
            failed=failed,
            page=current,
            pages=pages,
            task_href=task_href,
        )

    @app.get("/runs/{run}/{task_id}/{rollout}", response_class=HTMLResponse)
    def trajectory(run: str, task_id: str, rollout: int) -> HTMLResponse:
        index = explorer.runs.get(run)
        if index is None:
            return not_found(f"no run {run}")
        tr = index.get(task_id, rollout)
        if tr is None:
            return not_found(f"no rollout {rollout} of task {task_id} in run {run}")
        found = explorer.run_task(index, task_id)
        task_json = found[1] if found else None
        links = criterion_calls(task_json, tr) if task_json else {}
        verdicts = {v["id"]: v["passed"] for v in tr["verdicts"]}
        graph = criteria_graph(task_json, verdicts) if task_json else ""
        first_id = first_failed(tr["verdicts"])
        first = next((v for v in tr["verdicts"] if v["id"] == first_id), None)
        return page(
            "trajectory.html",
            f"{run} {task_id}",
            run=run,
            tr=tr,
            task_href=f"/tasks/{found[0]}/{task_id}" if found else "#",
            messages=_messages(tr),
            errors=sum(1 for c in tr["calls"] if not c["ok"]),
            links=links,
            graph=graph,
            first=first,
            diff=tr.get("diff") or {},
        )

    backends: dict[tuple[str, ...], ServeBackend] = {}

    def backend_for(file: int) -> ServeBackend:
        # A task lives in the world of the services its set was synthesized over, which may be fewer than shown.
        services = task_set_services(explorer.task_files[file].source)
        if services is None or set(services) == set(explorer.catalog.services):
            return backend
        key = tuple(sorted(services))
        if key not in backends:
            backends[key] = ServeBackend(Catalog.load(list(key)), seed=seed)
        return backends[key]

    @app.get("/playground", response_class=HTMLResponse)
    def playground(request: Request) -> HTMLResponse:
        qp = request.query_params
        task_id = qp.get("task")
        if task_id:
            file = _int(qp.get("file"))
            if file is None or not 0 <= file < len(explorer.task_files):
                found = explorer.find_task(task_id)
                if found is None:
                    return not_found(f"no task {task_id} in the task files")
                file = found[0]
            data = explorer.task_files[file].get(task_id)
            if data is None:
                return not_found(f"no task {task_id} in {explorer.task_files[file].source}")
            try:
                chosen = backend_for(file)
                if task_id not in chosen.tasks:
                    chosen.add_task(Task.model_validate(data))
                session = manager.create(chosen.scope_for_task(task_id))
            except (ValueError, CatalogError, ServeError) as exc:
                return page("error.html", "Cannot play", 409, message=f"task {task_id} cannot be played here: {exc}")
            return page(
                "playground.html",
                "Playground",
                session=session.id,
                task=data,
                task_href=f"/tasks/{file}/{task_id}",
                tool=qp.get("tool", ""),
            )
        wanted = [s.strip() for s in qp.get("services", "").split(",") if s.strip()]
        if not wanted:
            return page("playground.html", "Playground", session=None, task=None, tool="")
        unknown = [s for s in wanted if s not in explorer.catalog.services]
        if unknown:
            return not_found(f"no service {', '.join(unknown)} in the catalog")
        try:
            session = manager.create(backend.scope_for_services(wanted))
        except ServeError as exc:
            return page("error.html", "Cannot play", 409, message=str(exc))
        return page(
            "playground.html", "Playground", session=session.id, task=None, services=wanted, tool=qp.get("tool", "")
        )

    @app.get("/health")
    def health() -> Response:
        return Response("ok", media_type="text/plain")

    return app


def _messages(tr: dict[str, Any]) -> list[dict[str, Any]]:
    """The conversation with each assistant turn's calls (numbered as the trajectory's ``calls``) attached."""
    by_id = {c["id"]: (i, c) for i, c in enumerate(tr["calls"])}
    out = []
    for m in tr["messages"]:
        item = dict(m)
        if m.get("role") == "assistant":
            attached = []
            for call in m.get("tool_calls") or []:
                found = by_id.get(call.get("id"))
                if found is not None:
                    attached.append({**found[1], "index": found[0]})
            item["calls"] = attached
        out.append(item)
    return out


def run_explorer(
    explorer: Explorer, *, host: str = "127.0.0.1", port: int = 8770, token: str | None = None, seed: int = 0
) -> None:
    """Serve the explorer until SIGINT or SIGTERM; the URL is announced on stderr.

    Raises:
        InsecureBind: off loopback without a token.
        OSError: if the address cannot be bound.
    """
    from compoworld.serve.listen import bind, serve_asgi
    from compoworld.serve.security import check_bind

    check_bind(host, token)
    app = create_app(explorer, token=token, seed=seed)
    sock = bind(host, port)
    serve_asgi(app, sock, app.state.manager, path="/", log_level="warning")
