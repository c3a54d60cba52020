"""Print the package's internal import graph and fail on cycles.

Every `import`/`from ... import` of `langchain_contextchef` counts, including imports under
`TYPE_CHECKING` and inside functions: a cycle hidden behind a lazy import is still a cycle.

    python scripts/import_graph.py            # edges, layers, and any cycle (exit 1)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = "langchain_contextchef"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Map each module of the package to the package modules it imports."""
    modules = {module_name(root, p): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base if is_package else base[:-1]
                    base = base[: len(base) - node.level + 1]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                # `from package import submodule` imports the submodule.
                targets = [
                    f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in modules else prefix
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target.startswith(PACKAGE) and target != name:
                    graph[name].add(target)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def layers(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's layer: 0 for leaves, else one more than the highest module it imports."""
    depth: dict[str, int] = {}

    def layer(node: str) -> int:
        if node not in depth:
            depth[node] = -1  # in progress; only reached again through a cycle
            depth[node] = 1 + max((layer(n) for n in graph[node]), default=-1)
        return depth[node]

    for node in graph:
        layer(node)
    return depth


def main() -> int:
    root = Path(__file__).resolve().parent.parent / PACKAGE
    graph = import_graph(root)
    cycles = find_cycles(graph)
    if cycles:
        for cycle in cycles:
            print("cycle:", " <-> ".join(cycle))
        return 1
    by_layer: dict[int, list[str]] = {}
    for module, level in layers(graph).items():
        by_layer.setdefault(level, []).append(module)
    for level in sorted(by_layer):
        print(f"layer {level}: {', '.join(sorted(by_layer[level]))}")
    print(f"{sum(map(len, graph.values()))} internal imports, no cycles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
