import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { ScoredId, SearchFilters, SearchRepo } from './search.repo.js';
import { SearchIndex } from './search-index.js';
import { graphSettings, loadGraph, mapGraph } from './vector-graph.js';
import { GraphSearchers } from './graph-searchers.js';
import { loadSnapshot, saveSnapshot } from './index-snapshot.js';
import { openArrayFile } from '../../lib/array-file.js';
import type { WordCharacters } from '../../lib/trigram.js';
import type { KeywordQuery, TermForm } from './keyword-index.js';
import type { QueryLexeme } from './search.repo.js';

/** The keyword side answered in process (see SearchIndexSync.keywords). */
export interface KeywordLookup {
  frequencies(forms: readonly TermForm[]): QueryLexeme[];
  /** undefined: a filter the index does not evaluate (ask the database). */
  /** At most `cap` candidates are scored (search.repo keywordCandidates). */
  candidates(q: KeywordQuery, filters: SearchFilters, limit: number, cap: number): ScoredId[] | undefined;
}

export interface SearchIndexSyncOptions {
  dimensions: number;
  exactBelow: number;
  buildThreads: number;
  /** HNSW candidates asked for per result wanted (before filters). */
  oversample?: number;
  /** Rows read per query while loading or catching up. */
  pageSize?: number;
  /** A catch-up that brings more rows than this drops the graph and rebuilds it (cheaper than one by one). */
  rebuildAfter?: number;
  /** Exact scans through the native kernel when it was built (config NATIVE_KERNELS). */
  nativeKernels?: boolean;
  /** Read the large arrays in place from the snapshot's file (config VECTOR_INDEX_MAP_SNAPSHOT; default true). */
  mapSnapshot?: boolean;
  /**
   * Worker threads that search the graph once it is read from a snapshot's file (config VECTOR_INDEX_SEARCH_THREADS;
   * graph-searchers.ts). 0 or absent: the main thread searches.
   */
  searchThreads?: number;
  /**
   * A folder where the index and its graph are kept between restarts (index-snapshot.ts; config
   * VECTOR_INDEX_SNAPSHOT_DIR): on start they are read from it and brought up to date from the change log instead of
   * read from the database and built. Undefined: read and built on every start.
   */
  snapshotDir?: string;
  /** Index search vectors for the keyword side, scored with these settings (search.service's tuning). */
  keywords?: { fieldWeights: readonly [number, number, number, number]; prefixLength: number };
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
  /**
   * Runs a load or a catch-up with all its reads on one server (platform/read-pool.ts `pinned`): the version, the
   * watermark and the rows must come from one replica, or the index could claim a version its rows are older than.
   * A catch-up started by a search runs on the server that search is pinned to (it has replayed the version needed).
   */
  session?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export interface SearchIndexStatus {
  state: 'loading' | 'ready' | 'failed' | 'closed';
  companies: number;
  graph: 'none' | 'building' | 'ready';
  /** The half-float rows: in this process's memory, or read in place from the snapshot's index file. */
  rows: 'in memory' | 'mapped';
  /** Graph searches answered on the graph search threads since start (the others ran on the main thread). */
  graphSearchesOnThreads: number;
  syncedVersion: number;
}

type Source = Pick<SearchRepo, 'corpusStats' | 'vectorWatermark' | 'vectorRows' | 'vectorTombstones' | 'trigramWordCharacters' | 'liveWithVectors'>;

/**
 * Keeps a SearchIndex in step with the companies table and answers the semantic side of search
 * from it.
 *
 * Consistency: every company write bumps search_corpus_stats.version in its transaction, under
 * one row lock, so versions commit in order. A search reads that version first (search.service
 * does, for its answer cache) and passes it here; when the index has not yet caught up with it,
 * the search waits for one catch-up (single-flight: concurrent searches share it). A catch-up reads
 * the version, then the transaction watermark, then every row stamped by a transaction at or
 * after the previous watermark (migration 0017) and the tombstones of hard deletes. So a search
 * never sees an index older than the version it read, on any instance: the same guarantee as a
 * query against the database.
 *
 * While the first load runs, while the graph is being built for a directory larger than
 * exactBelow, or when reading fails, `candidates` answers undefined and the caller asks
 * PostgreSQL (its pgvector index), so search keeps working, only slower.
 */
export function createSearchIndexSync(source: Source, options: SearchIndexSyncOptions) {
  const pageSize = options.pageSize ?? 2000;
  const rebuildAfter = options.rebuildAfter ?? 1000;
  const newIndex = () =>
    new SearchIndex({
      dimensions: options.dimensions, exactBelow: options.exactBelow, oversample: options.oversample ?? 4, chooseByCost: true,
      nativeKernels: options.nativeKernels, mapArrays: options.mapSnapshot,
    });
  let index = newIndex();
  let state: SearchIndexStatus['state'] = 'loading';
  let syncedVersion = -1;
  let watermark = '0';
  let catchingUp: Promise<void> | undefined;
  let loading: Promise<void> | undefined;
  let building: Promise<void> | undefined;
  let worker: Worker | undefined;
  let failures = 0;
  const session = options.session ?? (<T>(fn: () => Promise<T>) => fn());
  const searchers = options.searchThreads ? new GraphSearchers(options.searchThreads) : undefined;

  async function load(): Promise<void> {
    const started = Date.now();
    const { version, docs } = await source.corpusStats();
    const wordChars = await source.trigramWordCharacters();
    wordCharsInUse = wordChars;
    if (options.snapshotDir && docs > options.exactBelow && (await restore(options.snapshotDir, version, wordChars))) return;
    const mark = await source.vectorWatermark();
    index.indexNames(wordChars);
    if (options.keywords) index.indexKeywords(options.keywords.fieldWeights, options.keywords.prefixLength);
    // Live companies now, plus room for growth before the first reallocation.
    index.reserve(Math.ceil(docs * 1.05) + 1024);
    let after: string | null = null;
    for (;;) {
      if (state === 'closed') return;
      const rows = await source.vectorRows(after, pageSize);
      for (const row of rows) index.apply(row);
      if (rows.length < pageSize) break;
      after = rows[rows.length - 1]!.id;
      // Let requests run between pages (on PGlite the reads share the event loop).
      await yieldToEventLoop();
    }
    watermark = mark;
    syncedVersion = version;
    state = 'ready';
    options.log.info({ companies: index.size, ms: Date.now() - started, graph: 'to build' }, 'vector index loaded');
    buildGraphIfNeeded();
  }

  /** The database's word characters, which the name index follows (read by load). */
  let wordCharsInUse: WordCharacters | undefined;

  /** What a snapshot must have been saved with to be read back by this index. */
  function snapshotSettings(wordChars: WordCharacters): string {
    return JSON.stringify({ layout: 1, graph: graphSettings(options.dimensions), keywords: options.keywords ?? null, wordChars });
  }

  /**
   * Reads the index and its graph from the snapshot in `dir`, then applies what changed since it was saved (rows
   * written after its watermark, companies deleted since; so many that the graph is cheaper to rebuild: it is
   * dropped and rebuilt in the background). False, with the index left empty, when there is no usable snapshot.
   */
  async function restore(dir: string, version: number, wordChars: WordCharacters): Promise<boolean> {
    const started = Date.now();
    const snapshot = await loadSnapshot(dir, {
      dimensions: options.dimensions, settings: snapshotSettings(wordChars), version,
      ofThisDirectory: async (sample) => sample.length > 0 && (await source.liveWithVectors(sample)) >= sample.length * 0.9,
    });
    if ('reason' in snapshot) {
      options.log.info({ reason: snapshot.reason }, 'search index snapshot not used: the index is read from the database');
      return false;
    }
    try {
      index.indexNames(wordChars);
      if (options.keywords) index.indexKeywords(options.keywords.fieldWeights, options.keywords.prefixLength);
      const reader = await openArrayFile(snapshot.indexFile);
      try {
        await index.restoreSnapshot(reader);
        if ((await reader.sha256()) !== snapshot.manifest.indexSha256) throw new Error('the index file is damaged (its checksum differs)');
      } finally {
        await reader.close();
      }
      // The graph is read in place from its file (mapped), not copied into this process (vector-graph.ts MappedGraph).
      if (snapshot.graphFile && !index.installSavedGraph(mapGraph(snapshot.graphFile, options.dimensions, index.size, searchers))) throw new Error('the graph does not hold the index\'s companies');
    } catch (err) {
      index = newIndex();
      options.log.warn({ err }, 'search index snapshot did not load: the index is read from the database');
      return false;
    }
    const loadedMs = Date.now() - started;
    watermark = snapshot.manifest.watermark;
    syncedVersion = snapshot.manifest.version;
    savedAt = { watermark, writes: 0 };
    // A restart a while after the snapshot: up to a twentieth of the directory is applied to the graph row by row.
    const changed = await catchUp(Math.max(rebuildAfter, Math.ceil(index.size * 0.05)));
    if (state === 'closed') return true;
    state = 'ready';
    options.log.info({ companies: index.size, changed, readMs: loadedMs, ms: Date.now() - started, graph: index.hasGraph ? 'from snapshot' : 'to build' }, 'search index loaded from its snapshot');
    buildGraphIfNeeded();
    return true;
  }

  /** The watermark of the last snapshot saved or loaded, and the writes the graph took since (close() saves when there are some). */
  let savedAt: { watermark: string; writes: number } | undefined;

  /** Saves the index and its graph with the watermark they reflect (nothing without a folder or a graph). */
  async function saveIndex(): Promise<void> {
    if (!options.snapshotDir || !index.hasGraph || !wordCharsInUse) return;
    // The writes the saved graph holds: counted before the checksums are read back (writes may come meanwhile).
    const writes = index.graphWrites;
    const saving = index;
    try {
      const manifest = await saveSnapshot(options.snapshotDir, {
        writeIndex: (file) => saving.writeSnapshot(file), saveGraph: (file) => saving.saveGraph(file), ids: saving.slotIds(), companies: saving.size,
        watermark, version: syncedVersion, dimensions: options.dimensions, settings: snapshotSettings(wordCharsInUse),
      });
      savedAt = { watermark: manifest.watermark, writes };
      // Nothing written meanwhile: the files just saved are this index's state, so its graph and rows are read in place
      // from now on and the copies in memory (a graph just built, rows read from the database, a mapped graph or rows
      // with their writes) are let go.
      if (manifest.graph && index === saving && index.graphWrites === writes) {
        mapSavedGraph(path.join(options.snapshotDir, manifest.graph));
        saving.mapSnapshotArrays(path.join(options.snapshotDir, manifest.index));
      }
    } catch (err) {
      options.log.warn({ err }, 'search index snapshot not saved: the next start reads the index from the database');
    }
  }

  function mapSavedGraph(file: string): void {
    try {
      index.installSavedGraph(mapGraph(file, options.dimensions, index.size, searchers));
    } catch (err) {
      // removed meanwhile by another instance's newer snapshot: the graph in memory stays
      options.log.warn({ err }, 'vector graph not mapped from its snapshot: it stays in memory');
    }
  }

  /**
   * Applies every write since the last catch-up; more than `rebuildLimit` rows drop the graph, which is then rebuilt
   * (cheaper than row by row). Returns the rows and deletions applied.
   */
  async function catchUp(rebuildLimit = rebuildAfter): Promise<number> {
    const { version } = await source.corpusStats();
    const mark = await source.vectorWatermark();
    const tombstones = await source.vectorTombstones(watermark);
    for (const id of tombstones) index.remove(id);
    let after: string | null = null;
    let changed = 0;
    for (;;) {
      const rows = await source.vectorRows(after, pageSize, watermark);
      // Many rows at once (an import): the graph is rebuilt rather than updated row by row.
      if (rows.length > 0 && changed + rows.length > rebuildLimit && index.hasGraph) index.dropGraph();
      for (const row of rows) index.apply(row);
      changed += rows.length;
      if (rows.length < pageSize) break;
      after = rows[rows.length - 1]!.id;
    }
    watermark = mark;
    syncedVersion = Math.max(syncedVersion, version);
    buildGraphIfNeeded();
    return changed + tombstones.length;
  }

  async function syncTo(version: number): Promise<void> {
    while (syncedVersion < version) {
      catchingUp ??= session(async () => {
        await catchUp();
      }).finally(() => {
        catchingUp = undefined;
      });
      await catchingUp;
    }
  }

  /** Whether the index is loaded and at least as new as `version` (false: this search asks the database). */
  async function caughtUpWith(version: number): Promise<boolean> {
    if (state !== 'ready') return false;
    try {
      await syncTo(version);
      return true;
    } catch (err) {
      options.log.warn({ err }, 'vector index catch-up failed: this search uses the database');
      return false;
    }
  }

  /** Whether the index is at exactly `version` and holds all `docs` live companies (a company without an embedding is not in it). */
  async function holdsExactly(version: number, docs: number): Promise<boolean> {
    if (!(await caughtUpWith(version))) return false;
    return syncedVersion === version && index.size === docs;
  }

  function buildGraphIfNeeded(): void {
    if (state !== 'ready' || building || index.hasGraph || index.size <= options.exactBelow) return;
    building = buildGraph().finally(() => {
      building = undefined;
    });
  }

  /** Builds the HNSW graph on a worker thread from the shared matrix, then loads it here. */
  async function buildGraph(): Promise<void> {
    const started = Date.now();
    const { matrix, slots } = index.snapshotForBuild();
    const file = path.join(os.tmpdir(), `agentpages-vectors-${process.pid}-${randomBytes(4).toString('hex')}.usearch`);
    const entry = new URL(import.meta.url.endsWith('.ts') ? './vector-index.worker.ts' : './vector-index.worker.js', import.meta.url).href;
    try {
      const result = await new Promise<{ ok: boolean; error?: string }>((resolve, reject) => {
        worker = new Worker(new URL('../../platform/worker-entry.mjs', import.meta.url), {
          workerData: { entry, matrix, slots, dimensions: options.dimensions, file, threads: options.buildThreads },
        });
        worker.unref();
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => resolve({ ok: false, error: `builder exited with ${code}` }));
      });
      await worker?.terminate();
      worker = undefined;
      if (state === 'closed') return index.buildFailed();
      if (!result.ok) throw new Error(result.error);
      index.installGraph(loadGraph(file, options.dimensions, slots.length));
      options.log.info({ companies: slots.length, ms: Date.now() - started }, 'vector graph built');
      await saveIndex();
    } catch (err) {
      index.buildFailed();
      if (state !== 'closed') {
        failures++;
        options.log.warn({ err }, 'vector graph build failed: large unfiltered searches use the database');
      }
    } finally {
      fs.rm(file, { force: true }, () => {});
    }
  }

