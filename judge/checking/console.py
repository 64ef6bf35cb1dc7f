"""What a submission printed, cut for the Result: each text to a few KiB, all of one kind in a Result
to a few dozen, so that a flood (judged by the output cap, OUTPUT_CAP_BYTES) never swells the Result."""
from __future__ import annotations

import codecs
import re

PART_BYTES = 4 << 10      # one test's printf, or one stretch of the process's output
RESULT_BYTES = 64 << 10   # all the printf of a Result, and likewise all its process output


MORE_MARKER = re.compile(r"… \d+ bytes more")


def more_marker(left_out: int) -> str:
    return f"… {left_out} bytes more"


class ConsoleBudget:
    """Cuts texts of one kind to PART_BYTES each and RESULT_BYTES together, keeping each one's head."""

    def __init__(self, part_bytes: int = PART_BYTES, total_bytes: int = RESULT_BYTES):
        self.part_bytes, self.left = part_bytes, total_bytes

    def room(self) -> int:
        """How many bytes of the next text can be kept."""
        return min(self.part_bytes, self.left)

    def take(self, head: bytes, size: int) -> str:
        """A text `size` bytes long of which `head` is the beginning (at least room() bytes of it, or
        all): its kept part, ending in a line "… N bytes more" when cut. The cut keeps whole lines where
        the kept part has one, and never splits a character."""
        kept = head[:min(self.room(), size)]
        if len(kept) < size and b"\n" in kept:
            kept = kept[:kept.rindex(b"\n") + 1]
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        text = decoder.decode(kept, final=len(kept) == size)
        used = len(kept) - len(decoder.getstate()[0])
        self.left -= used
        if used >= size:
            return text
        if text and not text.endswith("\n"):
            text += "\n"
        return text + more_marker(size - used)
