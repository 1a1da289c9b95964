// Builds what `npm start` and `npm run worker` run: the TypeScript of src/ and scripts/ops/ compiled into dist/ (so a
// production process carries no transpiler and no in-memory source maps), and the files src/ reads beside its modules
// (worker entries, the widget's script, the stylesheet, JSON data) copied next to the compiled code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // A production install without dev dependencies (`npm ci --omit=dev` after a build): run what was built.
  if (fs.existsSync(path.join(root, 'dist/src/server.js'))) {
    console.log('build-server: TypeScript is not installed; running the build already in dist/');
    process.exit(0);
  }
  console.error('build-server: TypeScript is not installed and dist/ holds no build: run `npm install` (with dev dependencies) first');
  process.exit(1);
}
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

let copied = 0;
function copyAssets(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(from);
    else if (!entry.name.endsWith('.ts')) {
      const to = path.join(root, 'dist', path.relative(root, from));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
      copied++;
    }
  }
}
copyAssets(path.join(root, 'src'));
console.log(`build-server: dist/ compiled, ${copied} asset files copied`);
