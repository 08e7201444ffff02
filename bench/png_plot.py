# A line plot written as a PNG with the Python 3 standard library only (zlib, struct): axes,
# tick marks, one polyline per series in its colour and a colour key of small squares in
# the corner, series in legend order. For bench/zeropp_bench's loss curves; no text is
# drawn, so the caption next to the image in the docs names the series and the axes.
import struct
import zlib

COLOURS = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
           (140, 86, 75)]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray([255] * (w * h * 3))

    def dot(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 3
            self.px[i:i + 3] = bytes(c)

    def line(self, x0, y0, x1, y1, c, thick=1):
        n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in range(n + 1):
            x = round(x0 + (x1 - x0) * k / n)
            y = round(y0 + (y1 - y0) * k / n)
            for dx in range(thick):
                for dy in range(thick):
                    self.dot(x + dx, y + dy, c)

    def rect(self, x0, y0, x1, y1, c):
        for y in range(y0, y1):
            for x in range(x0, x1):
                self.dot(x, y, c)

    def png(self):
        raw = b"".join(b"\x00" + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(kind, data):
            return (struct.pack(">I", len(data)) + kind + data +
                    struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

        return (b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def plot(path, series, w=800, h=480, yticks=5):
    """series: [[y0, y1, ...], ...] over x = 1..len; writes the PNG to path."""
    left, right, top, bottom = 50, 20, 20, 40
    ys = [y for s in series for y in s]
    lo, hi = min(ys), max(ys)
    if hi == lo:
        hi = lo + 1
    n = max(len(s) for s in series)
    c = Canvas(w, h)
    X = lambda i: left + round(i * (w - left - right) / max(1, n - 1))  # noqa: E731
    Y = lambda v: top + round((hi - v) * (h - top - bottom) / (hi - lo))  # noqa: E731
    grey = (90, 90, 90)
    c.line(left, top, left, h - bottom, grey)
    c.line(left, h - bottom, w - right, h - bottom, grey)
    for k in range(yticks + 1):
        y = top + round(k * (h - top - bottom) / yticks)
        c.line(left - 5, y, left, y, grey)
        c.line(left + 1, y, w - right, y, (230, 230, 230))
    for k in range(11):
        x = left + round(k * (w - left - right) / 10)
        c.line(x, h - bottom, x, h - bottom + 5, grey)
    for si, s in enumerate(series):
        col = COLOURS[si % len(COLOURS)]
        for i in range(1, len(s)):
            c.line(X(i - 1), Y(s[i - 1]), X(i), Y(s[i]), col, 2)
        c.rect(w - right - 20 - 14 * (len(series) - si), top + 4,
               w - right - 10 - 14 * (len(series) - si), top + 14, col)
    with open(path, "wb") as f:
        f.write(c.png())
