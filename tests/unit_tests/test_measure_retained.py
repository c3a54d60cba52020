"""`benchmarks/measure_retained.py`: the first compile's retained bytes, split by allocating line.

Run in this process on a small `InMemoryStore` scope (the command line runs one child per
store); the figures are checked for their shape and for what every compile must hold.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks import measure_retained


def test_where_keeps_no_folder_of_this_machine() -> None:
    assert (
        measure_retained._where("/home/u/src/langchain_contextchef/selectors/_packed.py")
        == "langchain_contextchef/selectors/_packed.py"
    )
    assert (
        measure_retained._where("/opt/venv/lib/python3.11/site-packages/psycopg/cursor.py")
        == "site-packages/psycopg/cursor.py"
    )
    assert measure_retained._where("/usr/lib/python3.11/json/decoder.py") == "json/decoder.py"


def test_the_rows_name_each_parsed_entry_once(tmp_path: Path) -> None:
    size = 300
    found = measure_retained._child("memory", size, str(tmp_path), None, 12)
    assert found["store"] == "memory" and found["entries"] == size
    assert found["json"] > 0 and found["retained"] > 0
    rows = found["rows"]
    assert rows == sorted(rows, key=lambda row: row["bytes"], reverse=True)
    assert all(not row["where"].startswith("/") and row["line"] for row in rows)
    # The scope's entries are parsed once each, by the one-pass reader of `entry.py`.
    parsed = [row for row in rows if row["where"].startswith("langchain_contextchef/entry.py")]
    assert any(row["blocks"] == size for row in parsed)
    # What the rows hold is part of what the compile retained, not more.
    assert sum(row["bytes"] for row in rows) <= found["retained"] * 1.05
