r"""Exchange memory with kagent-ts: a `.memory/` folder of Markdown files and a `MEMORY.md` index.

The folder layout follows kagent-ts: one Markdown file per memory, each opening with a front
matter block of single-line `key: value` fields (`name`, `description`, `type`, ...), a blank
line and the memory text as the body; `MEMORY.md` lists one memory per line as a link to its
file followed by its one-line description.

kagent-ts knows three types (`rule`, `project`, `preference`). An entry of another type (or
none) is written with the nearest kagent type and its own type in `contextchef_type`, so
kagent-ts can read the folder and an import here gets the original type back.

File names are derived from keys and never leave the folder: a kebab-case key such as
`use-pnpm` becomes `use-pnpm.md`; any other key (`../x`, `Home City`, `a/b`) becomes a slug
plus a hash of the key (`x-5d41402abc.md`). The key itself travels in the `name` field.

Example:
    ```python
    import tempfile
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.interop import export_kagent, import_kagent
    from langchain_contextchef.memory import Memory

    store = InMemoryStore()
    alice = Memory(store, scope=("users", "alice"))
    alice.set("use-pnpm", "Use pnpm, not npm.", description="Package manager", type="rule")
    with tempfile.TemporaryDirectory() as folder:
        export_kagent(alice, folder)
        copy = Memory(store, scope=("users", "alice-copy"))
        receipt = import_kagent(copy, folder)
    assert receipt.imported_keys == ["use-pnpm"]
    assert copy.get_entry("use-pnpm").type == "rule"
    ```
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_contextchef.entry import MemoryEntry, Provenance, format_time, parse_time
from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate, WriteGate
from langchain_contextchef.memory import Memory, texts
from langchain_contextchef.memory.texts import Refusal

__all__ = [
    "INDEX_FILE",
    "KAGENT_TYPES",
    "ExportReceipt",
    "ExportedFile",
    "ImportReceipt",
    "ImportedFile",
    "RefusedFile",
    "export_kagent",
    "file_name_for_key",
    "import_kagent",
    "parse_memory_file",
    "render_memory_file",
]

INDEX_FILE = "MEMORY.md"
"""The index file kagent-ts reads first."""

KAGENT_TYPES: tuple[str, ...] = ("rule", "project", "preference")
"""The memory types kagent-ts accepts; others are written as `project`."""

_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")
_FIELD = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_-]*)\s*:\s?(?P<value>.*)$")
_MAX_SLUG = 60
_RESERVED_STEMS = frozenset({"memory"})  # `memory.md` is `MEMORY.md` on case-blind disks
_NEEDS_QUOTES = re.compile(
    r"""^[\s"'\[\]{}#&*!|>%@`-]|[:#]\s|\s#|:$|\s$|[\x00-\x1f\x7f\u2028\u2029]"""
)


def file_name_for_key(key: str) -> str:
    """Return the file name a key is exported to: always a plain name inside the folder.

    Args:
        key: Any memory key.

    Returns:
        `<key>.md` for a kebab-case key, else `<slug>-<hash>.md` (or `memory-<hash>.md` when
        the key has no letters or digits).

    Example:
        ```python
        from langchain_contextchef.interop import file_name_for_key

        assert file_name_for_key("use-pnpm") == "use-pnpm.md"
        assert "/" not in file_name_for_key("../../etc/passwd")
        assert file_name_for_key("../x").startswith("x-")
        ```
    """
    if _KEBAB.match(key) and len(key) <= _MAX_SLUG and key not in _RESERVED_STEMS:
        return f"{key}.md"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    slug = _SLUG_CHARS.sub("-", key.casefold()).strip("-")[:_MAX_SLUG].strip("-")
    return f"{slug or 'memory'}-{digest}.md"


# ---- front matter ------------------------------------------------------------------------------


def _scalar(value: object) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    if text == "" or _NEEDS_QUOTES.search(text) or text.lower() in ("true", "false", "null"):
        # A JSON string is also a valid YAML double-quoted scalar.
        return json.dumps(text, ensure_ascii=False)
    return text


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            loaded = json.loads(text)
        except ValueError:
            return text[1:-1]
        return loaded if isinstance(loaded, str) else text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    return text


def _split_list(inner: str) -> list[str]:
    items: list[str] = []
    current: list[str] = []
    quote: str | None = None
    escaped = False
    for char in inner:
        if quote is not None:
            current.append(char)
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
            current.append(char)
        elif char == ",":
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return [_unquote(item) for item in items if item.strip()]


