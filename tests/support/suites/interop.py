"""The interop suite: kagent-ts `.memory/` folders in and out of the `local_store` fixture.

Subclass `InteropSuite` in a test module whose fixtures provide `local_store`: the unit tests
run it on `InMemoryStore`, the integration tests on SQLite and the file system.
"""

from __future__ import annotations

from pathlib import Path

from langgraph.store.base import BaseStore

from langchain_contextchef.entry import Provenance
from langchain_contextchef.interop import (
    INDEX_FILE,
    export_kagent,
    import_kagent,
    parse_memory_file,
)
from langchain_contextchef.memory import Memory

# Hand-written fixtures in the layout the kagent-ts docs describe: MEMORY.md with one linked
# line per memory, then `<name>.md` files with name/description/type front matter.
SEED_FOLDER = {
    "MEMORY.md": (
        "- [use-kebab-case](use-kebab-case.md) — 用户要求使用 kebab-case 命名文件\n"
        "- [migrate-to-pg](migrate-to-pg.md) — 从 MySQL 迁移到了 PostgreSQL\n"
        "- [user-prefers-pnpm](user-prefers-pnpm.md) — 用户偏好使用 pnpm\n"
    ),
    "use-kebab-case.md": (
        "---\n"
        "name: use-kebab-case\n"
        "description: 用户要求使用 kebab-case 命名文件\n"
        "type: rule\n"
        "---\n"
        "\n"
        "用户要求所有新文件使用 kebab-case 命名。\n"
        "\n"
        "**Why:** 用户偏好统一的命名风格\n"
        "**When:** 创建任何新文件或重命名现有文件时\n"
    ),
    "migrate-to-pg.md": (
        "---\n"
        "name: migrate-to-pg\n"
        "description: 从 MySQL 迁移到了 PostgreSQL\n"
        "type: project\n"
        "lastRecalledAt: 2026-03-01T10:00:00.000Z\n"
        "---\n"
        "\n"
        "项目数据库已从 MySQL 迁移到 PostgreSQL。\n"
        "\n"
        "**Why:** 需要 JSONB\n"
        "**How to apply:** 新查询只写 PostgreSQL 方言\n"
    ),
    "user-prefers-pnpm.md": (
        "---\r\n"
        'name: "user-prefers-pnpm"\r\n'
        "description: '用户偏好使用 pnpm'  \r\n"
        "type: preference # observed, not declared\r\n"
        "supersedes: [use-npm, 'use-yarn']\r\n"
        "---\r\n"
        "用户更习惯使用 pnpm。\r\n"
        "相关记忆：[[project-node-version]] [[ci-pipeline-config]]\r\n"
    ),
}

SEED_VALUES = {
    "use-kebab-case": (
        "用户要求所有新文件使用 kebab-case 命名。\n\n**Why:** 用户偏好统一的命名风格\n"
        "**When:** 创建任何新文件或重命名现有文件时"
    ),
    "migrate-to-pg": (
        "项目数据库已从 MySQL 迁移到 PostgreSQL。\n\n**Why:** 需要 JSONB\n"
        "**How to apply:** 新查询只写 PostgreSQL 方言"
    ),
    "user-prefers-pnpm": (
        "用户更习惯使用 pnpm。\n相关记忆：[[project-node-version]] [[ci-pipeline-config]]"
    ),
}


