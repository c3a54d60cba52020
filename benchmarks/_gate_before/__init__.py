"""A frozen copy of the write gate as it was before the second-line work (commit 59a79ee).

Only `bench_gate.py` imports it, for the "before" column of the cost-per-write figure: the old
and the new gate run on the same values in the same process, so the ratio compares code, not
machines. Never import it from the package or the tests.
"""
