#!/usr/bin/env python3
"""Converts colours to sRGB hex with ColorAide, an implementation of CSS Color 4 independent of
DarkModeKit's, for DarkModeKit's tests.

Reads lines of `SPACE C1 C2 C3`, or `css TEXT` for a colour as CSS writes it, from standard input
and writes one line per colour: `#RRGGBB` and
`mapped` or `inside`, whether the colour had to be brought into sRGB's gamut (CSS Color 4's gamut
mapping, ColorAide's `oklch-chroma`). Exits 3 when ColorAide is not installed.
"""
import sys

try:
    from coloraide import Color
except ImportError:
    sys.exit(3)

# The Design Tokens Color module's names, as CSS writes them.
FORMS = {
    "hsl": "hsl({} {}% {}%)", "hwb": "hwb({} {}% {}%)", "lab": "lab({} {} {})", "lch": "lch({} {} {})",
    "oklab": "oklab({} {} {})", "oklch": "oklch({} {} {})",
}

for line in sys.stdin:
    if line.startswith("css "):
        color = Color(line[4:].strip())
    else:
        space, *components = line.split()
        form = FORMS.get(space, "color(" + space + " {} {} {})")
        color = Color(form.format(*components))
    inside = color.in_gamut("srgb")
    srgb = color.clone().fit("srgb", method="oklch-chroma").convert("srgb")
    print(srgb.to_string(hex=True, upper=True), "inside" if inside else "mapped")
