"""`import_kagent`: read a kagent-ts `.memory/` folder into a memory.

Every file is read and judged first (front matter, name, duplicates, `overwrite`, types,
the write gates); only then are the accepted files written, so a refused file never leaves
a partial import. The receipt says, file by file, what was imported and what was refused.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import langchain_contextchef.memory._texts as texts
from langchain_contextchef.entry import Provenance, parse_time
from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate, WriteGate
from langchain_contextchef.interop._front_matter import body_form, parse_memory_file
from langchain_contextchef.interop._layout import INDEX_FILE
from langchain_contextchef.memory import Memory
from langchain_contextchef.memory._texts import Refusal

__all__ = ["ImportReceipt", "ImportedFile", "RefusedFile", "import_kagent"]


@dataclass(frozen=True)
class ImportedFile:
    """One file imported.

    Attributes:
        key: The key written.
        file_name: The file it came from.
        action: `created` for a new key, `updated` when it replaced an entry.
        redacted: Whether the gate replaced parts of it with placeholders.
    """

    key: str
    file_name: str
    action: Literal["created", "updated"]
    redacted: bool = False


@dataclass(frozen=True)
class RefusedFile:
    """One file not imported, and why.

    Attributes:
        file_name: The file.
        reason: Why it was not imported.
        key: The key it named, when it got that far.
    """

    file_name: str
    reason: str
    key: str | None = None


@dataclass(frozen=True)
class ImportReceipt:
    """What `import_kagent` did, file by file.

    Attributes:
        imported: Files written to memory, in file-name order.
        refused: Files not written, with reasons.
    """

    imported: tuple[ImportedFile, ...] = field(default=())
    refused: tuple[RefusedFile, ...] = field(default=())

    @property
    def imported_keys(self) -> list[str]:
        """The keys written, in order."""
        return [item.key for item in self.imported]


@dataclass(frozen=True)
class _Planned:
    file_name: str
    key: str
    value: str
    description: str | None
    type: str | None
    importance: float | None
    provenance: Provenance


def _text_field(fields: Mapping[str, str | list[str]], name: str) -> str | None:
    value = fields.get(name)
    return value if isinstance(value, str) else None


def _number(text: str | None) -> float | None:
    if text is None or not text.strip():
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    return number if number == number and abs(number) != float("inf") else None  # finite only


def _moment(text: str | None) -> Any:
    if not text:
        return None
    try:
        return parse_time(text)
    except ValueError:
        return None


def _plan_file(path: Path) -> _Planned | RefusedFile:
    name = path.name
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return RefusedFile(
            name, f"the file cannot be read as UTF-8 text ({exc.__class__.__name__})"
        )
    parsed = parse_memory_file(text)
    if parsed is None:
        return RefusedFile(name, "the file has no front matter block between '---' lines")
    fields, body = parsed
    # Unquoted values are already trimmed; a quoted name keeps its exact spelling.
    key = _text_field(fields, "name") or _text_field(fields, "key") or path.stem
    if not key.strip() or "\x00" in key:
        return RefusedFile(name, "the memory has no usable name")
    if not body:
        return RefusedFile(name, "the memory has no text after its front matter", key)
    exact = _text_field(fields, "contextchef_value")
    if exact is not None and body_form(exact) == body_form(body):
        body = exact  # unless someone edited the body since the export
    kind = _text_field(fields, "contextchef_type")
    if kind is None:
        kind = _text_field(fields, "type")
    description = _text_field(fields, "description_full")
    if description is None:
        description = _text_field(fields, "description")
    confidence = _number(_text_field(fields, "confidence"))
    if confidence is not None and not 0.0 <= confidence <= 1.0:
        confidence = None
    provenance = Provenance(
        written_by="import",
        source=name,
        confidence=confidence,
        observed_at=_moment(_text_field(fields, "observed_at")),
        sensitivity=_text_field(fields, "sensitivity") or None,
    )
    return _Planned(
        file_name=name,
        key=key,
        value=body,
        description=description or None,
        type=(kind or "").strip() or None,
        importance=_number(_text_field(fields, "importance")),
        provenance=provenance,
    )


def _judge(
    planned: _Planned, checkers: Sequence[WriteGate], *, is_new: bool, entry_count: int
) -> tuple[_Planned, bool] | str:
    """Run the gates in order over one planned write.

    Returns:
        The write as the gates left it and whether one redacted it, or why the file is refused.
    """
    redacted = False
    for checker in checkers:
        decision = checker.check(
            WriteCandidate(
                key=planned.key,
                value=planned.value,
                description=planned.description,
                type=planned.type,
                provenance=planned.provenance,
                written_by="import",
                is_new=is_new,
                entry_count=entry_count,
            )
        )
        if decision.action == "reject":
            return texts.reason(Refusal("gate", planned.key, decision=decision))
        if decision.action == "quarantine":
            found = "; ".join(dict.fromkeys(f.reason for f in decision.findings))
            return f"the write gate would hold it for review ({found}); review the file"
        redacted = redacted or decision.action == "redact"
        planned = replace(planned, value=decision.value, description=decision.description)
    return planned, redacted


def import_kagent(
    memory: Memory,
    folder: str | os.PathLike[str],
    *,
    gate: bool | WriteGate = True,
    overwrite: bool = True,
) -> ImportReceipt:
    r"""Read a kagent-ts `.memory/` folder into a memory.

    Every `*.md` file in the folder except `MEMORY.md` is read (sub-folders are not); the key
    is the `name` field (else `key`, else the file name), the body is the value. Entries are
    written with `Provenance(written_by="import", source=<file name>)`, keeping a
    `confidence`, `sensitivity` and `observed_at` found in the file. Every file is read and
    judged before anything is written, so a refused file never leaves a partial import.

    Args:
        memory: The memory to write to.
        folder: The `.memory/` folder.
        gate: `True` judges every file with the memory's own gate (or `DEFAULT_GATE` when it
            has none): a secret or an injected instruction refuses that file. A `WriteGate`
            is used as well as the memory's own. `False` skips the extra check, but a
            memory's own gate always applies.
        overwrite: Replace entries whose key already exists (kagent-ts upserts by name);
            with `False` such files are refused.

    Returns:
        The receipt: imported files and refused files with reasons.

    Raises:
        FileNotFoundError: If the folder does not exist.
        NotADirectoryError: If the path is not a folder.

    Example:
        ```python
        import tempfile
        from pathlib import Path
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.interop import import_kagent
        from langchain_contextchef.memory import Memory

        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "use-kebab-case.md").write_text(
                "---\nname: use-kebab-case\ndescription: File naming\ntype: rule\n---\n\n"
                "Name new files in kebab-case.\n"
            )
            memory = Memory(InMemoryStore())
            receipt = import_kagent(memory, folder)
        assert receipt.imported_keys == ["use-kebab-case"]
        assert memory.get("use-kebab-case") == "Name new files in kebab-case."
        ```
    """
    root = Path(folder)
    if not root.exists():
        msg = f"import_kagent(): the folder {str(root)!r} does not exist. Pass the .memory folder."
        raise FileNotFoundError(msg)
    if not root.is_dir():
        msg = f"import_kagent() needs a folder, but {str(root)!r} is a file."
        raise NotADirectoryError(msg)
    if not isinstance(gate, bool | WriteGate):
        msg = f"import_kagent(gate=...) takes True, False or a WriteGate, got {gate!r}."
        raise TypeError(msg)
    # Memory's own gate judges the writes anyway; judging up front with it too keeps the
    # import all-or-nothing per file instead of failing halfway through the writes.
    own: WriteGate | None = memory.gate
    checkers: list[WriteGate] = []
    if isinstance(gate, WriteGate):
        checkers.append(gate)
    elif gate and own is None:
        checkers.append(DEFAULT_GATE)
    if own is not None and own not in checkers:
        checkers.append(own)
    types: Sequence[str] | None = memory.memory_types

    paths = sorted(
        (p for p in root.iterdir() if p.suffix.lower() == ".md" and p.is_file()),
        key=lambda p: p.name,
    )
    existing = {entry.key for entry in memory.list()}
    count = len(existing)
    seen: set[str] = set()
    refused: list[RefusedFile] = []
    accepted: list[tuple[_Planned, bool, bool]] = []
    for path in paths:
        if path.name.casefold() == INDEX_FILE.casefold():
            continue
        planned = _plan_file(path)
        if isinstance(planned, RefusedFile):
            refused.append(planned)
            continue
        if planned.key in seen:
            reason = "an earlier file in this folder has the same name"
            refused.append(RefusedFile(planned.file_name, reason, planned.key))
            continue
        seen.add(planned.key)
        is_new = planned.key not in existing
        if not is_new and not overwrite:
            reason = "the key already exists in memory and overwrite=False"
            refused.append(RefusedFile(planned.file_name, reason, planned.key))
            continue
        if types is not None and planned.type is not None and planned.type not in types:
            reason = f"the type {planned.type!r} is not one of {', '.join(types)}"
            refused.append(RefusedFile(planned.file_name, reason, planned.key))
            continue
        judged = _judge(planned, checkers, is_new=is_new, entry_count=count)
        if isinstance(judged, str):
            refused.append(RefusedFile(planned.file_name, judged, planned.key))
            continue
        planned, redacted = judged
        count += int(is_new)
        accepted.append((planned, is_new, redacted))

    imported: list[ImportedFile] = []
    for planned, is_new, redacted in accepted:
        memory.set(
            planned.key,
            planned.value,
            description=planned.description,
            type=planned.type,
            importance=planned.importance,
            provenance=planned.provenance,
        )
        action: Literal["created", "updated"] = "created" if is_new else "updated"
        imported.append(ImportedFile(planned.key, planned.file_name, action, redacted))
    return ImportReceipt(tuple(imported), tuple(refused))
