"""7-point max filter on a 3-D volume with clamped boundaries.

output[z][y][x] = max of input at (x, y, z) and its six face neighbours (x±1, y, z), (x, y±1, z),
(x, y, z±1); a neighbour outside the volume is clamped to the volume, i.e. it is the voxel itself,
so it changes nothing. The flat index is (z*ny + y)*nx + x.
"""
import numpy as np

from judge.problems.api import each_piece

SLAB = 8   # z-slices per piece of the reference: pieces run on threads, each with a small working set


def reference(*, input, nx, ny, nz, **_):
    v = input[: nx * ny * nz].reshape(nz, ny, nx)
    out = np.empty_like(v)

    def filter_slab(piece: tuple[int, int]) -> None:   # writes out[z0:z1] only: slabs run side by side
        z0, z1 = piece[0], piece[0] + piece[1]
        s, o = v[z0:z1], out[z0:z1]
        np.copyto(o, s)
        np.maximum(o[:, :, 1:], s[:, :, :-1], out=o[:, :, 1:])     # x - 1
        np.maximum(o[:, :, :-1], s[:, :, 1:], out=o[:, :, :-1])    # x + 1
        np.maximum(o[:, 1:, :], s[:, :-1, :], out=o[:, 1:, :])     # y - 1
        np.maximum(o[:, :-1, :], s[:, 1:, :], out=o[:, :-1, :])    # y + 1
        np.maximum(o[1:], s[:-1], out=o[1:])                       # z - 1 inside the slab
        np.maximum(o[:-1], s[1:], out=o[:-1])                      # z + 1 inside the slab
        if z0 > 0:
            np.maximum(o[0], v[z0 - 1], out=o[0])
        if z1 < nz:
            np.maximum(o[-1], v[z1], out=o[-1])

    each_piece(filter_slab, nz, SLAB)
    return {"output": out.reshape(-1)}


def baseline(*, input, output, nx, ny, nz, **_):
    import cupy

    v = input.reshape(nz, ny, nx)
    o = output.reshape(nz, ny, nx)
    o[...] = v
    cupy.maximum(o[:, :, 1:], v[:, :, :-1], out=o[:, :, 1:])
    cupy.maximum(o[:, :, :-1], v[:, :, 1:], out=o[:, :, :-1])
    cupy.maximum(o[:, 1:, :], v[:, :-1, :], out=o[:, 1:, :])
    cupy.maximum(o[:, :-1, :], v[:, 1:, :], out=o[:, :-1, :])
    cupy.maximum(o[1:], v[:-1], out=o[1:])
    cupy.maximum(o[:-1], v[1:], out=o[:-1])
