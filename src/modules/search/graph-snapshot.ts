import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

/**
 * The HNSW graph kept on disk between restarts (issue 41): rebuilding it is what makes a large directory slow to
 * start (at 1M companies, 20 minutes on one thread, against a few minutes to read the rows). A snapshot is the
 * graph file, the company id of each graph key (slot) and the transaction watermark the graph reflected when it
 * was saved; on start the rows are read as before, the graph is loaded instead of built, and the rows written
 * since the watermark are applied to it. A snapshot that is missing, from other settings, damaged (checksum)
 * or older than the database (a restored or replaced database) is ignored and the graph is built as before.
 *
 * Files: `manifest.json` names the graph and id files of the current snapshot; a new snapshot writes new files
 * first and replaces the manifest by a rename, so a reader (another instance on the same folder) never sees half
 * of one. Old files are removed after the rename.
 */
export interface SnapshotManifest {
  format: 1;
  dimensions: number;
  /** The graph's settings that must match to reuse it (connectivity, metric, quantisation). */
  settings: string;
  /** Vector watermark (search.repo vectorWatermark) and corpus version the graph reflected when saved. */
  watermark: string;
  version: number;
  graph: string;
  ids: string;
  sha256: string;
  /** Slots in the id file (free slots are empty lines), and live companies among them. */
  slots: number;
  companies: number;
  savedAt: string;
}

export interface LoadedSnapshot {
  manifest: SnapshotManifest;
  graphFile: string;
  /** The company id of each slot ('' for a free slot). */
  ids: string[];
}

const MANIFEST = 'manifest.json';

/** The file's SHA-256, read in chunks without holding the event loop (a graph at 1M companies is about 630 MB). */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes a snapshot: `save` writes the graph to the path it is given (usearch's own format). The graph and the ids
 * are written before the first await, so they and the watermark are one state of the index; the checksum is read
 * back after, and the manifest naming them comes last.
 */
export async function saveSnapshot(
  dir: string,
  state: { save: (file: string) => void; ids: readonly string[]; companies: number; watermark: string; version: number; dimensions: number; settings: string },
): Promise<SnapshotManifest> {
  fs.mkdirSync(dir, { recursive: true });
  const tag = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const graph = `graph-${tag}.usearch`;
  const ids = `ids-${tag}.txt`;
  state.save(path.join(dir, graph));
  fs.writeFileSync(path.join(dir, ids), state.ids.join('\n'));
  const { watermark, version, companies } = state;
  const sha256 = await sha256Of(path.join(dir, graph));
  const manifest: SnapshotManifest = {
    format: 1, dimensions: state.dimensions, settings: state.settings, watermark, version,
    graph, ids, sha256, slots: state.ids.length, companies, savedAt: new Date().toISOString(),
  };
  const previous = readManifest(dir);
  const tmp = path.join(dir, `${MANIFEST}.${tag}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2));
  fs.renameSync(tmp, path.join(dir, MANIFEST));
  if (previous) for (const f of [previous.graph, previous.ids]) fs.rmSync(path.join(dir, path.basename(f)), { force: true });
  return manifest;
}

function readManifest(dir: string): SnapshotManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as SnapshotManifest;
  } catch {
    return undefined;
  }
}

/**
 * The snapshot in `dir` when it can be reused with these settings and this database (its version is not newer
 * than the database's), else the reason it cannot (logged; the graph is then built).
 */
export async function loadSnapshot(dir: string, expect: { dimensions: number; settings: string; version: number }): Promise<LoadedSnapshot | { reason: string }> {
  const manifest = readManifest(dir);
  if (!manifest) return { reason: 'no snapshot' };
  if (manifest.format !== 1 || manifest.dimensions !== expect.dimensions || manifest.settings !== expect.settings) return { reason: 'saved with other settings' };
  if (manifest.version > expect.version) return { reason: 'newer than the database (a restored or replaced database)' };
  const graphFile = path.join(dir, path.basename(manifest.graph));
  try {
    if ((await sha256Of(graphFile)) !== manifest.sha256) return { reason: 'damaged (checksum)' };
    const ids = fs.readFileSync(path.join(dir, path.basename(manifest.ids)), 'utf8').split('\n');
    if (ids.length !== manifest.slots) return { reason: 'damaged (id list)' };
    return { manifest, graphFile, ids };
  } catch (err) {
    return { reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
