"""The LLM-backed world model, and how a run chooses its world model.

:class:`LLMWorldModel` asks any OpenAI-compatible endpoint for an open-world
tool's answer that matches the result schema and keeps the facts of the
offline synthetic answer; answers are validated, retried, cached on disk
(SQLite) and fall back to the synthetic answer. :func:`make_world_model` turns a
:class:`WorldModelConfig` (synthetic, llm or replay) into a world model.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from compoworld.agents.llm import openai_client
from compoworld.engine.openworld import (
    OpenWorldCall,
    Recording,
    ReplayWorldModel,
    SyntheticWorldModel,
    WorldModel,
)
from compoworld.engine.state import canonical_json

__all__ = ["LLMStats", "LLMWorldModel", "WorldModelConfig", "make_world_model"]


@dataclass(slots=True)
class LLMStats:
    """What an :class:`LLMWorldModel` has done."""

    requests: int = 0
    cache_hits: int = 0
    invalid: int = 0
    errors: int = 0
    fallbacks: int = 0


_SYSTEM = (
    "You simulate the API of {title} ({modeled_on}). Answer one call of the tool `{tool}` with only a JSON "
    "object that matches this JSON Schema:\n{schema}\n"
    "A reference answer, consistent with the world, is given: keep every fact it states about people, "
    "companies, places, dates and amounts; you may vary wording, ordering and other details to make it realistic."
)


class LLMWorldModel(WorldModel):
    """Answers from an OpenAI-compatible endpoint, validated, retried, cached, with a synthetic fallback.

    Args:
        base_url: The endpoint (``http://host:port/v1``).
        model: The model name.
        api_key: The key (default: ``COMPOWORLD_LLM_API_KEY``, then ``OPENAI_API_KEY``, then ``"none"``).
        cache_path: SQLite file caching answers (default: ``$COMPOWORLD_CACHE_DIR/worldmodel.sqlite``).
        max_attempts: Requests per call before falling back to synthetic.
        timeout_s: Timeout of one request.
    """

    name = "llm"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        cache_path: str | Path | None = None,
        max_attempts: int = 3,
        timeout_s: float = 30.0,
    ) -> None:
        self.base_url = base_url
        self.model = model
        self.max_attempts = max(1, max_attempts)
        self._client, base_error = openai_client(base_url, api_key, timeout_s, "the llm world model")
        import openai

        self._errors: tuple[type[Exception], ...] = (base_error,)
        self._connection_errors: tuple[type[Exception], ...] = (openai.APIConnectionError,)
        default_dir = Path(os.environ.get("COMPOWORLD_CACHE_DIR", Path.home() / ".cache" / "compoworld"))
        self.cache_path = Path(cache_path) if cache_path else default_dir / "worldmodel.sqlite"
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.cache_path, check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, model TEXT, tool TEXT, arguments TEXT, "
            "result TEXT, created REAL)"
        )
        self._db.commit()
        self._lock = threading.Lock()
        self.stats = LLMStats()

    def close(self) -> None:
        """Close the cache."""
        self._db.close()

    def _cache_key(self, call: OpenWorldCall) -> str:
        return hashlib.sha256(f"{self.model}\x00{call.world.seed}\x00{call.key}".encode()).hexdigest()

    def _cached(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT result FROM answers WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def _store(self, key: str, call: OpenWorldCall, result: Any) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                (key, self.model, call.tool.name, canonical_json(call.canonical), canonical_json(result), time.time()),
            )
            self._db.commit()

    def _messages(self, call: OpenWorldCall, reference: Any, problem: str) -> list[dict[str, str]]:
        svc = call.world.catalog.services[call.tool.service]
        system = _SYSTEM.format(
            title=svc.title,
            modeled_on=svc.modeled_on,
            tool=call.tool.name,
            schema=json.dumps(call.tool.result_schema, sort_keys=True),
        )
        user = {
            "tool": call.tool.name,
            "description": call.tool.description,
            "arguments": call.canonical,
            "reference_answer": reference,
        }
        messages = [{"role": "system", "content": system}, {"role": "user", "content": json.dumps(user)}]
        if problem:
            messages.append({"role": "user", "content": f"Your previous answer was invalid: {problem}. Answer again."})
        return messages

    def answer(self, call: OpenWorldCall) -> Any:
        """Answer from the cache, else the endpoint, else the synthetic model."""
        key = self._cache_key(call)
        cached = self._cached(key)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached
        reference = call.synthetic()
        problem = ""
        for _ in range(self.max_attempts):
            self.stats.requests += 1
            try:
                request: dict[str, Any] = {
                    "model": self.model,
                    "messages": self._messages(call, reference, problem),
                    "response_format": {"type": "json_object"},
                    "temperature": 0.2,
                }
                response = self._client.chat.completions.create(**request)
                content = response.choices[0].message.content or ""
            except self._connection_errors:
                self.stats.errors += 1
                break  # a dead endpoint will not come back within this call
            except self._errors as exc:
                self.stats.errors += 1
                problem = f"the endpoint failed: {type(exc).__name__}"
                continue
            try:
                parsed = json.loads(content)
                value = call.tool.result_adapter.validate_python(parsed)
                result = call.tool.result_adapter.serializer.to_python(value, mode="json")
            except (ValueError, ValidationError) as exc:
                self.stats.invalid += 1
                problem = str(exc)[:500]
                continue
            self._store(key, call, result)
            return result
        self.stats.fallbacks += 1
        return reference


class WorldModelConfig(BaseModel):
    """How a run answers open-world calls."""

    backend: Literal["synthetic", "llm", "replay"] = Field(
        default="synthetic", description="synthetic (offline, default), llm (OpenAI-compatible endpoint) or replay."
    )
    base_url: str | None = Field(default=None, description="llm: endpoint URL, e.g. http://127.0.0.1:8000/v1.")
    model: str | None = Field(default=None, description="llm: model name.")
    api_key: str | None = Field(default=None, description="llm: key (default from COMPOWORLD_LLM_API_KEY).")
    cache_path: str | None = Field(default=None, description="llm: SQLite cache file.")
    max_attempts: int = Field(default=3, ge=1, le=10, description="llm: requests per call before the fallback.")
    timeout_s: float = Field(default=30.0, gt=0, description="llm: timeout of one request in seconds.")
    recording: str | None = Field(default=None, description="replay: the recording file.")


def make_world_model(config: WorldModelConfig | None = None) -> WorldModel:
    """Build the world model a configuration asks for.

    Args:
        config: The configuration (default: synthetic).

    Returns:
        The world model.

    Raises:
        ValueError: if a backend's required settings are missing.
    """
    config = config or WorldModelConfig()
    if config.backend == "synthetic":
        return SyntheticWorldModel()
    if config.backend == "replay":
        if not config.recording:
            raise ValueError("the replay world model needs a recording file (--recording PATH)")
        return ReplayWorldModel(Recording.load(config.recording))
    if not config.base_url or not config.model:
        raise ValueError("the llm world model needs a base URL and a model (--llm-base-url, --llm-model)")
    return LLMWorldModel(
        config.base_url,
        config.model,
        api_key=config.api_key,
        cache_path=config.cache_path,
        max_attempts=config.max_attempts,
        timeout_s=config.timeout_s,
    )
