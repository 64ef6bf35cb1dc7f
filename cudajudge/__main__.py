"""`python -m cudajudge ARGS` is `cudajudge ARGS`."""
from cudajudge.cli import main

main()
