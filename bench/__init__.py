"""Benchmarks, run as scripts (``python bench/rules.py``) or imported by their smoke tests."""
