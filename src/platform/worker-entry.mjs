// Starts a TypeScript worker thread: worker threads do not inherit tsx's loader in Node 20,
// so this plain-JS entry registers it first (only when the target is a .ts file).
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