def _parse_value(raw: str) -> str | list[str]:
    text = raw.strip()
    if text.startswith("[") and text.endswith("]"):
        return _split_list(text[1:-1])
    if not text.startswith(("'", '"')) and " #" in text:
        text = text.split(" #", 1)[0].rstrip()  # a trailing YAML comment
    return _unquote(text)


def parse_memory_file(text: str) -> tuple[dict[str, str | list[str]], str] | None:
    r"""Split a memory file into its front matter fields and its body.

    Tolerant: a byte-order mark, `\r\n` line ends, blank or `#` comment lines inside the
    front matter, quoted strings (double or single), `[a, b]` lists and trailing comments are
    understood; lines that are not `key: value` are ignored. No YAML library is needed.

    Args:
        text: The file's contents.

    Returns:
        `(fields, body)` with the body stripped of surrounding whitespace, or `None` when the
        text does not open with a `---` front matter block.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    fields: dict[str, str | list[str]] = {}
    for index in range(1, len(lines)):
        line = lines[index]
        if line.strip() == "---":
            return fields, "\n".join(lines[index + 1 :]).strip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _FIELD.match(line.strip())
        if match is not None:
            fields[match.group("name").lower()] = _parse_value(match.group("value"))
    return None  # no closing fence


def _body_form(text: str) -> str:
    return text.replace("\r\n", "\n").strip()


def render_memory_file(entry: MemoryEntry, *, supersedes: Sequence[str] = ()) -> str:
    """Render one entry as a kagent-ts memory file (front matter, blank line, body).

    Args:
        entry: The entry to render.
        supersedes: Keys this entry replaced, added to the entry's own `supersedes`.

    Returns:
        The file's text.
    """
    kind = entry.type if entry.type in KAGENT_TYPES else "project"
    fields: list[tuple[str, object]] = [
        ("name", entry.key),
        ("description", " ".join((entry.description or "").split())),
        ("type", kind),
    ]
    if entry.type != kind:
        fields.append(("contextchef_type", entry.type or ""))
    if entry.value != _body_form(entry.value):
        # The body cannot carry surrounding whitespace or bare CRs; the exact text rides here.
        fields.append(("contextchef_value", entry.value))
    if entry.description is not None and entry.description != fields[1][1]:
        # The index needs one line; the exact text travels here.
        fields.append(("description_full", entry.description))
    fields += [
        ("created", format_time(entry.created_at)),
        ("updated", format_time(entry.updated_at)),
        ("update_count", entry.update_count),
    ]
    if entry.importance is not None:
        fields.append(("importance", entry.importance))
    if entry.status != "active":
        fields.append(("status", entry.status))
    provenance = entry.provenance
    if provenance is not None:
        fields.append(("written_by", provenance.written_by))
        for name in ("source", "confidence", "sensitivity", "tool_call_id"):
            value = getattr(provenance, name)
            if value is not None:
                fields.append((name, value))
        if provenance.observed_at is not None:
            fields.append(("observed_at", format_time(provenance.observed_at)))
    lines = ["---", *(f"{name}: {_scalar(value)}" for name, value in fields)]
    supersedes = list(dict.fromkeys([*entry.supersedes, *supersedes]))
    if supersedes:
        lines.append(f"supersedes: [{', '.join(_scalar(key) for key in supersedes)}]")
    lines += ["---", "", _body_form(entry.value), ""]
    return "\n".join(lines)


# ---- export ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportedFile:
    """One exported entry.

    Attributes:
        key: The entry's key.
        file_name: Its file, relative to the folder.
    """

    key: str
    file_name: str


@dataclass(frozen=True)
class ExportReceipt:
    """What `export_kagent` wrote.

    Attributes:
        folder: The folder written to.
        index: The path of `MEMORY.md`.
        files: One item per entry, in the memory's creation order.
        removed: Files the previous `MEMORY.md` listed whose entries no longer exist.
    """

    folder: Path
    index: Path
    files: tuple[ExportedFile, ...] = field(default=())
    removed: tuple[str, ...] = field(default=())

    @property
    def keys(self) -> list[str]:
        """The exported keys, in order."""
        return [item.key for item in self.files]


def _write_atomic(path: Path, text: str) -> None:
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def _index_line(entry: MemoryEntry, file_name: str) -> str:
    label = entry.key.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    label = " ".join(label.split()) or file_name
    description = " ".join((entry.description or "").split())
    return f"- [{label}]({file_name}) — {description}".rstrip(" —")


_INDEX_LINK = re.compile(r"\]\(([^()/\\]+\.md)\)")


def _previously_listed(root: Path) -> set[str]:
    """File names the folder's current `MEMORY.md` links to (plain names inside the folder)."""
    index = root / INDEX_FILE
    try:
        text = index.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return set()
    return {name for name in _INDEX_LINK.findall(text) if name.casefold() != INDEX_FILE.casefold()}


