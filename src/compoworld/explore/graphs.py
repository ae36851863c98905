"""Small graphs drawn as inline SVG on the server: a task's criteria DAG and a resource's state machine.

No JavaScript and no layout library: nodes sit in columns (a solution step, a
distance from the initial state) and edges are curves between them, which is all a
chain of criteria or a status lifecycle needs to be read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from compoworld.tasks.criteria import NEGATIVE_KINDS

__all__ = ["Edge", "Node", "criteria_graph", "layered_svg", "state_machine_graph"]

_W, _H, _GAP_X, _GAP_Y, _TOP = 170, 38, 60, 14, 34


@dataclass(frozen=True, slots=True)
class Node:
    """A box in a drawing.

    Attributes:
        id: Unique within the drawing (also the element id, prefixed ``n-``).
        label: The text in the box (cut to fit).
        column: Which column it sits in.
        css: Classes of the box (``pass``, ``fail``, ``negative`` …).
        title: The tooltip: the full text.
        href: Where a click on the box leads, if anywhere.
    """

    id: str
    label: str
    column: int
    css: str = ""
    title: str = ""
    href: str = ""


@dataclass(frozen=True, slots=True)
class Edge:
    """An arrow between two boxes.

    Attributes:
        source: The id of the box it leaves.
        target: The id of the box it enters.
        label: Text on the arrow.
        css: Classes of the arrow (``flow`` for a value passed on, ``dep`` for a prerequisite).
    """

    source: str
    target: str
    label: str = ""
    css: str = ""


@dataclass(slots=True)
class _Layout:
    pos: dict[str, tuple[float, float]] = field(default_factory=dict)
    width: float = 0.0
    height: float = 0.0


def _layout(nodes: Sequence[Node], columns: int) -> _Layout:
    out = _Layout()
    rows = [0] * max(columns, 1)
    for n in nodes:
        x = n.column * (_W + _GAP_X) + 10
        y = _TOP + rows[n.column] * (_H + _GAP_Y)
        rows[n.column] += 1
        out.pos[n.id] = (x, y)
    out.width = max(columns, 1) * (_W + _GAP_X) + 10
    out.height = _TOP + max(rows) * (_H + _GAP_Y) + 10
    return out


def _cut(text: str, size: int = 24) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def layered_svg(
    nodes: Sequence[Node], edges: Sequence[Edge], column_titles: Sequence[str], *, css: str = "graph"
) -> str:
    """Draw boxes in columns and the arrows between them as one ``<svg>`` element.

    Args:
        nodes: The boxes, in the order they stack within their column.
        edges: The arrows; those naming a box that is not drawn are left out.
        column_titles: A heading over each column.
        css: The class of the ``<svg>`` element.

    Returns:
        The SVG markup.
    """
    columns = max([len(column_titles), *(n.column + 1 for n in nodes)])
    lay = _layout(nodes, columns)
    parts = [
        f'<svg class="{css}" xmlns="http://www.w3.org/2000/svg" width="{lay.width:.0f}" height="{lay.height:.0f}" '
        f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" role="img">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>',
    ]
    for i, title in enumerate(column_titles):
        cx = i * (_W + _GAP_X) + 10
        parts.append(f'<text class="col" x="{cx}" y="18">{escape(_cut(title, 28))}</text>')
    for e in edges:
        if e.source not in lay.pos or e.target not in lay.pos:
            continue
        (x1, y1), (x2, y2) = lay.pos[e.source], lay.pos[e.target]
        if x2 > x1:
            sx, sy, tx, ty = x1 + _W, y1 + _H / 2, x2, y2 + _H / 2
            mid = (sx + tx) / 2
            d = f"M {sx:.0f} {sy:.0f} C {mid:.0f} {sy:.0f}, {mid:.0f} {ty:.0f}, {tx:.0f} {ty:.0f}"
        else:
            # Same column or backwards (a state machine's cycle): loop out on the right.
            sx, sy, tx, ty = x1 + _W, y1 + _H / 2, x2 + _W, y2 + _H / 2
            bulge = max(sx, tx) + 40
            d = f"M {sx:.0f} {sy:.0f} C {bulge:.0f} {sy:.0f}, {bulge:.0f} {ty:.0f}, {tx:.0f} {ty:.0f}"
        parts.append(f'<path class="edge {e.css}" d="{d}" marker-end="url(#arrow)"/>')
        if e.label:
            lx, ly = (sx + tx) / 2, (sy + ty) / 2 - 4
            parts.append(f'<text class="elabel" x="{lx:.0f}" y="{ly:.0f}">{escape(_cut(e.label, 22))}</text>')
    for n in nodes:
        x, y = lay.pos[n.id]
        box = (
            f'<g class="node {n.css}" id="n-{escape(n.id)}"><title>{escape(n.title or n.label)}</title>'
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{_W}" height="{_H}" rx="6"/>'
            f'<text x="{x + 8:.0f}" y="{y + 23:.0f}">{escape(_cut(n.label))}</text></g>'
        )
        parts.append(f'<a href="{escape(n.href)}">{box}</a>' if n.href else box)
    parts.append("</svg>")
    return "".join(parts)


def criteria_graph(
    task: Mapping[str, Any], verdicts: Mapping[str, bool] | None = None, *, href: str = "#crit-{id}"
) -> str:
    """A task's rubric as a graph: one column per solution step, the negatives ("must not") last.

    Arrows show prerequisites (``depends_on``) and values passed on between steps (a
    transition criterion's ``from_step``). With verdicts, each box shows pass or fail.

    Args:
        task: The task, as its JSON object.
        verdicts: Criterion id → passed, from a trajectory (None: the task alone).
        href: Each box's link, with ``{id}`` for the criterion's id.

    Returns:
        The SVG markup.
    """
    criteria = task.get("criteria", [])
    solution = task.get("solution", [])
    steps = sorted({c["step"] for c in criteria if c.get("step") is not None})
    column_of = {s: i for i, s in enumerate(steps)}
    titles = [
        f"step {s + 1}: {solution[s]['tool'].split('__')[-1]}" if s < len(solution) else f"step {s + 1}" for s in steps
    ]
    answer_col = len(titles)
    has_answer = any(c["kind"] == "answer" for c in criteria)
    if has_answer:
        titles.append("final answer")
    neg_col = len(titles)
    if any(c["kind"] in NEGATIVE_KINDS for c in criteria):
        titles.append("must not")
    nodes: list[Node] = []
    first_of_step: dict[int, str] = {}
    for c in criteria:
        if c["kind"] in NEGATIVE_KINDS:
            col, css = neg_col, "negative"
        elif c["kind"] == "answer" or c.get("step") is None:
            col, css = answer_col, "answer"
        else:
            col, css = column_of[c["step"]], c["kind"]
            first_of_step.setdefault(c["step"], c["id"])
        if verdicts is not None and c["id"] in verdicts:
            css += " pass" if verdicts[c["id"]] else " fail"
        nodes.append(
            Node(
                c["id"],
                f"{c['id']} {c['kind']}",
                col,
                css,
                f"{c['id']} ({c['kind']}): {c['description']}",
                href.format(id=c["id"]),
            )
        )
    edges = [Edge(dep, c["id"], css="dep") for c in criteria for dep in c.get("depends_on", [])]
    for c in criteria:
        src = first_of_step.get(c.get("from_step", -1)) if c["kind"] == "transition" else None
        if src is not None and src != c["id"]:
            edges.append(Edge(src, c["id"], c.get("from_field", ""), "flow"))
    nodes.sort(key=lambda n: n.column)
    return layered_svg(nodes, edges, titles, css="graph criteria")


def state_machine_graph(transitions: Mapping[str, Any], initial: Sequence[Any] = ()) -> str:
    """A resource's lifecycle: its status values as boxes, its transitions as arrows named by their verbs.

    Args:
        transitions: Verb → an object with ``source`` (values it moves from) and ``target`` (the value it sets).
        initial: Values records start in (drawn first); else the values no transition enters.

    Returns:
        The SVG markup, or an empty string when there are no transitions.
    """
    if not transitions:
        return ""
    arrows = [(str(s), str(t.target), verb) for verb, t in transitions.items() for s in t.source]
    states = list(dict.fromkeys([v for a in arrows for v in a[:2]]))
    starts = [str(v) for v in initial if str(v) in states] or [
        s for s in states if not any(dst == s for _, dst, _ in arrows)
    ]
    depth = {s: 0 for s in starts or states[:1]}
    queue = deque(depth)
    while queue:
        s = queue.popleft()
        for src, dst, _ in arrows:
            if src == s and dst not in depth:
                depth[dst] = depth[s] + 1
                queue.append(dst)
    for s in states:
        depth.setdefault(s, max(depth.values(), default=0) + 1)
    columns = max(depth.values()) + 1
    nodes = sorted((Node(s, s, depth[s], "state") for s in states), key=lambda n: n.column)
    edges = [Edge(src, dst, verb, "flow") for src, dst, verb in arrows]
    return layered_svg(nodes, edges, [""] * columns, css="graph machine")
