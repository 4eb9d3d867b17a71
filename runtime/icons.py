"""The site's icon, drawn once for the web app manifest (``runtime.install``): a white
spade on the felt's green, as SVG (``atu/icon.svg``) and as the PNGs at 192 and 512
pixels a phone's home screen asks for (``atu/icon-192.png``, ``atu/icon-512.png``).

The shapes are plain circles and polygons, so the SVG and the PNGs are the same
drawing; the PNGs are written with the standard library alone (no imaging library is
installed), supersampled for smooth edges. Everything stays within the middle 80% of
the square, so the icon may also be masked to a circle. Run again after a change:
``python -m runtime.icons``."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

SIZE = 512
FELT = (0x1F, 0x5E, 0x3A)
WHITE = (0xFF, 0xFF, 0xFF)
CORNER = 96
# The spade, in the 512-unit square: two lobes, the point above them, the stem below.
LOBES = ((190, 290, 86), (322, 290, 86))
POINT = ((256, 88), (108, 262), (256, 380), (404, 262))
STEM = ((256, 300), (192, 432), (320, 432))
STATIC = Path(__file__).resolve().parent / "static" / "atu"
SUPERSAMPLE = 3


def svg() -> str:
    circles = "".join(f'<circle cx="{x}" cy="{y}" r="{r}"/>' for x, y, r in LOBES)
    polygons = "".join(
        '<polygon points="' + " ".join(f"{x},{y}" for x, y in shape) + '"/>'
        for shape in (POINT, STEM)
    )
    felt = "#{:02x}{:02x}{:02x}".format(*FELT)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">'
        f'<rect width="{SIZE}" height="{SIZE}" rx="{CORNER}" fill="{felt}"/>'
        f'<g fill="#fff">{circles}{polygons}</g></svg>\n'
    )


def _in_polygon(x: float, y: float, shape: tuple[tuple[int, int], ...]) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _in_spade(x: float, y: float) -> bool:
    return (
        any((x - cx) ** 2 + (y - cy) ** 2 <= r * r for cx, cy, r in LOBES)
        or _in_polygon(x, y, POINT)
        or _in_polygon(x, y, STEM)
    )


def _in_square(x: float, y: float) -> bool:
    """Within the rounded square."""
    cx = min(max(x, CORNER), SIZE - CORNER)
    cy = min(max(y, CORNER), SIZE - CORNER)
    return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER * CORNER


def png(pixels: int) -> bytes:
    """The icon as a PNG of ``pixels`` square (RGBA, transparent outside its corners)."""
    scale = SIZE / pixels
    step = 1 / SUPERSAMPLE
    offsets = [(i + 0.5) * step for i in range(SUPERSAMPLE)]
    rows = []
    for row in range(pixels):
        line = bytearray(b"\x00")  # no filter
        for column in range(pixels):
            square = spade = 0
            for dy in offsets:
                for dx in offsets:
                    x, y = (column + dx) * scale, (row + dy) * scale
                    if _in_square(x, y):
                        square += 1
                        spade += _in_spade(x, y)
            samples = SUPERSAMPLE * SUPERSAMPLE
            alpha = round(255 * square / samples)
            share = spade / square if square else 0.0
            line += bytes(round(f + (w - f) * share) for f, w in zip(FELT, WHITE, strict=True))
            line.append(alpha)
        rows.append(bytes(line))
    header = struct.pack(">IIBBBBB", pixels, pixels, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def main() -> None:
    (STATIC / "icon.svg").write_text(svg())
    for pixels in (192, 512):
        (STATIC / f"icon-{pixels}.png").write_bytes(png(pixels))


if __name__ == "__main__":
    main()
