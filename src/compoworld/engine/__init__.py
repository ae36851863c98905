"""The engine: the service API and the state engine every service runs on.

The service API (semantic types, records, ``Service`` declarations, derived
tool schemas, standard CRUD tools, the registry and the catalog) and the state
engine (the immutable ``WorldState`` seeded through ``SeedContext``, copy-on-write
``Episode``s with reset, snapshot, restore, diff and hash, the validating
runtime, SQLite export, and the open-world protocol with its offline world
models) form one layer on purpose: a tool's context reaches into the episode and
an episode runs tools. Within the layer the modules import each other in one
order, without cycles. The engine imports nothing else of the package: no
service by name, no world content, no tasks, agents or servers.
"""
