"""Benchmark commands that live outside pbem/cli/bench.py (one module each)."""
