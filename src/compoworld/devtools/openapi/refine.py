"""Refining a scaffold with a model: any OpenAI-compatible endpoint writes, the conformance suite decides.

Each round sends the current module, its open TODOs and the last attempt's
failures, and asks for the whole module back with domain rules that refuse
with structured errors, richer seeding and the TODOs resolved where the
document allows. An attempt is kept only when ``compoworld service check``
passes on it in a fresh process (so a broken module never touches this
process's registry) and it still offers every tool the previous module did.
Every attempt, kept or not, is saved beside the module and logged as one JSON
line, with its failures.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Attempt", "check_module", "refine"]

_SYSTEM = """You improve a CompoWorld service module: a stateful, deterministic simulation of a real product's API
that tool-using agents are trained against. Reply with the COMPLETE module in one ```python block, nothing else.

Keep: the service's name, every tool it has (standard tools come from `service.resource(...)` declarations,
domain tools from `@service.tool`), and the imports it may use: compoworld.engine.*, compoworld.world.*,
compoworld.services.kit.*, pydantic, typing, datetime and the standard library. Time, randomness and ids come only
from the call's context (`ctx.now()`, `ctx.rng`), never from the clock.

Improve, in this order:
1. Domain rules the real product enforces, as guards on standard writes
   (`guard_create=fn`, `guard_update=fn`, `guard_delete=fn`; `fn(ctx, new, old) -> None`) or inside domain
   tools: raise `RuleViolation(message, field=..., hint=...)` or `Conflict(...)` from compoworld.engine.errors
   when a request breaks one (limits, uniqueness, states that forbid an action, money that must balance).
2. The TODO list in the module's docstring: resolve what the document lets you decide (restrict transition
   sources, declare transitions for status fields) and remove those items; leave the others.
3. Seeding: realistic records drawn from `s.population` (people, companies, products), consistent with each
   other (the same person's name and e-mail together).
"""


@dataclass
class Attempt:
    """One round of refinement.

    Attributes:
        round: 1 for the first request.
        kept: Whether the module it produced replaced the current one.
        reason: Why it was kept or not.
        failures: The failed checks (tool, check, detail), or the error that stopped the check.
        saved: Where the module it produced was saved (empty when the reply had none).
        tools: Tools the module offered, when it loaded.
    """

    round: int
    kept: bool
    reason: str
    failures: list[dict[str, Any]] = field(default_factory=list)
    saved: str = ""
    tools: list[str] = field(default_factory=list)


def check_module(path: Path, timeout_s: float = 600) -> dict[str, Any]:
    """Run ``compoworld service check --json`` on a module in a fresh process.

    Args:
        path: The module.
        timeout_s: Seconds before the check is abandoned.

    Returns:
        The check's summary, with ``exit`` (the process status) and, when it did not load, ``error``.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-m", "compoworld", "service", "check", str(path), "--json"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"exit": 124, "error": f"the check took over {timeout_s:.0f} s"}
    try:
        summary: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        tail = (done.stderr or done.stdout).strip().splitlines()[-6:]
        return {"exit": done.returncode, "error": " ".join(tail) or f"exit status {done.returncode}"}
    summary["exit"] = done.returncode
    return summary


def refine(
    module: Path,
    *,
    base_url: str,
    model: str,
    rounds: int = 2,
    timeout_s: float = 300,
    api_key: str | None = None,
) -> list[Attempt]:
    """Refine a service module in place with a model, keeping only attempts that pass the checks.

    Attempts are saved as ``NAME.refine/attempt-N.py`` beside the module and
    logged to ``NAME.refine.jsonl``; the module is replaced by the last kept one.

    Args:
        module: The scaffolded module (it must pass the checks itself).
        base_url: The OpenAI-compatible endpoint.
        model: The model.
        rounds: Requests to make.
        timeout_s: Seconds per request.
        api_key: The key (default: ``COMPOWORLD_LLM_API_KEY``, then ``OPENAI_API_KEY``).

    Returns:
        Every attempt, in order.

    Raises:
        ValueError: if the starting module does not pass the checks.
    """
    from compoworld.agents.llm import openai_client

    client, client_error = openai_client(base_url, api_key, timeout_s, "refining a scaffold")
    start = check_module(module)
    if start.get("exit") != 0:
        raise ValueError(f"{module} does not pass `compoworld service check` itself: {_failure_text(start)}")
    current = module.read_text(encoding="utf-8")
    tools: list[str] = list(start.get("tool_names", []))
    folder = module.with_name(f"{module.stem}.refine")
    folder.mkdir(exist_ok=True)
    log = module.with_name(f"{module.stem}.refine.jsonl")
    attempts: list[Attempt] = []
    last_failure = ""
    for n in range(1, rounds + 1):
        request = _request(current, last_failure)
        try:
            reply = client.chat.completions.create(
                model=model,
                messages=[{"role": "system", "content": _SYSTEM}, {"role": "user", "content": request}],
                temperature=0.2,
            )
            text = reply.choices[0].message.content or ""
        except client_error as exc:
            attempt = Attempt(n, False, f"the endpoint failed: {type(exc).__name__}: {exc}")
        else:
            attempt = _judge(n, text, module.name, folder, tools)
            if attempt.kept:
                current = Path(attempt.saved).read_text(encoding="utf-8")
                tools = attempt.tools
        last_failure = (
            ""
            if attempt.kept
            else f"{attempt.reason}\n"
            + "\n".join(
                f"- {f.get('tool', '')} {f.get('check', '')}: {f.get('detail', '')}" for f in attempt.failures[:20]
            )
        )
        attempts.append(attempt)
        with log.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(asdict(attempt), sort_keys=True) + "\n")
    if any(a.kept for a in attempts):
        module.write_text(current, encoding="utf-8")
    return attempts


def _request(current: str, last_failure: str) -> str:
    parts = ["The module as it stands (it passes the conformance suite):", "```python", current, "```"]
    if last_failure:
        parts += ["", "Your previous attempt was not kept:", last_failure, "Start again from the module above."]
    return "\n".join(parts)


def _judge(n: int, text: str, filename: str, folder: Path, tools: list[str]) -> Attempt:
    blocks = re.findall(r"```(?:python|py)?\s*\n(.*?)```", text, flags=re.DOTALL)
    if not blocks:
        return Attempt(n, False, "the reply has no ```python block")
    saved = folder / f"attempt-{n}.py"
    saved.write_text(max(blocks, key=len), encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        # Checked under the module's own file name: the service is imported as compoworld_user.<stem>.
        candidate = Path(tmp) / filename
        candidate.write_text(saved.read_text(encoding="utf-8"), encoding="utf-8")
        summary = check_module(candidate)
    if summary.get("exit") != 0:
        failures = summary.get("failures") or [{"detail": summary.get("error", "")}]
        return Attempt(n, False, f"the check failed: {_failure_text(summary)}", failures, str(saved))
    offered = list(summary.get("tool_names", []))
    lost = sorted(set(tools) - set(offered))
    if lost:
        return Attempt(n, False, f"it drops tools: {', '.join(lost)}", [], str(saved), offered)
    return Attempt(
        n, True, f"passes: {summary.get('checks', 0)} checks on {len(offered)} tools", [], str(saved), offered
    )


def _failure_text(summary: dict[str, Any]) -> str:
    if "error" in summary:
        return str(summary["error"])
    return f"{summary.get('failed', '?')} of {summary.get('checks', '?')} checks failed"
