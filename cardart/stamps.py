"""The cut-up masks and pictures every drawing path composes from (:mod:`raster` makes
them; :mod:`raster` and :mod:`indexed` paste them)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Stamp:
    """A mask cut into solid blocks, filled directly, and edge blocks, blended.

    Blending through a mask costs twenty times a plain copy; a card is solid
    but for its rounded corners, so cutting it up makes composing fast.
    """

    width: int
    height: int
    solid: tuple[Box, ...]
    edges: tuple[tuple[Box, Image.Image], ...]


@dataclass(frozen=True, slots=True)
class Sprite:
    """A cached picture with its outline: ``image`` (RGB) shown through ``stamp``."""

    image: Image.Image
    stamp: Stamp
    opaque: tuple[tuple[Box, Image.Image], ...]
    """Parts of ``image`` copied as they are."""
    blended: tuple[tuple[Box, Image.Image, Image.Image], ...]
    """Parts of ``image`` blended through their part of the mask."""

    @property
    def width(self) -> int:
        return self.stamp.width

    @property
    def height(self) -> int:
        return self.stamp.height
