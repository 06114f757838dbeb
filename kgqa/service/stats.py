"""The service's counters: questions answered, errors, and latency percentiles over recent requests."""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from typing import Any

import numpy as np

#: Latencies kept for the percentiles (the most recent requests).
WINDOW = 10_000


class ServiceStats:
    """Thread-safe counters of one service process."""

    def __init__(self) -> None:
        self.started = time.time()
        self._lock = threading.Lock()
        self._latencies: deque[float] = deque(maxlen=WINDOW)
        self.answered: Counter[str] = Counter()  # by endpoint: ask, retrieve
        self.errors: Counter[int] = Counter()  # by HTTP status
        self.rejected = 0  # 503: queue full

    def record(self, endpoint: str, seconds: float) -> None:
        """One request answered in `seconds` (measured around the work, queue wait included)."""
        with self._lock:
            self.answered[endpoint] += 1
            self._latencies.append(seconds)

    def record_error(self, status: int) -> None:
        """One request answered with an error status."""
        with self._lock:
            self.errors[status] += 1
            if status == 503:
                self.rejected += 1

    def as_dict(self) -> dict[str, Any]:
        """Uptime, counts and latency percentiles in milliseconds (None before the first answer)."""
        with self._lock:
            lat = np.array(self._latencies, dtype=float) * 1000.0
            answered = dict(self.answered)
            errors = {str(k): v for k, v in sorted(self.errors.items())}
        pct = {f"p{p}": (round(float(np.percentile(lat, p)), 2) if lat.size else None) for p in (50, 95, 99)}
        return {
            "uptime_s": round(time.time() - self.started, 1),
            "questions_answered": sum(answered.values()),
            "by_endpoint": answered,
            "errors_by_status": errors,
            "rejected_busy": self.rejected,
            "latency_ms": {**pct, "window": int(lat.size)},
        }
