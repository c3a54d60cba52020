r"""Exchange memory with kagent-ts: a `.memory/` folder of Markdown files and a `MEMORY.md` index.

The package face re-exports the public names; each module imports only those above it::

    _layout        the folder: which file holds which key, and the `MEMORY.md` index
    _front_matter  one memory file: its front matter fields and body, read and written
    _export        `export_kagent`: every entry to a file, atomically, and the index
    _import        `import_kagent`: every file judged first, then written

The folder layout follows kagent-ts: one Markdown file per memory, each opening with a front
matter block of single-line `key: value` fields (`name`, `description`, `type`, ...), a blank
line and the memory text as the body; `MEMORY.md` lists one memory per line as a link to its
file followed by its one-line description.

kagent-ts knows three types (`rule`, `project`, `preference`). An entry of another type (or
none) is written with the nearest kagent type and its own type in `contextchef_type`, so
kagent-ts can read the folder and an import here gets the original type back.

File names are derived from keys and never leave the folder: a kebab-case key such as
`use-pnpm` becomes `use-pnpm.md`; any other key (`../x`, `Home City`, `a/b`) becomes a slug
plus a hash of the key (`../x` becomes `x-d6b96a97d1.md`). The key itself travels in the
`name` field.

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

from langchain_contextchef.interop._export import ExportedFile, ExportReceipt, export_kagent
from langchain_contextchef.interop._front_matter import (
    KAGENT_TYPES,
    parse_memory_file,
    render_memory_file,
)
from langchain_contextchef.interop._import import (
    ImportedFile,
    ImportReceipt,
    RefusedFile,
    import_kagent,
)
from langchain_contextchef.interop._layout import INDEX_FILE, file_name_for_key

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
