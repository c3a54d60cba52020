#!/usr/bin/env bash
# Install langchain-contextchef into throwaway projects outside this checkout, the three ways
# README's "Install into your own project" gives, and run README's Quick start and fake-model
# example ("Testing your agent") in each, and its FileSystemStore/SQLite backends block where
# the sqlite extra is installed:
#   1. pip install "<checkout>[postgres]"
#   2. a wheel built with `python -m pip wheel --no-deps`, installed with an extra
#   3. a project whose pyproject.toml depends on "langchain-contextchef[sqlite] @ file://<checkout>"
# Each gets a fresh virtual environment in a temporary folder, removed at the end.
# Usage: scripts/install_check.sh   (PYTHON=python3.12 to pick the interpreter)
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The first ```python block after a README heading, exactly as the README shows it.
readme_block() {  # readme_block HEADING OUTPUT
  "$PYTHON" - "$checkout/README.md" "$1" >"$2" <<'EOF'
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index(sys.argv[2]) :]
print(re.search(r"^```python\n(.*?)^```$", section, re.S | re.M).group(1))
EOF
}
readme_block "## Quick start" "$work/quickstart.py"
# The backends (FileSystemStore, SqliteStore and its async variant; needs the sqlite extra) and
# the fake model testing an app: README blocks a newcomer copies into a fresh project.
readme_block "## Backends" "$work/backends.py"
readme_block "## Testing your agent" "$work/fake_model.py"
# Checks that the installed copy is the one used, then runs the Quick start in the project.
cat >>"$work/quickstart.py" <<'EOF'

import importlib.metadata
import pathlib
import sys

import langchain_contextchef

location = pathlib.Path(langchain_contextchef.__file__).resolve()
assert pathlib.Path(sys.prefix).resolve() in location.parents, f"imported from {location}"
assert importlib.metadata.version("langchain-contextchef") == langchain_contextchef.__version__
assert chef.get_memory().get("lang") == "Go"
print(f"quick start ok: langchain-contextchef {langchain_contextchef.__version__} from {location}")
EOF

new_env() {
  "$PYTHON" -m venv "$1"
  "$1/bin/python" -m pip install --quiet --upgrade pip
}

quick_start() {  # quick_start ENV PROJECT
  mkdir -p "$2"
  (cd "$2" && "$1/bin/python" "$work/quickstart.py")
  # The command the package installs works on the store the Quick start wrote.
  (cd "$2" && "$1/bin/contextchef" list >/dev/null)
  (cd "$2" && "$1/bin/python" "$work/fake_model.py")
}

backends() {  # backends ENV PROJECT (an environment with the sqlite extra)
  (cd "$2" && "$1/bin/python" "$work/backends.py")
}

echo "[install-check] 1/3 pip install \"<checkout>[postgres]\""
new_env "$work/env1"
"$work/env1/bin/python" -m pip install --quiet "$checkout[postgres]"
"$work/env1/bin/python" -c "import langgraph.store.postgres"  # the extra came along
quick_start "$work/env1" "$work/project1"

echo "[install-check] 2/3 a wheel built from the checkout"
new_env "$work/env2"
"$work/env2/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$checkout"
wheel="$(ls "$work"/dist/langchain_contextchef-*-py3-none-any.whl)"
echo "[install-check]     built $(basename "$wheel")"
"$work/env2/bin/python" -m pip install --quiet "$wheel[sqlite]"
"$work/env2/bin/python" -c "import langgraph.store.sqlite"
quick_start "$work/env2" "$work/project2"
backends "$work/env2" "$work/project2"

echo "[install-check] 3/3 a project that depends on the checkout by file URL"
new_env "$work/env3"
mkdir -p "$work/project3"
cat >"$work/project3/pyproject.toml" <<EOF
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "my-agent"
version = "0.0.1"
dependencies = ["langchain-contextchef[sqlite] @ file://$checkout"]

[tool.hatch.metadata]
allow-direct-references = true

[tool.hatch.build.targets.wheel]
bypass-selection = true
EOF
"$work/env3/bin/python" -m pip install --quiet "$work/project3"
quick_start "$work/env3" "$work/project3"
backends "$work/env3" "$work/project3"

echo "[install-check] all three installs ran the Quick start and the fake-model example; two ran the backends"
