"""A sticker photographed as on the road. Reads a 300 dpi PNG of the sticker's first
face, smears 15 % of its QR code's area, turns it 15 degrees and keeps it as a JPEG of quality
30. zbar must still read it (tests/interop/poppler_zbar_check.sh).
Usage: degrade.py IN.png OUT.jpg"""
import sys

from PIL import Image, ImageDraw

src, out = sys.argv[1], sys.argv[2]
img = Image.open(src).convert("L")
w, h = img.size
px = img.load()
# The QR code fills the row between 49 and 105 mm of the 140 mm face: its dark pixels there.
rows = range(h * 36 // 100, h * 74 // 100)
dark = [(x, y) for y in rows for x in range(w) if px[x, y] < 128]
xs, ys = [p[0] for p in dark], [p[1] for p in dark]
left, top = min(xs), min(ys)
side = min(max(xs) - left, max(ys) - top)
smear = int(side * 0.387)  # sqrt(0.15)
x0, y0 = left + side * 45 // 100, top + side * 30 // 100
ImageDraw.Draw(img).rectangle([x0, y0, x0 + smear, y0 + smear], fill=150)
img = img.rotate(15, resample=Image.BILINEAR, expand=True, fillcolor=255)
img.save(out, "JPEG", quality=30)
print(f"QR code at ({left}, {top}), {side} px; smear {smear} px")
