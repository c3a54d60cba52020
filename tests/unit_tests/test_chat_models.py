"""The one `provider:name` model loader the demo and the evaluation command share."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from langchain_openai import ChatOpenAI

from langchain_contextchef._chat_models import ModelLoadError, load_chat_model, split_model_id
from langchain_contextchef.demo import DemoError, run_demo
from langchain_contextchef.errors import ContextChefError
from langchain_contextchef.evaluation.__main__ import main as eval_main


def test_an_id_splits_at_its_first_colon() -> None:
    assert split_model_id("openai:gpt-4.1-mini") == ("openai", "gpt-4.1-mini")
    assert split_model_id("ollama:llama3:8b") == ("ollama", "llama3:8b")
    assert split_model_id(" openai : gpt-4.1-mini ") == ("openai", "gpt-4.1-mini")


@pytest.mark.parametrize("spec", ["gpt-4.1-mini", ":gpt-4.1-mini", "openai:", " : ", ""])
def test_a_malformed_id_says_how_to_spell_one(spec: str) -> None:
    with pytest.raises(ModelLoadError) as caught:
        load_chat_model(spec)
    message = str(caught.value)
    assert repr(spec) in message
    assert "provider:name" in message
    assert "openai:gpt-4.1-mini" in message


def test_the_error_is_a_contextchef_error_and_a_value_error() -> None:
    # ValueError keeps `except ValueError` callers working; cli.py reports ContextChefError.
    assert issubclass(ModelLoadError, ContextChefError)
    assert issubclass(ModelLoadError, ValueError)


def test_a_valid_id_gives_the_providers_chat_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-placeholder")
    model = load_chat_model("openai:gpt-4.1-mini")
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "gpt-4.1-mini"


def test_a_missing_provider_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry makes the import fail as it does when the package is not installed.
    monkeypatch.setitem(sys.modules, "langchain_mistralai", None)
    with pytest.raises(ModelLoadError) as caught:
        load_chat_model("mistralai:mistral-large-latest")
    message = str(caught.value)
    assert "pip install langchain-mistralai" in message
    assert "\n" not in message


def test_an_unknown_provider_is_named_on_one_line() -> None:
    with pytest.raises(ModelLoadError) as caught:
        load_chat_model("nosuch:model")
    message = str(caught.value)
    assert "'nosuch:model'" in message
    assert "Unsupported provider='nosuch'" in message
    assert "\n" not in message


def test_a_missing_api_key_is_a_load_error_not_a_provider_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ModelLoadError) as caught:
        load_chat_model("openai:gpt-4.1-mini")
    assert "OPENAI_API_KEY" in str(caught.value)
    assert "API key" in str(caught.value)


def test_the_demo_and_the_evaluation_command_word_a_bad_id_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ModelLoadError) as loaded:
        load_chat_model("nosuch:model")
    with pytest.raises(DemoError) as demo:
        run_demo(1, store=str(tmp_path / ".context"), model="nosuch:model", out=io.StringIO())
    assert str(demo.value) == f"--model PROVIDER:NAME: {loaded.value}"
    assert not (tmp_path / ".context").exists()  # the model is loaded before the store

    table: list[str] = []
    assert eval_main(["--model", "nosuch:model", "--case", "empty_memory"], out=table.append) == 2
    assert table == []
    assert capsys.readouterr().err == f"error: --model PROVIDER:NAME: {loaded.value}\n"
