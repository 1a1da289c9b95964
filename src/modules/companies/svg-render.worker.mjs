// Child process of svg-render.ts: reads an SVG on stdin, writes a PNG on stdout. It runs apart
// from the server so that a costly SVG can be stopped by killing the process (librsvg cannot be
// interrupted in place). Arguments: density, output size in px, CPU budget in ms.
//
// The budget is this process's own CPU time (all its threads: sharp draws on libuv's pool, so this
// thread stays free to watch), not time on the clock: a busy machine makes a render slower, not
// costlier, so only what the SVG costs decides whether it is refused. Over budget the process
// kills itself with SIGKILL (process.exit would wait for the drawing thread to finish).
import sharp from 'sharp';

const [density, size, cpuBudgetMs] = process.argv.slice(2).map(Number);
const watch = setInterval(() => {
  const { user, system } = process.cpuUsage();
  if ((user + system) / 1000 > cpuBudgetMs) process.kill(process.pid, 'SIGKILL');
}, 20);
watch.unref();

sharp.concurrency(1);
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
