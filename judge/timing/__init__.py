"""Timing as ARCHITECTURE.md's "Timing" section specifies: statistics and the stopping rule
(stats), event timing with an L2 flush on a device (device), the baseline timed by the oracle
(baseline). The solution is timed by the runner (judge.runner.timing); its figures are checked by the
judge side (judge.checking.timing)."""
