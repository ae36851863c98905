"""Agents: playing tasks with policies, one task session at a time.

The OpenAI chat format and Hermes tool-call parsing, the one
:class:`~compoworld.agents.session.TaskSession` every consumer of a task plays
through, policies (oracle, random, OpenAI-compatible endpoints, in-process
transformers models), resumable rollouts, the LLM client with the LLM world
model and instruction rewrites. Agents import the engine, the world and tasks.
"""
