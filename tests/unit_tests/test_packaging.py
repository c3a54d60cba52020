"""pyproject.toml keeps the packaging decisions: extras for backends and features, tools as groups."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import langchain_contextchef

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# Every extra, and what kind of option it is. A new extra must be added here on purpose.
EXTRAS = {
    "sqlite": "backend",  # LangGraph's SqliteStore
    "postgres": "backend",  # LangGraph's PostgresStore
    "vectors": "feature",  # NumPy-vectorised semantic search in FileSystemStore
    "embeddings": "feature",  # the offline embedding model (langchain_contextchef.embeddings)
    "tokenizer": "feature",  # an offline cl100k tokenizer for token budgets
    "encryption": "feature",  # EncryptedStore, through cryptography's Fernet
}


def test_extras_are_backends_and_optional_features_only() -> None:
    # Development tools must not be published as install options.
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    assert extras == set(EXTRAS)
    assert not extras & {"dev", "test", "lint", "typing", "docs"}


def test_the_changelog_and_readme_name_every_extra() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for extra in EXTRAS:
        assert f"`{extra}`" in changelog, extra
        assert f"`{extra}`" in readme, extra
    assert "are the only extras" not in changelog


def test_development_tools_are_dependency_groups() -> None:
    groups = PYPROJECT["dependency-groups"]
    assert {"test", "lint", "typing", "docs", "dev"} <= set(groups)
    included = {item["include-group"] for item in groups["dev"] if isinstance(item, dict)}
    assert included == {"test", "lint", "typing", "docs"}


def test_the_version_is_written_once() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project
    assert project["dynamic"] == ["version"]
    source = ROOT / PYPROJECT["tool"]["hatch"]["version"]["path"]
    found = re.findall(r'^__version__ = "([^"]+)"$', source.read_text(encoding="utf-8"), re.M)
    assert found == [langchain_contextchef.__version__]


def test_project_urls() -> None:
    urls = PYPROJECT["project"]["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    assert all(url.startswith("https://") for url in urls.values())


def test_the_changelog_has_an_unreleased_section_and_the_current_release() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    version = langchain_contextchef.__version__
    if re.fullmatch(r"\d+\.\d+\.\d+", version):  # a release, not a dev or rc build
        assert f"## [{version}]" in text
