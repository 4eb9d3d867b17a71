"""Benchmarks, run as modules from the repository root (``python -m bench.rules``), so
that they share :mod:`bench.timing`, or imported by their smoke tests."""
