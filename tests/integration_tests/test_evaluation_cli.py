"""The evaluation command and pytest plugin, run the way a user runs them: real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from langchain_contextchef.evaluation import BUILTIN_CASES

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[2]

LEAKY_FACTORY = '''
from langchain_contextchef import ContextChef


def make_chef(store, clock):
    """Forgets the scope: every tenant reads and writes one shared namespace."""
    return ContextChef(store=store, clock=clock)
'''


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        env.pop(name, None)
    # Both the checkout and the test's folder (user modules such as a chef factory) import.
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO_ROOT), str(cwd), env.get("PYTHONPATH")])
    )
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def rows(table: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in table.splitlines():
        cells = line.split()
        if cells and cells[0] in {c.name for c in BUILTIN_CASES} | {"overall"}:
            found[cells[0]] = cells[1:]
    return found


def test_command_prints_the_table_and_exits_zero_without_leaks(tmp_path: Path) -> None:
    done = run(tmp_path, "-m", "langchain_contextchef.evaluation")
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[0].split()
    assert header[:2] == ["case", "turns"]
    table = rows(done.stdout)
    assert set(table) == {c.name for c in BUILTIN_CASES} | {"overall"}
    for name, cells in table.items():
        assert cells[4] == "0.00", f"{name} leaked: {cells}"  # the leak rate column
    assert table["overall"][2:4] == ["1.00", "1.00"]  # precision, recall
    assert table["malicious_document"][-1] == "3/3"
    assert table["empty_memory"][1:4] == ["0.0", "-", "-"]
    assert "problems: 0" in done.stdout


def test_json_report_is_written(tmp_path: Path) -> None:
    done = run(tmp_path, "-m", "langchain_contextchef.evaluation", "--json", "eval.json")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "eval.json").read_text(encoding="utf-8"))
    assert report["model"] == "scripted"
    assert report["overall"]["leak_rate"] == 0.0
    assert report["overall"]["refused_bad_writes"] == report["overall"]["bad_writes"] == 3
    huge = next(c for c in report["cases"] if c["name"] == "huge_tool_output")
    assert huge["max_prompt_tokens"] > 50_000


def test_a_leaky_factory_makes_the_command_fail(tmp_path: Path) -> None:
    (tmp_path / "leaky_chef.py").write_text(LEAKY_FACTORY, encoding="utf-8")
    done = run(
        tmp_path, "-m", "langchain_contextchef.evaluation", "--factory", "leaky_chef:make_chef"
    )
    assert done.returncode == 1, done.stdout + done.stderr
    table = rows(done.stdout)
    assert float(table["same_name_users"][4]) > 0
    assert float(table["overall"][4]) > 0
    assert "leaked" in done.stdout and "Globex Inc" in done.stdout


def test_other_backends_and_case_selection(tmp_path: Path) -> None:
    done = run(
        tmp_path,
        "-m",
        "langchain_contextchef.evaluation",
        "--store",
        "filesystem",
        "--case",
        "same_name_users",
        "--case",
        "expired_facts",
    )
    assert done.returncode == 0, done.stderr
    assert set(rows(done.stdout)) == {"same_name_users", "expired_facts", "overall"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "no-colon"], "PROVIDER:NAME"),
        (["--case", "nope"], "unknown"),
        (["--factory", "no_such_module_here:make"], "cannot import"),
        (["--factory", "missing-colon"], "MODULE:NAME"),
    ],
)
def test_usage_errors_exit_2_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    done = run(tmp_path, "-m", "langchain_contextchef.evaluation", *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_pytest_plugin_from_a_users_conftest(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "leaky_chef.py").write_text(LEAKY_FACTORY, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(
        'pytest_plugins = ["langchain_contextchef.evaluation.pytest_plugin"]\n', encoding="utf-8"
    )
    (tmp_path / "test_memory_eval.py").write_text(
        textwrap.dedent(
            """
            import pytest

            from langchain_contextchef.evaluation import assert_no_leaks


            def test_default_chef_does_not_leak(contextchef_eval):
                assert_no_leaks(contextchef_eval)
                assert contextchef_eval.recall == 1.0


            class TestLeakyChef:
                @pytest.fixture
                def contextchef_factory(self):
                    from leaky_chef import make_chef

                    return make_chef

                @pytest.fixture
                def contextchef_eval_cases(self):
                    from langchain_contextchef.evaluation import BUILTIN_CASES

                    return BUILTIN_CASES[:1]

                def test_leak_is_reported(self, contextchef_eval):
                    with pytest.raises(AssertionError, match="Globex Inc"):
                        assert_no_leaks(contextchef_eval)
            """
        ),
        encoding="utf-8",
    )
    done = run(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_memory_eval.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
