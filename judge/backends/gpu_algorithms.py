"""Device-wide algorithms (CUB's Device*, Thrust's) for the GPU backend.

The host-side API (judge/runtime/host_std/cudajudge/device_algorithms.h) describes each call as a
`cudajudge_algorithm_call`; the built library hands it to the handler registered here, which runs
it on the library's stream and writes the results where the call says. The kernels are the judge's
(judge/runtime/gpu/device_algorithms.cu), compiled by load() before the submission loads and kept in
the account's kernel cache (sandbox.kernel_cache); sorting is CuPy's stable sort (Thrust's, built
into CuPy). Nothing a call runs is compiled at its first use, so no call spends solve()'s time limit
on a compiler. The CPU runtime runs the same calls sequentially
(judge/runtime/cpu/src/device_algorithms.cpp); both follow CUB's and Thrust's documented results.
"""
from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

ALGORITHMS_SOURCE = Path(__file__).resolve().parents[1] / "runtime" / "gpu" / "device_algorithms.cu"
_DTYPES = {1: np.int8, 2: np.uint8, 3: np.int16, 4: np.uint16, 5: np.int32, 6: np.uint32, 7: np.int64,
           8: np.uint64, 9: np.float32, 10: np.float64}
(REDUCE, ARG_REDUCE, SCAN, RADIX_SORT, SORT, SELECT_FLAGGED, UNIQUE, RUN_LENGTH, HISTOGRAM_EVEN,
 SEGMENTED_REDUCE, FILL, SEQUENCE, COUNT, COPY) = range(1, 15)
OP_SUM, OP_MIN, OP_MAX = 1, 2, 3
INVALID_VALUE = 1
_TYPE_CODES = {np.dtype(t): code for code, t in _DTYPES.items()}
_TYPE_NAMES = {np.dtype(t): f"{np.dtype(t).kind}{8 * np.dtype(t).itemsize}" for t in _DTYPES.values()}  # i8 … f64
_OP_NAMES = {OP_SUM: "sum", OP_MIN: "min", OP_MAX: "max"}
ALGORITHM_THREADS = 256          # cj_threads
TILE_ITEMS = 2048                # cj_tile_items: what one block of a scan covers
MOST_BLOCKS = 1024               # of a grid-stride kernel, and so of a reduction's partials
HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE = 1, 2, 3   # cudaMemcpyKind


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


