"""The evaluation report as a plain-text table: one row per case, then the overall figures."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_contextchef.evaluation._report import EvalReport

__all__ = ["format_table"]


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _tokens(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


_HEADER = ("case", "turns", "inj tok/turn", "precision", "recall", "leak rate", "refused bad")


def format_table(report: EvalReport) -> str:
    """Render the report as a plain-text table: one row per case, then overall figures.

    Args:
        report: The output of `run_eval`.

    Returns:
        The table and a few summary lines, ending with a newline.
    """
    rows: list[tuple[str, ...]] = []
    for case in report.cases:
        score = case.relevance
        bad = len(case.bad_writes)
        rows.append(
            (
                case.name + (" (ERROR)" if case.error else ""),
                str(len(case.turns)),
                _tokens(case.injected_tokens_per_turn),
                _fraction(score.precision),
                _fraction(score.recall),
                _fraction(case.leak_rate),
                f"{case.refused_bad_writes}/{bad}" if bad else "-",
            )
        )
    rows.append(
        (
            "overall",
            str(report.turns),
            _tokens(report.injected_tokens_per_turn),
            _fraction(report.precision),
            _fraction(report.recall),
            _fraction(report.leak_rate),
            f"{report.refused_bad_writes}/{report.bad_writes}" if report.bad_writes else "-",
        )
    )
    widths = [max(len(r[i]) for r in [_HEADER, *rows]) for i in range(len(_HEADER))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    out = [line(_HEADER), rule, *(line(r) for r in rows[:-1]), rule, line(rows[-1]), ""]
    largest = max(
        ((t.prompt_tokens, c.name) for c in report.cases for t in c.turns), default=(0, "-")
    )
    out.append(f"model: {report.model}; largest prompt: ~{largest[0]:,} tokens ({largest[1]})")
    if report.model != "scripted":
        out.append("precision, recall and refusals of the model's own writes are informative")
    problems = report.problems()
    out.append(f"problems: {len(problems)}")
    out += [f"  - {p}" for p in problems]
    return "\n".join(out) + "\n"
