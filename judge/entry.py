"""The C function every build exports for the judge to call: it takes the problem's parameters and
calls the submission's solve() with them, whatever solve's linkage (judge.source.signature.entry_point)."""

ENTRY_SYMBOL = "cudajudge_solve"