class DeviceAlgorithms:
    """Runs one call at a time on CuPy's current stream (the library's launch stream)."""

    def __init__(self, cp):
        self.cp = cp
        self.handler = HANDLER_TYPE(self._handle)   # kept alive as long as the library may call it
        self._module = None
        self._kernels: dict = {}

    def load(self) -> None:
        """Compile the kernels (or load them from the kernel cache) and CuPy's sort: what no call may wait for."""
        cp = self.cp
        if self._module is None:
            self._module = cp.RawModule(code=ALGORITHMS_SOURCE.read_text(), options=("--std=c++17",))
            self._module.get_function("cj_convert")   # CuPy compiles a module at its first function
            for key_type in (np.uint32, np.uint64):   # the order keys sort() makes
                cp.argsort(cp.zeros(2, key_type))

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

    # --- memory and launches ---------------------------------------------------------------------

    @staticmethod
    def address(pointer: int | None, count: int) -> np.uint64:
        if count > 0 and not pointer:
            raise ValueError("a null device pointer was passed")
        return np.uint64(pointer or 0)

    def scratch(self, count: int, dtype):
        return self.cp.empty(max(count, 1), dtype)

    def zeros(self, count: int, dtype):
        array = self.scratch(count, dtype)
        self.cp.cuda.runtime.memsetAsync(array.data.ptr, 0, array.nbytes, self._stream())
        return array

    def _stream(self) -> int:
        return self.cp.cuda.get_current_stream().ptr

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        if nbytes:
            self.cp.cuda.runtime.memcpyAsync(destination, source, nbytes, DEVICE_TO_DEVICE, self._stream())

    def launch(self, name: str, blocks: int, *args) -> None:
        self.load()
        kernel = self._kernels.get(name)
        if kernel is None:
            kernel = self._kernels[name] = self._module.get_function(name)
        kernel((blocks,), (ALGORITHM_THREADS,), args)

    @staticmethod
    def blocks(count: int) -> int:
        """Of a grid-stride kernel over `count` items: one at least (a reduction of none gives its identity)."""
        return max(1, min(MOST_BLOCKS, -(-count // ALGORITHM_THREADS)))

    def write_result(self, call, value) -> None:
        data = np.asarray(value).astype(_DTYPES[call.result_type]).reshape(1)
        if call.result_on_host:
            ctypes.memmove(call.result, data.ctypes.data, data.nbytes)
        else:
            self.cp.cuda.runtime.memcpy(int(self.address(call.result, 1)), data.ctypes.data, data.nbytes, HOST_TO_DEVICE)

    def convert(self, source: int, source_type: int, destination: int, destination_type: int, count: int) -> None:
        if count:
            self.launch("cj_convert", self.blocks(count), np.uint64(source), np.int32(source_type), np.uint64(destination),
                        np.int32(destination_type), np.int64(count))

    @staticmethod
    def scalar(field, dtype):
        dtype = np.dtype(dtype)
        return np.frombuffer(bytes(field)[:dtype.itemsize], dtype)[0]

    @staticmethod
    def identity(op: int, dtype):
        """What combines with any item to give the item: 0, the type's greatest or its least."""
        if op == OP_SUM:
            return dtype.type(0)
        if dtype.kind == "f":
            return dtype.type(np.inf if op == OP_MIN else -np.inf)
        limits = np.iinfo(dtype)
        return dtype.type(limits.max if op == OP_MIN else limits.min)

    @staticmethod
    def combine(op: int, values: np.ndarray):
        """The host's share of a reduction (the device's partials, an init), in their own type."""
        if op == OP_SUM:
            return np.add.reduce(values, dtype=values.dtype)
        return values.min() if op == OP_MIN else values.max()

    # --- the algorithms -------------------------------------------------------------------------

    def run(self, call) -> None:
        kind = call.kind
        dtype = np.dtype(_DTYPES[call.item_type])
        n = call.num_items
        reads_items = kind not in (FILL, SEQUENCE, SEGMENTED_REDUCE)
        items = self.address(call.in_, n if reads_items else 0)
        if kind == REDUCE:
            self.reduce(call, items, dtype)
        elif kind == ARG_REDUCE:
            self.arg_reduce(call, items, dtype)
        elif kind == SCAN:
            self.scan(items, self.address(call.out, n), n, dtype, call.op, bool(call.exclusive),
                      self.scalar(call.init, dtype))
        elif kind in (RADIX_SORT, SORT):
            self.sort(call, items, dtype)
        elif kind in (SELECT_FLAGGED, UNIQUE, RUN_LENGTH):
            self.select(call, items, dtype)
        elif kind == HISTOGRAM_EVEN:
            self.histogram(call, items, dtype)
        elif kind == SEGMENTED_REDUCE:
            self.segmented_reduce(call, dtype)
        elif kind in (FILL, SEQUENCE):
            step = dtype.type(0) if kind == FILL else self.scalar(call.step, dtype)
            self.launch(f"cj_sequence_{_TYPE_NAMES[dtype]}", self.blocks(n), self.address(call.out, n), np.int64(n),
                        self.scalar(call.init, dtype), step, np.int32(kind == FILL))
        elif kind == COUNT:
            counter = self.zeros(1, np.uint64)
            self.launch(f"cj_count_{_TYPE_NAMES[dtype]}", self.blocks(n), items, np.int64(n),
                        self.scalar(call.init, dtype), counter)
            self.write_result(call, int(counter.get()[0]))
        elif kind == COPY:
            self.copy(int(self.address(call.out, n)), int(items), n * dtype.itemsize)
        else:
            raise ValueError(f"unknown algorithm {kind}")

    def reduce_on_host(self, items: np.uint64, n: int, dtype, op: int):
        """op over the n items at `items`: partials on the device, the rest here."""
        blocks = self.blocks(n)
        partials = self.scratch(blocks, dtype)
        self.launch(f"cj_reduce_{_OP_NAMES[op]}_{_TYPE_NAMES[dtype]}", blocks, items, np.int64(n),
                    self.identity(op, dtype), partials)
        return self.combine(op, partials.get()[:blocks])

    def reduce(self, call, items: np.uint64, dtype) -> None:
        n = call.num_items
        result_type = np.dtype(_DTYPES[call.result_type])
        if result_type != dtype and n:
            converted = self.scratch(n, result_type)
            self.convert(int(items), call.item_type, converted.data.ptr, call.result_type, n)
            items = np.uint64(converted.data.ptr)
        total = self.reduce_on_host(items, n, result_type, call.op)
        init = self.scalar(call.init, result_type)
        self.write_result(call, self.combine(call.op, np.array([init, total], result_type)))

    def arg_reduce(self, call, items: np.uint64, dtype) -> None:
        n = call.num_items
        if n == 0:
            self.write_result(call, 0)
            return
        blocks = self.blocks(n)
        values, indices = self.scratch(blocks, dtype), self.scratch(blocks, np.int64)
        name = "cj_argmin" if call.op == OP_MIN else "cj_argmax"
        self.launch(f"{name}_{_TYPE_NAMES[dtype]}", blocks, items, np.int64(n), values, indices)
        values, indices = values.get()[:blocks], indices.get()[:blocks]
        found = indices >= 0
        values, indices = values[found], indices[found]
        best = values.min() if call.op == OP_MIN else values.max()
        tied = indices[values == best]
        self.write_result(call, int(tied.min() if tied.size else indices.min()))

    def scan(self, source: np.uint64, destination: np.uint64, n: int, dtype, op: int, exclusive: bool, init) -> None:
        """destination[i] = init op source[0..i) (exclusive) or source[0..i] (inclusive): a total per tile,
        the tiles' own exclusive scan, then each tile."""
        if n == 0:
            return
        tiles = -(-n // TILE_ITEMS)
        identity = self.identity(op, dtype)
        kind = f"{_OP_NAMES[op]}_{_TYPE_NAMES[dtype]}"
        prefixes = np.uint64(0)
        if tiles > 1:
            totals, before = self.scratch(tiles, dtype), self.scratch(tiles, dtype)
            self.launch(f"cj_tile_totals_{kind}", tiles, source, np.int64(n), identity, totals)
            self.scan(np.uint64(totals.data.ptr), np.uint64(before.data.ptr), tiles, dtype, op, True, identity)
            prefixes = np.uint64(before.data.ptr)
        self.launch(f"cj_scan_{kind}", tiles, source, destination, np.int64(n), prefixes, init, np.int32(exclusive),
                    identity)

    def sort(self, call, keys: np.uint64, dtype) -> None:
        """Stable, by the unsigned key CUB's radix sort orders by (bits [begin_bit, end_bit) for a radix sort)."""
        n = call.num_items
        if n == 0:
            return
        begin, end = (call.begin_bit, call.end_bit) if call.kind == RADIX_SORT else (0, 64)
        begin = min(max(begin, 0), 63)
        narrow = min(end, 8 * dtype.itemsize) - begin <= 32
        order_keys = self.scratch(n, np.uint32 if narrow else np.uint64)
        self.launch(f"cj_sort_keys{'32' if narrow else ''}_{_TYPE_NAMES[dtype]}", self.blocks(n), keys, np.int64(n),
                    np.int32(begin), np.int32(max(end, begin)), np.int32(bool(call.descending)), order_keys)
        order = self.cp.argsort(order_keys)
        moves = [(keys, self.address(call.out, n), dtype.itemsize)]
        if call.value_bytes:
            moves.append((self.address(call.values_in, n), self.address(call.values_out, n), call.value_bytes))
        copies = []   # of what the call sorts in place: gathered from, so kept until the gathers ran
        for source, destination, width in moves:
            if source == destination:
                copies.append(self.scratch(n * width, np.uint8))
                self.copy(copies[-1].data.ptr, int(source), n * width)
                source = np.uint64(copies[-1].data.ptr)
            self.launch("cj_gather", self.blocks(n), source, order, np.int64(n), np.int32(width), destination)

    def select(self, call, items: np.uint64, dtype) -> None:
        """The flagged items (or each run's first), in order, and their count; a run-length encode adds
        each run's length."""
        n = call.num_items
        if n == 0:
            self.write_result(call, 0)
            return
        flags, positions = self.scratch(n, np.int64), self.scratch(n, np.int64)
        if call.kind == SELECT_FLAGGED:
            flag_type = np.dtype(_DTYPES[call.aux_type])
            self.launch(f"cj_flags_nonzero_{_TYPE_NAMES[flag_type]}", self.blocks(n), self.address(call.aux, n),
                        np.int64(n), flags)
        else:
            self.launch(f"cj_flags_run_heads_{_TYPE_NAMES[dtype]}", self.blocks(n), items, np.int64(n), flags)
        self.scan(np.uint64(flags.data.ptr), np.uint64(positions.data.ptr), n, np.dtype(np.int64), OP_SUM, True,
                  np.int64(0))
        kept = int(positions[n - 1].get()) + int(flags[n - 1].get())
        starts = self.scratch(kept, np.int64) if call.kind == RUN_LENGTH else None
        self.launch("cj_scatter_flagged", self.blocks(n), items, np.int32(dtype.itemsize), flags, positions,
                    np.int64(n), self.address(call.out, kept), np.uint64(starts.data.ptr if starts is not None else 0))
        if starts is not None and kept:
            lengths = self.scratch(kept, np.int64)
            self.launch("cj_run_lengths", self.blocks(kept), starts, np.int64(kept), np.int64(n), lengths)
            self.convert(lengths.data.ptr, _TYPE_CODES[np.dtype(np.int64)], int(self.address(call.aux_out, kept)),
                         call.aux_type, kept)
        self.write_result(call, kept)

    def histogram(self, call, samples: np.uint64, dtype) -> None:
        bins = call.num_segments - 1
        if bins <= 0:
            return
        counts = self.zeros(bins, np.uint64)
        self.launch(f"cj_histogram_{_TYPE_NAMES[dtype]}", self.blocks(call.num_items), samples,
                    np.int64(call.num_items), np.int64(bins), np.float64(call.lower), np.float64(call.upper), counts)
        self.convert(counts.data.ptr, _TYPE_CODES[np.dtype(np.uint64)], int(self.address(call.aux_out, bins)),
                     call.aux_type, bins)

    def segmented_reduce(self, call, dtype) -> None:
        segments = call.num_segments
        if segments <= 0:
            return
        offset_type = np.dtype(_DTYPES[call.aux_type])
        begins, ends = (self.offsets(pointer, segments, offset_type) for pointer in (call.aux, call.aux_end))
        nonempty = ends > begins
        if (begins[nonempty] < 0).any():
            raise ValueError("a segment begins at a negative offset")
        extent = int(ends[nonempty].max()) if nonempty.any() else 0
        self.launch(f"cj_segmented_{_OP_NAMES[call.op]}_{_TYPE_NAMES[dtype]}", segments,
                    self.address(call.in_, extent), self.cp.asarray(begins), self.cp.asarray(ends),
                    self.scalar(call.init, dtype), self.identity(call.op, dtype),
                    self.address(call.out, segments))

    def offsets(self, pointer: int | None, count: int, dtype) -> np.ndarray:
        """`count` segment offsets of `dtype` from the device, as int64 on the host."""
        host = np.empty(count, dtype)
        self.cp.cuda.runtime.memcpy(host.ctypes.data, int(self.address(pointer, count)), host.nbytes, DEVICE_TO_HOST)
        return host.astype(np.int64)
