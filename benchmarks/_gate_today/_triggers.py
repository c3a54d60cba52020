"""The write gate's prefilter: which trigger words occur in a view, found in one pass.

Every detector family of the gate needs some literal text before it can fire: a regex
detector its trigger words (`sk-`, `password`, `ignore`), a lexicon matcher the first word of
one of its entries (every match of a lexicon trie starts with such a literal). Asking each
family on its own costs a Python call, a regex pass and a list per family and per view, which
on a short benign value is most of the gate's cost. `Triggers` answers for all of them at
once: one compiled trie of every literal, searched over the lowered view, gives the exact set
of literals present, and a family runs only when that set meets its own literals.

The answer is exact, not a guess (a literal is reported if and only if it is a substring of
the text), so skipping a family whose literals are absent cannot change what the gate finds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["Triggers"]


def _trie(words: Iterable[str]) -> str:
    """A regex matching exactly the given words, longest first at each position."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        # Children before the end of a word: at one position the longest word wins, and the
        # words that are its prefixes are added from `_prefixes`.
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if "" in node:
            branches.append("")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return emit(root)


class Triggers:
    """A fixed set of literal strings, and which of them occur in a text or in it backwards.

    Args:
        literals: The words to look for, matched case-sensitively (give them lowered and
            look in lowered text). The empty string counts as present in every text.

    Example:
        ```python
        from benchmarks._gate_today._triggers import Triggers

        triggers = Triggers(["pass", "password", "word", "sk-", ":"])
        assert triggers.present("my password: x") == {"pass", "password", "word", ":"}
        assert triggers.present("nothing here") == set()
        forward, backward = triggers.present_both("drowssap -ks")
        assert forward == set() and backward == {"pass", "password", "word", "sk-"}
        ```
    """

    __slots__ = (
        "_ascii",
        "_backward",
        "_chars",
        "_empty",
        "_latin_first",
        "_other_first",
        "_prefixes",
        "literals",
    )

    def __init__(self, literals: Iterable[str]) -> None:
        self.literals: frozenset[str] = frozenset(literals)
        self._empty = "" in self.literals
        # Single characters are found by one character-class search, not by the tries: some
        # ("." ":") occur so often that they would make the trie search stop at every
        # sentence. A character reads the same backwards.
        chars = sorted(w for w in self.literals if len(w) == 1)
        self._chars = re.compile("[" + "".join(map(re.escape, chars)) + "]") if chars else None
        # The tries hold every word and every word backwards: the scanner also needs the
        # words of the reversed view, and one pass over the text answers both questions
        # (a word occurs in the reversed text exactly when its reversal occurs in the text).
        longer = sorted({v for w in self.literals if len(w) > 1 for v in (w, w[::-1])})
        # What each found string means for the reversed text: the literal it is backwards
        # (strings of one character or none read the same both ways).
        self._backward: dict[str, str] = {
            w: w[::-1] for w in (*longer, *chars, "") if w[::-1] in self.literals
        }
        # The regex engine tries the root branches of a trie one by one at every position
        # whose character can start a word. Words that start with a non-ASCII character get
        # their own trie, whose first-character set lets the engine skip ASCII text in C;
        # ASCII text needs only the ASCII words. (On a 63-character English value this is
        # 5x faster than one trie of everything.)
        self._ascii = _compiled(w for w in longer if w.isascii())
        self._latin_first = _compiled(w for w in longer if w[0].isascii())
        self._other_first = _compiled(w for w in longer if not w[0].isascii())
        # The search reports the longest word at a position; the shorter words that start
        # there are its prefixes.
        self._prefixes: dict[str, frozenset[str]] = {
            word: frozenset(p for p in longer if word.startswith(p)) for word in longer
        }

    def present(self, text: str) -> set[str]:
        """The literals that occur in `text`, each at least once.

        Every position where some literal starts is visited (the search resumes one character
        after the previous match, not after its end), so overlapping and nested literals are
        all reported.
        """
        found = self._found(text)
        return found & self.literals if found else found

    def present_both(self, text: str) -> tuple[set[str], set[str]]:
        """`present(text)` and `present(text[::-1])`, from one pass over `text`."""
        found = self._found(text)
        if not found:
            return found, set()
        backward = self._backward
        return found & self.literals, {backward[w] for w in found if w in backward}

    def _found(self, text: str) -> set[str]:
        """The literals and reversed literals that occur in `text`."""
        found = set(self._chars.findall(text)) if self._chars is not None else set()
        if self._empty:
            found.add("")
        if text.isascii():
            self._search(self._ascii, text, found)
        else:
            self._search(self._latin_first, text, found)
            self._search(self._other_first, text, found)
        return found

    def _search(self, pattern: re.Pattern[str] | None, text: str, found: set[str]) -> None:
        if pattern is None:
            return
        search = pattern.search
        prefixes = self._prefixes
        match = search(text)
        while match is not None:
            found |= prefixes[match.group()]
            match = search(text, match.start() + 1)


def _compiled(words: Iterable[str]) -> re.Pattern[str] | None:
    chosen = list(words)
    return re.compile(_trie(chosen)) if chosen else None
