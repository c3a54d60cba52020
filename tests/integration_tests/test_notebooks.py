"""The notebooks in `notebooks/`: each runs, shows its point, and its committed outputs are current.

Every notebook is executed with a real Jupyter kernel on this test's interpreter
(`notebooks/_build.py`'s `execute`, the same runner `make notebooks` records outputs with), in
a temporary working folder, with provider API keys removed from the kernel's environment.
Notebook 04 gets `CONTEXTCHEF_PG_URI` pointed at a throwaway database on the session's
PostgreSQL server (the one `CONTEXTCHEF_PG_URI` names, or a throwaway cluster); without a
server its tests skip, or fail under `CI=true`.

Staleness: the committed notebooks carry their outputs. A fresh run of each must agree with
them cell by cell after `_build.normalise`, which blanks what legitimately differs between
runs and machines (temporary paths, times, UUIDs, addresses, ports, durations); anything else
that differs means the committed outputs are stale, and the failure shows the diff per cell
and says to run `make notebooks`.

The real-model cell of each notebook runs too: with a (fake) `ANTHROPIC_API_KEY` set and
`langchain.chat_models.init_chat_model` replaced by one returning the scripted model, as the
README test does, so the code path a real key takes is exercised without a network.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError
from nbformat.notebooknode import NotebookNode

from langchain_contextchef.render import parse_memory_block
from tests.support.postgres import create_database, drop_database

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(path.name for path in NOTEBOOKS_DIR.glob("*.ipynb"))
MULTI_USER = "04_multi_user_postgres.ipynb"


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


BUILD = _load_builder()


def committed(name: str) -> NotebookNode:
    return nbformat.read(NOTEBOOKS_DIR / name, as_version=4)


# ---- running ----------------------------------------------------------------------------------

FAKE_PROVIDER = """
import langchain.chat_models

from langchain_contextchef.testing import ScriptedChatModel

requested_models = []


def fake_init_chat_model(model, **kwargs):
    requested_models.append(model)
    return ScriptedChatModel()


langchain.chat_models.init_chat_model = fake_init_chat_model
"""
"""Run before a notebook's first cell: a provider "model" that needs no network."""


@dataclass(frozen=True)
class Run:
    """One execution of a notebook: the executed notebook, its working folder, its database."""

    nb: NotebookNode
    workdir: Path
    pg_uri: str | None


def _with_fake_provider(nb: NotebookNode) -> NotebookNode:
    nb.cells.insert(0, nbformat.v4.new_code_cell(FAKE_PROVIDER, id="test-fake-provider"))
    nb.cells.append(nbformat.v4.new_code_cell("print(requested_models)", id="test-requested"))
    return nb


@pytest.fixture(scope="module")
def run_notebook(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Run]]:
    """Execute a committed notebook (outputs stripped) once per variant; cached per module.

    `fake_provider=True` sets `ANTHROPIC_API_KEY` and runs `FAKE_PROVIDER` first.
    """
    cache: dict[tuple[str, bool], Run] = {}
    databases: list[tuple[str, str]] = []

    def run(name: str, *, fake_provider: bool = False) -> Run:
        if (name, fake_provider) in cache:
            return cache[name, fake_provider]
        env = BUILD.offline_env()
        nb = BUILD.without_outputs(committed(name))
        if fake_provider:
            env["ANTHROPIC_API_KEY"] = "test-key-not-a-real-one"
            nb = _with_fake_provider(nb)
        pg_uri = None
        if name in BUILD.NEEDS_POSTGRES:
            server = request.getfixturevalue("pg_server_uri")  # skips, or fails under CI
            pg_uri = create_database(server, prefix="contextchef_nb")
            databases.append((server, pg_uri))
            env["CONTEXTCHEF_PG_URI"] = pg_uri
        workdir = tmp_path_factory.mktemp("notebook") / "work"
        workdir.mkdir()
        cache[name, fake_provider] = Run(BUILD.execute(nb, workdir, env), workdir, pg_uri)
        return cache[name, fake_provider]

    yield run
    for server, uri in databases:
        drop_database(server, uri)


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


