"""The `contextchef` command line, every command through `main(argv)`."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from langchain_contextchef import __version__
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.cli import main, parse_scope, parse_ttl_option
from langchain_contextchef.demo import run_demo
from langchain_contextchef.entry import Provenance
from langchain_contextchef.memory import Memory, MemoryConfig, import_snapshot
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.ttl import Turns
from tests.support.clocks import FakeClock

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store_dir(tmp_path: Path) -> str:
    return str(tmp_path / ".context")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def memory_at(store_dir: str, *scope: str) -> Memory:
    return Memory(FileSystemStore(store_dir), scope=scope)


# ---- set / show / list / delete --------------------------------------------------------------


def test_set_creates_the_store_and_show_prints_the_entry(capsys, store_dir):
    code, out, _ = run(
        capsys, "set", "lang", "Python", "--description", "Language", "--store", store_dir
    )
    assert code == 0
    assert "Created 'lang' (version 1)" in out
    code, out, _ = run(capsys, "show", "lang", "--store", store_dir)
    assert code == 0
    shown = json.loads(out)
    assert shown["key"] == "lang"
    assert shown["value"] == "Python"
    assert shown["description"] == "Language"
    assert shown["update_count"] == 1
    assert memory_at(store_dir).get("lang") == "Python"


def test_set_twice_updates_and_keeps_the_description(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--description", "Language", "--store", store_dir)
    code, out, _ = run(capsys, "set", "lang", "Rust", "--store", store_dir)
    assert code == 0
    assert "Updated 'lang' (version 2)" in out
    entry = memory_at(store_dir).get_entry("lang")
    assert entry is not None
    assert (entry.value, entry.description, entry.update_count) == ("Rust", "Language", 2)


def test_list_shows_keys_descriptions_times_and_ttls(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--description", "Language", "--store", store_dir)
    run(capsys, "set", "file", "auth.py", "--ttl", "3", "--store", store_dir)
    run(capsys, "set", "token", "abc", "--ttl", "2h", "--store", store_dir)
    code, out, _ = run(capsys, "list", "--store", store_dir)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["KEY", "VALUE", "DESCRIPTION", "UPDATED", "EXPIRES"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"lang", "file", "token"}
    assert "Language" in rows["lang"]
    assert rows["lang"].endswith("never")
    assert rows["file"].endswith("turn 3 (3 left)")
    assert "until " in rows["token"]
    entry = memory_at(store_dir).get_entry("lang")
    assert entry is not None
    assert entry.updated_at.strftime("%Y-%m-%d %H:%M:%S") in rows["lang"]


def test_list_of_an_empty_scope_says_so(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    run(capsys, "set", "gone", "soon", "--store", store_dir, "--scope", "other")
    run(capsys, "delete", "gone", "--store", store_dir, "--scope", "other")
    code, out, _ = run(capsys, "list", "--store", store_dir, "--scope", "other")
    assert code == 0
    assert out.strip() == f"No memory in scope other of store {store_dir}."


def test_ttl_spellings_reach_the_entry(capsys, store_dir):
    run(capsys, "set", "a", "x", "--ttl", "1500ms", "--store", store_dir)
    run(capsys, "set", "b", "x", "--ttl", "never", "--store", store_dir)
    run(capsys, "set", "c", "x", "--ttl", "2", "--store", store_dir)
    memory = memory_at(store_dir)
    a, b, c = (memory.get_entry(k) for k in "abc")
    assert a is not None and a.expires_at is not None
    assert a.expires_at - a.updated_at == timedelta(milliseconds=1500)
    assert b is not None and (b.expires_at, b.expires_at_turn) == (None, None)
    assert c is not None and c.expires_at_turn == 2


def test_delete_removes_the_entry(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    code, out, _ = run(capsys, "delete", "lang", "--store", store_dir)
    assert code == 0
    assert "Deleted 'lang'" in out
    assert memory_at(store_dir).get("lang") is None


def test_history_lists_every_kept_version_oldest_first(capsys, store_dir):
    run(capsys, "set", "city", "Brisbane", "--store", store_dir)
    run(capsys, "set", "city", "Sydney", "--store", store_dir)
    code, out, _ = run(capsys, "history", "city", "--store", store_dir)
    assert code == 0
    lines = out.strip().splitlines()
    assert [h.strip() for h in lines[0].split("  ") if h.strip()] == [
        "VERSION",
        "STATUS",
        "VALUE",
        "WRITTEN AT",
        "WRITTEN BY",
        "REPLACED AT",
        "REPLACED BY",
        "CAUSE",
    ]
    assert lines[1].split()[:3] == ["1", "updated", "Brisbane"]
    assert "developer" in lines[1]
    assert lines[2].split()[:3] == ["2", "current", "Sydney"]
    run(capsys, "delete", "city", "--store", store_dir)
    code, out, _ = run(capsys, "history", "city", "--store", store_dir)
    assert code == 0
    assert [line.split()[1] for line in out.strip().splitlines()[1:]] == ["updated", "deleted"]


def test_history_of_a_key_never_written_is_exit_2(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    code, out, err = run(capsys, "history", "nope", "--store", store_dir)
    assert code == 2
    assert out == ""
    assert "No entry and no history for 'nope'" in err


def test_history_columns_hold_what_their_labels_say(capsys, store_dir):
    # v1 written at T0 by the developer; replaced a day later: `city` by a model tool call,
    # `town` by a supersede. Swapping the two time columns, or the two "by" columns, fails.
    clock = FakeClock(tick=timedelta(0))
    memory = Memory(FileSystemStore(store_dir), clock=clock)
    memory.set("city", "Brisbane")
    memory.set("town", "Ipswich")
    clock.advance(days=1)
    by_tool = Provenance(written_by="model", tool_call_id="call-7")
    assert memory.update_memory("city", "Sydney", provenance=by_tool).status == "updated"
    memory.set("suburb", "Fitzroy", supersedes=["town"])
    t0, t1 = "2026-05-25 00:00:00Z", "2026-05-26 00:00:00Z"

    code, out, _ = run(capsys, "history", "city", "--store", store_dir)
    assert code == 0
    rows = table_rows(out)
    assert rows[0][3:] == ["WRITTEN AT", "WRITTEN BY", "REPLACED AT", "REPLACED BY", "CAUSE"]
    assert rows[1] == ["1", "updated", "Brisbane", t0, "developer", t1, "model", "tool call call-7"]
    assert rows[2] == ["2", "current", "Sydney", t1, "model", "-", "-", "-"]

    code, out, _ = run(capsys, "history", "town", "--store", store_dir)
    assert code == 0
    _, row = table_rows(out)
    assert row[:3] == ["1", "superseded", "Ipswich"]
    assert (row[3], row[5]) == (t0, t1)
    assert row[7] == "superseded by 'suburb'"


@pytest.mark.parametrize("command", ["show", "delete"])
def test_unknown_key_is_exit_2_with_a_hint(capsys, store_dir, command):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    code, out, err = run(capsys, command, "nope", "--store", store_dir)
    assert code == 2
    assert out == ""
    assert "No memory entry 'nope' in scope (root)" in err
    assert "contextchef list" in err
    assert memory_at(store_dir).get("lang") == "Python"


# ---- scopes and options ----------------------------------------------------------------------


def test_scopes_isolate_and_both_spellings_agree(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "users/alice")
    assert memory_at(store_dir, "users", "alice").get("lang") == "Python"
    assert memory_at(store_dir).get("lang") is None
    code, out, err = run(capsys, "list", "--store", store_dir, "--scope", "users/bob")
    assert code == 2
    assert "Scope users/bob does not exist" in err
    code, out, _ = run(
        capsys, "show", "lang", "--store", store_dir, "--scope", "users", "--scope", "alice"
    )
    assert code == 0
    assert json.loads(out)["value"] == "Python"


def test_common_options_work_before_the_command(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "team")
    code, out, _ = run(capsys, "--store", store_dir, "--scope", "team", "show", "lang")
    assert code == 0
    assert json.loads(out)["value"] == "Python"


@pytest.mark.parametrize(
    ("scope", "phrase"),
    [("a.b", "contains '.'"), ("a//b", "empty label"), ("users/{user_id}", "template")],
)
def test_bad_scope_is_exit_2(capsys, store_dir, scope, phrase):
    code, out, err = run(capsys, "set", "k", "v", "--store", store_dir, "--scope", scope)
    assert code == 2
    assert phrase in err
    assert not Path(store_dir).exists()  # nothing was created


@pytest.mark.parametrize(
    "command", [["list"], ["show", "k"], ["delete", "k"], ["turns"], ["export"]]
)
def test_missing_store_is_exit_2_for_read_commands(capsys, tmp_path, command):
    missing = str(tmp_path / "nowhere")
    code, out, err = run(capsys, *command, "--store", missing)
    assert code == 2
    assert f"No store at {missing}" in err
    assert not Path(missing).exists()  # reading never creates the folder


def test_store_path_that_is_a_file_is_exit_2(capsys, tmp_path):
    path = tmp_path / "file.txt"
    path.write_text("x")
    code, _, err = run(capsys, "set", "k", "v", "--store", str(path))
    assert code == 2
    assert "is a file" in err


def test_bad_ttl_is_exit_2_and_writes_nothing(capsys, store_dir):
    run(capsys, "set", "k", "old", "--store", store_dir)
    code, _, err = run(capsys, "set", "k", "new", "--ttl", "soon", "--store", store_dir)
    assert code == 2
    assert "--ttl 'soon' is not a TTL" in err
    assert memory_at(store_dir).get("k") == "old"


def test_usage_mistakes_are_exit_2(capsys):
    code, _, err = run(capsys, "frobnicate")
    assert code == 2
    assert "invalid choice" in err
    code, _, err = run(capsys, "show")
    assert code == 2
    assert "key" in err
    code, out, _ = run(capsys)
    assert code == 2
    assert "COMMAND" in out


def test_help_is_exit_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "preview" in out


def test_parse_helpers():
    assert parse_scope(["users/alice", "chat"]) == ("users", "alice", "chat")
    assert parse_scope(None) == ()
    assert parse_ttl_option("0") == 0
    assert parse_ttl_option("NEVER") is None
    assert parse_ttl_option("30s") == timedelta(seconds=30)
    assert parse_ttl_option("7d") == timedelta(days=7)
    assert parse_ttl_option("250ms") == {"ms": 250}


# ---- turns / export / import -----------------------------------------------------------------


def test_turns_shows_the_persisted_clock(capsys, store_dir):
    run(capsys, "set", "file", "auth.py", "--ttl", "5", "--store", store_dir)
    code, out, _ = run(capsys, "turns", "--store", store_dir)
    assert code == 0
    assert "Turn clock of scope (root)" in out
    assert ": 0 (" in out
    chef = ContextChef(store=FileSystemStore(store_dir))
    chef.compile([HumanMessage("hi")])
    chef.compile([HumanMessage("hi")])
    code, out, _ = run(capsys, "turns", "--store", store_dir)
    assert ": 2 (" in out
    assert "file: expires turn 5 (3 left)" in out


def test_export_to_stdout_and_to_a_file(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--description", "Language", "--store", store_dir)
    code, out, _ = run(capsys, "export", "--store", store_dir)
    assert code == 0
    snapshot = json.loads(out)
    assert snapshot == memory_at(store_dir).snapshot()
    target = tmp_path / "snap.json"
    code, out, _ = run(capsys, "export", str(target), "--store", store_dir)
    assert code == 0
    assert "Exported 1 entry" in out
    assert json.loads(target.read_text()) == snapshot


def test_import_replaces_the_scope(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    run(capsys, "set", "style", "terse", "--store", store_dir)
    target = tmp_path / "snap.json"
    run(capsys, "export", str(target), "--store", store_dir)
    run(capsys, "set", "extra", "gone soon", "--store", store_dir, "--scope", "copy")
    code, out, _ = run(
        capsys, "import", str(target), "--store", store_dir, "--scope", "copy", "--replace"
    )
    assert code == 0
    assert "Imported 2 entries" in out
    copy = memory_at(store_dir, "copy")
    assert {e.key: e.value for e in copy.list()} == {"lang": "Python", "style": "terse"}


def test_import_from_stdin(capsys, store_dir, monkeypatch):
    snapshot = {
        "version": 1,
        "turn": 4,
        "entries": [
            {
                "key": "lang",
                "value": "Go",
                "created_at": "2026-01-01T00:00:00.000000Z",
                "updated_at": "2026-01-01T00:00:00.000000Z",
            }
        ],
    }
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(snapshot)))
    code, out, _ = run(capsys, "import", "-", "--store", store_dir)
    assert code == 0
    assert "turn clock set to 4" in out
    memory = memory_at(store_dir)
    assert memory.get("lang") == "Go"
    assert memory.turn == 4


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        ("{not json", "is not valid JSON"),
        ('{"version": 2, "turn": 0, "entries": []}', "not a memory snapshot"),
        (
            '{"version": 1, "turn": 0, "entries": [{"key": "k", "value": 5}]}',
            "not a memory snapshot",
        ),
        ('{"version": 1, "turn": -1, "entries": []}', "turn"),
    ],
)
def test_bad_import_file_leaves_the_store_unchanged(capsys, store_dir, tmp_path, content, phrase):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    before = memory_at(store_dir).snapshot()
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, out, err = run(capsys, "import", str(bad), "--store", store_dir)
    assert code == 2
    assert phrase in err
    assert memory_at(store_dir).snapshot() == before


def test_import_of_a_missing_file_is_exit_2(capsys, store_dir, tmp_path):
    code, _, err = run(capsys, "import", str(tmp_path / "nope.json"), "--store", store_dir)
    assert code == 2
    assert "no such file" in err
    assert not Path(store_dir).exists()


# ---- preview ---------------------------------------------------------------------------------


def _messages_file(tmp_path: Path) -> str:
    path = tmp_path / "messages.json"
    path.write_text(
        json.dumps(
            [
                {"role": "system", "content": "You help."},
                {"role": "user", "content": "What language do I use?"},
            ]
        )
    )
    return str(path)


def test_preview_prints_the_compiled_prompt_without_touching_the_store(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    run(capsys, "set", "scratch", "temp", "--ttl", "0", "--store", store_dir)
    before = memory_at(store_dir).snapshot()
    code, out, _ = run(capsys, "preview", _messages_file(tmp_path), "--store", store_dir)
    assert code == 0
    assert "Memory injected: lang. Would expire first: scratch." in out
    assert "--- message 1: system ---\nYou help." in out
    assert "<memory>" in out
    assert "Python" in out
    assert "--- message 3: human ---\nWhat language do I use?" in out
    # No sweep, no advance: the real store is exactly as before.
    assert memory_at(store_dir).snapshot() == before
    assert memory_at(store_dir).turn == 0


def test_preview_matches_what_a_real_compile_produces(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    code, out, _ = run(capsys, "preview", _messages_file(tmp_path), "--json", "--store", store_dir)
    assert code == 0
    previewed = json.loads(out)
    payload = ContextChef(store=FileSystemStore(store_dir)).compile(
        [SystemMessage("You help."), HumanMessage("What language do I use?")]
    )
    assert previewed == [{"role": m.type, "content": m.content} for m in payload.messages]


def test_preview_from_stdin_with_tail_placement(capsys, store_dir, monkeypatch):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    monkeypatch.setattr("sys.stdin", io.StringIO('[{"role": "user", "content": "Hi"}]'))
    code, out, _ = run(
        capsys, "preview", "-", "--placement", "before_history_tail", "--json", "--store", store_dir
    )
    assert code == 0
    messages = json.loads(out)
    assert [m["role"] for m in messages] == ["system", "human"]
    assert "<memory>" not in messages[0]["content"]
    own, data = messages[1]["content"]  # the user's text, then memory as a block of its own
    assert own == {"type": "text", "text": "Hi"}
    assert "<memory>" in data["text"]


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        ("[]", "non-empty JSON list of messages"),
        ('{"role": "user"}', "non-empty JSON list of messages"),
        ('[{"role": "wizard", "content": "x"}]', "cannot read"),
        ("[", "is not valid JSON"),
    ],
)
def test_preview_of_bad_messages_is_exit_2(capsys, store_dir, tmp_path, content, phrase):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    path = tmp_path / "m.json"
    path.write_text(content)
    code, _, err = run(capsys, "preview", str(path), "--store", store_dir)
    assert code == 2
    assert phrase in err
    assert memory_at(store_dir).turn == 0


def test_preview_of_a_missing_store_is_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "preview", _messages_file(tmp_path), "--store", str(tmp_path / "x"))
    assert code == 2
    assert "No store at" in err


# ---- demo ------------------------------------------------------------------------------------


def test_demo_run_1_in_process_writes_memory_the_cli_lists(capsys, store_dir):
    code, out, _ = run(capsys, "demo", "--fresh", "--run", "1", "--store", store_dir)
    assert code == 0
    assert "Created context://memory/user_name." in out
    code, out, _ = run(capsys, "list", "--store", store_dir, "--scope", "demo")
    assert code == 0
    keys = {line.split()[0] for line in out.splitlines()[1:]}
    assert keys == {"user_name", "language", "code_style", "answer_length", "deploy_rule"}


def test_demo_with_a_malformed_model_name_is_exit_2(capsys, store_dir):
    code, _, err = run(capsys, "demo", "--run", "1", "--model", "gpt", "--store", store_dir)
    assert code == 2
    assert "provider:name" in err


# ---- scopes, and reads in a scope that does not exist -----------------------------------------


def table_rows(out: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in out.strip().splitlines()]


def test_scopes_lists_each_scope_with_its_entries_and_turn(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    run(capsys, "set", "a", "1", "--store", store_dir, "--scope", "users/alice")
    run(capsys, "set", "b", "2", "--store", store_dir, "--scope", "users/alice")
    run(capsys, "set", "c", "3", "--store", store_dir, "--scope", "users/bob")
    ContextChef(store=FileSystemStore(store_dir), scope=("users", "bob")).compile(
        [HumanMessage("hi")]
    )
    code, out, _ = run(capsys, "scopes", "--store", store_dir)
    assert code == 0
    assert table_rows(out) == [
        ["SCOPE", "ENTRIES", "TURN"],
        ["(root)", "1", "0"],
        ["users/alice", "2", "0"],
        ["users/bob", "1", "1"],
    ]
    code, out, _ = run(capsys, "scopes", "--store", store_dir, "--scope", "users")
    assert code == 0
    assert [row[0] for row in table_rows(out)] == ["SCOPE", "users/alice", "users/bob"]


def test_scopes_keeps_a_scope_whose_entries_were_all_deleted(capsys, store_dir):
    run(capsys, "set", "a", "1", "--store", store_dir, "--scope", "team")
    run(capsys, "delete", "a", "--store", store_dir, "--scope", "team")
    code, out, _ = run(capsys, "scopes", "--store", store_dir)
    assert code == 0
    assert table_rows(out)[1:] == [["team", "0", "0"]]


def test_scopes_of_an_empty_store_says_so(capsys, tmp_path):
    code, out, _ = run(capsys, "scopes", "--store", str(tmp_path))
    assert code == 0
    assert out.strip() == f"No memory in store {tmp_path}."


def test_a_typo_in_the_scope_is_exit_2_with_a_suggestion(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "demo")
    run(capsys, "set", "lang", "Go", "--store", store_dir, "--scope", "users/alice")
    before = Path(store_dir).rglob("*")
    names_before = sorted(str(p) for p in before)
    code, out, err = run(capsys, "list", "--store", store_dir, "--scope", "dmeo")
    assert code == 2
    assert out == ""
    assert f"Scope dmeo does not exist in store {store_dir}" in err
    assert "Did you mean demo?" in err
    assert "Scopes in this store: demo, users/alice (see 'contextchef scopes')" in err
    # Reading a missing scope created nothing.
    assert sorted(str(p) for p in Path(store_dir).rglob("*")) == names_before


def test_the_root_scope_of_a_store_that_has_only_named_scopes_points_at_them(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "demo")
    code, _, err = run(capsys, "list", "--store", store_dir)
    assert code == 2
    assert "Scope (root) does not exist" in err
    assert "Scopes in this store: demo" in err


def test_a_parent_scope_names_the_scopes_under_it(capsys, store_dir):
    for user in ("alice", "bob", "carol"):
        run(capsys, "set", "k", "v", "--store", store_dir, "--scope", f"tenants/acme/{user}")
    code, _, err = run(capsys, "list", "--store", store_dir, "--scope", "tenants")
    assert code == 2
    assert "Scopes under it: tenants/acme/alice, tenants/acme/bob, tenants/acme/carol." in err


def test_a_store_with_no_memory_at_all_says_so(capsys, tmp_path):
    code, _, err = run(capsys, "list", "--store", str(tmp_path))
    assert code == 2
    assert "The store holds no memory at all yet." in err


@pytest.mark.parametrize(
    "command",
    [["list"], ["show", "lang"], ["delete", "lang"], ["history", "lang"], ["turns"], ["export"]],
)
def test_every_read_command_refuses_an_unknown_scope(capsys, store_dir, command):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "demo")
    before = memory_at(store_dir, "demo").snapshot()
    code, out, err = run(capsys, *command, "--store", store_dir, "--scope", "dmeo")
    assert code == 2
    assert out == ""
    assert "Scope dmeo does not exist" in err
    assert "Did you mean demo?" in err
    assert memory_at(store_dir, "demo").snapshot() == before


def test_preview_refuses_an_unknown_scope(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "demo")
    code, out, err = run(
        capsys, "preview", _messages_file(tmp_path), "--store", store_dir, "--scope", "dmeo"
    )
    assert code == 2
    assert "Did you mean demo?" in err


def test_an_unknown_key_in_an_existing_scope_is_still_about_the_key(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir, "--scope", "demo")
    code, _, err = run(capsys, "show", "nope", "--store", store_dir, "--scope", "demo")
    assert code == 2
    assert "No memory entry 'nope' in scope demo" in err
    assert "does not exist" not in err


def test_version_option(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"contextchef {__version__}"


# ---- export -o ---------------------------------------------------------------------------------


def test_export_with_output_option(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    for flag in ("-o", "--output"):
        target = tmp_path / f"snap{flag}.json"
        code, out, _ = run(capsys, "export", flag, str(target), "--store", store_dir)
        assert code == 0
        assert (
            out.strip() == f"Exported 1 entry from scope (root) of store {store_dir} to {target}."
        )
        assert json.loads(target.read_text()) == memory_at(store_dir).snapshot()
    code, out, _ = run(capsys, "export", "-o", "-", "--store", store_dir)
    assert code == 0
    assert json.loads(out) == memory_at(store_dir).snapshot()


def test_export_output_mistakes_are_exit_2_and_write_nothing(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    code, _, err = run(capsys, "export", str(a), "-o", str(b), "--store", store_dir)
    assert code == 2
    assert "either -o" in err
    missing = tmp_path / "no" / "such" / "folder" / "x.json"
    code, _, err = run(capsys, "export", "-o", str(missing), "--store", store_dir)
    assert code == 2
    assert "does not exist" in err
    code, _, err = run(capsys, "export", "-o", str(tmp_path), "--store", store_dir)
    assert code == 2
    assert "it is a folder" in err
    assert not a.exists() and not b.exists() and not missing.parent.exists()


# ---- import --replace, history kept ---------------------------------------------------------


def snapshot_file(tmp_path: Path, entries: list[dict], turn: int = 0) -> str:
    path = tmp_path / "snap.json"
    stamp = "2026-01-01T00:00:00.000000Z"
    full = [{"created_at": stamp, "updated_at": stamp, **e} for e in entries]
    path.write_text(json.dumps({"version": 1, "turn": turn, "entries": full}))
    return str(path)


def test_import_into_a_scope_that_holds_memory_needs_replace(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    run(capsys, "set", "style", "terse", "--store", store_dir)
    before = memory_at(store_dir).snapshot()
    snap = snapshot_file(tmp_path, [{"key": "lang", "value": "Go"}])
    code, out, err = run(capsys, "import", snap, "--store", store_dir)
    assert code == 2
    assert out == ""
    assert "already holds 2 entries (lang, style); nothing was imported" in err
    assert "--replace" in err
    assert memory_at(store_dir).snapshot() == before
    assert memory_at(store_dir).history("lang")[0].status == "current"


def test_import_replace_keeps_what_it_replaces_in_history(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    run(capsys, "set", "style", "terse", "--store", store_dir)
    snap = snapshot_file(
        tmp_path,
        [
            {"key": "lang", "value": "Go", "description": "Language", "type": "preference"},
            {"key": "editor", "value": "vim"},
        ],
    )
    code, out, _ = run(capsys, "import", snap, "--store", store_dir, "--replace")
    assert code == 0
    assert "Imported 2 entries" in out
    assert "2 written, 1 removed (style)" in out
    assert "contextchef history KEY" in out
    memory = memory_at(store_dir)
    assert {e.key: e.value for e in memory.list()} == {"lang": "Go", "editor": "vim"}
    lang = memory.get_entry("lang")
    assert lang is not None
    assert (lang.version, lang.description, lang.type) == (2, "Language", "preference")
    assert lang.provenance is not None
    assert (lang.provenance.written_by, lang.provenance.source) == ("import", snap)
    assert lang.provenance.observed_at == datetime(2026, 1, 1, tzinfo=timezone.utc)
    history = memory.history("lang")
    assert [(r.version, r.status, r.entry.value, r.changed_by) for r in history] == [
        (1, "updated", "Python", "import"),
        (2, "current", "Go", None),
    ]
    assert [(r.status, r.entry.value) for r in memory.history("style")] == [("deleted", "terse")]
    # The CLI shows the same history, labelled.
    code, out, _ = run(capsys, "history", "lang", "--store", store_dir)
    rows = table_rows(out)
    assert rows[1][:2] == ["1", "updated"]
    assert rows[1][4] == "developer"  # written by
    assert rows[1][6] == "import"  # replaced by
    assert rows[2][:2] == ["2", "current"]
    assert rows[2][4] == "import"


def test_importing_the_same_file_twice_writes_nothing_new(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--description", "Language", "--store", store_dir)
    target = tmp_path / "out.json"
    run(capsys, "export", "-o", str(target), "--store", store_dir)
    code, out, _ = run(capsys, "import", str(target), "--store", store_dir, "--replace")
    assert code == 0
    assert "0 written, 1 already as in the file" in out
    assert "history" not in out
    entry = memory_at(store_dir).get_entry("lang")
    assert entry is not None and entry.version == 1
    assert len(memory_at(store_dir).history("lang")) == 1


def test_import_does_not_inherit_fields_the_file_leaves_out(capsys, store_dir, tmp_path):
    run(capsys, "set", "lang", "Python", "--description", "Language", "--store", store_dir)
    snap = snapshot_file(tmp_path, [{"key": "lang", "value": "Go"}])
    code, _, _ = run(capsys, "import", snap, "--store", store_dir, "--replace")
    assert code == 0
    memory = memory_at(store_dir)
    entry = memory.get_entry("lang")
    assert entry is not None
    assert (entry.value, entry.description, entry.version) == ("Go", None, 2)
    old = memory.history("lang")[0]
    assert (old.version, old.entry.description) == (1, "Language")


def test_import_keeps_the_turn_clock_and_expiries(capsys, store_dir, tmp_path):
    later = (datetime.now(timezone.utc) + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    snap = snapshot_file(
        tmp_path,
        [
            {"key": "file", "value": "auth.py", "expires_at_turn": 7},
            {"key": "token", "value": "t", "expires_at": later},
        ],
        turn=5,
    )
    code, out, _ = run(capsys, "import", snap, "--store", store_dir)
    assert code == 0
    assert "turn clock set to 5" in out
    memory = memory_at(store_dir)
    assert memory.turn == 5
    file, token = memory.get_entry("file"), memory.get_entry("token")
    assert file is not None and file.expires_at_turn == 7
    assert token is not None and token.expires_at is not None
    assert abs(token.expires_at - datetime.fromisoformat(later.replace("Z", "+00:00"))) < timedelta(
        seconds=5
    )


@pytest.mark.parametrize(
    ("extra", "phrase"),
    [
        ({"status": "quarantined"}, "quarantined"),
        (
            {"expires_at_turn": 3, "expires_at": "2030-01-01T00:00:00Z"},
            "both at a turn and at a time",
        ),
    ],
)
def test_import_refuses_what_it_cannot_reproduce(capsys, store_dir, tmp_path, extra, phrase):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    before = memory_at(store_dir).snapshot()
    snap = snapshot_file(tmp_path, [{"key": "lang", "value": "Go", **extra}])
    code, _, err = run(capsys, "import", snap, "--store", store_dir, "--replace")
    assert code == 2
    assert phrase in err
    assert "nothing was imported" in err
    assert memory_at(store_dir).snapshot() == before


def test_import_snapshot_rehearses_before_writing(tmp_path):
    # A config that refuses one of the file's types: the rehearsal fails first, so not even
    # the deletes that would have come before the refused write reach the store.
    events = []
    config = MemoryConfig(memory_types=("fact",), on_memory_changed=events.append)
    memory = Memory(FileSystemStore(tmp_path), config)
    memory.set("old", "x")
    events.clear()
    before = memory.snapshot()
    stamp = "2026-01-01T00:00:00.000000Z"
    snapshot = {
        "version": 1,
        "turn": 0,
        "entries": [
            {"key": "a", "value": "1", "type": "fact", "created_at": stamp, "updated_at": stamp},
            {"key": "b", "value": "2", "type": "mood", "created_at": stamp, "updated_at": stamp},
        ],
    }
    with pytest.raises(ValueError, match="not a memory type"):
        import_snapshot(memory, snapshot, source="test")
    assert memory.snapshot() == before
    assert events == []  # hooks never saw the rehearsal


def test_import_snapshot_runs_hooks_once_per_real_change(tmp_path):
    events = []
    memory = Memory(FileSystemStore(tmp_path), MemoryConfig(on_memory_changed=events.append))
    memory.set("old", "x", ttl=Turns(3), provenance=Provenance(written_by="model"))
    events.clear()
    stamp = "2026-01-01T00:00:00.000000Z"
    entry = {"key": "new", "value": "y", "created_at": stamp, "updated_at": stamp}
    report = import_snapshot(memory, {"version": 1, "turn": 0, "entries": [entry]}, source="t")
    assert (report.written, report.removed, report.unchanged) == (("new",), ("old",), ())
    assert sorted((e.type, e.key) for e in events) == [("delete", "old"), ("set", "new")]


# ---- a closed pipe -----------------------------------------------------------------------------


def _cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


@pytest.mark.parametrize(
    ("command", "read_first"),
    [
        # `list` prints less than a pipe holds: the reader leaves before the command writes.
        (["list"], 0),
        # These print far more than a pipe holds: the reader takes a little, then leaves while
        # the command is still writing, as `head -c 10` does.
        (["export"], 10),
        (["show", "big"], 10),
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(store_dir, command, read_first):
    memory = Memory(FileSystemStore(store_dir))
    memory.set("big", "x" * 300_000)
    for index in range(20):
        memory.set(f"key{index}", f"value {index}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "langchain_contextchef", *command, "--store", store_dir],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_cli_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    if read_first:
        assert len(proc.stdout.read(read_first)) == read_first
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert err == ""
    assert code == 141


def test_a_pipe_into_head_prints_no_error(store_dir):
    memory = Memory(FileSystemStore(store_dir))
    memory.set("big", "x" * 300_000)
    shell = f"{shlex.quote(sys.executable)} -m langchain_contextchef export --store {shlex.quote(store_dir)} | head -c 20"
    done = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, env=_cli_env(), timeout=120
    )
    assert done.returncode == 0
    assert done.stdout == '{\n  "version": 1,\n  "'[:20]
    assert done.stderr == ""


# ---- the demo's closing hint -------------------------------------------------------------------


def test_the_demo_hint_is_a_command_that_works(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert run_demo(1, store=".context", fresh=True, out=out) == 0
    assert run_demo(2, store=".context", out=out) == 0
    hint = re.search(r"^Inspect the memory: (.+)$", out.getvalue(), re.M)
    assert hint is not None
    argv = shlex.split(hint.group(1))
    assert argv[-4:] == ["--store", ".context", "--scope", "demo"]
    done = subprocess.run(argv, capture_output=True, text=True, env=_cli_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    keys = {row[0] for row in table_rows(done.stdout)[1:]}
    assert keys == {"user_name", "language", "code_style", "answer_length", "deploy_rule"}


def test_preview_of_plain_text_is_one_user_message(capsys, store_dir):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    code, out, _ = run(capsys, "preview", "What language do I use?", "--store", store_dir)
    assert code == 0
    assert "Memory injected: lang." in out
    assert "--- message 2: human ---\nWhat language do I use?" in out
    assert memory_at(store_dir).turn == 0


@pytest.mark.parametrize(
    ("given", "phrase"),
    [("missing.json", "no such file"), ('[{"role": "user"', "looks like JSON but is not a file")],
)
def test_preview_of_a_missing_file_or_inline_json_is_exit_2(capsys, store_dir, given, phrase):
    run(capsys, "set", "lang", "Python", "--store", store_dir)
    code, out, err = run(capsys, "preview", given, "--store", store_dir)
    assert (code, out) == (2, "")
    assert phrase in err


def test_store_help_names_the_url_forms(capsys):
    code, out, _ = run(capsys, "list", "--help")
    assert code == 0
    out = " ".join(out.split())
    assert "postgresql://user:pw@host/db" in out and "sqlite:///path/store.db" in out
