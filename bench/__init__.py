"""Benchmarks: `make bench` runs them all; `python -m bench NAME` runs one."""
