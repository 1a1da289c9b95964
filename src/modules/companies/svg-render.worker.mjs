// Child process of svg-render.ts: reads an SVG on stdin, writes a PNG on stdout. It runs apart
// from the server so that a costly SVG can be stopped by killing the process (librsvg cannot be
// interrupted in place). Arguments: density, output size in px.
import sharp from 'sharp';

sharp.concurrency(1);
const [density, size] = process.argv.slice(2).map(Number);
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
try {
  const out = await sharp(Buffer.concat(chunks), { density, limitInputPixels: 4096 * 4096 * 4 })
    .resize(size, size, { fit: 'inside' })
    .png({ compressionLevel: 9 })
    .toBuffer();
  process.stdout.end(out);
} catch {
  process.exitCode = 2;
}
