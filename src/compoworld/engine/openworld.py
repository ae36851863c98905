"""World models: where the answers of open-world tools come from.

Real web services (search, news, weather, quotes, exchange rates …) are not
deterministic, yet tasks that use them must be verifiable. An open-world tool's
answer therefore comes from the episode's :class:`WorldModel`:

* :class:`SyntheticWorldModel` (the default, offline): the tool's own function,
  run with randomness seeded only by the world seed, the tool and the canonical
  arguments, so the same call gives the same answer in any process;
* an LLM-backed model (:class:`compoworld.agents.worldmodel.LLMWorldModel`),
  which lives with the agents because it talks to a model endpoint;
* :class:`ReplayWorldModel`: answers from a :class:`Recording`; an unrecorded
  call is an error.

Every episode records the open-world answers it returned; replaying the
recording reproduces them exactly.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from compoworld.engine.errors import ToolFailure
from compoworld.engine.state import WorldState, canonical_json

if TYPE_CHECKING:
    from compoworld.engine.tools import Tool

__all__ = [
    "DEFAULT_WORLD_MODEL",
    "OpenWorldCall",
    "RecordedAnswer",
    "Recording",
    "ReplayWorldModel",
    "SyntheticWorldModel",
    "Unrecorded",
    "WorldModel",
]


class Unrecorded(ToolFailure):
    """A replayed episode made an open-world call the recording does not hold."""

    error_type = "not_found"


@dataclass(frozen=True, slots=True)
class OpenWorldCall:
    """One open-world call, validated and in canonical form.

    Attributes:
        tool: The tool.
        arguments: Validated arguments, as the tool function receives them.
        canonical: The arguments as canonical JSON-ready data (defaults filled in).
        key: Hash of the tool name and canonical arguments.
        world: The world the call is made in.
        synthetic: Computes the deterministic offline answer: the tool's own function,
            with randomness seeded by world seed, tool and arguments and the world's
            epoch as its clock, so that the answer depends on the call alone.
    """

    tool: Tool
    arguments: dict[str, Any]
    canonical: dict[str, Any]
    key: str
    world: WorldState
    synthetic: Callable[[], Any]

    @staticmethod
    def key_of(tool: Tool, validated: BaseModel) -> tuple[dict[str, Any], str]:
        """The canonical arguments of a tool's validated argument model, and the call's key."""
        canonical = validated.model_dump(mode="json")
        return canonical, hashlib.sha256(f"{tool.name}\x00{canonical_json(canonical)}".encode()).hexdigest()


class WorldModel(ABC):
    """Produces the answer of an open-world tool call."""

    name: str = "abstract"

    @abstractmethod
    def answer(self, call: OpenWorldCall) -> Any:
        """Return the JSON-ready answer to ``call`` (valid against the tool's result schema).

        Raises:
            ToolFailure: when the call cannot be answered (the agent sees a structured error).
        """


class SyntheticWorldModel(WorldModel):
    """The default world model: deterministic, offline, consistent with the world."""

    name = "synthetic"

    def answer(self, call: OpenWorldCall) -> Any:
        """Answer with the tool's own deterministic function."""
        return call.synthetic()


class RecordedAnswer(BaseModel):
    """One recorded open-world answer."""

    model_config = ConfigDict(frozen=True)

    tool: str = Field(description="Tool name.")
    arguments: dict[str, Any] = Field(description="Canonical arguments.")
    result: Any = Field(description="The answer returned.")
    source: str = Field(default="synthetic", description="The world model that answered.")


class Recording(BaseModel):
    """Open-world answers by call key: attach to a task so verification never asks a world model again."""

    answers: dict[str, RecordedAnswer] = Field(default_factory=dict, description="Answers by call key.")

    def save(self, path: str | Path) -> Path:
        """Write the recording as JSON (atomically)."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(self.model_dump(mode="json"), sort_keys=True, indent=1, ensure_ascii=False))
        tmp.replace(target)
        return target

    @classmethod
    def load(cls, path: str | Path) -> Recording:
        """Read a recording written by :meth:`save`."""
        return cls.model_validate_json(Path(path).read_text())


class ReplayWorldModel(WorldModel):
    """Answers from a recording, and optionally from another world model for calls it lacks.

    Args:
        recording: The recording to answer from.
        fallback: Answers calls the recording lacks (an agent's calls with other
            arguments than the oracle's); without one such calls are errors.
    """

    name = "replay"

    def __init__(self, recording: Recording, fallback: WorldModel | None = None) -> None:
        self.recording = recording
        self.fallback = fallback

    def answer(self, call: OpenWorldCall) -> Any:
        """Return the recorded answer, or the fallback's.

        Raises:
            Unrecorded: if the recording has no answer for this exact call and there is no fallback.
        """
        found = self.recording.answers.get(call.key)
        if found is None and self.fallback is not None:
            return self.fallback.answer(call)
        if found is None:
            raise Unrecorded(
                f"the recording has no answer for {call.tool.name} with these arguments",
                hint="a replayed episode can only make the open-world calls that were recorded, with the same arguments",
            )
        return found.result


DEFAULT_WORLD_MODEL = SyntheticWorldModel()
"""The world model an episode uses unless given another."""