def assert_pg_cleaned_up(pg_uri: str | None) -> None:
    if pg_uri is None:
        return
    import psycopg

    with psycopg.connect(pg_uri) as conn:
        left = conn.execute("SELECT count(*) FROM store WHERE prefix LIKE 'users.%'")
        assert left.fetchone() == (0,), "notebook 04 did not clean up its demo users"


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
        "tools offered to the model: ['create_memory', 'modify_memory', 'recall_memory', "
        "'release_calendar']" in stdout_of(nb, "first-conversation")
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
    assert "# STORE: PostgresStore, on the PostgreSQL server" in stdout_of(nb, "store")

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


def check_profiles_and_background_reflection(nb: NotebookNode) -> None:
    assert stdout_of(nb, "developer").splitlines()[1] == '{"name":"Ada"}'
    assert stdout_of(nb, "agent-turns").splitlines() == [
        "turn1: Updated context://memory/user.",
        "turn2-wrong-type: Error: the profile context://memory/user was not changed: it does "
        "not fit UserProfile: age: Input should be a valid integer, unable to parse string as "
        "an integer.",
        "turn2: Updated context://memory/user (field age).",
        "turn3-missing: Error: the profile context://memory/user was not changed: operation 1: "
        "nothing is stored at /nickname.",
        "turn3: Updated context://memory/user.",
    ]
    history = stdout_of(nb, "history").splitlines()
    assert history[3] == '4 current {"name":"Ada","city":"Oslo","age":36,"languages":["Go"]}'
    assert history[4:] == [
        "created developer 1 None",
        "updated model 2 turn1",
        "updated model 3 turn2",
        "updated model 4 turn3",
    ]
    block = (
        '<entry key="user" type="profile">{"name":"Ada","city":"Oslo","age":36,"languages":["Go"]}'
    )
    prompt = stdout_of(nb, "next-prompt")
    assert block in prompt
    assert "Profile user: {name: str, city: str, age: int, languages: [str], editor: str}" in prompt
    assert "city='Oslo', age=36, languages=['Go']" in stdout_of(nb, "restart")
    assert stdout_of(nb, "debounce").splitlines() == [
        "runs while the conversation goes on: 0",
        "due now: 1 | reflection calls: 1",
    ]
    rescheduled = stdout_of(nb, "reschedule").splitlines()
    assert rescheduled[:3] == [
        "due 30 s after the first: 0",
        "due 30 s after the second: 1",
        "[('user', 'updated')]",
    ]
    assert "editor='vim'" in rescheduled[3]
    refused, profile = stdout_of(nb, "gate").splitlines()
    assert refused.startswith("refused - the write to context://memory/user/editor was refused")
    assert "ghp_" not in refused and "editor='vim'" in profile
    assert stdout_of(nb, "middleware").splitlines()[:2] == ["pending: ['conversation-7']", "ran: 1"]
    assert "languages=['Go', 'Rust']" in stdout_of(nb, "middleware")
    server = stdout_of(nb, "server")
    assert server.startswith("reflection calls: 1\n")
    assert "'after_seconds': 60, 'multitask_strategy': 'rollback'" in server


CHECKS: dict[str, Callable[[NotebookNode], None]] = {
    "01_quickstart.ipynb": check_quickstart,
    "02_langgraph_agent.ipynb": check_langgraph_agent,
    "03_create_agent_middleware.ipynb": check_create_agent_middleware,
    "04_multi_user_postgres.ipynb": check_multi_user_postgres,
    "05_profiles_and_background_reflection.ipynb": check_profiles_and_background_reflection,
}


# ---- what each real-model cell must show (with the scripted model behind init_chat_model) -----


def real_quickstart(out: str) -> None:
    assert "  -> Created context://memory/deploy_rule." in out
    assert "not on a Friday" in out
    assert out.rstrip().endswith(
        "{'answer_length': 'short', 'deploy_rule': 'never deploy on Fridays'}"
    )


def real_langgraph_agent(out: str) -> None:
    assert "language = 'Python'" in out and "code_style = 'type hints'" in out
    assert "Sure, Sam." in out and "def parse_date(text: str) -> date:" in out


