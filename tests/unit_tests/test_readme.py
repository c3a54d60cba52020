"""Every ```python block of README.md runs as written, so the README's snippets cannot rot.

Blocks run one by one, each in a fresh namespace and a fresh working folder (a block that
writes `./.context` writes it there). A block that is not meant to run is fenced with another
language (`bash`, `text`, ...): only the fence language decides.

Blocks get their chat model from `langchain.chat_models.init_chat_model`, as a user's code
does. The test replaces that function with one returning a `ScriptedReadmeModel`, so a block
that names a real provider runs without its package, a key or the network, and the test can
read the prompts the model received.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from benchmarks import bench_tokens

README = Path(__file__).resolve().parents[2] / "README.md"
_FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```$", re.S | re.M)


class ScriptedReadmeModel(BaseChatModel):
    """A stand-in for whatever chat model a README block names.

    It accepts any tools (`bind_tools` records their names and returns the model itself),
    keeps every message list it is called with in `prompts`, and answers each call with one
    fixed line of text and no tool calls, so an agent loop ends after one model call.

    Attributes:
        model_id: The `init_chat_model` id the block asked for.
        prompts: Every prompt received, in order.
        bound_tools: The names of the tools bound so far.
    """

    model_id: str = "scripted"
    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-readme"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedReadmeModel:
        # Tools, tool dicts, or a schema class (what `with_structured_output` binds).
        self.bound_tools.extend(
            getattr(t, "name", None)
            or (t.get("name", "?") if isinstance(t, dict) else getattr(t, "__name__", "?"))
            for t in tools
        )
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.prompts.append(list(messages))
        reply = AIMessage(f"A scripted reply standing in for {self.model_id}.")
        return ChatResult(generations=[ChatGeneration(message=reply)])


def python_blocks() -> list[tuple[int, str]]:
    """The README's ```python blocks as `(line number, code)`."""
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 1, match.group(2))
        for match in _FENCE.finditer(text)
        if match.group(1) == "python"
    ]


BLOCKS = python_blocks()


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[ScriptedReadmeModel]:
    """Scripted models in place of `init_chat_model`'s, in a temp working folder."""
    made: list[ScriptedReadmeModel] = []

    def fake_init_chat_model(model: str | None = None, **kwargs: Any) -> ScriptedReadmeModel:
        made.append(ScriptedReadmeModel(model_id=str(model)))
        return made[-1]

    import langchain.chat_models

    monkeypatch.setattr(langchain.chat_models, "init_chat_model", fake_init_chat_model)
    monkeypatch.chdir(tmp_path)
    return made


def run_block(code: str, line: int) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"readme_line_{line}"}
    exec(compile(code, f"README.md:{line}", "exec"), namespace)
    return namespace


def block_with(text: str) -> tuple[int, str]:
    found = [block for block in BLOCKS if text in block[1]]
    assert len(found) == 1, f"expected one README block with {text!r}, found {len(found)}"
    return found[0]


def test_the_readme_has_python_blocks() -> None:
    assert len(BLOCKS) >= 3


POSTGRES_URI = 'DB_URI = "postgresql://postgres:postgres@localhost:5432/postgres"'
"""The README's PostgreSQL blocks name a server by this line; the integration test
`test_readme_postgres` runs them on a throwaway database instead."""


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"line{n}" for n, _ in BLOCKS])
def test_block_runs(line: int, code: str, models: list[ScriptedReadmeModel]) -> None:
    if POSTGRES_URI in code:
        # Needs a PostgreSQL server: tests/integration_tests/test_readme_postgres.py runs it.
        pytest.skip("a PostgreSQL block; run by the integration test on a throwaway database")
    run_block(code, line)


def test_the_backends_block_writes_to_sqlite_and_the_file_store(
    models: list[ScriptedReadmeModel], capsys: pytest.CaptureFixture[str]
) -> None:
    line, code = block_with("SqliteStore.from_conn_string(")
    run_block(code, line)
    assert capsys.readouterr().out == "sqlite: Go\nasync sqlite: Go\n"
    assert Path("memory.db").is_file() and Path(".context").is_dir()


