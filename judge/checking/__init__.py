"""The judge side: the inputs and the reference (through the sandboxed oracle), the buffers the
runner works on, the comparison, every verdict and the timing cross-checks. Nothing here runs in
the runner's process."""
