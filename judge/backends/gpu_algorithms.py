"""Device-wide algorithms (CUB's Device*, Thrust's) for the GPU backend, run with CuPy.

The host-side API (judge/runtime/host_std/cudajudge/device_algorithms.h) describes each call as a
`cudajudge_algorithm_call`; the built library hands it to the handler registered here, which runs
it on the library's stream: reductions and sum scans with CUB's device-wide algorithms as CuPy ships
them compiled (cupy.cuda.cub), sorts with Thrust's (cupy.lexsort), and the elementwise steps around
them with the judge's kernels (judge/runtime/gpu/device_algorithms.cu), compiled once per process before user code runs.
Nothing is compiled during a call, so no call spends solve()'s time limit on a compiler. The CPU
runtime runs the same calls sequentially (judge/runtime/cpu/src/device_algorithms.cpp).
"""
from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

KERNELS_SOURCE = Path(__file__).resolve().parent.parent / "runtime" / "gpu" / "device_algorithms.cu"
# The marker a built library exports when its source includes the judge's host-side algorithms.
USES_ALGORITHMS_SYMBOL = "cudajudge_uses_device_algorithms"

_DTYPES = {1: np.int8, 2: np.uint8, 3: np.int16, 4: np.uint16, 5: np.int32, 6: np.uint32, 7: np.int64,
           8: np.uint64, 9: np.float32, 10: np.float64}
_C_TYPES = {np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char", np.dtype(np.int16): "short",
            np.dtype(np.uint16): "unsigned short", np.dtype(np.int32): "int", np.dtype(np.uint32): "unsigned",
            np.dtype(np.int64): "long long", np.dtype(np.uint64): "unsigned long long",
            np.dtype(np.float32): "float", np.dtype(np.float64): "double"}
# The accumulator types thrust::reduce may take (the host-side API allows no others).
_WIDE = [np.dtype(t) for t in (np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64)]
_OFFSETS = [np.dtype(t) for t in (np.int32, np.uint32, np.int64, np.uint64)]
THREADS = 256
(REDUCE, ARG_REDUCE, SCAN, RADIX_SORT, SORT, SELECT_FLAGGED, UNIQUE, RUN_LENGTH, HISTOGRAM_EVEN,
 SEGMENTED_REDUCE, FILL, SEQUENCE, COUNT, COPY) = range(1, 15)
OP_SUM, OP_MIN, OP_MAX = 1, 2, 3
INVALID_VALUE = 1


class AlgorithmCall(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("refusal", ctypes.c_char_p), ("line", ctypes.c_int),
                ("kind", ctypes.c_int), ("op", ctypes.c_int), ("item_type", ctypes.c_int),
                ("value_bytes", ctypes.c_int), ("aux_type", ctypes.c_int), ("result_type", ctypes.c_int),
                ("result_on_host", ctypes.c_int), ("descending", ctypes.c_int), ("exclusive", ctypes.c_int),
                ("begin_bit", ctypes.c_int), ("end_bit", ctypes.c_int), ("num_items", ctypes.c_longlong),
                ("num_segments", ctypes.c_longlong), ("in_", ctypes.c_void_p), ("out", ctypes.c_void_p),
                ("values_in", ctypes.c_void_p), ("values_out", ctypes.c_void_p), ("aux", ctypes.c_void_p),
                ("aux_end", ctypes.c_void_p), ("aux_out", ctypes.c_void_p), ("result", ctypes.c_void_p),
                ("temp", ctypes.c_void_p), ("temp_bytes", ctypes.c_size_t), ("init", ctypes.c_ubyte * 8),
                ("step", ctypes.c_ubyte * 8), ("lower", ctypes.c_double), ("upper", ctypes.c_double)]


HANDLER_TYPE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(AlgorithmCall), ctypes.c_void_p, ctypes.c_size_t)


