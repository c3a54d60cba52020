"""What an evaluation measured: per compile, per write, per case, and overall.

`TurnResult` is one compiled prompt, `WriteOutcome` one model-path write, `CaseResult` one
case and `EvalReport` the whole run; each has a `to_dict` for JSON. `problems()` lists the
failures that do not depend on a model's choices, and `assert_no_leaks` fails a test on the
first thing that matters most: a prompt that carried another principal's text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_contextchef.evaluation.cases import Principal
from langchain_contextchef.evaluation.metrics import Relevance, ratio

__all__ = ["CaseResult", "EvalReport", "TurnResult", "WriteOutcome", "assert_no_leaks"]


@dataclass(frozen=True)
class TurnResult:
    """What one compile put in front of the model.

    Attributes:
        index: Position of the model call in the case (0-based).
        who: The principal served.
        injected: `{key: value}` read back from the prompt's memory block.
        injected_tokens: Approximate tokens of the memory block (0 without one).
        prompt_tokens: Approximate tokens of the whole compiled prompt.
        relevance: Score against the turn's labels (`None`: the turn is unlabelled).
        leaks: Labelled `never` strings found in the injected text.
    """

    index: int
    who: Principal
    injected: Mapping[str, str]
    injected_tokens: int
    prompt_tokens: int
    relevance: Relevance | None
    leaks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view."""
        score = self.relevance
        return {
            "index": self.index,
            "who": str(self.who),
            "injected_keys": list(self.injected),
            "injected_tokens": self.injected_tokens,
            "prompt_tokens": self.prompt_tokens,
            "precision": None if score is None else score.precision,
            "recall": None if score is None else score.recall,
            "leaks": list(self.leaks),
        }