  return {
    /** Starts the first load in the background (searches use the database until it is done). */
    start(): void {
      loading ??= session(load).catch((err: unknown) => {
        if (state === 'closed') return;
        state = 'failed';
        options.log.warn({ err }, 'vector index load failed: search uses the database');
      });
    },

    /**
     * The `limit` companies most similar to `vector` that pass `filters`, from an index at least
     * as new as corpus version `version`; undefined: ask the database.
     */
    async candidates(vector: Float32Array, filters: SearchFilters, limit: number, version: number): Promise<ScoredId[] | undefined> {
      if (!(await caughtUpWith(version))) return undefined;
      return index.searchAsync(vector, filters, limit);
    },

    /**
     * Where these companies are and how they serve (the place ranking), from an index at least as new as corpus
     * version `version`; ids it does not hold are left out. Undefined: ask the database.
     */
    async placeFacts(ids: string[], version: number) {
      if (!(await caughtUpWith(version))) return undefined;
      return index.placeFacts(ids);
    },

    /**
     * Companies whose name is word-similar to `query` (the database's `lower(name) %> query`), from an index at
     * least as new as corpus version `version`, which held `docs` live companies; undefined: ask the database.
     * A live company without an embedding is not in the index, so the index answers only when it holds all
     * `docs` of them (a writer that moved on since `version` also sends this search to the database).
     */
    async names(query: string, filters: SearchFilters, limit: number, version: number, docs: number): Promise<ScoredId[] | undefined> {
      if (!(await holdsExactly(version, docs))) return undefined;
      return index.names(query, filters, limit);
    },

    /**
     * How many companies pass `filters` (a browse's total), from an index at exactly corpus version `version` holding
     * all `docs` live companies (as `names`); undefined: ask the database.
     */
    async count(filters: SearchFilters, version: number, docs: number): Promise<number | undefined> {
      if (!(await holdsExactly(version, docs))) return undefined;
      return index.count(filters);
    },

    /**
     * Runs `use` on the keyword index (synchronously, so it reads one state of the index) when the index is at
     * exactly corpus version `version` with all `docs` live companies (as `names`) and scores with these
     * settings; undefined: ask the database.
     */
    async keywords<T>(version: number, docs: number, settings: { fieldWeights: readonly number[]; prefixLength: number }, use: (keywords: KeywordLookup) => T): Promise<T | undefined> {
      if (!(await holdsExactly(version, docs))) return undefined;
      const keywords = index.keywordsFor(settings.fieldWeights, settings.prefixLength);
      if (!keywords) return undefined;
      return use({
        frequencies: (forms) => keywords.frequencies(forms),
        candidates: (q, filters, limit, cap) => index.keywords(keywords, q, filters, limit, cap),
      });
    },

    status(): SearchIndexStatus {
      return { state, companies: index.size, graph: index.hasGraph ? 'ready' : building ? 'building' : 'none', rows: index.mappedRows ? 'mapped' : 'in memory', graphSearchesOnThreads: searchers?.answered ?? 0, syncedVersion };
    },

    /** Resolves once loaded and (when the directory needs one) the graph is built: for benchmarks and tests. */
    async ready(): Promise<void> {
      await loading;
      await catchingUp;
      await building;
    },

    /** Graph build failures since start (exposed for tests and health). */
    get buildFailures(): number {
      return failures;
    },

    async close(): Promise<void> {
      const wasReady = state === 'ready';
      state = 'closed';
      await worker?.terminate();
      await searchers?.close();
      await Promise.allSettled([loading, catchingUp, building]);
      // The writes since the last snapshot are kept too, so the next start replays fewer rows.
      if (wasReady && savedAt && index.graphWrites > savedAt.writes) await saveIndex();
      index.dropGraph();
    },
  };
}

export type SearchIndexSync = ReturnType<typeof createSearchIndexSync>;
