"""The CPU backend's fill of output buffers: every reset pattern's width, exactly, and nothing past the end."""
from __future__ import annotations

import numpy as np
import pytest

from judge import exchange as X
from judge.backends.cpu import fill_words


@pytest.mark.parametrize("pattern", [b"\0", X.sentinel("int8", 1), X.sentinel("float16", 2), X.sentinel("float32", 4),
                                     X.sentinel("float64", 8)])
def test_fill_repeats_each_reset_pattern_exactly(pattern):
    memory = np.full(4096 + 16, 0xAB, np.uint8)
    fill_words(memory.ctypes.data + 8, 4096, np.frombuffer(pattern, np.uint8))
    assert memory[8:8 + 4096].tobytes() == pattern * (4096 // len(pattern))
    assert (memory[:8] == 0xAB).all() and (memory[8 + 4096:] == 0xAB).all()
