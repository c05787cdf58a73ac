"""Drawing straight into palette indices, so a picture needs no RGB→palette quantising.

The canvas is an "L" image whose bytes are indices into one colour table
shared by every picture this process draws. Flat fills and opaque parts of
sprites are copies of one byte per pixel. Everything blended (anti-aliased
edges, text, rounded corners) is done exactly as on an RGB canvas, Pillow's own
arithmetic on a small RGB copy of the pixels beneath, and the result is kept:
the next time the same thing is blended over the same pixels (the same card
corner over the felt, the same label over a chip) it is one paste. So a
picture holds exactly the colours an RGB canvas would (the old quantiser could
be a few levels off), and only the first picture of a kind pays for blending.

The bytes of the PNG do not depend on what was drawn before: at encoding the
indices are renumbered in the order of their colours, and the palette holds
just the colours drawn on this canvas. When the
table is full (256 colours) it is emptied and the picture drawn again; a
picture that alone needs more is drawn on RGB and quantised as before.
All of it runs under one lock: the table and the kept blends are shared.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from PIL import Image

from .encode import COMPRESS_LEVEL, png_bytes
from .palette import RGB
from .stamps import Sprite, Stamp

INDEXED = "cardart.indexed"
"""Key in ``Image.info`` marking an indexed canvas."""
USED = "cardart.indexed.used"
"""Key in ``Image.info``: one bit per index drawn on the canvas (the palette to write)."""

_MAX_KEPT = 20_000
"""Blends kept before they are all forgotten (a bound on memory)."""
CAPACITY = 256
"""Colours in the table (a palette PNG holds 256; tests lower it)."""


class TableFull(Exception):
    """More than 256 colours: the table must be emptied (or the picture drawn on RGB)."""


class _Colours:
    """The shared colour table: RGB of each index, and the index of each RGB."""

    def __init__(self) -> None:
        self.rgb: list[RGB] = []
        self.index: dict[bytes, int] = {}
        self.palette = b""
        """``rgb`` as bytes, for turning indices back into colours."""

    def of(self, colour: bytes) -> int:
        found = self.index.get(colour)
        if found is None:
            if len(self.rgb) >= CAPACITY:
                raise TableFull
            found = self.index[colour] = len(self.rgb)
            self.rgb.append((colour[0], colour[1], colour[2]))
            self.palette += colour
        return found


_lock = threading.RLock()
_colours = _Colours()
_blends: dict[tuple, _Block] = {}
"""Blended blocks, by what was blended over what."""
_parts: dict[int, tuple[Image.Image, _Block]] = {}
_kept: dict[int, object] = {}
"""Masks and parts named by ``id`` in the keys above, kept alive so no id is reused."""


def _forget() -> None:
    global _colours
    _colours = _Colours()
    _blends.clear()
    _parts.clear()
    _kept.clear()


def _name(thing: object) -> int:
    _kept[id(thing)] = thing
    return id(thing)


def canvas(size: tuple[int, int], background: RGB) -> Image.Image:
    """An indexed canvas filled with ``background``."""
    index = _colours.of(bytes(background))
    picture = Image.new("L", size, index)
    picture.info[INDEXED] = True
    picture.info[USED] = 1 << index
    return picture


def is_indexed(picture: Image.Image) -> bool:
    return picture.info.get(INDEXED, False)


class _Block(NamedTuple):
    """Indices ready to paste: Pillow's core image, and one bit per index it holds."""

    core: Any
    used: int