def export_kagent(
    memory: Memory,
    folder: str | os.PathLike[str],
    *,
    supersedes: Mapping[str, Sequence[str]] | None = None,
) -> ExportReceipt:
    """Write every entry of a memory as a kagent-ts `.memory/` folder.

    Each entry becomes one Markdown file (see `file_name_for_key`), written atomically, and
    `MEMORY.md` is rewritten to index them. Files the previous `MEMORY.md` listed whose entries
    are gone are removed, so a deleted memory cannot come back through a later import; other
    files in the folder are never touched. Turn and time TTLs are not exported: kagent-ts has
    no expiry.

    Args:
        memory: The memory to export.
        folder: The target folder; created if missing.
        supersedes: Keys each exported key replaced, written as its `supersedes` list.

    Returns:
        The receipt: folder, index path and one item per file.

    Raises:
        NotADirectoryError: If `folder` exists and is not a folder.

    Example:
        ```python
        import tempfile
        from pathlib import Path
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.interop import export_kagent
        from langchain_contextchef.memory import Memory

        memory = Memory(InMemoryStore())
        memory.set("use-pnpm", "Use pnpm.", description="Package manager", type="rule")
        with tempfile.TemporaryDirectory() as folder:
            receipt = export_kagent(memory, Path(folder) / ".memory")
            assert receipt.files[0].file_name == "use-pnpm.md"
            assert "- [use-pnpm](use-pnpm.md) — Package manager" in receipt.index.read_text()
        ```
    """
    root = Path(folder)
    if root.exists() and not root.is_dir():
        msg = f"export_kagent() needs a folder, but {str(root)!r} is a file. Pass a folder path."
        raise NotADirectoryError(msg)
    root.mkdir(parents=True, exist_ok=True)
    previous = _previously_listed(root)
    entries = memory.list()
    used: set[str] = {INDEX_FILE.casefold()}
    exported: list[ExportedFile] = []
    index_lines = ["# Memory index", ""]
    for entry in entries:
        name = file_name_for_key(entry.key)
        stem = name[:-3]
        counter = 2
        while name.casefold() in used:  # two keys, one file name: never overwrite
            name = f"{stem}-{counter}.md"
            counter += 1
        used.add(name.casefold())
        path = root / name
        if path.resolve().parent != root.resolve():
            msg = f"Refusing to write {name!r}: it would land outside {str(root)!r}."
            raise ValueError(msg)
        _write_atomic(
            path, render_memory_file(entry, supersedes=(supersedes or {}).get(entry.key, ()))
        )
        exported.append(ExportedFile(entry.key, name))
        index_lines.append(_index_line(entry, name))
    index = root / INDEX_FILE
    _write_atomic(index, "\n".join(index_lines) + "\n")
    stale = sorted(previous - {item.file_name for item in exported})
    for name in stale:
        with contextlib.suppress(FileNotFoundError):
            (root / name).unlink()
    return ExportReceipt(root, index, tuple(exported), tuple(stale))


# ---- import ------------------------------------------------------------------------------------


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
    if exact is not None and _body_form(exact) == _body_form(body):
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
        redacted = False
        verdict: str | None = None
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
                    entry_count=count,
                )
            )
            if decision.action == "reject":
                verdict = texts.reason(Refusal("gate", planned.key, decision=decision))
                break
            if decision.action == "quarantine":
                found = "; ".join(dict.fromkeys(f.reason for f in decision.findings))
                verdict = f"the write gate would hold it for review ({found}); review the file"
                break
            redacted = redacted or decision.action == "redact"
            planned = _Planned(
                planned.file_name,
                planned.key,
                decision.value,
                decision.description,
                planned.type,
                planned.importance,
                planned.provenance,
            )
        if verdict is not None:
            refused.append(RefusedFile(planned.file_name, verdict, planned.key))
            continue
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
