"""Would `detect-secrets` improve the write gate? A measurement, not a bench of the suite.

Run with `python benchmarks/measure_detect_secrets.py` after `pip install detect-secrets`.

Issue 14 asks to reuse a well-kept library where it beats our regexes, and to measure before
adopting. This script runs detect-secrets' plugins, one by one, over the gate corpus and over
a probe set of provider formats the gate has no named pattern for (Discord, Telegram,
Mailchimp, PyPI, Square, Artifactory, Azure storage), each written in prose the way a model
would store it. It prints, for detect-secrets' named provider plugins, its keyword plugin and
its entropy plugins:

- recall on the corpus secrets (all in prose) and on the probes;
- what the plugins catch that the gate misses (the only thing adoption could add);
- false positives on the benign look-alikes (what adoption would cost).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate
from tests.support.gate_corpus import BENIGN, SECRETS
from tests.support.tokens import ALNUM, URLSAFE, token


def probes() -> list[tuple[str, str]]:
    """Provider formats with no named pattern in the gate, in prose, labelled and bare."""
    formats = {
        "discord": "M"
        + token("dc", 23, URLSAFE)
        + "."
        + token("dc2", 6, URLSAFE)
        + "."
        + token("dc3", 27, URLSAFE),
        "telegram": "1234567890:" + token("tg", 35, URLSAFE),
        "mailchimp": token("mc", 32, "0123456789abcdef") + "-us14",
        "pypi": "pypi-AgEIcHlwaS5vcmc" + token("pypi", 80, URLSAFE),
        "square": "sq0csp-" + token("sq", 43, URLSAFE),
        "artifactory": "AKC" + token("af", 60),
        "azure": "AccountKey=" + token("az", 86, ALNUM + "+/") + "==",
    }
    out: list[tuple[str, str]] = []
    for name, secret in formats.items():
        out.append((f"{name}-bare", f"Saved for later: {secret} (do not share)"))
        out.append((f"{name}-labelled", f"The {name} token is {secret}"))
    return out


def _plugins() -> dict[str, list[Any]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    mapping: dict[str, Any] = get_mapping_from_secret_type_to_class()
    classes: dict[str, Any] = {cls.__name__: cls for cls in mapping.values()}
    generic = {"Base64HighEntropyString", "HexHighEntropyString", "KeywordDetector"}
    skip = {"IPPublicDetector"}  # an IP address is not a secret
    named = [cls() for name, cls in sorted(classes.items()) if name not in generic | skip]
    return {
        "named provider plugins": named,
        "keyword plugin": [classes["KeywordDetector"]()],
        "entropy plugins": [
            classes["Base64HighEntropyString"](),
            classes["HexHighEntropyString"](),
        ],
    }


def _flags(plugins: list[Any], text: str) -> bool:
    from detect_secrets.settings import default_settings

    with default_settings():
        for plugin in plugins:
            for line_number, line in enumerate(text.splitlines() or [text], start=1):
                if plugin.analyze_line(filename="memory.txt", line=line, line_number=line_number):
                    return True
    return False


def _gate_blocks(text: str) -> bool:
    return DEFAULT_GATE.check(WriteCandidate("m", text)).action in ("reject", "quarantine")


def run() -> dict[str, Any]:
    """Recall, gains over the gate, and false positives, per plugin family."""
    secrets = [(key, value) for key, value, _ in SECRETS]
    benign = [(key, value) for key, value, _ in BENIGN]
    probe_set = probes()
    results: dict[str, Any] = {
        "gate": {
            "corpus_recall": sum(_gate_blocks(v) for _, v in secrets) / len(secrets),
            "probe_recall": sum(_gate_blocks(v) for _, v in probe_set) / len(probe_set),
            "benign_refused": sum(
                DEFAULT_GATE.check(WriteCandidate("m", v)).action != "allow" for _, v in benign
            ),
        }
    }
    for family, plugins in _plugins().items():
        corpus_hits = [k for k, v in secrets if _flags(plugins, v)]
        probe_hits = [k for k, v in probe_set if _flags(plugins, v)]
        results[family] = {
            "corpus_recall": len(corpus_hits) / len(secrets),
            "probe_recall": len(probe_hits) / len(probe_set),
            "gains_over_gate": [
                k for k, v in secrets + probe_set if _flags(plugins, v) and not _gate_blocks(v)
            ],
            "false_positives": [k for k, v in benign if _flags(plugins, v)],
        }
    return results


def main() -> None:
    try:
        import detect_secrets  # noqa: F401
    except ImportError:
        print("detect-secrets is not installed: pip install detect-secrets")
        return
    results = run()
    gate = results.pop("gate")
    print(
        f"gate alone: corpus recall {gate['corpus_recall']:.1%}, probe recall "
        f"{gate['probe_recall']:.1%}, benign refused {gate['benign_refused']}/{len(BENIGN)}"
    )
    for family, row in results.items():
        print(
            f"{family:24s} corpus recall {row['corpus_recall']:6.1%}  probe recall "
            f"{row['probe_recall']:6.1%}  gains over the gate {len(row['gains_over_gate']):3d}  "
            f"false positives {len(row['false_positives']):3d}/{len(BENIGN)}"
        )
        if row["gains_over_gate"]:
            print(f"    gains: {row['gains_over_gate']}")
        if row["false_positives"]:
            print(f"    false positives: {row['false_positives'][:12]}")


if __name__ == "__main__":
    main()
