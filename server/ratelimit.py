"""Per-user (or per-address) token buckets, in memory.

Each server process keeps its own buckets: with several server processes behind a balancer the
effective limit is the sum of theirs.
"""
from __future__ import annotations

import math
import threading
import time

from server.config import RateLimit


class RateLimiter:
    def __init__(self, max_keys: int = 100_000):
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}   # key -> (tokens, last refill)
        self._lock = threading.Lock()
        self._max_keys = max_keys

    def take(self, bucket: str, key: str, limit: RateLimit) -> float:
        """0.0 when allowed (a token was taken); else the seconds until one is available."""
        now = time.monotonic()
        rate = limit.per_minute / 60.0
        with self._lock:
            if len(self._buckets) > self._max_keys:
                self._buckets.clear()
            tokens, last = self._buckets.get((bucket, key), (float(limit.burst), now))
            tokens = min(float(limit.burst), tokens + (now - last) * rate)
            if tokens >= 1.0:
                self._buckets[(bucket, key)] = (tokens - 1.0, now)
                return 0.0
            self._buckets[(bucket, key)] = (tokens, now)
            return math.inf if rate <= 0 else (1.0 - tokens) / rate
