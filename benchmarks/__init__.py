"""Benchmarks: run one with `.venv/bin/python -m benchmarks.NAME`.

The figures measured are kept in docs/benchmarks.md.
"""
