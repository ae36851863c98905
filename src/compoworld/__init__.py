"""CompoWorld: large, verifiable, multi-service worlds for tool-using agents."""

from compoworld.catalog import Catalog
from compoworld.context import Ctx
from compoworld.episode import Episode, Snapshot, StateDiff
from compoworld.errors import CatalogError, Conflict, NotFound, RuleViolation, ToolError, ToolFailure
from compoworld.records import CREATED, UPDATED, Generated, Page, Record
from compoworld.runtime import CallResult, call
from compoworld.service import ResourceSpec, Service, Transition
from compoworld.tools import Tool, ToolAnnotations
from compoworld.world import SeedContext, World

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
    "call",
]

__version__ = "0.1.0"
