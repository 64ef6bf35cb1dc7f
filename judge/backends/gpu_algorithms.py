"""Device-wide algorithms (CUB's Device*, Thrust's) for the GPU backend, run with CuPy.

The host-side API (judge/runtime/host_std/cudajudge/device_algorithms.h) describes each call as a
`cudajudge_algorithm_call`; the built library hands it to the handler registered here, which runs
it on the library's stream with CuPy's sorts, scans and reductions (Thrust and CUB underneath) and
writes the results where the call says. CuPy compiles its elementwise kernels at their first use
and keeps them in the account's kernel cache (sandbox.kernel_cache): the first call of a kind on a
type spends part of solve()'s time limit on that. The CPU runtime runs the same calls sequentially
(judge/runtime/cpu/src/device_algorithms.cpp); both follow CUB's and Thrust's documented results.
"""
from __future__ import annotations

import ctypes

import numpy as np

_DTYPES = {1: np.int8, 2: np.uint8, 3: np.int16, 4: np.uint16, 5: np.int32, 6: np.uint32, 7: np.int64,
           8: np.uint64, 9: np.float32, 10: np.float64}
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


class DeviceAlgorithms:
    """Runs one call at a time on CuPy's current stream (the library's launch stream)."""

    def __init__(self, cp):
        self.cp = cp
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

    # --- memory ---------------------------------------------------------------------------------

    def view(self, address: int | None, count: int, dtype):
        cp = self.cp
        dtype = np.dtype(dtype)
        if count <= 0:
            return cp.empty(0, dtype)
        if not address:
            raise ValueError("a null device pointer was passed")
        memory = cp.cuda.UnownedMemory(address, count * dtype.itemsize, None)
        return cp.ndarray((count,), dtype, memptr=cp.cuda.MemoryPointer(memory, 0))

    def write_result(self, call, value) -> None:
        dtype = np.dtype(_DTYPES[call.result_type])
        if call.result_on_host:
            data = np.asarray(value if np.isscalar(value) else value.get(), dtype).reshape(1)
            ctypes.memmove(call.result, data.ctypes.data, dtype.itemsize)
        else:
            self.view(call.result, 1, dtype)[...] = value

    @staticmethod
    def scalar(field, dtype):
        dtype = np.dtype(dtype)
        return np.frombuffer(bytes(field)[:dtype.itemsize], dtype)[0]

    # --- the algorithms -------------------------------------------------------------------------

    def run(self, call) -> None:
        cp = self.cp
        dtype = np.dtype(_DTYPES[call.item_type])
        n = call.num_items
        items = self.view(call.in_, n, dtype) if call.kind not in (FILL, SEQUENCE, SEGMENTED_REDUCE) else None
        kind = call.kind
        if kind == REDUCE:
            rtype = np.dtype(_DTYPES[call.result_type])
            self.write_result(call, self.reduce(items.astype(rtype, copy=False), call.op,
                                                self.scalar(call.init, rtype)))
        elif kind == ARG_REDUCE:
            index = 0 if n == 0 else int((items.argmin() if call.op == OP_MIN else items.argmax()).get())
            self.write_result(call, index)
        elif kind == SCAN:
            result = self.scan(items, call.op, bool(call.exclusive), self.scalar(call.init, dtype))
            self.view(call.out, n, dtype)[...] = result
        elif kind in (RADIX_SORT, SORT):
            self.sort(call, items, dtype)
        elif kind in (SELECT_FLAGGED, UNIQUE, RUN_LENGTH):
            self.select(call, items, dtype)
        elif kind == HISTOGRAM_EVEN:
            self.histogram(call, items)
        elif kind == SEGMENTED_REDUCE:
            self.segmented_reduce(call, dtype)
        elif kind in (FILL, SEQUENCE):
            out = self.view(call.out, n, dtype)
            start = self.scalar(call.init, dtype)
            if kind == FILL:
                out.fill(start)
            else:
                out[...] = (start + cp.arange(n, dtype=dtype) * self.scalar(call.step, dtype)).astype(dtype)
        elif kind == COUNT:
            self.write_result(call, int((items == self.scalar(call.init, dtype)).sum().get()))
        elif kind == COPY:
            self.view(call.out, n, dtype)[...] = items.copy()
        else:
            raise ValueError(f"unknown algorithm {kind}")

    def reduce(self, items, op: int, init):
        cp = self.cp
        if items.size == 0:
            return cp.asarray(init, items.dtype)
        if op == OP_SUM:
            return (items.sum(dtype=items.dtype) + init).astype(items.dtype)
        return (cp.minimum if op == OP_MIN else cp.maximum)(items.min() if op == OP_MIN else items.max(), init)

    def scan(self, items, op: int, exclusive: bool, init):
        cp = self.cp
        if items.size == 0:
            return items.copy()
        if op == OP_SUM:
            inclusive = cp.cumsum(items, dtype=items.dtype)
            combine = cp.add
        else:
            combine = cp.minimum if op == OP_MIN else cp.maximum
            inclusive = items.copy()
            shift = 1
            while shift < items.size:   # log-step scan: each pass combines with the item `shift` back
                inclusive[shift:] = combine(inclusive[shift:], inclusive[:-shift].copy())
                shift *= 2
        if not exclusive:
            return inclusive
        result = cp.empty_like(items)
        result[0] = init
        result[1:] = combine(init, inclusive[:-1]).astype(items.dtype)
        return result

    def order_bits(self, keys, dtype):
        """The unsigned bits CUB's radix sort orders keys by (floats twiddled, -0.0 as +0.0)."""
        cp = self.cp
        bits_type = np.dtype(f"u{dtype.itemsize}")
        sign = bits_type.type(1) << bits_type.type(8 * dtype.itemsize - 1)
        if dtype.kind == "f":
            bits = (keys + dtype.type(0)).view(bits_type)
            return cp.where(bits & sign, ~bits, bits | sign).astype(np.uint64)
        if dtype.kind == "i":
            return (keys.view(bits_type) ^ sign).astype(np.uint64)
        return keys.astype(np.uint64)

    def sort(self, call, keys, dtype) -> None:
        cp = self.cp
        n = call.num_items
        digits = self.order_bits(keys, dtype)
        if call.kind == RADIX_SORT:
            width = call.end_bit - call.begin_bit
            digits = digits >> np.uint64(call.begin_bit)
            if width < 64:
                digits &= np.uint64((1 << width) - 1)
        if call.descending:
            digits = ~digits
        # Stable: ties keep their input order (the index is the secondary key).
        order = cp.lexsort(cp.stack([cp.arange(n, dtype=np.uint64), digits])) if n else cp.empty(0, np.int64)
        sorted_keys = keys[order]
        if call.value_bytes:
            values = self.view(call.values_in, n * call.value_bytes, np.uint8).reshape(n, call.value_bytes)[order]
            self.view(call.values_out, n * call.value_bytes, np.uint8)[...] = values.reshape(-1)
        self.view(call.out, n, dtype)[...] = sorted_keys

    def select(self, call, items, dtype) -> None:
        cp = self.cp
        n = call.num_items
        if call.kind == SELECT_FLAGGED:
            kept = items[self.view(call.aux, n, _DTYPES[call.aux_type]) != 0]
        else:
            heads = cp.ones(n, bool)
            if n > 1:
                heads[1:] = items[1:] != items[:-1]
            starts = cp.flatnonzero(heads)
            kept = items[starts]
            if call.kind == RUN_LENGTH and kept.size:
                lengths = cp.diff(cp.append(starts, n))
                self.view(call.aux_out, kept.size, _DTYPES[call.aux_type])[...] = lengths
        if kept.size:
            self.view(call.out, kept.size, dtype)[...] = kept
        self.write_result(call, int(kept.size))

    def histogram(self, call, samples) -> None:
        cp = self.cp
        bins = call.num_segments - 1
        lower, upper = call.lower, call.upper
        values = samples.astype(np.float64)
        valid = (values >= lower) & (values < upper)
        if samples.dtype.kind in "iu":
            bin_of = ((samples.astype(np.int64) - int(lower)) * bins) // (int(upper) - int(lower))
        else:
            bin_of = ((values - lower) * (bins / (upper - lower))).astype(np.int64)
        counts = cp.bincount(cp.clip(bin_of[valid], 0, bins - 1), minlength=bins)[:bins]
        self.view(call.aux_out, bins, _DTYPES[call.aux_type])[...] = counts

    def segmented_reduce(self, call, dtype) -> None:
        cp = self.cp
        segments = call.num_segments
        out = self.view(call.out, segments, dtype)
        if segments == 0:
            return
        begins = self.view(call.aux, segments, _DTYPES[call.aux_type]).astype(np.int64)
        ends = self.view(call.aux_end, segments, _DTYPES[call.aux_type]).astype(np.int64)
        nonempty = ends > begins
        if bool((begins[nonempty] < 0).any()):
            raise ValueError("a segment begins at a negative offset")
        extent = int(ends[nonempty].max().get()) if bool(nonempty.any()) else 0
        items = self.view(call.in_, extent, dtype)
        init = self.scalar(call.init, dtype)
        if call.op == OP_SUM:
            wide = np.float64 if dtype.kind == "f" else (np.uint64 if dtype.kind == "u" else np.int64)
            prefix = cp.concatenate([cp.zeros(1, wide), cp.cumsum(items, dtype=wide)])
            sums = cp.where(nonempty, prefix[cp.maximum(ends, begins)] - prefix[begins.clip(0)], 0)
            out[...] = (sums.astype(dtype) + init).astype(dtype)
            return
        combine = cp.minimum if call.op == OP_MIN else cp.maximum
        host_begins, host_ends = begins.get(), ends.get()
        result = cp.full(segments, init, dtype)
        for s in np.flatnonzero(host_ends > host_begins):
            part = items[host_begins[s]:host_ends[s]]
            result[s] = combine(part.min() if call.op == OP_MIN else part.max(), init)
        out[...] = result
