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
indices are renumbered by colour frequency (ties by colour) and the palette
holds just the colours used, the order :mod:`cardart.encode` uses. When the
table is full (256 colours) it is emptied and the picture drawn again; a
picture that alone needs more is drawn on RGB and quantised as before.
All of it runs under one lock: the table and the kept blends are shared.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

from PIL import Image

from .encode import COMPRESS_LEVEL, png_bytes
from .palette import RGB
from .raster import Sprite, Stamp

INDEXED = "cardart.indexed"
"""Key in ``Image.info`` marking an indexed canvas."""

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
_blends: dict[tuple, Image.Image] = {}
_parts: dict[int, tuple[Image.Image, Image.Image]] = {}
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
    picture = Image.new("L", size, _colours.of(bytes(background)))
    picture.info[INDEXED] = True
    return picture


def is_indexed(picture: Image.Image) -> bool:
    return picture.info.get(INDEXED, False)


def _indices(picture: Image.Image) -> Image.Image:
    """An RGB picture as indices (new colours join the table)."""
    data = picture.tobytes()
    of, index = _colours.of, _colours.index
    out = bytearray(len(data) // 3)
    for i in range(len(out)):
        colour = data[3 * i:3 * i + 3]
        found = index.get(colour)
        out[i] = of(colour) if found is None else found
    return Image.frombytes("L", picture.size, bytes(out))


def _rgb(indices: Image.Image) -> Image.Image:
    """Indices as an RGB picture."""
    paletted = Image.frombytes("P", indices.size, indices.tobytes())
    paletted.putpalette(_colours.palette)
    return paletted.convert("RGB")


def _blend(picture: Image.Image, box: tuple[int, int, int, int], key: tuple,
           draw: Callable[[Image.Image], None]) -> None:
    """Blend ``draw`` (on an RGB copy of the pixels in ``box``) into the canvas, or reuse it."""
    beneath = picture.crop(box)
    low, high = beneath.getextrema()
    # Most blends land on one colour (text on a chip, a corner on the felt): no bytes needed.
    full = (key, low) if low == high else (key, beneath.tobytes())
    done = _blends.get(full)
    if done is None:
        rgb = _rgb(beneath)
        draw(rgb)
        done = _indices(rgb)
        if len(_blends) >= _MAX_KEPT:
            raise TableFull  # start afresh: forgetting only the blends would keep stale ids
        _blends[full] = done
    picture.paste(done, box[:2])


def fill(picture: Image.Image, mask: Image.Image | Stamp, colour: RGB,
         xy: tuple[int, int]) -> None:
    """:func:`cardart.raster.fill` on an indexed canvas."""
    x, y = xy
    if isinstance(mask, Stamp):
        box = (x, y, x + mask.width, y + mask.height)
        low, high = picture.crop(box).getextrema()
        if low == high:  # on one colour (a chip on the felt): the whole stamp in one paste
            key = ("stamp", colour, _name(mask), low)
            done = _blends.get(key)
            if done is None:
                done = _blends[key] = _stamped(mask, colour, low)
            picture.paste(done, box[:2])
            return
        index = _colours.of(bytes(colour))
        for left, top, right, bottom in mask.solid:
            picture.paste(index, (left + x, top + y, right + x, bottom + y))
        for (left, top, _, _), block in mask.edges:
            _fill_through(picture, block, colour, (left + x, top + y))
        return
    _fill_through(picture, mask, colour, xy)


def _stamped(stamp: Stamp, colour: RGB, beneath: int) -> Image.Image:
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
        picture.paste(_part(part), (box[0] + x, box[1] + y))
    for box, part, block in piece.blended:
        left, top = box[0] + x, box[1] + y
        _blend(picture, (left, top, left + part.width, top + part.height),
               ("paste", _name(part), _name(block)),
               lambda rgb, part=part, block=block: rgb.paste(part, (0, 0), block))


def _part(part: Image.Image) -> Image.Image:
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
    counts = picture.getcolors(256)
    assert counts is not None, "an indexed canvas has at most 256 values"
    rgb = _colours.rgb
    # Most frequent colour first, ties broken by the colour: the order of cardart.encode.
    ordered = sorted(counts, key=lambda entry: (-entry[0], rgb[entry[1]]))
    renumber = [0] * 256
    for new, (_, old) in enumerate(ordered):
        renumber[old] = new
    paletted = picture.point(renumber).convert("P")  # the same bytes, now as indices
    paletted.putpalette([channel for _, old in ordered for channel in rgb[old]])
    buffer = io.BytesIO()
    paletted.save(buffer, "PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()
