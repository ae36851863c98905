"""``compoworld train sft``: supervised fine-tuning on the SFT export with TRL's ``SFTTrainer``.

The rows are those of ``compoworld export sft`` (``{"messages", "tools"}``); the loss is on the
assistant's tokens only, through the generation markers of the tool-aware chat template that
:func:`~compoworld.agents.hf.prepare_smollm2` stores with SmolLM2 (any checkpoint whose template has
such markers works). The run directory is resumable (see :mod:`compoworld.train.logs`); its
``model/`` loads as the ``hf:DIR`` policy.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from compoworld.engine.jsonl import write_json_atomic
from compoworld.train.logs import (
    last_checkpoint,
    metrics_callback,
    read_metrics,
    save_model,
    tensorboard_callback,
    trained_model,
)
from compoworld.train.presets import SFTSettings

__all__ = ["check_run_settings", "model_dir", "sft_dataset", "train_sft"]


def model_dir(spec: str) -> Path:
    """The checkpoint directory of a model spec: ``smollm2``, ``hf:DIR`` or a directory.

    Raises:
        FileNotFoundError: when the spec names no checkpoint (saying what it expects).
    """
    from compoworld.agents.hf import resolve_model

    return resolve_model(spec.removeprefix("hf:"))


def sft_dataset(data: Path, samples: int | None = None) -> Any:
    """The SFT rows of ``data`` (a directory with ``sft.parquet`` or ``sft.jsonl``, or one such file).

    Raises:
        FileNotFoundError: when there is no SFT file there.
        ValueError: when it holds no rows.
    """
    import datasets

    path = data
    if data.is_dir():
        path = next((data / n for n in ("sft.parquet", "sft.jsonl") if (data / n).exists()), data / "sft.jsonl")
    if not path.is_file():
        raise FileNotFoundError(f"no SFT data at {data}: make it with `compoworld export sft --runs RUN --out {data}`")
    kind = "parquet" if path.suffix == ".parquet" else "json"
    ds = datasets.load_dataset(kind, data_files=str(path), split="train")
    if len(ds) == 0:
        raise ValueError(f"{path} holds no rows: no trajectory met every criterion")
    return ds.select(range(min(samples, len(ds)))) if samples else ds


def check_run_settings(out: Path, settings: dict[str, Any]) -> None:
    """Record a run's settings in ``out/settings.json``, or refuse to resume a run made with others.

    Raises:
        ValueError: naming the settings that differ from the recorded ones.
    """
    path = out / "settings.json"
    if path.exists():
        before = json.loads(path.read_text())
        differ = sorted(k for k in before.keys() | settings.keys() if before.get(k) != settings.get(k))
        if differ:
            raise ValueError(
                f"{out} holds a run made with other settings ({', '.join(differ)}); use another --out directory"
            )
        return
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, settings)


def train_sft(data: Path, model: str, out: Path, settings: SFTSettings) -> dict[str, Any]:
    """Fine-tune ``model`` on the SFT rows of ``data`` into the run directory ``out``.

    A rerun resumes from the latest checkpoint; a finished run returns its summary at once.

    Args:
        data: The SFT export (directory or file).
        model: ``smollm2``, ``hf:DIR`` or a checkpoint directory.
        out: The run directory.
        settings: Hyper-parameters.

    Returns:
        The summary also written to ``out/summary.json``: rows, steps, tokens per epoch, first and final loss, seconds, model path.

    Raises:
        ValueError: when ``out`` holds a run with other settings, or every row loses its assistant
            tokens to ``max_length``.
    """
    check_run_settings(out, {"kind": "sft", "data": str(data), "model": model, **settings.model_dump()})
    if trained_model(out) is not None:
        return dict(json.loads((out / "summary.json").read_text()))
    from trl import SFTConfig, SFTTrainer  # type: ignore[attr-defined]

    ds = sft_dataset(data, settings.samples)
    args = SFTConfig(
        output_dir=str(out / "checkpoints"),
        num_train_epochs=settings.epochs,
        max_steps=settings.max_steps,
        per_device_train_batch_size=settings.batch_size,
        gradient_accumulation_steps=settings.grad_accum,
        learning_rate=settings.learning_rate,
        warmup_steps=settings.warmup_ratio,
        max_length=settings.max_length,
        assistant_only_loss=True,
        activation_checkpointing=False,  # a small model fits; recomputation only slows a CPU
        use_cpu=settings.use_cpu,
        bf16=settings.bf16,
        seed=settings.seed,
        logging_steps=1,
        save_strategy="steps",
        save_steps=settings.save_steps,
        save_total_limit=2,
        report_to="none",
        dataloader_num_workers=0,
    )
    callbacks = [c for c in (metrics_callback(out), tensorboard_callback(out)) if c is not None]
    trainer: Any = SFTTrainer(model=str(model_dir(model)), args=args, train_dataset=ds, callbacks=callbacks)
    if len(trainer.train_dataset) == 0:
        raise ValueError(f"every row lost its assistant tokens to max_length={settings.max_length}: raise it")
    started = time.perf_counter()
    checkpoint = last_checkpoint(out / "checkpoints")
    result = trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    losses = [m["loss"] for m in read_metrics(out) if "loss" in m]
    summary = {
        "kind": "sft",
        "rows": len(ds),
        # Rows whose every assistant token lies past max_length are dropped by the trainer.
        "rows_trained": len(trainer.train_dataset),
        "steps": int(result.global_step),
        "tokens_per_epoch": sum(len(ids) for ids in trainer.train_dataset["input_ids"]),
        "first_loss": losses[0] if losses else None,
        "final_loss": losses[-1] if losses else None,
        "seconds": round(time.perf_counter() - started, 1),
        "resumed_from": checkpoint.name if checkpoint else None,
        "model": str(out / "model"),
    }
    save_model(trainer, out, summary)
    return summary
