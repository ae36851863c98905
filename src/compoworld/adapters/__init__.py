"""Adapters that put CompoWorld's episodes and rewards inside the trainers people use.

* :mod:`compoworld.adapters.common`: the core they share (one task, one episode, its rubric);
* :mod:`compoworld.adapters.trl`: TRL's reward functions and ``environment_factory`` class;
* :mod:`compoworld.adapters.trl_rollout`: a TRL ``rollout_func`` giving each task its own tools;
* :mod:`compoworld.adapters.verl`: verl's ``compute_score``, batch reward and tool class;
* :mod:`compoworld.adapters.gym`: a Gymnasium text environment.

Each adapter imports its trainer lazily or not at all, so importing one never
requires the trainer to be installed.
"""

from __future__ import annotations

from compoworld.agents.session import DEFAULT_WORLDS, TaskSession, WorldCache

__all__ = ["DEFAULT_WORLDS", "TaskSession", "WorldCache"]
