"""Adapters that put CompoWorld's episodes and rewards inside the trainers people use.

* :mod:`compoworld.adapters.common`: what they share on top of the task session (turns, replays, metrics);
* :mod:`compoworld.adapters.trl`: TRL's reward functions and ``environment_factory`` class;
* :mod:`compoworld.adapters.trl_rollout`: a TRL ``rollout_func`` giving each task its own tools;
* :mod:`compoworld.adapters.verl`: verl's ``compute_score``, batch reward and tool class;
* :mod:`compoworld.adapters.gym`: a Gymnasium text environment.

Each adapter imports its trainer lazily or not at all, so importing one never
requires the trainer to be installed. Adapters import the engine, the world,
tasks and agents (every adapter drives a
:class:`~compoworld.agents.session.TaskSession`); they are peers of ``train``,
``serve`` and ``devtools`` and never import them.
"""

from __future__ import annotations

from compoworld.agents.session import DEFAULT_WORLDS, TaskSession, WorldCache

__all__ = ["DEFAULT_WORLDS", "TaskSession", "WorldCache"]
