"""The privacy commands of `contextchef`: purge, proposals, approve/reject, audit, rotate-key,
and `--store` as a SQLite URI or with encryption keys from the environment."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from langchain_contextchef import ConsentPolicy, EncryptedStore, Memory, MemoryConfig
from langchain_contextchef.cli import main
from langchain_contextchef.encryption import generate_key
from langchain_contextchef.store import FileSystemStore

LONG_AGO = datetime(2020, 1, 1, tzinfo=timezone.utc)


def old_memory(root: Path, user: str) -> Memory:
    return Memory(FileSystemStore(root), scope=("users", user), clock=lambda: LONG_AGO)


def test_purge_applies_the_rules_to_every_scope(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / ".context"
    for user in ("ada", "bob"):
        old_memory(root, user).set("trip", "Oslo", type="event")
        old_memory(root, user).set("lang", "Python", type="fact")
    args = ["purge", "--store", str(root), "--max-age", "event=30d", "--audit"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Purged 2 scopes under (root)" in out and "2 entries moved to history" in out
    for user in ("ada", "bob"):
        memory = Memory(FileSystemStore(root), MemoryConfig(), scope=("users", user))
        assert [e.key for e in memory.list()] == ["lang"]
        assert [r.action for r in memory.audit()] == ["retained_out"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["purge"], "needs a retention rule"),
        (["purge", "--default", "soon"], "is not a duration"),
        (["purge", "--max-age", "event"], "TYPE=DURATION"),
        (["purge", "--default", "0d"], "is not a duration"),
    ],
)
def test_purge_refuses_bad_rules_before_touching_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    root = tmp_path / ".context"
    old_memory(root, "ada").set("trip", "Oslo", type="event")
    assert main([*args, "--store", str(root)]) == 2
    assert message in capsys.readouterr().err
    assert old_memory(root, "ada").get("trip") == "Oslo"


def test_proposals_are_listed_approved_and_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / ".context"
    memory = Memory(FileSystemStore(root), MemoryConfig(consent=ConsentPolicy()))
    memory.create_memory("tone", "dry")
    memory.create_memory("city", "Oslo")
    assert main(["proposals", "--store", str(root)]) == 0
    listed = capsys.readouterr().out
    tone, city = memory.proposals()
    assert tone.id in listed and city.id in listed and "Oslo" in listed
    assert main(["approve-proposal", tone.id, "--store", str(root), "--value", "bone dry"]) == 0
    assert main(["reject-proposal", city.id, "--store", str(root), "--reason", "wrong"]) == 0
    assert memory.get("tone") == "bone dry" and memory.get("city") is None
    assert main(["reject-proposal", city.id, "--store", str(root)]) == 2
    assert "it is rejected" in capsys.readouterr().err
    assert main(["proposals", "--store", str(root)]) == 0
    assert "No proposal awaits approval" in capsys.readouterr().out


def test_audit_prints_json_lines_and_writes_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / ".context"
    memory = Memory(FileSystemStore(root), MemoryConfig(audit=True))
    memory.set("tone", "dry")
    memory.update_memory("tone", "warm")
    assert main(["audit", "--store", str(root)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["action"], r["actor"]) for r in rows] == [
        ("created", "developer"),
        ("updated", "model"),
    ]
    target = tmp_path / "audit.jsonl"
    assert main(["audit", "--store", str(root), "-o", str(target), "--key", "tone"]) == 0
    assert len(target.read_text(encoding="utf-8").splitlines()) == 2


def test_commands_read_an_encrypted_store_and_rotate_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / ".context"
    old, new = generate_key(), generate_key()
    Memory(EncryptedStore(FileSystemStore(root), old)).set("tone", "SECRET-dry")
    monkeypatch.delenv("CONTEXTCHEF_ENCRYPTION_KEYS", raising=False)
    assert main(["rotate-key", "--store", str(root)]) == 2
    assert "CONTEXTCHEF_ENCRYPTION_KEYS" in capsys.readouterr().err
    monkeypatch.setenv("CONTEXTCHEF_ENCRYPTION_KEYS", new)
    assert main(["show", "tone", "--store", str(root)]) == 2
    assert "does not match" in capsys.readouterr().err
    monkeypatch.setenv("CONTEXTCHEF_ENCRYPTION_KEYS", f"{new},{old}")
    assert main(["rotate-key", "--store", str(root)]) == 0
    assert "Re-encrypted" in capsys.readouterr().out
    monkeypatch.setenv("CONTEXTCHEF_ENCRYPTION_KEYS", new)
    assert main(["show", "tone", "--store", str(root)]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "SECRET-dry"
    stored = b"".join(p.read_bytes() for p in root.rglob("*.json"))
    assert b"SECRET" not in stored


def test_a_sqlite_uri_is_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    uri = f"sqlite:///{tmp_path / 'store.db'}"
    assert main(["set", "tone", "dry", "--store", uri]) == 0
    capsys.readouterr()
    assert main(["show", "tone", "--store", uri]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "dry"
    assert main(["list", "--store", uri]) == 0
    assert "dry" in capsys.readouterr().out
    missing = f"sqlite:///{tmp_path / 'nowhere' / 'store.db'}"
    assert main(["list", "--store", missing]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_audit_says_when_there_is_nothing_because_auditing_is_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / ".context"
    Memory(FileSystemStore(root)).set("tone", "dry")  # audit is off by default
    assert main(["audit", "--store", str(root)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # still valid (empty) JSON lines
    assert "No audit records" in captured.err and "MemoryConfig(audit=True)" in captured.err
