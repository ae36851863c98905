"""Policies by their command-line names: ``oracle``, ``random``, ``openai``, ``smollm2``, ``hf:<dir>``."""

from __future__ import annotations

from compoworld.agents.hf import SMOLLM2, TransformersPolicy
from compoworld.agents.policies import OpenAIPolicy, OraclePolicy, Policy, RandomPolicy

__all__ = ["make_policy"]


def make_policy(
    spec: str,
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    temperature: float = 0.7,
    max_tokens: int | None = None,
    workers: int = 1,
) -> Policy:
    """Build a policy from its command-line name.

    Args:
        spec: ``oracle``, ``oracle-hermes``, ``random``, ``openai`` (needs ``base_url``
            and ``model``), ``smollm2`` or ``hf:<checkpoint dir>``.
        base_url: openai: the endpoint.
        model: openai: the model name.
        api_key: openai: the key.
        temperature: Sampling temperature of model policies.
        max_tokens: Most tokens per turn of model policies.
        workers: Worker processes of in-process models.

    Raises:
        ValueError: for an unknown name or missing endpoint settings.
    """
    if spec == "oracle":
        return OraclePolicy()
    if spec == "oracle-hermes":
        return OraclePolicy(hermes=True)
    if spec == "random":
        return RandomPolicy()
    if spec == "openai":
        if not base_url or not model:
            raise ValueError("the openai policy needs --base-url and --model (or COMPOWORLD_AGENT_BASE_URL/_MODEL)")
        return OpenAIPolicy(
            base_url=base_url,
            model=model,
            api_key=api_key or "EMPTY",
            temperature=temperature,
            max_tokens=max_tokens or 1024,
        )
    if spec == "smollm2" or spec.startswith("hf:"):
        name = SMOLLM2 if spec == "smollm2" else spec[len("hf:") :]
        return TransformersPolicy(name, workers=workers, temperature=temperature, max_new_tokens=max_tokens or 192)
    raise ValueError(f"unknown policy {spec!r}: use oracle, oracle-hermes, random, openai, smollm2 or hf:<dir>")
