"""The runner: the sandboxed process that loads a submission and calls solve() when told.

It holds no reference, no expected output, no tolerance and no verdict logic; it does what the judge
side's commands say (judge.protocol) and reports what happened. Nothing it reports is trusted.
"""