def _indices(picture: Image.Image) -> _Block:
    """An RGB picture as indices (new colours join the table)."""
    data = picture.tobytes()
    of, index = _colours.of, _colours.index
    out = bytearray(len(data) // 3)
    for i in range(len(out)):
        colour = data[3 * i:3 * i + 3]
        found = index.get(colour)
        out[i] = of(colour) if found is None else found
    used = 0
    for value in set(out):
        used |= 1 << value
    return _Block(Image.frombytes("L", picture.size, bytes(out)).im, used)


def _put(picture: Image.Image, block: _Block, box: tuple[int, int, int, int]) -> None:
    picture.im.paste(block.core, box)
    picture.info[USED] |= block.used


def _rgb(indices: Image.Image) -> Image.Image:
    """Indices as an RGB picture."""
    paletted = Image.frombytes("P", indices.size, indices.tobytes())
    paletted.putpalette(_colours.palette)
    return paletted.convert("RGB")


def _blend(picture: Image.Image, box: tuple[int, int, int, int], key: tuple,
           draw: Callable[[Image.Image], None]) -> None:
    """Blend ``draw`` (on an RGB copy of the pixels in ``box``) into the canvas, or reuse it."""
    # Pillow's core objects directly: the checks of Image.crop and Image.paste cost more
    # than the copying itself on blocks this small.
    beneath = picture.im.crop(box)
    low, high = beneath.getextrema()
    # Most blends land on one colour (text on a chip, a corner on the felt): no bytes needed.
    full = (key, low) if low == high else (key, picture._new(beneath).tobytes())
    done = _blends.get(full)
    if done is None:
        rgb = _rgb(picture._new(beneath))
        draw(rgb)
        done = _indices(rgb)
        if len(_blends) >= _MAX_KEPT:
            raise TableFull  # start afresh: forgetting only the blends would keep stale ids
        _blends[full] = done
    _put(picture, done, box)


def fill(picture: Image.Image, mask: Image.Image | Stamp, colour: RGB,
         xy: tuple[int, int]) -> None:
    """:func:`cardart.raster.fill` on an indexed canvas."""
    x, y = xy
    if isinstance(mask, Stamp):
        box = (x, y, x + mask.width, y + mask.height)
        low, high = picture.im.crop(box).getextrema()
        if low == high:  # on one colour (a chip on the felt): the whole stamp in one paste
            key = ("stamp", colour, _name(mask), low)
            done = _blends.get(key)
            if done is None:
                done = _blends[key] = _stamped(mask, colour, low)
            _put(picture, done, box)
            return
        index = _colours.of(bytes(colour))
        picture.info[USED] |= 1 << index
        for left, top, right, bottom in mask.solid:
            picture.paste(index, (left + x, top + y, right + x, bottom + y))
        for (left, top, _, _), block in mask.edges:
            _fill_through(picture, block, colour, (left + x, top + y))
        return
    _fill_through(picture, mask, colour, xy)


def _stamped(stamp: Stamp, colour: RGB, beneath: int) -> _Block:
    """``colour`` through ``stamp`` over the colour of index ``beneath``, as indices."""
    rgb = Image.new("RGB", (stamp.width, stamp.height), _colours.rgb[beneath])
    for box in stamp.solid:
        rgb.paste(colour, box)
    for box, block in stamp.edges:
        rgb.paste(colour, box, block)
    return _indices(rgb)


def _fill_through(picture: Image.Image, mask: Image.Image, colour: RGB,
                  xy: tuple[int, int]) -> None:
    x, y = xy
    box = (x, y, x + mask.width, y + mask.height)
    _blend(picture, box, ("fill", colour, _name(mask)),
           lambda rgb: rgb.paste(colour, (0, 0, mask.width, mask.height), mask))


def paste(picture: Image.Image, piece: Sprite, xy: tuple[int, int]) -> None:
    """:func:`cardart.raster.paste` on an indexed canvas."""
    x, y = xy
    for box, part in piece.opaque:
        _put(picture, _part(part), (box[0] + x, box[1] + y, box[2] + x, box[3] + y))
    for box, part, block in piece.blended:
        left, top = box[0] + x, box[1] + y
        _blend(picture, (left, top, left + part.width, top + part.height),
               ("paste", _name(part), _name(block)), partial(_paste_through, part, block))


def _paste_through(part: Image.Image, block: Image.Image, rgb: Image.Image) -> None:
    """Paste ``part`` at the corner of ``rgb`` through the mask ``block``."""
    rgb.paste(part, (0, 0), block)


def _part(part: Image.Image) -> _Block:
    """The indices of an opaque sprite part, found once."""
    hit = _parts.get(id(part))
    if hit is None or hit[0] is not part:
        hit = _parts[id(part)] = (part, _indices(part))
    return hit[1]


def draw_png(compose: Callable[[bool], Image.Image]) -> bytes:
    """PNG bytes of ``compose(indexed)``: on an indexed canvas if its colours fit, else RGB."""
    with _lock:
        for _ in range(2):
            try:
                return _encode(compose(True))
            except TableFull:
                _forget()
    return png_bytes(compose(False))


def _encode(picture: Image.Image) -> bytes:
    """The canvas as a palette PNG of the colours drawn on it, in RGB order.

    The palette may hold a colour that was later painted over: what was drawn
    decides it, never what the table held before, so the bytes are the same in
    any process.
    """
    rgb = _colours.rgb
    used = picture.info[USED]
    ordered = sorted((i for i in range(len(rgb)) if used >> i & 1), key=rgb.__getitem__)
    renumber = [0] * 256
    for new, old in enumerate(ordered):
        renumber[old] = new
    paletted = picture.point(renumber).convert("P")  # the same bytes, now as indices
    paletted.putpalette([channel for old in ordered for channel in rgb[old]])
    buffer = io.BytesIO()
    paletted.save(buffer, "PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()