@dataclass(frozen=True)
class WriteOutcome:
    """A model-path write and whether it ended up stored.

    Attributes:
        who: Whose memory was addressed.
        key: The key written (or the tool's path for the unified tool).
        must_refuse: The label: this write has to be refused.
        refused: Whether the value is absent from the principal's active memory afterwards.
        result: The tool result text the model saw.
    """

    who: Principal
    key: str
    must_refuse: bool
    refused: bool
    result: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view."""
        return {
            "who": str(self.who),
            "key": self.key,
            "must_refuse": self.must_refuse,
            "refused": self.refused,
            "result": self.result,
        }


@dataclass(frozen=True)
class CaseResult:
    """Every measurement of one case.

    Attributes:
        name: The case name.
        turns: One result per compile.
        writes: Every model-path write (setup and scripted).
        stored_forbidden: `never` strings still held in a principal's active memory at the end.
        error: `"Type: message"` if the case stopped on an exception, else `None`.
        labels_asserted: `False` when a real model chose the tool calls.
    """

    name: str
    turns: tuple[TurnResult, ...]
    writes: tuple[WriteOutcome, ...] = ()
    stored_forbidden: tuple[str, ...] = ()
    error: str | None = None
    labels_asserted: bool = True

    @property
    def relevance(self) -> Relevance:
        """The labelled turns' scores, summed (micro-average)."""
        total = Relevance()
        for turn in self.turns:
            if turn.relevance is not None:
                total += turn.relevance
        return total

    @property
    def injected_tokens_per_turn(self) -> float | None:
        """Mean memory-block tokens per compile."""
        if not self.turns:
            return None
        return sum(t.injected_tokens for t in self.turns) / len(self.turns)

    @property
    def leaky_turns(self) -> int:
        """Compiles whose injected text held a `never` string."""
        return sum(1 for t in self.turns if t.leaks)

    @property
    def leak_rate(self) -> float | None:
        """Share of compiles with a leak."""
        return ratio(self.leaky_turns, len(self.turns))

    @property
    def bad_writes(self) -> list[WriteOutcome]:
        """The labelled bad writes that count: all when scripted, setup ones with a model."""
        return [w for w in self.writes if w.must_refuse]

    @property
    def refused_bad_writes(self) -> int:
        """How many labelled bad writes were refused."""
        return sum(1 for w in self.bad_writes if w.refused)

    @property
    def wrongly_refused(self) -> list[WriteOutcome]:
        """Unlabelled (good) writes that did not get stored."""
        return [w for w in self.writes if not w.must_refuse and w.refused]

    def problems(self) -> list[str]:
        """Failures that do not depend on the model's choices, one sentence each."""
        found: list[str] = []
        if self.error is not None:
            found.append(f"{self.name}: stopped on {self.error}")
        for turn in self.turns:
            if turn.leaks:
                found.append(
                    f"{self.name}: turn {turn.index} for {turn.who} leaked {list(turn.leaks)!r}"
                )
        for write in self.bad_writes:
            if not write.refused:
                found.append(f"{self.name}: bad write {write.key!r} for {write.who} was stored")
        if self.labels_asserted:
            for write in self.wrongly_refused:
                found.append(
                    f"{self.name}: good write {write.key!r} for {write.who} was refused: "
                    f"{write.result[:120]}"
                )
        if self.stored_forbidden:
            found.append(
                f"{self.name}: memory still holds forbidden text {list(self.stored_forbidden)!r}"
            )
        return found

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view, with the per-case figures."""
        score = self.relevance
        return {
            "name": self.name,
            "turns": len(self.turns),
            "injected_tokens_per_turn": self.injected_tokens_per_turn,
            "max_prompt_tokens": max((t.prompt_tokens for t in self.turns), default=0),
            "precision": score.precision,
            "recall": score.recall,
            "leak_rate": self.leak_rate,
            "bad_writes": len(self.bad_writes),
            "refused_bad_writes": self.refused_bad_writes,
            "wrongly_refused": len(self.wrongly_refused),
            "stored_forbidden": list(self.stored_forbidden),
            "error": self.error,
            "labels_asserted": self.labels_asserted,
            "problems": self.problems(),
            "turn_results": [t.to_dict() for t in self.turns],
            "writes": [w.to_dict() for w in self.writes],
        }


@dataclass(frozen=True)
class EvalReport:
    """The results of `run_eval`, per case and overall.

    Attributes:
        cases: One result per case, in run order.
        model: `"scripted"`, or the class name of the real model that answered.
    """

    cases: tuple[CaseResult, ...]
    model: str = "scripted"

    @property
    def turns(self) -> int:
        """Compiles measured."""
        return sum(len(c.turns) for c in self.cases)

    @property
    def injected_tokens_per_turn(self) -> float | None:
        """Mean memory-block tokens per compile, over every case."""
        total = sum(t.injected_tokens for c in self.cases for t in c.turns)
        return total / self.turns if self.turns else None

    @property
    def relevance(self) -> Relevance:
        """Every labelled turn's score, summed."""
        total = Relevance()
        for case in self.cases:
            total += case.relevance
        return total

    @property
    def precision(self) -> float | None:
        """Micro-averaged precision of injected entries (`None`: nothing injected)."""
        return self.relevance.precision

    @property
    def recall(self) -> float | None:
        """Micro-averaged recall of labelled entries (`None`: nothing labelled)."""
        return self.relevance.recall

    @property
    def leak_rate(self) -> float | None:
        """Share of all compiled prompts with a cross-user leak."""
        return ratio(sum(c.leaky_turns for c in self.cases), self.turns)

    @property
    def bad_writes(self) -> int:
        """Labelled bad writes attempted."""
        return sum(len(c.bad_writes) for c in self.cases)

    @property
    def refused_bad_writes(self) -> int:
        """Labelled bad writes refused."""
        return sum(c.refused_bad_writes for c in self.cases)

    @property
    def refused_rate(self) -> float | None:
        """Share of labelled bad writes refused (`None`: none attempted)."""
        return ratio(self.refused_bad_writes, self.bad_writes)

    def problems(self) -> list[str]:
        """Every case's problems: leaks, errors, stored bad writes, forbidden text kept."""
        return [problem for case in self.cases for problem in case.problems()]

    @property
    def passed(self) -> bool:
        """Whether there are no problems (see `problems`)."""
        return not self.problems()

    def case(self, name: str) -> CaseResult:
        """The result of the case called `name`.

        Raises:
            KeyError: If no case of that name ran; the message lists those that did.
        """
        for result in self.cases:
            if result.name == name:
                return result
        msg = f"No case {name!r} in this report; it has {[c.name for c in self.cases]!r}."
        raise KeyError(msg)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view of the whole report."""
        return {
            "model": self.model,
            "overall": {
                "turns": self.turns,
                "injected_tokens_per_turn": self.injected_tokens_per_turn,
                "precision": self.precision,
                "recall": self.recall,
                "leak_rate": self.leak_rate,
                "bad_writes": self.bad_writes,
                "refused_bad_writes": self.refused_bad_writes,
                "refused_rate": self.refused_rate,
                "passed": self.passed,
            },
            "problems": self.problems(),
            "cases": [c.to_dict() for c in self.cases],
        }


def assert_no_leaks(report: EvalReport) -> None:
    """Fail with every leaky prompt listed when any compiled prompt leaked.

    Args:
        report: The output of `run_eval`.

    Raises:
        AssertionError: If the leak rate is not 0, or a case stopped before it could be
            measured.
    """
    lines = [
        f"{case.name}: turn {turn.index} for {turn.who} contains {list(turn.leaks)!r}"
        for case in report.cases
        for turn in case.turns
        if turn.leaks
    ]
    lines += [f"{c.name}: stopped on {c.error}" for c in report.cases if c.error is not None]
    if lines:
        rate = report.leak_rate or 0.0
        header = f"Cross-user leak rate {rate:.2%} ({report.model} model):"
        raise AssertionError("\n".join([header, *lines]))
