"""The one place that builds an OpenAI-compatible client (world models, instruction rewrites)."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["openai_client"]


def openai_client(base_url: str, api_key: str | None, timeout_s: float, purpose: str) -> tuple[Any, type[Exception]]:
    """An ``openai.OpenAI`` client that makes no retries of its own, and the SDK's base error type.

    Callers retry themselves, since they also retry invalid answers.

    Args:
        base_url: The endpoint (``http://host:port/v1``).
        api_key: The key (default: ``COMPOWORLD_LLM_API_KEY``, then ``OPENAI_API_KEY``, then ``"none"``).
        timeout_s: Timeout of one request.
        purpose: What needs it, for the error when the package is missing.

    Returns:
        ``(client, openai.OpenAIError)``.

    Raises:
        RuntimeError: if the ``openai`` package (the ``llm`` extra) is not installed.
    """
    try:
        import openai
    except ImportError as exc:
        raise RuntimeError(f"{purpose} needs the openai package: pip install 'compoworld[llm]'") from exc
    key = api_key or os.environ.get("COMPOWORLD_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or "none"
    return openai.OpenAI(base_url=base_url, api_key=key, timeout=timeout_s, max_retries=0), openai.OpenAIError
