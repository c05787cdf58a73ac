"""Make the Noto fonts shipped in ``cardart/fonts/``: exactly how each file was made.

Run from the repository root on a Debian 12 machine (``apt-get download`` needs
the bookworm package lists: ``apt-get update`` first) with the dev extra
installed (fontTools)::

    python -m cardart.fontbuild            # writes the fonts and OFL.txt
    python -m cardart.fontbuild --check    # rebuilds in a temporary folder, compares bytes

Sources, pinned by version and SHA-256:

- Debian ``fonts-noto-core`` 20201225-1: Noto Sans Devanagari, Tamil and Thai,
  Regular and Bold, copied unchanged (together 0.8 MB).
- Debian ``fonts-noto-cjk`` 1:20220127+repack1-1: Noto Sans CJK SC (face 2 of
  ``NotoSansCJK-{Regular,Bold}.ttc``), subset with fontTools' subsetter (the
  library behind ``pyftsubset``) to :func:`cjk_charset`: the 6,763 Hanzi of
  GB 2312 (the Simplified set of everyday Chinese), the 5,401 Hanzi of Big5
  level 1 (the frequent Traditional characters), 8,836 distinct together; CJK
  symbols and punctuation, Hiragana and Katakana, full- and half-width forms
  and printable ASCII. Both sets come from Python's own codecs, so the set is
  reproducible without a downloaded list. Only the ``kern`` feature is kept
  (no vertical or localised forms: the pictures set horizontal Simplified
  Chinese), the vertical metrics tables and the hints are dropped (at 22 to
  34 px, drawn as 8-level masks, hinted and unhinted glyphs draw the same).
  From 19.5 and 20 MB collections to about 2.1 MB a weight.
- PyPI ``manimgx-fonts`` 2026.9.26.post1: Noto Emoji 3.002, Google's
  monochrome emoji (OFL; not packaged by Debian 12), a variable font,
  instantiated at weight 400 (Regular) and 700 (Bold) with fontTools'
  instancer, every emoji kept.

DejaVu (``DejaVuSans.ttf``, ``DejaVuSansCondensed-Bold.ttf``, licence in
``LICENSE``) is not made here: it was copied from Debian's ``fonts-dejavu-core``
and stays the first font of each chain (see :mod:`cardart.fonts`).

``OFL.txt`` lists every Noto file with the copyright notice it carries and
then the SIL Open Font License 1.1 as Debian ships it. Outputs are
byte-for-byte reproducible (timestamps are kept from the sources).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

FONT_DIR = Path(__file__).resolve().parent / "fonts"


@dataclass(frozen=True)
class Package:
    """A pinned source: a Debian package or a PyPI wheel."""

    name: str
    version: str
    sha256: str


NOTO_CORE = Package("fonts-noto-core", "20201225-1",
                    "58f4f0bb6720f919f92096b3508e1412a0f1544424ade6c5b5bf1eb694dd64ba")
NOTO_CJK = Package("fonts-noto-cjk", "1:20220127+repack1-1",
                   "4a2515eb6db3978b897fef9709ed0d2b1f4c6c4df4d83d6c4ef65f71f1b1f502")
NOTO_EMOJI = Package("manimgx-fonts", "2026.9.26.post1",
                     "e5e21178263ddec3eef9414d2b52a1c90ac01062d3e9067460f3359f854c3e17")

SCRIPTS = ("Devanagari", "Tamil", "Thai")
"""Noto Sans script fonts copied unchanged from fonts-noto-core."""
WEIGHTS = {"Regular": 400, "Bold": 700}
CJK_FACE = 2
"""The face of Noto Sans CJK collections that is Simplified Chinese (SC)."""
CJK_FEATURES = ["kern"]


# ---------------------------------------------------------------------------
# The CJK character set
# ---------------------------------------------------------------------------


def _decoded(codec: str, leads: range, trails: list[int]) -> set[str]:
    """Every character ``codec`` decodes from a two-byte code ``lead, trail``."""
    out = set()
    for lead in leads:
        for trail in trails:
            try:
                out.add(bytes((lead, trail)).decode(codec))
            except UnicodeDecodeError:
                continue
    return out


def gb2312_hanzi() -> set[str]:
    """The 6,763 Hanzi of GB 2312 (rows 16 to 87)."""
    return _decoded("gb2312", range(0xB0, 0xF8), list(range(0xA1, 0xFF)))


def big5_level1_hanzi() -> set[str]:
    """The 5,401 frequent Hanzi of Big5 (level 1, 0xA440 to 0xC67E)."""
    trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    return {ch for ch in _decoded("big5", range(0xA4, 0xC7), trails)
            if ch.encode("big5") <= b"\xc6\x7e"}


CJK_EXTRA_RANGES = ((0x0020, 0x007E), (0x3000, 0x303F), (0x3040, 0x30FF), (0xFF00, 0xFFEF))
"""Printable ASCII, CJK symbols and punctuation, Hiragana and Katakana, full/half-width forms."""


def cjk_charset() -> set[str]:
    """The characters asked of the CJK subset (the font has those it has of them)."""
    extra = {chr(c) for low, high in CJK_EXTRA_RANGES for c in range(low, high + 1)}
    return gb2312_hanzi() | big5_level1_hanzi() | extra


# ---------------------------------------------------------------------------
# Fetching the sources
# ---------------------------------------------------------------------------


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _checked(path: Path, package: Package) -> Path:
    if _sha256(path) != package.sha256:
        raise SystemExit(f"{path.name}: SHA-256 is not the pinned {package.sha256}")
    return path


def fetch_deb(package: Package, work: Path) -> Path:
    """Download ``package`` with apt and unpack it; return the unpacked root."""
    subprocess.run(["apt-get", "download", f"{package.name}={package.version}"], cwd=work,
                   check=True)
    deb = _checked(next(work.glob(f"{package.name}_*.deb")), package)
    root = work / package.name
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def fetch_wheel(package: Package, work: Path) -> zipfile.ZipFile:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(work),
                    f"{package.name}=={package.version}"], check=True)
    wheel = _checked(next(work.glob(f"{package.name.replace('-', '_')}-*.whl")), package)
    return zipfile.ZipFile(wheel)


# ---------------------------------------------------------------------------
# Making the files
# ---------------------------------------------------------------------------


def subset_cjk(collection: Path, out: Path) -> None:
    options = subset.Options()
    options.font_number = CJK_FACE
    options.layout_features = CJK_FEATURES
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.drop_tables += ["vhea", "vmtx", "VORG", "BASE"]
    font = subset.load_font(str(collection), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(cjk_charset())))
    subsetter.subset(font)
    font.recalcTimestamp = False
    subset.save_font(font, str(out), options)


def instance_emoji(variable: bytes, weight: int, out: Path) -> None:
    source = out.with_suffix(".source.ttf")
    source.write_bytes(variable)
    font = instancer.instantiateVariableFont(TTFont(str(source)), {"wght": weight},
                                             updateFontNames=True)
    source.unlink()
    font.recalcTimestamp = False
    font.save(str(out))


def ofl_text(noto_cjk_root: Path) -> str:
    """The SIL OFL 1.1 text of Debian's ``fonts-noto-cjk`` copyright file, unindented."""
    copyright_file = noto_cjk_root / "usr/share/doc/fonts-noto-cjk/copyright"
    lines = copyright_file.read_text(encoding="utf-8").split("\n")
    start = lines.index("License: SIL-1.1", lines.index("License: SIL-1.1") + 1) + 1
    body = []
    for line in lines[start:]:
        if not line.startswith(" "):
            break
        body.append("" if line == " ." else line[1:])
    return "\n".join(body).strip() + "\n"


