// Re-encodes a screenshot (8-bit RGB or RGBA PNG, as Chromium writes them) as an indexed PNG of at
// most 256 colours: the most frequent colours of the image, every other pixel drawn in its nearest
// one. A console screenshot is mostly flat colour and anti-aliased text, which this keeps legible at
// a third of the size.
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The image's pixels as RGB triples, row after row (PNG filters undone). */
function decode(png: Buffer): { width: number; height: number; rgb: Uint8Array } {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new Error(
          `only 8-bit RGB or RGBA PNGs without interlacing (depth ${depth}, colour type ${colour})`,
        );
      }
      channels = colour === 2 ? 3 : 4;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + x] = (line[x]! + predicted) & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    rgb[i * 3] = pixels[i * channels]!;
    rgb[i * 3 + 1] = pixels[i * channels + 1]!;
    rgb[i * 3 + 2] = pixels[i * channels + 2]!;
  }
  return { width, height, rgb };
}

/** The PNG as an indexed PNG of its (at most) 256 most frequent colours. */
export function toPalettePng(png: Buffer): Buffer {
  const { width, height, rgb } = decode(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const colour = (rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!;
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const palette = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 256)
    .map(([colour]) => colour);
  const index = new Map<number, number>(palette.map((colour, i) => [colour, i]));
  const nearest = (colour: number) => {
    let best = 0;
    let distance = Number.POSITIVE_INFINITY;
    for (const [i, p] of palette.entries()) {
      const dr = ((p >> 16) & 0xff) - ((colour >> 16) & 0xff);
      const dg = ((p >> 8) & 0xff) - ((colour >> 8) & 0xff);
      const db = (p & 0xff) - (colour & 0xff);
      const d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
      if (d < distance) [best, distance] = [i, d];
    }
    index.set(colour, best);
    return best;
  };
  const lines = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    lines[y * (width + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const colour = (rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!;
      lines[y * (width + 1) + 1 + x] = index.get(colour) ?? nearest(colour);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  const plte = Buffer.alloc(palette.length * 3);
  for (const [i, p] of palette.entries()) plte.set([(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff], i * 3);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(lines, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
