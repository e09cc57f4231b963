#!/usr/bin/env python3
"""Deterministic one-page PDF from a JPEG (embedded byte for byte, DCTDecode) or a PNG (RGB, FlateDecode).
Page size = image pixels in points (1 px = 1 pt, as ImageMagick's convert at its default 72 dpi). No dates, no ids."""
import sys, zlib
from PIL import Image

src, dst = sys.argv[1], sys.argv[2]
im = Image.open(src)
w, h = im.size
raw = open(src, 'rb').read()
if raw[:3] == b'\xff\xd8\xff':
    comps = {'L': 1, 'RGB': 3, 'CMYK': 4}[im.mode]
    cs = {1: '/DeviceGray', 3: '/DeviceRGB', 4: '/DeviceCMYK'}[comps]
    data, filt = raw, '/DCTDecode'
else:
    rgb = im.convert('RGBA')
    bg = Image.new('RGBA', rgb.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(bg, rgb).convert('RGB')
    cs, data, filt = '/DeviceRGB', zlib.compress(rgb.tobytes(), 9), '/FlateDecode'
content = b'q %d 0 0 %d 0 0 cm /Im0 Do Q\n' % (w, h)
objs = [
    b'<< /Type /Catalog /Pages 2 0 R >>',
    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>' % (w, h),
    b'<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 /Filter %s /Length %d >>\nstream\n' % (w, h, cs.encode(), filt.encode(), len(data)) + data + b'\nendstream',
    b'<< /Length %d >>\nstream\n' % len(content) + content + b'endstream',
]
out = bytearray(b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')
offs = []
for i, o in enumerate(objs, 1):
    offs.append(len(out))
    out += b'%d 0 obj\n' % i + o + b'\nendobj\n'
xref = len(out)
out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objs) + 1)
for off in offs:
    out += b'%010d 00000 n \n' % off
out += b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objs) + 1, xref)
open(dst, 'wb').write(out)
