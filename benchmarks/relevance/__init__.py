"""A relevance evaluation set: one user's memory (1,000+ entries) and 120 hand-written questions.

`dataset.py` holds the hand-written core (the entries questions are about, their older
versions and near-duplicates) and the questions; `filler.py` generates the rest of the
memory from hand-written templates and vocabularies, deterministically.
"""
