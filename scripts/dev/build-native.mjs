/**
 * Builds native/kernels.c (the embedding model's matrix kernel, the vector index's exact scan)
 * into native/build/kernels.node with the machine's C compiler, against the running Node's own
 * Node-API headers. Run by the root postinstall. Never fails the install: without a compiler or
 * headers the embedding model runs on its TensorFlow.js graph and the exact scan in JavaScript
 * (same results, slower), and the log says so.
 * Node-API is ABI-stable, so one build serves every Node version from 18 on.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const source = path.join(root, 'native/kernels.c');
const out = path.join(root, 'native/build/kernels.node');
const candidates = [
  path.resolve(path.dirname(process.execPath), '../include/node'),
  process.env.npm_config_nodedir ? path.join(process.env.npm_config_nodedir, 'include/node') : '',
  '/usr/include/node',
  '/usr/local/include/node',
].filter(Boolean);
const include = candidates.find((dir) => fs.existsSync(path.join(dir, 'node_api.h')));
const compiler = process.env.CC || 'cc';

try {
  if (!include) throw new Error(`node_api.h not found (looked in ${candidates.join(', ')})`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const flags = ['-O3', '-ffp-contract=fast', '-shared', '-fPIC', '-DNODE_GYP_MODULE_NAME=kernels', `-I${include}`, source, '-o', out];
  try {
    execFileSync(compiler, ['-march=native', ...flags], { stdio: 'pipe' });
  } catch {
    // A compiler that does not know -march=native still gives a working (slower) kernel.
    execFileSync(compiler, flags, { stdio: 'pipe' });
  }
  console.log(`native kernels built: ${path.relative(root, out)}`);
} catch (err) {
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  console.warn(`native kernels not built (${message}); embeddings will use the TensorFlow.js graph, the exact vector scan JavaScript`);
}
