"""`python judge.py PROBLEM SOLUTION.cu [...]` is `cudajudge judge PROBLEM SOLUTION.cu [...]`."""
import os
import signal
import sys


def _interrupted_while_starting(signum, frame) -> None:
    """Ctrl-C before the judge has started anything (its imports take a moment): nothing to end."""
    sys.stderr.write("interrupted\n")
    os._exit(130)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, _interrupted_while_starting)   # the judge command installs its own
    from cudajudge.cli import app

    sys.exit(app(["judge", *sys.argv[1:]]))
