"""Execute every notebook in `notebooks/` with a real Jupyter kernel and check what it prints.

The kernel runs this test's interpreter (`sys.executable`, through a kernelspec written to a
temporary folder, so no globally registered kernel is used), in a temporary working folder,
with this process's environment, except that notebook 04 gets `CONTEXTCHEF_PG_URI` pointed at
a throwaway database on the session's PostgreSQL server (the one `CONTEXTCHEF_PG_URI` names, or
a throwaway cluster), and runs on PostgreSQL. Without a server, notebook 04 falls back to an
`InMemoryStore` outside CI and must fail under `CI=true`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.notebooknode import NotebookNode

from langchain_contextchef.render import parse_memory_block
from tests.support.postgres import PostgresServer, create_database, drop_database

pytestmark = pytest.mark.slow

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(path.name for path in NOTEBOOKS_DIR.glob("*.ipynb"))
KERNEL_NAME = "contextchef-test-python"
CELL_TIMEOUT = 180


# ---- running ----------------------------------------------------------------------------------


def kernel_manager(tmp_path: Path) -> AsyncKernelManager:
    """A kernel manager whose only kernelspec starts ipykernel with this interpreter."""
    spec_dir = tmp_path / "kernels" / KERNEL_NAME
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "contextchef tests",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")], ensure_native_kernel=False)
    return AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs)


def execute(name: str, tmp_path: Path) -> NotebookNode:
    """Run notebook `name` top to bottom in `tmp_path/work`; raises on the first failing cell."""
    nb = nbformat.read(NOTEBOOKS_DIR / name, as_version=4)
    workdir = tmp_path / "work"
    workdir.mkdir()
    km = kernel_manager(tmp_path)
    assert km.kernel_spec is not None and km.kernel_spec.argv[0] == sys.executable
    client = NotebookClient(
        nb,
        km=km,
        timeout=CELL_TIMEOUT,
        startup_timeout=120,
        resources={"metadata": {"path": str(workdir)}},
    )
    try:
        client.execute(cleanup_kc=True)
    finally:
        if km.has_kernel:
            client._cleanup_kernel()
    return nb


def stdout_of(nb: NotebookNode, cell_id: str) -> str:
    """Everything one code cell printed to stdout."""
    cell = next((c for c in nb.cells if c.get("id") == cell_id), None)
    assert cell is not None, f"no cell with id {cell_id!r}"
    return "".join(
        out.get("text", "")
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stdout"
    )


def assert_ran_cleanly(nb: NotebookNode) -> None:
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert cell.execution_count is not None, f"cell {cell.id} did not run"
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"cell {cell.id}: {out.get('evalue')}"
            # Warnings in a tutorial are noise for users (and usually a deprecated API).
            assert out.get("name") != "stderr", f"cell {cell.id} wrote to stderr: {out['text']}"


# ---- what each notebook must show -------------------------------------------------------------


def check_quickstart(nb: NotebookNode) -> None:
    assert "A terse senior engineer" in stdout_of(nb, "set-get")

    compiled = stdout_of(nb, "compile")
    assert '<entry key="persona"' in compiled
    assert "injected_keys=['persona'], expired_keys=[], turn=1" in compiled

    assert "ToolMessage success 'Created context://memory/language.'" in stdout_of(
        nb, "handle-toolcall"
    )
    assert stdout_of(nb, "handle-mapping").splitlines() == [
        "'Updated context://memory/language.'",
        "Python 3.12",
    ]
    refused = stdout_of(nb, "handle-error")
    assert refused.startswith("'Error: ")
    assert "Allowed keys: language, answer_length, deploy_rule" in refused
    assert "tone stored: None" in refused

    # Turns(2): injected in the next two compiles, swept at the third.
    assert stdout_of(nb, "ttl").splitlines() == [
        "turn 2: injected=['persona', 'language', 'current_task'] expired=[]",
        "turn 3: injected=['persona', 'language', 'current_task'] expired=[]",
        "turn 4: injected=['persona', 'language'] expired=['current_task']",
        "current_task now: None",
    ]

    after_system, tail = stdout_of(nb, "placements").split("===== before_history_tail")
    assert after_system.index("<memory>") < after_system.index("--- human")
    assert "<memory>" in tail and tail.index("<memory>") > tail.rindex("--- human")
    # Only the stable instruction stays on top with the tail placement.
    assert "<memory>" not in tail[: tail.index("--- human")]

    written = stdout_of(nb, "lcel-write")
    assert "Created context://memory/answer_length." in written
    assert "Created context://memory/deploy_rule." in written
    assert "not on a Friday" in stdout_of(nb, "lcel-read")

    on_disk = stdout_of(nb, "on-disk").splitlines()
    assert [line for line in on_disk if line.startswith("memory/")] == [
        "memory/answer_length.json",
        "memory/deploy_rule.json",
        "memory/language.json",
        "memory/persona.json",
    ]
    assert "memory_meta/clock.json" in on_disk


def _value_in_block(text: str, key: str, value: str) -> bool:
    try:
        entries = parse_memory_block(text)
    except ValueError:
        return False
    return any((e.key, e.value) == (key, value) for e in entries)


def check_langgraph_agent(nb: NotebookNode) -> None:
    stored = stdout_of(nb, "stored")
    assert "language = 'Python'" in stored and "code_style = 'type hints'" in stored

    prompt = stdout_of(nb, "second-prompt")
    assert prompt.startswith("Write a function that parses a date.")
    assert _value_in_block(prompt, "language", "Python")
    assert _value_in_block(prompt, "code_style", "type hints")

    answer = stdout_of(nb, "second-answer")
    assert "Sure, Sam." in answer and "def parse_date(text: str) -> date:" in answer
    assert stdout_of(nb, "state-clean").strip() == "False"

    other = stdout_of(nb, "other-user")
    assert "I don't know which language you use" in other and "Sam" not in other

    asked = stdout_of(nb, "consent-ask").splitlines()
    assert asked == [
        "{'action': 'create', 'key': 'indent', 'old_value': None, 'new_value': 'tabs', "
        "'type': 'preference'}",
        "stored while waiting: None",
    ]
    resumed = stdout_of(nb, "consent-resume")
    assert "The user edited it before saving" in resumed and "stored: 4 spaces" in resumed
    assert "the user declined this write" in resumed and "keep spaces" in resumed
    assert resumed.count("stored: 4 spaces") == 2
    assert "('proposal_edited', 'user'), ('created', 'model'), ('proposal_rejected', 'user')" in (
        resumed
    )


def check_create_agent_middleware(nb: NotebookNode) -> None:
    assert (
        "tools offered to the model: ['create_memory', 'modify_memory', 'release_calendar']"
        in stdout_of(nb, "first-conversation")
    )
    assert "def parse_date(text: str) -> date:" in stdout_of(nb, "second-answer")

    seen = stdout_of(nb, "model-saw")
    assert seen.startswith("--- system (2 text block(s))\nYou are a coding assistant.\n")
    assert _value_in_block(seen, "language", "Python")

    saved_state, _, verdict = stdout_of(nb, "saved-state").rpartition("\n\n")
    assert "<memory>" not in saved_state and "Write a function that parses a date." in saved_state
    assert verdict.splitlines() == ["model saw <memory>: True", "state has <memory>: False"]
    assert stdout_of(nb, "turns").strip() == "3"


def check_multi_user_postgres(nb: NotebookNode) -> None:
    backend = stdout_of(nb, "store")
    if os.environ.get("CONTEXTCHEF_PG_URI"):
        assert backend.startswith("Using PostgresStore")
    else:
        assert backend.startswith("Note: CONTEXTCHEF_PG_URI is not set")

    lines = stdout_of(nb, "isolated").splitlines()
    alice = next(line for line in lines if line.startswith("alice {"))
    bob = next(line for line in lines if line.startswith("bob {"))
    assert "'language': 'Python'" in alice and "TypeScript" not in alice
    assert bob == "bob {'language': 'TypeScript'}"

    alice_answer, bob_answer = stdout_of(nb, "answers").split("===== bob")
    assert "def parse_date(text: str) -> date:" in alice_answer and "parseDate" not in alice_answer
    assert "export function parseDate" in bob_answer and "def parse_date" not in bob_answer

    assert stdout_of(nb, "developer").splitlines() == [
        "bob:   never deploy on Fridays",
        "alice: None",
    ]
    assert stdout_of(nb, "scope-error").startswith(
        "ScopeError: The memory scope ('users', '{user_id}') needs 'user_id'"
    )


CHECKS: dict[str, Callable[[NotebookNode], None]] = {
    "01_quickstart.ipynb": check_quickstart,
    "02_langgraph_agent.ipynb": check_langgraph_agent,
    "03_create_agent_middleware.ipynb": check_create_agent_middleware,
    "04_multi_user_postgres.ipynb": check_multi_user_postgres,
}


# ---- PostgreSQL for notebook 04 ---------------------------------------------------------------


@pytest.fixture
def notebook_pg(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str | None]:
    """Point CONTEXTCHEF_PG_URI at a throwaway database when the session has a server."""
    if postgres_server.uri is None:
        yield None
        return
    uri = create_database(postgres_server.uri, prefix="contextchef_nb")
    monkeypatch.setenv("CONTEXTCHEF_PG_URI", uri)
    yield uri
    drop_database(postgres_server.uri, uri)


# ---- tests ------------------------------------------------------------------------------------


def test_every_notebook_has_checks() -> None:
    assert NOTEBOOKS, "no notebooks found"
    assert set(NOTEBOOKS) == set(CHECKS)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_and_shows_its_point(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    pg_uri = request.getfixturevalue("notebook_pg") if name.startswith("04_") else None
    nb = execute(name, tmp_path)
    assert_ran_cleanly(nb)
    CHECKS[name](nb)
    # The notebook writes only into temporary folders of its own, never the working folder.
    assert list((tmp_path / "work").iterdir()) == []
    if pg_uri is not None:
        import psycopg

        with psycopg.connect(pg_uri) as conn:
            left = conn.execute("SELECT count(*) FROM store WHERE prefix LIKE 'users.%'")
            assert left.fetchone() == (0,), "notebook 04 did not clean up its demo users"


def test_multi_user_notebook_fails_under_ci_without_a_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("CONTEXTCHEF_PG_URI", raising=False)
    with pytest.raises(CellExecutionError, match="CI=true but CONTEXTCHEF_PG_URI is not set"):
        execute("04_multi_user_postgres.ipynb", tmp_path)


def _load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("notebooks_build", NOTEBOOKS_DIR / "_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Dataclasses look their module up in sys.modules while the class is being built.
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_notebooks_match_their_generator_and_carry_no_outputs() -> None:
    builder = _load_builder()
    assert sorted(builder.NOTEBOOKS) == NOTEBOOKS
    for name in NOTEBOOKS:
        text = (NOTEBOOKS_DIR / name).read_text(encoding="utf-8")
        assert text == builder.render(name), f"{name} is stale: run python notebooks/_build.py"
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None
