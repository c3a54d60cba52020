"""The `contextchef` command line, every command through `main(argv)`."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.cli import main, parse_scope, parse_ttl_option
from langchain_contextchef.memory import Memory
from langchain_contextchef.store import FileSystemStore


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
    assert lines[0].split() == ["VERSION", "STATUS", "VALUE", "WHEN", "CAUSE"]
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
    code, out, _ = run(capsys, "list", "--store", store_dir, "--scope", "users/bob")
    assert code == 0
    assert out.startswith("No memory")
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
    code, out, _ = run(capsys, "import", str(target), "--store", store_dir, "--scope", "copy")
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
    assert messages[1]["content"].startswith("Hi\n\n")
    assert "<memory>" in messages[1]["content"]


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
