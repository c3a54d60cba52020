"""Would gitleaks' default rules improve the write gate? A measurement, not a bench of the suite.

Run with `python benchmarks/measure_gitleaks.py PATH/TO/gitleaks.toml` (gitleaks' default
configuration, MIT licence, `config/gitleaks.toml` in github.com/gitleaks/gitleaks; it is not
copied into this repository). Issue 24 asks to measure a maintained rule set against the
gate's own patterns before adopting it. Every rule's regex (translated from Go's syntax where
Python's differs: a case-insensitive group in mid-pattern) runs over the gate corpus secrets,
over the provider probes of `measure_detect_secrets.py`, and over the benign look-alikes. It
prints how many rules load, what they catch, what they catch that the gate misses (the only
thing adoption could add) and their false positives on the benign items (what it would cost).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.measure_detect_secrets import probes
from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate
from tests.support.gate_corpus import BENIGN, SECRETS


def _python_regex(pattern: str) -> re.Pattern[str] | None:
    """Go's regex in Python: a mid-pattern `(?i)` makes the whole pattern case-insensitive."""
    flags = 0
    if "(?i)" in pattern:
        pattern = pattern.replace("(?i)", "")
        flags = re.IGNORECASE
    pattern = pattern.replace("(?-i:", "(?:").replace("\\z", "\\Z")
    try:
        return re.compile(pattern, flags)
    except re.error:
        return None


def main() -> None:
    config = tomllib.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    rules = [(r["id"], _python_regex(r["regex"])) for r in config["rules"] if "regex" in r]
    loaded = [(name, rx) for name, rx in rules if rx is not None]
    print(f"rules: {len(rules)} with a regex, {len(loaded)} compile in Python")
    secrets = [(key, value) for key, value, _ in SECRETS]
    probe_items = probes()
    benign = [(key, value) for key, value, _ in BENIGN]

    def caught(items: list[tuple[str, str]]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for key, value in items:
            hits = [name for name, rx in loaded if rx.search(value)]
            if hits:
                found[key] = hits
        return found

    def gate_blocks(value: str) -> bool:
        return DEFAULT_GATE.check(WriteCandidate("k", value)).action != "allow"

    for title, items in (("corpus secrets", secrets), ("provider probes", probe_items)):
        found = caught(items)
        missed = [k for k, v in items if not gate_blocks(v)]
        gain = sorted(k for k in found if k in missed)
        print(
            f"{title}: {len(items)} items; gitleaks catches {len(found)}; the gate misses "
            f"{len(missed)}; gitleaks catches of those: {len(gain)} {gain}"
        )
    false = caught(benign)
    rules_fp: dict[str, int] = {}
    for hits in false.values():
        for name in hits:
            rules_fp[name] = rules_fp.get(name, 0) + 1
    print(f"benign look-alikes: {len(benign)} items; gitleaks flags {len(false)}")
    for name, count in sorted(rules_fp.items(), key=lambda kv: -kv[1]):
        print(f"  {name}: {count}")


if __name__ == "__main__":
    main()
