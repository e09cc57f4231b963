import { deflateSync } from 'node:zlib';

/** One page's pixels: 8-bit RGB, row after row. */
export interface Raster {
  width: number;
  height: number;
  rgb: Buffer;
}

/**
 * A PDF whose every page is one losslessly compressed (Flate) colour image, as a scanner set to "lossless"
 * writes it, at `dpi`: the page is the image's size at that resolution.
 */
export function losslessScanPdf(pages: Raster[], dpi = 300): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n')];
  const offsets: number[] = [];
  let size = parts[0]?.length ?? 0;
  const add = (b: Buffer) => {
    parts.push(b);
    size += b.length;
  };
  const object = (num: number, head: string, stream?: Buffer) => {
    offsets[num - 1] = size;
    add(Buffer.from(`${num} 0 obj\n${head}\n`));
    if (stream) {
      add(Buffer.from('stream\n'));
      add(stream);
      add(Buffer.from('\nendstream\n'));
    }
    add(Buffer.from('endobj\n'));
  };
  const kids = pages.map((_, i) => `${3 + i * 3} 0 R`).join(' ');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  const compressed = new Map<Buffer, Buffer>();
  pages.forEach((page, i) => {
    const [pageNum, contentNum, imageNum] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    const w = (page.width * 72) / dpi;
    const h = (page.height * 72) / dpi;
    object(
      pageNum,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${imageNum} 0 R >> >> /Contents ${contentNum} 0 R >>`,
    );
    const content = Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`);
    object(contentNum, `<< /Length ${content.length} >>`, content);
    const data = compressed.get(page.rgb) ?? deflateSync(page.rgb);
    compressed.set(page.rgb, data);
    object(
      imageNum,
      `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>`,
      data,
    );
  });
  const xref = size;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  add(
    Buffer.from(
      `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

/** A letter page at 300 dpi: white, with dark bars where lines of text would be. */
export function barsPage(width = 2550, height = 3300): Raster {
  const rgb = Buffer.alloc(width * height * 3, 0xff);
  for (let y = 300; y < height - 300; y += 60) {
    for (let row = y; row < y + 24; row++)
      rgb.fill(0x20, (row * width + 250) * 3, (row * width + width - 250) * 3);
  }
  return { width, height, rgb };
}

/** Binary PPM (P6) as `pdftoppm -ppm` writes it. */
export function readPpm(ppm: Buffer): Raster {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.toString('latin1', 0, 64));
  if (!header) throw new Error('not a binary PPM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, rgb: ppm.subarray(header[0].length, header[0].length + width * height * 3) };
}
