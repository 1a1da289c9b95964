import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

/**
 * The in-process search index kept on disk between restarts (issue 41): reading every row again and rebuilding the
 * HNSW graph is what makes a large directory slow to start (at 1M companies, minutes). A snapshot is two files, one
 * state of the index: the index file (search-index.ts writeSnapshot: the half-float rows, the filter columns, the
 * slots' company ids, the name and keyword indexes) and the graph file (usearch's format), with the transaction
 * watermark and corpus version they reflect. On start the index is read from them and brought up to date from the
 * change log (the rows written since the watermark, the companies deleted since) instead of read whole. A snapshot
 * that is missing, from other settings, damaged (checksums), newer than the database (a restored or replaced
 * database) or of another directory is ignored, and the index is loaded and the graph built as before while the
 * database answers.
 *
 * Files: `manifest.json` names the files of the current snapshot; a new snapshot writes new files first and replaces
 * the manifest by a rename, so a reader (another instance on the same folder) never sees half of one. Old files are
 * removed after the rename.
 */
export interface SnapshotManifest {
  format: 2;
  dimensions: number;
  /** What must match to reuse it: the graph's settings, the keyword index's scoring, the name index's word characters. */
  settings: string;
  /** Vector watermark (search.repo vectorWatermark) and corpus version the index reflected when saved. */
  watermark: string;
  version: number;
  index: string;
  indexSha256: string;
  graph: string | null;
  graphSha256: string | null;
  companies: number;
  /** Up to 64 of its companies, spread over the slots: is it this directory's? */
  sample: string[];
  savedAt: string;
}

export interface LoadedSnapshot {
  manifest: SnapshotManifest;
  indexFile: string;
  graphFile: string | undefined;
}

const MANIFEST = 'manifest.json';

/** The file's SHA-256, read in chunks without holding the event loop (the files of 1M companies are about 3 GB). */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes a snapshot: `writeIndex` and `saveGraph` write to the paths they are given, synchronously, before the
 * first await, so the two files and the watermark are one state of the index; the checksums are read back after,
 * and the manifest naming them comes last.
 */
export async function saveSnapshot(
  dir: string,
  state: {
    writeIndex: (file: string) => void;
    saveGraph: ((file: string) => void) | undefined;
    ids: readonly string[];
    companies: number;
    watermark: string;
    version: number;
    dimensions: number;
    settings: string;
  },
): Promise<SnapshotManifest> {
  fs.mkdirSync(dir, { recursive: true });
  const tag = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const index = `index-${tag}.bin`;
  const graph = state.saveGraph ? `graph-${tag}.usearch` : null;
  const written = [index, ...(graph ? [graph] : [])];
  try {
    state.writeIndex(path.join(dir, index));
    if (graph) state.saveGraph!(path.join(dir, graph));
    const { watermark, version, companies } = state;
    const manifest: SnapshotManifest = {
      format: 2, dimensions: state.dimensions, settings: state.settings, watermark, version,
      index, indexSha256: await sha256Of(path.join(dir, index)),
      graph, graphSha256: graph ? await sha256Of(path.join(dir, graph)) : null,
      companies, sample: sampleOf(state.ids), savedAt: new Date().toISOString(),
    };
    const previous = readManifest(dir);
    const tmp = path.join(dir, `${MANIFEST}.${tag}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2));
    fs.renameSync(tmp, path.join(dir, MANIFEST));
    if (previous) for (const f of snapshotFiles(previous)) fs.rmSync(path.join(dir, f), { force: true });
    removeLeftovers(dir, new Set(written));
    return manifest;
  } catch (err) {
    for (const f of written) fs.rmSync(path.join(dir, f), { force: true });
    throw err;
  }
}

/**
 * Removes the files of snapshots that were never completed (a process stopped while writing one) once they are an hour
 * old: another instance on the same folder may be writing its own right now.
 */
function removeLeftovers(dir: string, keep: ReadonlySet<string>): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const f of fs.readdirSync(dir)) {
    if (keep.has(f) || !/^(index-.+\.bin|graph-.+\.usearch|ids-.+\.txt|manifest\.json\..+\.tmp)$/.test(f)) continue;
    try {
      if (fs.statSync(path.join(dir, f)).mtimeMs < hourAgo) fs.rmSync(path.join(dir, f), { force: true });
    } catch {
      // removed meanwhile by another instance
    }
  }
}

/** Up to 64 ids spread over the slots (free slots are ''). */
function sampleOf(ids: readonly string[]): string[] {
  const present = ids.filter(Boolean);
  const step = Math.max(1, Math.floor(present.length / 64));
  return present.filter((_, i) => i % step === 0).slice(0, 64);
}

/** The files a manifest names (any format: a snapshot of an earlier release is cleaned up too). */
function snapshotFiles(manifest: Record<string, unknown>): string[] {
  return ['index', 'graph', 'ids'].map((k) => manifest[k]).filter((f): f is string => typeof f === 'string').map((f) => path.basename(f));
}

function readManifest(dir: string): (SnapshotManifest & Record<string, unknown>) | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as SnapshotManifest & Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * The snapshot in `dir` when it can be reused with these settings and this database (its version is not newer
 * than the database's; `ofThisDirectory` accepts its sample), else the reason it cannot (logged; the index is then
 * loaded from the database and the graph built).
 */
export async function loadSnapshot(
  dir: string,
  expect: { dimensions: number; settings: string; version: number; ofThisDirectory: (sample: string[]) => Promise<boolean> },
): Promise<LoadedSnapshot | { reason: string }> {
  const manifest = readManifest(dir);
  if (!manifest) return { reason: 'no snapshot' };
  if (manifest.format !== 2 || manifest.dimensions !== expect.dimensions || manifest.settings !== expect.settings) return { reason: 'saved with other settings' };
  if (manifest.version > expect.version) return { reason: 'newer than the database (a restored or replaced database)' };
  if (!(await expect.ofThisDirectory(manifest.sample))) return { reason: "its companies are not this directory's" };
  const indexFile = path.join(dir, path.basename(manifest.index));
  const graphFile = manifest.graph ? path.join(dir, path.basename(manifest.graph)) : undefined;
  try {
    // The index file's checksum is checked as it is read (search-index.sync.ts): one pass over it, not two.
    if (graphFile && (await sha256Of(graphFile)) !== manifest.graphSha256) return { reason: 'damaged (checksum of the graph)' };
    return { manifest, indexFile, graphFile };
  } catch (err) {
    return { reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
