"""The explorer: a local web app over the catalog, task files and runs, with a playground (``compoworld explore``)."""

from compoworld.explore.index import RunIndex, TaskFilter, TaskIndex
from compoworld.explore.store import Explorer

__all__ = ["Explorer", "RunIndex", "TaskFilter", "TaskIndex"]
