"""Evaluation with the thesis's metrics: datasets, runs (resumable JSONL), metrics and reports."""
