"""Loading a chat model from a `provider:name` id, the way the command lines take `--model`.

One parser and one error for every place that accepts a model id (the demo and the
evaluation command), so `openai:gpt-4.1-mini` means the same thing everywhere and a mistake
says what to fix: how to spell the id, which package to install, or that the provider could
not start (usually a missing API key).

Example:
    ```python
    from langchain_contextchef._chat_models import ModelLoadError, split_model_id

    assert split_model_id("ollama:llama3:8b") == ("ollama", "llama3:8b")
    try:
        split_model_id("gpt-4.1-mini")
    except ModelLoadError as exc:
        assert "provider:name" in str(exc)
    ```
"""

from __future__ import annotations

from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel

from langchain_contextchef.errors import ContextChefError

__all__ = ["ModelLoadError", "load_chat_model", "split_model_id"]

_EXAMPLES = "openai:gpt-4.1-mini or anthropic:claude-sonnet-4-5"


class ModelLoadError(ContextChefError, ValueError):
    """A `provider:name` model id could not be turned into a chat model; the message says why."""


def split_model_id(spec: str) -> tuple[str, str]:
    """Split `provider:name` at its first colon (a model name may hold more colons).

    Raises:
        ModelLoadError: If the id has no provider or no name.
    """
    provider, colon, name = spec.partition(":")
    if not colon or not provider.strip() or not name.strip():
        msg = f"{spec!r} is not a chat model id; write provider:name, e.g. {_EXAMPLES}."
        raise ModelLoadError(msg)
    return provider.strip(), name.strip()


def load_chat_model(spec: str) -> BaseChatModel:
    """Start the chat model a `provider:name` id names, through `init_chat_model`.

    Args:
        spec: The id, e.g. `openai:gpt-4.1-mini`.

    Returns:
        The chat model.

    Raises:
        ModelLoadError: If the id is malformed, the provider's package is not installed, or
            the provider cannot start the model (unknown provider, missing API key, ...).
    """
    provider, name = split_model_id(spec)
    try:
        model = init_chat_model(name, model_provider=provider)
    except ImportError as exc:
        msg = f"the model {spec!r} needs its provider's package: {_one_line(exc)}"
        raise ModelLoadError(msg) from exc
    except Exception as exc:  # provider packages raise many kinds; all mean "cannot start"
        msg = (
            f"cannot start the model {spec!r} ({type(exc).__name__}: {_one_line(exc)}); "
            "check the provider name and the provider's API key"
        )
        raise ModelLoadError(msg) from exc
    if not isinstance(model, BaseChatModel):
        msg = f"{spec!r} did not give a chat model (got {type(model).__name__})."
        raise ModelLoadError(msg)
    return model


def _one_line(exc: BaseException) -> str:
    # Provider errors often span paragraphs; a command line error is one line.
    return " ".join(str(exc).split())
