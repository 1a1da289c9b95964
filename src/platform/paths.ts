import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder (the one holding package.json): found by walking up from this module, so the same code finds
 * migrations/, seed/, native/ and web/dist/ whether it runs from src/ (tsx) or from the compiled dist/src/ (`npm start`).
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the project folder. */
export function projectPath(...parts: string[]): string {
  return path.join(PROJECT_ROOT, ...parts);
}