def write_licence(out_dir: Path, files: list[Path], ofl: str) -> Path:
    notices = []
    for path in files:
        names = TTFont(str(path), lazy=True)["name"]
        notices.append(f"- {path.name} ({names.getDebugName(4)}, {names.getDebugName(5)}):"
                       f" {names.getDebugName(0)}")
    text = ("The Noto fonts in this folder are licensed under the SIL Open Font License,\n"
            "Version 1.1 (below). How each file was made from Noto's releases is told in\n"
            "cardart/fontbuild.py (the CJK and emoji files are subsets or instances of them).\n"
            "\n" + "\n".join(notices) + "\n\n" + ofl)
    licence = out_dir / "OFL.txt"
    licence.write_text(text, encoding="utf-8")
    return licence


def build(out_dir: Path, work: Path) -> list[Path]:
    core = fetch_deb(NOTO_CORE, work) / "usr/share/fonts/truetype/noto"
    cjk_root = fetch_deb(NOTO_CJK, work)
    emoji = fetch_wheel(NOTO_EMOJI, work).read("manimgx_fonts/NotoEmoji[wght].ttf")
    written = []
    for weight, value in WEIGHTS.items():
        for script in SCRIPTS:
            name = f"NotoSans{script}-{weight}.ttf"
            written.append(Path(shutil.copyfile(core / name, out_dir / name)))
        cjk = out_dir / f"NotoSansCJKsc-{weight}.otf"
        subset_cjk(cjk_root / f"usr/share/fonts/opentype/noto/NotoSansCJK-{weight}.ttc", cjk)
        instance_emoji(emoji, value, out_dir / f"NotoEmoji-{weight}.ttf")
        written += [cjk, out_dir / f"NotoEmoji-{weight}.ttf"]
    written.sort()
    return [*written, write_licence(out_dir, written, ofl_text(cjk_root))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="build in a temporary folder and compare with the shipped files")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        out_dir = work / "out" if args.check else FONT_DIR
        out_dir.mkdir(exist_ok=True)
        files = build(out_dir, work)
        differ = []
        for path in files:
            size = path.stat().st_size
            print(f"{path.name:34} {size / 1e6:6.2f} MB  sha256 {_sha256(path)[:16]}")
            if args.check and path.read_bytes() != (FONT_DIR / path.name).read_bytes():
                differ.append(path.name)
        total = sum(p.stat().st_size for p in FONT_DIR.iterdir() if p.is_file())
        print(f"cardart/fonts/ holds {total / 1e6:.2f} MB")
        if differ:
            raise SystemExit(f"differ from the shipped files: {', '.join(differ)}")


if __name__ == "__main__":
    main()
