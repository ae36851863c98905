"""``compoworld call`` answers arguments outside the schema, invalid text included, with a structured error.

A lone surrogate reaches the command two ways: as the JSON escape ``"\\ud800"`` in the arguments, or as a
byte that is not UTF-8 on the command line, which Python reads as a surrogate (``surrogateescape``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from compoworld.cli import app
from tests.invalid_text_support import field_of, holding_invalid_text

runner = CliRunner()


def _refused(output: str, field: str) -> dict[str, Any]:
    """The printed outcome: the structured error naming ``field``, an empty diff."""
    out = json.loads(output)
    assert out["ok"] is False and set(out["error"]) == {"type", "message", "field", "hint"}
    assert out["error"]["type"] == "invalid_arguments" and out["error"]["field"] == field, out["error"]
    assert out["diff"] == {}
    return dict(out)


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=holding_invalid_text())
def test_call_refuses_invalid_text_in_json_escapes_and_writes_nothing(
    tmp_path: Path, case: tuple[Any, list[str | int]]
) -> None:
    value, inner = case
    # json.dumps writes each lone surrogate as its \\u escape: the argument is valid (ASCII) JSON text.
    arguments = json.dumps({"account_id": "acc_000002", "industry": value})
    db = tmp_path / "state.sqlite"
    res = runner.invoke(app, ["call", "crm__update_account", arguments, "--json", "--sqlite", str(db)])
    assert res.exit_code == 1, res.output
    _refused(res.output, field_of(["industry", *inner]))
    assert db.exists()  # the export, of an unchanged state, went through


def test_call_refuses_a_value_outside_the_schema() -> None:
    res = runner.invoke(app, ["call", "crm__list_accounts", '{"limit": "5"}', "--json"])
    assert res.exit_code == 1, res.output
    _refused(res.output, "limit")


def test_call_refuses_a_command_line_byte_that_is_not_utf8() -> None:
    arguments = b'{"account_id": "acc_000002", "industry": "caf\xe9"}'  # Latin-1, not UTF-8
    done = subprocess.run(
        [sys.executable, "-m", "compoworld", "call", "crm__update_account", arguments, "--json"],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr.decode(errors="replace")
    _refused(done.stdout.decode("utf-8"), "industry")
