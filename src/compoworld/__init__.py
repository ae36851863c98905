"""CompoWorld: large, verifiable, multi-service worlds for tool-using agents."""

from compoworld.engine.catalog import Catalog
from compoworld.engine.context import Ctx
from compoworld.engine.episode import Episode, Snapshot, StateDiff
from compoworld.engine.errors import CatalogError, Conflict, NotFound, RuleViolation, ToolError, ToolFailure
from compoworld.engine.records import CREATED, UPDATED, Generated, Page, Record
from compoworld.engine.runtime import CallResult, call
from compoworld.engine.service import ResourceSpec, Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.tools import Tool, ToolAnnotations
from compoworld.engine.version import __version__
from compoworld.world.world import World

__all__ = [
    "CREATED",
    "UPDATED",
    "CallResult",
    "Catalog",
    "CatalogError",
    "Conflict",
    "Ctx",
    "Episode",
    "Generated",
    "NotFound",
    "Page",
    "Record",
    "ResourceSpec",
    "RuleViolation",
    "SeedContext",
    "Service",
    "Snapshot",
    "StateDiff",
    "Tool",
    "ToolAnnotations",
    "ToolError",
    "ToolFailure",
    "Transition",
    "World",
    "__version__",
    "call",
]