def test_the_fake_model_block_tests_an_app(
    models: list[ScriptedReadmeModel], capsys: pytest.CaptureFixture[str]
) -> None:
    line, code = block_with("FakeToolCallingModel(respond=answer)")
    namespace = run_block(code, line)
    assert capsys.readouterr().out == "run 2 answered: Somewhere vegetarian again?\n"
    # Run 1's model was shown no memory; run 2's prompt held what run 1 stored.
    entry = '<entry key="diet">vegetarian</entry>'
    assert entry not in "\n".join(m.text for m in namespace["first"].requests[0])
    assert entry in "\n".join(m.text for m in namespace["second"].requests[0])


def test_blocks_name_models_only_through_init_chat_model() -> None:
    # Anything else would reach a real provider in this test (and need its key).
    for line, code in BLOCKS:
        assert not re.search(r"\bChat(Anthropic|OpenAI|Google\w*|Bedrock\w*)\(", code), line


def test_quick_start_writes_and_injects_memory(
    models: list[ScriptedReadmeModel], capsys: pytest.CaptureFixture[str]
) -> None:
    line, code = block_with("payload = chef.compile(")
    namespace = run_block(code, line)
    assert namespace["reply"].content == "Created context://memory/lang."
    out = capsys.readouterr().out
    assert "<memory>" in out and "A terse senior engineer" in out
    assert "tools: ['create_memory', 'modify_memory', 'recall_memory']" in out
    assert out.endswith("Created context://memory/lang.\nremembered: Go\n")
    assert namespace["chef"].get_memory().get("lang") == "Go"
    block = "\n".join(m.text for m in namespace["payload"].messages)
    assert "A terse senior engineer" in block
    assert Path(".context").is_dir()  # the embedded store, in this test's own folder


def test_lcel_block_sends_memory_to_the_model(models: list[ScriptedReadmeModel]) -> None:
    line, code = block_with("chain = chef.prompt |")
    run_block(code, line)
    [model] = models
    assert model.model_id == "anthropic:claude-sonnet-4-5"
    assert {"create_memory", "modify_memory"} <= set(model.bound_tools)
    [prompt] = model.prompts
    text = "\n".join(m.text for m in prompt)
    assert "<memory>" in text and "Go" in text


def test_create_agent_block_gives_the_agent_memory(models: list[ScriptedReadmeModel]) -> None:
    line, code = block_with("def get_weather(")
    namespace = run_block(code, line)
    [model] = models
    assert {"create_memory", "modify_memory", "get_weather"} <= set(model.bound_tools)
    [prompt] = model.prompts
    text = "\n".join(m.text for m in prompt)
    assert "Lisbon" in text  # alice's memory, from the agent's store, in the model's prompt
    assert namespace["result"]["messages"][-1].text.startswith("A scripted reply")


def test_the_token_table_matches_the_bench() -> None:
    # The README's cost guide quotes `python -m benchmarks.bench_tokens`; when the prompts or
    # the tool schemas change, paste the new table into README.md.
    table = bench_tokens.markdown_table(bench_tokens.run())
    assert table in README.read_text(encoding="utf-8"), f"README's token table is stale:\n{table}"


def test_every_block_type_checks_under_mypy_strict(tmp_path: Path) -> None:
    # A user who pastes a snippet into a typed project gets no error: `reply.content` after
    # `chef.handle_tool(tool_call)` type-checks because a ToolCall gives a ToolMessage.
    from mypy import api

    files = []
    for line, code in BLOCKS:
        path = tmp_path / f"readme_line_{line}.py"
        path.write_text(code, encoding="utf-8")
        files.append(str(path))
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / ".mypy"), *files])
    assert status == 0, out + err
