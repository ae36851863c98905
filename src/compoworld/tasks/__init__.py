"""Tasks: what an agent is asked to do, how it is synthesized, verified and scored.

The task format (:mod:`~compoworld.tasks.task`), the tool dependency graph,
random walks over it with plausible arguments, synthesis (replay, criteria,
instruction, validity gates), the rubric's criteria and reward schemes, and task
sets on disk. Tasks import the engine and the world, never agents, trainers or
servers.
"""
