"""Standard tools: their schemas follow each resource's own declaration, whatever else is loaded."""

from __future__ import annotations

from typing import Annotated, Literal

from compoworld import Catalog, Record, Service
from compoworld.engine.types import IdOf


def _service(name: str, states: tuple[str, str]) -> Service:
    svc = Service(name, title=name, category="test", modeled_on="nothing", description="Test service.")

    class Item(Record):
        """An item."""

        id: Annotated[str, IdOf(f"{name}.item")]
        state: Literal[states[0], states[1]] = states[0]  # type: ignore[valid-type]
        """Its state."""

    Item.__name__ = Item.__qualname__ = f"{name.title()}Item"
    svc.resource(Item, name="item", plural="items", prefix=name[:3], filters=("state",), update=("state",))
    return svc


def test_a_filter_keeps_its_resources_order_of_values_when_another_resource_lists_them_the_other_way() -> None:
    first, second = _service("alpha", ("open", "closed")), _service("beta", ("closed", "open"))
    catalog = Catalog([first, second])
    for tool, order in (
        ("alpha__list_items", ["open", "closed"]),
        ("beta__list_items", ["closed", "open"]),
        ("alpha__update_item", ["open", "closed"]),
        ("beta__update_item", ["closed", "open"]),
    ):
        state = catalog.tools[tool].parameters_schema["properties"]["state"]
        assert state["anyOf"][0]["enum"] == order, (tool, state)