def real_create_agent_middleware(out: str) -> None:
    real_langgraph_agent(out)
    assert out.rstrip().endswith("model saw <memory>: True")


def real_multi_user_postgres(out: str) -> None:
    alice, bob = out.split("===== bob-live")
    assert "===== alice-live {'language': 'Python', 'code_style': 'type hints'}" in alice
    assert "def parse_date(text: str) -> date:" in alice and "parseDate" not in alice
    assert bob.startswith(" {'language': 'TypeScript'}") and "export function parseDate" in bob


def real_profiles_and_background_reflection(out: str) -> None:
    lines = out.splitlines()
    assert lines[1].startswith("profile after the conversation: ")
    assert lines[2].startswith("reflection: [")
    assert lines[3].startswith("profile after reflection: ")


REAL_CHECKS: dict[str, Callable[[str], None]] = {
    "01_quickstart.ipynb": real_quickstart,
    "02_langgraph_agent.ipynb": real_langgraph_agent,
    "03_create_agent_middleware.ipynb": real_create_agent_middleware,
    "04_multi_user_postgres.ipynb": real_multi_user_postgres,
    "05_profiles_and_background_reflection.ipynb": real_profiles_and_background_reflection,
}


# ---- executing tests --------------------------------------------------------------------------


def test_every_notebook_has_checks() -> None:
    assert NOTEBOOKS, "no notebooks found"
    assert set(NOTEBOOKS) == set(CHECKS) == set(REAL_CHECKS) == set(BUILD.NOTEBOOKS)


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_and_shows_its_point(name: str, run_notebook: Callable[..., Run]) -> None:
    run = run_notebook(name)
    assert_ran_cleanly(run.nb)
    CHECKS[name](run.nb)
    assert stdout_of(run.nb, "real-model").startswith("Skipped: set ANTHROPIC_API_KEY")
    # The notebook writes only into temporary folders of its own, never the working folder.
    assert list(run.workdir.iterdir()) == []
    assert_pg_cleaned_up(run.pg_uri)


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_committed_outputs_are_current(name: str, run_notebook: Callable[..., Run]) -> None:
    stale = BUILD.stale_cells(committed(name), run_notebook(name).nb)
    assert not stale, (
        f"{name}: the committed outputs are stale; run `make notebooks` and commit the result.\n"
        + "\n\n".join(stale)
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_real_model_cell_runs_the_same_flow_when_a_key_is_set(
    name: str, run_notebook: Callable[..., Run]
) -> None:
    run = run_notebook(name, fake_provider=True)
    assert_ran_cleanly(run.nb)
    assert stdout_of(run.nb, "test-requested").strip() == "['anthropic:claude-sonnet-4-5']"
    out = stdout_of(run.nb, "real-model")
    assert out.startswith("Running on anthropic:claude-sonnet-4-5.\n")
    REAL_CHECKS[name](out)
    # The scripted part before it is unchanged by the key.
    CHECKS[name](run.nb)
    assert list(run.workdir.iterdir()) == []
    assert_pg_cleaned_up(run.pg_uri)


@pytest.mark.slow
def test_multi_user_notebook_warns_and_runs_in_memory_without_a_server(tmp_path: Path) -> None:
    env = BUILD.offline_env()
    env.pop("CONTEXTCHEF_PG_URI", None)
    env.pop("CI", None)
    nb = BUILD.execute(BUILD.without_outputs(committed(MULTI_USER)), tmp_path, env)
    assert_ran_cleanly(nb)
    banner = stdout_of(nb, "store")
    assert "# WARNING: CONTEXTCHEF_PG_URI is not set: this run uses an InMemoryStore, NOT" in banner
    assert "python -m tests.support.postgres" in banner
    # Apart from the banner, the in-memory run shows exactly what the committed one does.
    differ = BUILD.stale_cells(committed(MULTI_USER), nb)
    assert len(differ) == 1 and differ[0].startswith("cell store:"), differ


@pytest.mark.slow
def test_multi_user_notebook_fails_under_ci_without_a_server(tmp_path: Path) -> None:
    env = {**BUILD.offline_env(), "CI": "true"}
    env.pop("CONTEXTCHEF_PG_URI", None)
    with pytest.raises(CellExecutionError, match="CI=true but CONTEXTCHEF_PG_URI is not set"):
        BUILD.execute(BUILD.without_outputs(committed(MULTI_USER)), tmp_path, env)


# ---- the committed files (no kernel) -----------------------------------------------------------


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_cells_match_their_generator(name: str) -> None:
    text = (NOTEBOOKS_DIR / name).read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    nbformat.validate(nb)
    assert BUILD.write_text(BUILD.without_outputs(nb)) == BUILD.render_source(name), (
        f"{name}: its cells differ from notebooks/_build.py; run `make notebooks`"
    )
    assert text == BUILD.write_text(nb), f"{name} was not written by notebooks/_build.py"
    assert BUILD.main(["--check", name]) == 0


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_committed_notebooks_carry_outputs_and_nothing_of_this_machine(name: str) -> None:
    nb = committed(name)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    # Run top to bottom in one kernel, as `make notebooks` does.
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert sum(bool(cell.outputs) for cell in code) >= len(code) // 2
    assert stdout_of(nb, "real-model").startswith("Skipped: set ANTHROPIC_API_KEY")
    secrets = [os.environ.get(key, "") for key in BUILD.PROVIDER_KEYS]
    if pg := os.environ.get("CONTEXTCHEF_PG_URI"):
        secrets.append(urlsplit(pg).password or "")
    assert BUILD.leaks(nb, tuple(s for s in secrets if s)) == []


def _notebook(*texts: str) -> NotebookNode:
    nb = nbformat.v4.new_notebook()
    for index, text in enumerate(texts):
        cell = nbformat.v4.new_code_cell("print(...)", id=f"c{index}")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        nb.cells.append(cell)
    return nb


def test_normalise_blanks_what_varies_between_runs_and_machines() -> None:
    assert (
        BUILD.normalise("at 2026-01-05T10:00:00Z in /tmp/x/y, pid 0x7f3a2c1b9e50, took 1.5 ms")
        == "at <time> in <tmp>, pid <address>, took <duration>"
    )
    assert BUILD.normalise("id 123e4567-e89b-12d3-a456-426614174000 on 127.0.0.1:54321") == (
        "id <uuid> on 127.0.0.1:<port>"
    )
    # Substance is kept: a date alone, counts, keys, short hex digests.
    kept = "2026-05-25; saved 2 fact(s); version_task~8981bd5d2d86955d5758.json"
    assert BUILD.normalise(kept) == kept


def test_stale_cells_reports_changed_substance_only() -> None:
    old = _notebook("turn 1\n", "made /tmp/abc/x at 2026-01-05 10:00:01\n")
    assert (
        BUILD.stale_cells(old, _notebook("turn 1\n", "made /tmp/zz/y at 2027-02-06 11:30:00\n"))
        == []
    )
    changed = BUILD.stale_cells(
        old, _notebook("turn 2\n", "made /tmp/abc/x at 2026-01-05 10:00:01\n")
    )
    assert len(changed) == 1
    assert changed[0].startswith("cell c0:") and "-turn 1" in changed[0] and "+turn 2" in changed[0]
    # Split streams count as one, and a missing output is a difference.
    split = _notebook("turn ", "")
    split.cells[0].outputs.append(nbformat.v4.new_output("stream", name="stdout", text="1\n"))
    split.cells[1].outputs[0].text = "made /tmp/q at 2026-01-05T10:00:01\n"
    assert BUILD.stale_cells(old, split) == []
    assert BUILD.stale_cells(old, _notebook("turn 1\n", ""))[0].startswith("cell c1:")


def test_leaks_finds_paths_uris_and_secrets() -> None:
    nb = _notebook(
        "wrote /tmp/contextchef-x/memory.json\n", "ok\n", "key sk-123 via postgresql://u:p@h/db\n"
    )
    found = BUILD.leaks(nb, ("sk-123",))
    assert found == [
        "cell c0: an absolute path",
        "cell c2: a database URI",
        "cell c2: secret #0",
    ]
    assert BUILD.leaks(_notebook("memory/answer_length.json\n")) == []
