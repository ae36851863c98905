"""Resumable JSONL files: a resume never drops a valid line; it repairs only a torn final line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld.engine import jsonl


def _parse(line: bytes) -> int:
    doc = json.loads(line)
    if not isinstance(doc, dict) or not isinstance(doc.get("n"), int):
        raise ValueError("not a record")
    return int(doc["n"])


def _lines(*ns: int) -> bytes:
    return b"".join(b'{"n": %d}\n' % n for n in ns)


def test_a_torn_final_line_is_cut_and_every_complete_line_kept(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(_lines(1, 2, 3) + b'{"n": 4')
    assert jsonl.recover(path, _parse).records == [1, 2, 3]
    assert path.read_bytes() == _lines(1, 2, 3)


def test_a_valid_final_record_that_lost_only_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(_lines(1, 2) + b'{"n": 3}')
    assert jsonl.recover(path, _parse).records == [1, 2, 3]
    assert path.read_bytes() == _lines(1, 2, 3)


def test_a_corrupt_middle_line_is_refused_naming_it_and_the_file_is_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    damaged = _lines(1, 2) + b'{"n": 3, "garb\n' + _lines(4, 5) + b'{"n": 6'
    path.write_bytes(damaged)
    with pytest.raises(jsonl.BadLines, match=r"f\.jsonl:3: line 3 ") as caught:
        jsonl.recover(path, _parse)
    assert [b.number for b in caught.value.lines] == [3]
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == damaged
    assert not caught.value.bad_path.exists()


def test_a_complete_but_invalid_last_line_is_corruption_not_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(_lines(1, 2) + b'{"m": 3}\n')
    with pytest.raises(jsonl.BadLines, match=":3: "):
        jsonl.recover(path, _parse)
    assert path.read_bytes() == _lines(1, 2) + b'{"m": 3}\n'


def test_skipping_keeps_every_valid_line_byte_for_byte_and_moves_bad_ones_aside_with_their_numbers(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(_lines(1) + b"oops\n" + _lines(2, 3) + b"\xff\xfe\n" + b"\n" + _lines(4) + b'{"n"')
    found = jsonl.recover(path, _parse, skip_bad=True)
    assert found.records == [1, 2, 3, 4]
    assert path.read_bytes() == _lines(1, 2, 3) + b"\n" + _lines(4)
    assert found.moved_to == tmp_path / "f.jsonl.bad"
    moved = [json.loads(line) for line in found.moved_to.read_text().splitlines()]
    assert [(m["line"], m.get("text"), m.get("base64")) for m in moved] == [(2, "oops", None), (5, None, "//4=")]
    assert all(m["reason"] for m in moved)


def test_skipping_again_appends_to_the_bad_lines_file(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(_lines(1) + b"first\n")
    jsonl.recover(path, _parse, skip_bad=True)
    path.write_bytes(path.read_bytes() + b"second\n")
    jsonl.recover(path, _parse, skip_bad=True)
    moved = [json.loads(line)["text"] for line in (tmp_path / "f.jsonl.bad").read_text().splitlines()]
    assert moved == ["first", "second"]
    assert path.read_bytes() == _lines(1)


def test_a_scan_changes_nothing_and_a_missing_file_has_no_records(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    assert jsonl.scan(path, _parse).records == []
    assert not path.exists()
    path.write_bytes(_lines(1) + b"bad\n" + b'{"n": 2')
    found = jsonl.scan(path, _parse)
    assert (found.records, [b.number for b in found.bad], found.torn) == ([1], [2], len(b'{"n": 2'))
    assert path.read_bytes() == _lines(1) + b"bad\n" + b'{"n": 2'