def write_folder(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (name -> text) into the folder `root`, creating it; returns `root`."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_bytes(text.encode("utf-8"))
    return root


def _entries(memory: Memory) -> list[tuple[str, str, str | None, str | None, float | None]]:
    return sorted((e.key, e.value, e.description, e.type, e.importance) for e in memory.list())


class InteropSuite:
    """kagent-ts export and import against the `local_store` fixture."""

    def test_import_reads_the_seed_layout(self, local_store: BaseStore, tmp_path: Path) -> None:
        folder = write_folder(tmp_path / ".memory", SEED_FOLDER)
        memory = Memory(local_store, scope=("users", "u1"))
        receipt = import_kagent(memory, folder)

        assert receipt.refused == ()
        assert receipt.imported_keys == ["migrate-to-pg", "use-kebab-case", "user-prefers-pnpm"]
        assert {item.action for item in receipt.imported} == {"created"}
        for key, value in SEED_VALUES.items():
            entry = memory.get_entry(key)
            assert entry is not None
            assert entry.value == value
            assert entry.provenance is not None
            assert entry.provenance.written_by == "import"
            assert entry.provenance.source == f"{key}.md"
        pnpm = memory.get_entry("user-prefers-pnpm")
        assert pnpm is not None
        assert (pnpm.type, pnpm.description) == ("preference", "用户偏好使用 pnpm")
        rule = memory.get_entry("use-kebab-case")
        assert rule is not None and rule.type == "rule"

    def test_export_writes_index_and_one_file_per_entry(
        self, local_store: BaseStore, tmp_path: Path
    ) -> None:
        memory = Memory(local_store)
        memory.set(
            "use-pnpm",
            "Use pnpm, never npm.\n\n**Why:** one lockfile",
            description="Package manager",
            type="rule",
            provenance=Provenance(written_by="reflection", source="message:m1", confidence=0.95),
        )
        memory.set("home city", "Sydney", description="Where the user lives: #1 city", type="fact")
        receipt = export_kagent(memory, tmp_path / ".memory", supersedes={"use-pnpm": ["use-npm"]})

        assert receipt.keys == ["use-pnpm", "home city"]
        names = [item.file_name for item in receipt.files]
        assert names[0] == "use-pnpm.md"
        assert names[1].startswith("home-city-") and names[1].endswith(".md")
        assert sorted(p.name for p in receipt.folder.iterdir()) == sorted([INDEX_FILE, *names])

        index = receipt.index.read_text(encoding="utf-8").splitlines()
        assert "- [use-pnpm](use-pnpm.md) — Package manager" in index
        assert f"- [home city]({names[1]}) — Where the user lives: #1 city" in index

        text = (receipt.folder / "use-pnpm.md").read_text(encoding="utf-8")
        assert text.startswith("---\nname: use-pnpm\ndescription: Package manager\ntype: rule\n")
        assert text.endswith("---\n\nUse pnpm, never npm.\n\n**Why:** one lockfile\n")
        parsed = parse_memory_file(text)
        assert parsed is not None
        fields, body = parsed
        assert fields["written_by"] == "reflection"
        assert fields["source"] == "message:m1"
        assert fields["confidence"] == "0.95"
        assert fields["supersedes"] == ["use-npm"]
        assert "created" in fields and "updated" in fields
        # A type kagent-ts does not know is written as `project`, with the original beside it.
        city = parse_memory_file((receipt.folder / names[1]).read_text(encoding="utf-8"))
        assert city is not None
        assert (city[0]["type"], city[0]["contextchef_type"]) == ("project", "fact")
        assert city[0]["description"] == "Where the user lives: #1 city"

    def test_round_trip_into_another_scope(self, local_store: BaseStore, tmp_path: Path) -> None:
        source = Memory(local_store, scope=("users", "alice"))
        source.set("use-pnpm", "Use pnpm.", description="Package manager", type="rule")
        source.set("Home City", "Sydney", description="Where: home", type="fact", importance=2)
        source.set("untyped", "  spaced: value # not a comment", description=None)
        source.set("multi", "line one\nline two", description="two\nlines", type="procedure")
        source.set(
            "quotes", "He said \"hi\" and 'bye'", description='"quoted" [list]', type="event"
        )
        source.set("弁当", "日本語の値", description="ユニコード", type="preference")
        export_kagent(source, tmp_path / ".memory")

        target = Memory(local_store, scope=("users", "alice-restored"))
        receipt = import_kagent(target, tmp_path / ".memory")
        assert receipt.refused == ()
        assert _entries(target) == _entries(source)
        restored = target.get_entry("use-pnpm")
        assert restored is not None and restored.provenance is not None
        assert restored.provenance.source == "use-pnpm.md"
