"""What a training run leaves behind: metrics as JSONL, checkpoints to resume from, the final model.

A run directory holds ``metrics.jsonl`` (one line per logged step, kept exact across resumes),
``tb/`` (TensorBoard event files, when ``tensorboardX`` or ``tensorboard`` is installed),
``checkpoints/`` (the trainer's, the latest of which a rerun resumes from) and ``model/``, the
final model with its tokenizer, which loads as the ``hf:DIR`` policy.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

from compoworld.engine.jsonl import append_line, write_json_atomic

__all__ = [
    "METRICS",
    "MODEL",
    "last_checkpoint",
    "metrics_callback",
    "read_metrics",
    "save_model",
    "tensorboard_callback",
    "trained_model",
]

METRICS = "metrics.jsonl"
MODEL = "model"
_CHECKPOINT = re.compile(r"^checkpoint-(\d+)$")


def last_checkpoint(checkpoints: Path) -> Path | None:
    """The newest complete checkpoint under ``checkpoints`` (one with its trainer state), or None."""
    if not checkpoints.is_dir():
        return None
    found = [
        (int(m.group(1)), p)
        for p in checkpoints.iterdir()
        if (m := _CHECKPOINT.match(p.name)) and (p / "trainer_state.json").exists()
    ]
    return max(found)[1] if found else None


def tensorboard_callback(run: Path) -> Any | None:
    """A callback writing TensorBoard event files to ``run/tb``, or None when no event-file writer is installed."""
    if importlib.util.find_spec("tensorboardX") is None:
        return None
    from tensorboardX import SummaryWriter  # type: ignore[import-untyped]
    from transformers.integrations import TensorBoardCallback  # type: ignore[attr-defined]

    return TensorBoardCallback(tb_writer=SummaryWriter(str(run / "tb")))  # type: ignore[no-untyped-call]


def read_metrics(run: Path) -> list[dict[str, Any]]:
    """The logged steps of a run directory (empty when it has none yet)."""
    path = run / METRICS
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def trained_model(run: Path) -> Path | None:
    """The final model of a finished run directory, or None when it has not finished."""
    model = run / MODEL
    return model if (model / "config.json").exists() and (run / "summary.json").exists() else None


def save_model(trainer: Any, run: Path, summary: dict[str, Any]) -> Path:
    """Save the trainer's model and tokenizer as ``run/model`` (atomically) and ``run/summary.json``.

    The summary is written last: a run directory with it holds a complete model.
    """
    target = run / MODEL
    tmp = run / f".{MODEL}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    trainer.save_model(str(tmp))
    processing = getattr(trainer, "processing_class", None)
    if processing is not None:
        processing.save_pretrained(str(tmp))
    shutil.rmtree(target, ignore_errors=True)
    tmp.replace(target)
    write_json_atomic(run / "summary.json", summary)
    return target


def metrics_callback(run: Path) -> Any:
    """A ``transformers`` callback appending every log of a trainer to ``run/metrics.jsonl``.

    On a resume the lines of steps after the checkpoint are dropped first: the resumed run logs those
    steps again, so each step appears once.
    """
    from transformers import TrainerCallback

    started = time.perf_counter()

    class JsonlMetrics(TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            kept = [m for m in read_metrics(run) if int(m.get("step", 0)) <= state.global_step]
            run.mkdir(parents=True, exist_ok=True)
            (run / METRICS).write_text("".join(json.dumps(m, sort_keys=True) + "\n" for m in kept))

        def on_log(
            self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kwargs: Any
        ) -> None:
            if not logs or not state.is_world_process_zero:
                return
            line: dict[str, Any] = {
                "step": state.global_step,
                "epoch": state.epoch,
                "elapsed_s": round(time.perf_counter() - started, 2),
            }
            line |= {k: v for k, v in logs.items() if isinstance(v, int | float | str) or v is None}
            with (run / METRICS).open("a") as fh:
                append_line(fh, json.dumps(line, sort_keys=True))

    return JsonlMetrics()