def _instantiations() -> list[str]:
    names = ["gather_bytes", "compact_index"]
    for t in _C_TYPES.values():
        names += [f"{k}<{t}>" for k in ("sort_rows", "gather", "flag_mask", "head_mask", "compact", "run_lengths",
                                        "histogram_even", "fill_items", "count_equal", "scan_step",
                                        "exclusive_from_inclusive")]
        names += [f"convert<{t}, {_C_TYPES[w]}>" for w in _WIDE]
        names += [f"convert<unsigned long long, {t}>"]
        names += [f"segmented_reduce<{t}, {_C_TYPES[o]}>" for o in _OFFSETS]
    return list(dict.fromkeys(names))


class DeviceAlgorithms:
    """Runs one call at a time on CuPy's current stream (the library's launch stream)."""

    def __init__(self, cp):
        from cupy.cuda import cub

        self.cp = cp
        self.cub = cub
        names = _instantiations()
        module = cp.RawModule(code=KERNELS_SOURCE.read_text(), options=("-std=c++17",), name_expressions=names)
        self.kernels = {name: module.get_function(name) for name in names}
        self.blocks_cap = 4 * cp.cuda.Device().attributes["MultiProcessorCount"] * 8
        self.handler = HANDLER_TYPE(self._handle)   # kept alive as long as the library may call it

    def _handle(self, call_ptr, message, capacity) -> int:
        call = call_ptr.contents
        try:
            self.run(call)
            return 0
        except self.cp.cuda.runtime.CUDARuntimeError as exc:
            return self._report(message, capacity, exc.status, f"{self._where(call)} failed on the device: {exc}")
        except Exception as exc:   # a call the harness cannot run: the user's arguments, as CUDA would say
            return self._report(message, capacity, INVALID_VALUE, f"{self._where(call)} failed: {exc}")

    @staticmethod
    def _where(call) -> str:
        return f"{call.name.decode()} on line {call.line}"

    @staticmethod
    def _report(message, capacity, code: int, text: str) -> int:
        data = text.encode()[:capacity - 1] + b"\0"
        ctypes.memmove(message, data, len(data))
        return code or INVALID_VALUE

    # --- memory and launches --------------------------------------------------------------------

    def view(self, address: int | None, count: int, dtype):
        cp = self.cp
        dtype = np.dtype(dtype)
        if count <= 0:
            return cp.empty(0, dtype)
        if not address:
            raise ValueError("a null device pointer was passed")
        memory = cp.cuda.UnownedMemory(address, count * dtype.itemsize, None)
        return cp.ndarray((count,), dtype, memptr=cp.cuda.MemoryPointer(memory, 0))

    def launch(self, kernel: str, dtype, items: int, *args, types=()) -> None:
        name = f"{kernel}<{', '.join(_C_TYPES[np.dtype(t)] for t in (dtype, *types))}>" if dtype is not None else kernel
        blocks = max(1, min(self.blocks_cap, -(-items // THREADS)))
        self.kernels[name]((blocks,), (THREADS,), args)

    def copy(self, destination, source) -> None:
        """Device to device, on the current stream (no kernel)."""
        if source.nbytes:
            self.cp.cuda.runtime.memcpyAsync(destination.data.ptr, source.data.ptr, source.nbytes,
                                             self.cp.cuda.runtime.memcpyDeviceToDevice,
                                             self.cp.cuda.get_current_stream().ptr)

    def to_host(self, array) -> np.ndarray:
        out = np.empty(array.shape, array.dtype)
        if array.nbytes:
            self.cp.cuda.runtime.memcpy(out.ctypes.data, array.data.ptr, array.nbytes,
                                        self.cp.cuda.runtime.memcpyDeviceToHost)
        return out

    def write_result(self, call, value) -> None:
        data = np.asarray(value, _DTYPES[call.result_type]).reshape(1)
        if call.result_on_host:
            ctypes.memmove(call.result, data.ctypes.data, data.nbytes)
        else:
            self.cp.cuda.runtime.memcpy(call.result, data.ctypes.data, data.nbytes,
                                        self.cp.cuda.runtime.memcpyHostToDevice)

    @staticmethod
    def scalar(field, dtype):
        dtype = np.dtype(dtype)
        return np.frombuffer(bytes(field)[:dtype.itemsize], dtype)[0]

    # --- the algorithms -------------------------------------------------------------------------

    def run(self, call) -> None:
        dtype = np.dtype(_DTYPES[call.item_type])
        n = call.num_items
        kind = call.kind
        items = self.view(call.in_, n, dtype) if kind not in (FILL, SEQUENCE, SEGMENTED_REDUCE) else None
        if kind == REDUCE:
            self.write_result(call, self.reduce(call, items))
        elif kind == ARG_REDUCE:
            op = self.cub.CUPY_CUB_ARGMIN if call.op == OP_MIN else self.cub.CUPY_CUB_ARGMAX
            self.write_result(call, 0 if n == 0 else int(self.to_host(self._cub(self.cub.cub_reduction(items, op)))))
        elif kind == SCAN:
            self.scan(call, items, dtype)
        elif kind in (RADIX_SORT, SORT):
            self.sort(call, items, dtype)
        elif kind in (SELECT_FLAGGED, UNIQUE, RUN_LENGTH):
            self.select(call, items, dtype)
        elif kind == HISTOGRAM_EVEN:
            self.histogram(call, items, dtype)
        elif kind == SEGMENTED_REDUCE:
            self.segmented_reduce(call, dtype)
        elif kind in (FILL, SEQUENCE):
            out = self.view(call.out, n, dtype)
            self.launch("fill_items", dtype, n, out, np.int64(n), self.scalar(call.init, dtype),
                        self.scalar(call.step, dtype), np.int32(kind == SEQUENCE))
        elif kind == COUNT:
            found = self.cp.zeros(1, np.uint64)
            self.launch("count_equal", dtype, n, items, np.int64(n), self.scalar(call.init, dtype), found)
            self.write_result(call, int(self.to_host(found)[0]))
        elif kind == COPY:
            self.copy(self.view(call.out, n, dtype), items)
        else:
            raise ValueError(f"unknown algorithm {kind}")

    def reduce(self, call, items):
        rtype = np.dtype(_DTYPES[call.result_type])
        init = self.scalar(call.init, rtype)
        if items.size == 0:
            return init
        if rtype != items.dtype:
            wide = self.cp.empty(items.size, rtype)
            self.launch("convert", items.dtype, items.size, items, wide, np.int64(items.size), types=(rtype,))
            items = wide
        op = {OP_SUM: self.cub.CUPY_CUB_SUM, OP_MIN: self.cub.CUPY_CUB_MIN, OP_MAX: self.cub.CUPY_CUB_MAX}[call.op]
        total = self.to_host(self._cub(self.cub.cub_reduction(items, op))).reshape(()).astype(rtype)[()]
        with np.errstate(over="ignore"):
            if call.op == OP_SUM:
                return rtype.type(init + total)
            return min(init, total) if call.op == OP_MIN else max(init, total)

    @staticmethod
    def _cub(result):
        if result is None:   # CuPy's CUB wrappers answer None for arrays they do not take
            raise RuntimeError("CUB (through CuPy) declined the array")
        return result

    def inclusive(self, items, op: int):
        """The inclusive scan of items into a new array: CUB's InclusiveSum, or log steps of the judge's kernel."""
        cp = self.cp
        n = items.size
        result = cp.empty_like(items)
        self.copy(result, items)
        if op == OP_SUM:
            return self._cub(self.cub.cub_scan(result, self.cub.CUPY_CUB_CUMSUM))
        spare = cp.empty_like(items)
        shift = 1
        while shift < n:
            self.launch("scan_step", items.dtype, n, result, spare, np.int64(n), np.int64(shift), np.int32(op))
            result, spare = spare, result
            shift *= 2
        return result

    def scan(self, call, items, dtype) -> None:
        n = call.num_items
        if n == 0:
            return
        inclusive = self.inclusive(items, call.op)
        out = self.view(call.out, n, dtype)
        if call.exclusive:
            self.launch("exclusive_from_inclusive", dtype, n, inclusive, out, np.int64(n),
                        self.scalar(call.init, dtype), np.int32(call.op))
        else:
            self.copy(out, inclusive)

    def sort(self, call, keys, dtype) -> None:
        cp = self.cp
        n = call.num_items
        if n == 0:
            return
        begin, width = (call.begin_bit, call.end_bit - call.begin_bit) if call.kind == RADIX_SORT else (0, 64)
        rows = cp.empty(2 * n, np.uint64)
        self.launch("sort_rows", dtype, n, keys, rows, np.int64(n), np.int32(begin), np.int32(width),
                    np.int32(call.descending))
        order = cp.lexsort(rows.reshape(2, n))
        if call.value_bytes:
            size = call.value_bytes
            values = self.view(call.values_in, n * size, np.uint8)
            moved = cp.empty(n * size, np.uint8)
            self.launch("gather_bytes", None, n * size, values, order, moved, np.int64(n), np.int32(size))
            self.copy(self.view(call.values_out, n * size, np.uint8), moved)
        sorted_keys = cp.empty(n, dtype)
        self.launch("gather", dtype, n, keys, order, sorted_keys, np.int64(n))
        self.copy(self.view(call.out, n, dtype), sorted_keys)

    def select(self, call, items, dtype) -> None:
        cp = self.cp
        n = call.num_items
        if n == 0:
            self.write_result(call, 0)
            return
        mask = cp.empty(n, np.int32)
        if call.kind == SELECT_FLAGGED:
            flag_type = np.dtype(_DTYPES[call.aux_type])
            self.launch("flag_mask", flag_type, n, self.view(call.aux, n, flag_type), mask, np.int64(n))
        else:
            self.launch("head_mask", dtype, n, items, mask, np.int64(n))
        position = self.inclusive(mask, OP_SUM)
        kept = int(self.to_host(position[n - 1:])[0])
        chosen = cp.empty(max(kept, 1), dtype)
        self.launch("compact", dtype, n, items, mask, position, chosen, np.int64(n))
        if call.kind == RUN_LENGTH:
            length_type = np.dtype(_DTYPES[call.aux_type])
            starts = cp.empty(max(kept, 1), np.int64)
            self.launch("compact_index", None, n, mask, position, starts, np.int64(n))
            self.launch("run_lengths", length_type, kept, starts, np.int64(kept), np.int64(n),
                        self.view(call.aux_out, kept, length_type))
        self.copy(self.view(call.out, kept, dtype), chosen[:kept])
        self.write_result(call, kept)

    def histogram(self, call, samples, dtype) -> None:
        cp = self.cp
        bins = call.num_segments - 1
        counts = cp.zeros(bins, np.uint64)
        self.launch("histogram_even", dtype, call.num_items, samples, counts, np.int64(call.num_items),
                    np.int64(bins), np.float64(call.lower), np.float64(call.upper), np.int32(dtype.kind in "iu"))
        counter = np.dtype(_DTYPES[call.aux_type])
        self.launch("convert", np.uint64, bins, counts, self.view(call.aux_out, bins, counter), np.int64(bins),
                    types=(counter,))

    def segmented_reduce(self, call, dtype) -> None:
        segments = call.num_segments
        if segments == 0:
            return
        offset = np.dtype(_DTYPES[call.aux_type])
        begins = self.view(call.aux, segments, offset)
        ends = self.view(call.aux_end, segments, offset)
        host_begins, host_ends = self.to_host(begins).astype(np.int64), self.to_host(ends).astype(np.int64)
        nonempty = host_ends > host_begins
        if (host_begins[nonempty] < 0).any():
            raise ValueError(f"segment {int(np.flatnonzero(nonempty & (host_begins < 0))[0])} begins at a negative offset")
        extent = int(host_ends[nonempty].max()) if nonempty.any() else 0
        items = self.view(call.in_, extent, dtype) if extent else self.cp.empty(1, dtype)
        blocks = max(1, min(segments, 65535))
        self.kernels[f"segmented_reduce<{_C_TYPES[dtype]}, {_C_TYPES[offset]}>"](
            (blocks,), (THREADS,), (items, begins, ends, self.view(call.out, segments, dtype), np.int64(segments),
                                     np.int32(call.op), self.scalar(call.init, dtype)))
