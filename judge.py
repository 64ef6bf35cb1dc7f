"""`python judge.py PROBLEM SOLUTION.cu [...]` is `cudajudge judge PROBLEM SOLUTION.cu [...]`."""
import sys

from cudajudge.cli import app

if __name__ == "__main__":
    sys.exit(app(["judge", *sys.argv[1:]]))
