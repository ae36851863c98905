"""Export an episode's whole state to SQLite, for inspection with ordinary SQL tools.

One SQL table per resource table (``crm.contacts`` becomes ``crm__contacts``),
one column per record field; lists and nested records are stored as JSON text.
A ``_compoworld`` table records the world version, seed and state hash.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from compoworld.engine.overlay import EpisodeState

__all__ = ["export_episode"]


def _sql_value(value: Any) -> Any:
    if value is None or isinstance(value, (int, float, str)):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def export_episode(episode: EpisodeState, path: Path) -> Path:
    """Write every table of ``episode`` (world records overlaid with its writes) to ``path``.

    The file is written next to ``path`` and moved into place, so a crash never
    leaves a half-written export under the final name, and a failed export
    leaves nothing behind.

    Args:
        episode: The episode.
        path: Target file; replaced if it exists.

    Returns:
        The path written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    try:
        _write(episode, tmp)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _write(episode: EpisodeState, tmp: Path) -> None:
    con = sqlite3.connect(tmp)
    try:
        con.execute("CREATE TABLE _compoworld (key TEXT PRIMARY KEY, value TEXT)")
        meta = {
            "world_version": episode.world.version,
            "seed": str(episode.world.seed),
            "scale": str(episode.world.scale),
            "state_hash": episode.state_hash(),
        }
        con.executemany("INSERT INTO _compoworld VALUES (?, ?)", sorted(meta.items()))
        for table in sorted(episode.world.tables):
            spec = episode.world.tables[table].spec
            fields = list(spec.model.model_fields)
            sql_name = table.replace(".", "__")
            cols = ", ".join(f'"{f}"' + (" TEXT PRIMARY KEY" if f == "id" else "") for f in fields)
            con.execute(f'CREATE TABLE "{sql_name}" ({cols})')
            marks = ", ".join("?" for _ in fields)
            rows = (
                [_sql_value(d.get(f)) for f in fields]
                for d in (r.model_dump(mode="json") for r in episode.iter_records(table))
            )
            con.executemany(f'INSERT INTO "{sql_name}" VALUES ({marks})', rows)
        con.commit()
    finally:
        con.close()
