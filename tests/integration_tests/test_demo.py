"""The demo, run the way a user runs it: real subprocesses, no API key, a temp folder."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from langchain_contextchef.memory import Memory
from langchain_contextchef.store import FileSystemStore

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[2]
PREFERENCES = ("Sam", "Python", "type hints", "short", "never deploy on Fridays")


def demo(cwd: Path, *args: str) -> str:
    env = dict(os.environ)
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("OPENAI_API_KEY", None)
    env.pop("CONTEXTCHEF_COLOR", None)
    # The package is importable from the checkout even when it is not installed.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "langchain_contextchef", "demo", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "\033[" not in done.stdout  # no colour codes when not a terminal
    return done.stdout


def section(out: str, title: str) -> str:
    """The body of the step titled `title` (up to the next step or the closing lines)."""
    match = re.search(
        rf"^\[\d+\] {re.escape(title)}[^\n]*\n(.*?)(?=^\[\d+\] |^\S|\Z)", out, re.M | re.S
    )
    assert match is not None, f"no step {title!r} in:\n{out}"
    return match.group(1)


def pids(out: str) -> list[str]:
    return re.findall(r"run \d of 2 - process (\d+)", out)


def test_run_1_then_run_2_in_separate_processes(tmp_path):
    first = demo(tmp_path, "--fresh", "--run", "1")
    calls = section(first, "Model calls tools")
    assert "create_memory(key='user_name', value='Sam'" in calls
    assert "create_memory(key='deploy_rule', value='never deploy on Fridays'" in calls
    results = section(first, "Tool results")
    for key in ("user_name", "language", "code_style", "answer_length", "deploy_rule"):
        assert f"Created context://memory/{key}." in results
    # The calls run in parallel; their results are shown in the order of the calls.
    assert re.findall(r"memory/(\w+)\.", results) == re.findall(r"key='(\w+)'", calls)
    stored = section(first, "Memory now in the store")
    assert "user_name = 'Sam'" in stored
    # The memory really is on disk, in the embedded store the demo names.
    memory = Memory(FileSystemStore(tmp_path / ".context"), scope=("demo",))
    assert memory.get("deploy_rule") == "never deploy on Fridays"

    second = demo(tmp_path, "--run", "2")
    assert pids(first) != pids(second)
    prompt = section(second, "Prompt the model receives")
    assert "<memory>" in prompt
    for value in PREFERENCES:
        assert value in prompt
    answer = section(second, "Model answers")
    assert "Sam" in answer
    assert "def parse_date(text: str) -> date:" in answer  # type hints
    assert "not on a Friday" in answer
    assert "It expects year-month-day text" not in answer  # short answers


def test_run_2_without_run_1_lacks_the_preferences(tmp_path):
    out = demo(tmp_path, "--fresh", "--run", "2")
    prompt = section(out, "Prompt the model receives")
    assert "<memory>" not in prompt
    answer = section(out, "Model answers")
    assert "Sam" not in answer
    assert "-> date" not in answer
    assert "Friday" not in answer
    assert "def parse_date(text):" in answer
    assert "I don't know your release habits" in answer


def test_run_2_answers_from_whatever_memory_holds(tmp_path):
    # Not run 1's preferences: the answer follows the store, not a script of fixed turns.
    memory = Memory(FileSystemStore(tmp_path / ".context"), scope=("demo",))
    memory.set("user_name", "Ana")
    memory.set("language", "TypeScript")
    memory.set("deploy_rule", "never deploy on Mondays")
    answer = section(demo(tmp_path, "--run", "2"), "Model answers")
    assert "Ana" in answer
    assert "export function parseDate(text: string): Date" in answer
    assert "Ship it Tuesday to Friday; not on a Monday" in answer
    assert "Sam" not in answer


def test_one_command_runs_both_processes(tmp_path):
    out = demo(tmp_path, "--fresh", "--store", "nested/store")
    assert len(set(pids(out))) == 2
    assert out.index("run 1 of 2") < out.index("Created context://memory/user_name.")
    assert out.index("Created context://memory/user_name.") < out.index("run 2 of 2")
    second = out[out.index("run 2 of 2") :]
    assert "never deploy on Fridays" in section(second, "Prompt the model receives")
    assert "Sam" in section(second, "Model answers")
    assert (tmp_path / "nested" / "store").is_dir()
    assert not (tmp_path / ".context").exists()


def test_rerunning_run_1_without_fresh_changes_nothing(tmp_path):
    demo(tmp_path, "--fresh", "--run", "1")
    again = demo(tmp_path, "--run", "1")
    # Everything is already remembered with the same value: no tool call, no duplicate.
    assert "Model calls tools" not in again
    memory = Memory(FileSystemStore(tmp_path / ".context"), scope=("demo",))
    assert all(entry.update_count == 1 for entry in memory.list())
    assert len(memory.list()) == 5


def test_run_1_updates_a_preference_that_changed(tmp_path):
    from langchain_contextchef.demo import run_demo

    store = tmp_path / ".context"
    memory = Memory(FileSystemStore(store), scope=("demo",))
    memory.set("deploy_rule", "deploy on Fridays")
    out = io.StringIO()
    assert run_demo(1, store=str(store), out=out) == 0
    text = out.getvalue()
    assert (
        "modify_memory(action='update', key='deploy_rule', value='never deploy on Fridays')" in text
    )
    assert "Updated context://memory/deploy_rule." in section(text, "Tool results")
    entry = memory.get_entry("deploy_rule")
    assert entry is not None
    assert (entry.value, entry.update_count) == ("never deploy on Fridays", 2)
