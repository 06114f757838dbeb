"""Synthetic scholarly graphs with known-answer questions, for benchmarks at any size."""
