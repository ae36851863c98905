"""Developer tools: the conformance suite, benchmarks, the tour and test doubles.

The conformance suite runs the same checks over every registered tool, the
engine benchmark measures calls, resets and memory, the tour runs one scripted
episode across services, and the scripted chat server lets code that talks to
an endpoint be tested offline. Devtools import the engine, world and tasks; they
sit beside ``train``, ``serve`` and ``adapters`` and only the CLI imports them.
"""
