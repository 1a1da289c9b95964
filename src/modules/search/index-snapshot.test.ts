import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, testEmbeddings, useTestApp } from '../../../test/helpers/index.js';
import { createSearchRepo, type SearchRepo } from './search.repo.js';
import { createSearchIndexSync, type SearchIndexSync } from './search-index.sync.js';
import { loadNativeKernels } from '../../platform/native.js';

// Issue 41: the search index and its HNSW graph are kept on disk and read on the next start instead of read from
// the database and rebuilt, then brought up to date with what changed meanwhile; a damaged snapshot or another
// directory's is detected, and the index is read and the graph built as before.
const KINDS = [
  { category: 'Construction & Home Services', industry: 'Plumbing', description: 'Emergency plumbers for leaking pipes and blocked drains.' },
  { category: 'Finance', industry: 'Accounting', description: 'Bookkeeping, payroll and annual accounts for small businesses.' },
  { category: 'Technology', industry: 'Software development', description: 'Custom web and mobile applications for startups.' },
  { category: 'Healthcare', industry: 'Dental care', description: 'Family dentist for check-ups, fillings and implants.' },
];

describe('search index snapshot across restarts (issue 41)', () => {
  const t = useTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-snapshot-'));
  let repo: SearchRepo;
  let ids: string[];
  const open: SearchIndexSync[] = [];
  after(async () => {
    for (const index of open) await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An index over the test store with a small exact-scan limit (so it has a graph), and what it logged. */
  async function startIndex() {
    const messages: string[] = [];
    const log = { info: (_o: object, msg: string) => void messages.push(msg), warn: (_o: object, msg: string) => void messages.push(msg) };
    // One graph search thread: the graph read from a snapshot is searched there (graph-searchers.ts).
    const index = createSearchIndexSync(repo, {
      dimensions: 512, exactBelow: 4, buildThreads: 1, searchThreads: 1, log, snapshotDir: dir, keywords: { fieldWeights: [0.1, 0.2, 0.4, 1], prefixLength: 4 },
    });
    open.push(index);
    index.start();
    await index.ready();
    return { index, messages };
  }
  async function nearest(index: SearchIndexSync, vector: number[], limit: number) {
    const { version } = await repo.corpusStats();
    return ((await index.candidates(Float32Array.from(vector), {}, limit, version)) ?? []).map((r) => r.id);
  }
  const vectorOf = async (id: string) => JSON.parse((await t.db.query<{ v: string }>('SELECT embedding::text AS v FROM companies WHERE id = $1', [id]))[0]!.v) as number[];

  before(async () => {
    ids = await seedCompanies(t.app, Array.from({ length: 24 }, (_, i) => companyFixture({ ...KINDS[i % 4]!, description: `${KINDS[i % 4]!.description} Branch ${['north', 'south', 'east', 'west', 'harbour', 'old town'][i % 6]} in district ${i}.`, name: `Snapshot Co ${i}`, keywords: [] })));
    repo = createSearchRepo(t.db);
  });

  /** What the index answers on its name and keyword sides (the same as a fresh load must answer). */
  async function otherSides(index: SearchIndexSync) {
    const { version, docs } = await repo.corpusStats();
    const names = (await index.names('snapshot co', {}, 30, version, docs))?.map((r) => r.id).sort();
    const keywords = await index.keywords(version, docs, { fieldWeights: [0.1, 0.2, 0.4, 1], prefixLength: 4 }, (k) =>
      k.candidates({ match: [{ lexeme: 'branch', prefix: false }], scored: [{ term: 0, lexeme: 'branch', prefix: false, idf: 1 }], avgLength: 20, k1: 1.2, b: 0.75 }, {}, 30, 1000)?.map((r) => r.id).sort(),
    );
    return { names, keywords };
  }

  it('saves the index and its graph, then reads them on the next start with the writes made meanwhile', async () => {
    const first = await startIndex();
    assert.ok(first.messages.includes('vector graph built'), first.messages.join('; '));
    // Once saved, the rows read from the database are let go for the file's, read in place (with the native call).
    const rowsAfterSave = loadNativeKernels()?.mapFile ? 'mapped' : 'in memory';
    assert.equal(first.index.status().rows, rowsAfterSave);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.companies, 24);
    assert.ok(fs.existsSync(path.join(dir, manifest.graph)));
    assert.ok(fs.existsSync(path.join(dir, manifest.index)));
    const sidesBefore = await otherSides(first.index);
    assert.equal(sidesBefore.names?.length, 24);
    assert.equal(sidesBefore.keywords?.length, 24);
    await first.index.close();

    // While no index runs: one company removed, one given another's vector, one added.
    const [gone, moved, twin] = [ids[0]!, ids[1]!, ids[6]!];
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [gone]);
    await t.db.query('UPDATE companies SET embedding = (SELECT embedding FROM companies WHERE id = $2) WHERE id = $1', [moved, twin]);
    const [added] = (await seedCompanies(t.app, [companyFixture({ name: 'Falcon Drone Surveys', industry: 'Drone surveying', description: 'Aerial drone surveys and roof inspections.', keywords: [] })])) as [string];

    const second = await startIndex();
    assert.ok(second.messages.includes('search index loaded from its snapshot'), second.messages.join('; '));
    assert.ok(!second.messages.includes('vector index loaded'), 'the rows are not read again');
    assert.ok(!second.messages.includes('vector graph built'), 'not rebuilt');
    assert.equal(second.index.status().graph, 'ready');
    assert.equal(second.index.status().rows, rowsAfterSave, 'the rows are read in place from the snapshot');
    assert.equal(second.index.status().companies, 24);
    assert.equal((await nearest(second.index, await testEmbeddings().embedQuery('drone roof inspection'), 1))[0], added, 'a company added meanwhile is in the graph');
    assert.ok(!(await nearest(second.index, await vectorOf(gone), 24)).includes(gone), 'a company removed meanwhile is not');
    assert.deepEqual(new Set((await nearest(second.index, await vectorOf(twin), 2))), new Set([moved, twin]), 'a changed vector is the new one');
    assert.equal(second.index.status().graphSearchesOnThreads, 3, 'searched on the graph search thread, the writes since merged there');
    // The name and keyword sides answer as an index read from the database does.
    const quiet = { info: () => {}, warn: () => {} };
    const fresh = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 4, buildThreads: 1, log: quiet, keywords: { fieldWeights: [0.1, 0.2, 0.4, 1], prefixLength: 4 } });
    open.push(fresh);
    fresh.start();
    await fresh.ready();
    const sides = await otherSides(second.index);
    assert.deepEqual(sides, await otherSides(fresh));
    assert.ok(!sides.names?.includes(gone) && sides.names?.length === 23, 'the removed company left the name side');
    // The catch-up's writes went to the mapped rows' own pages, never to the snapshot's file.
    const loaded = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    assert.equal(createHash('sha256').update(fs.readFileSync(path.join(dir, loaded.index))).digest('hex'), loaded.indexSha256);
    // Writes after the load reach the graph as before, and close() keeps them in a new snapshot.
    await t.db.query('UPDATE companies SET embedding = (SELECT embedding FROM companies WHERE id = $2) WHERE id = $1', [ids[2]!, added]);
    assert.deepEqual(new Set(await nearest(second.index, await vectorOf(added), 2)), new Set([added, ids[2]!]));
    const before = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
    await second.index.close();
    assert.notEqual(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'), before, 'saved again on close');
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.usearch')).length, 1, 'the old graph file is removed');
    // A snapshot a stopped process never finished: removed by the next save once an hour old, not before.
    const [recent, stale] = [path.join(dir, 'index-unfinished-a.bin'), path.join(dir, 'graph-unfinished-b.usearch')];
    for (const f of [recent, stale]) fs.writeFileSync(f, 'partial');
    fs.utimesSync(stale, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    await t.db.query("UPDATE companies SET description = description || ' Open on Saturdays.' WHERE id = $1", [ids[3]!]);
    const again = await startIndex();
    await nearest(again.index, await vectorOf(added), 1);
    await again.index.close();
    assert.ok(fs.existsSync(recent) && !fs.existsSync(stale));
    fs.rmSync(recent);
  });

  it("another directory's snapshot (a replaced database) is not used", async () => {
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...manifest, sample: manifest.sample.map(() => randomUUID()) }));
    const other = await startIndex();
    assert.ok(other.messages.includes('search index snapshot not used: the index is read from the database'), other.messages.join('; '));
    assert.ok(other.messages.includes('vector graph built'));
    assert.equal(other.index.status().companies, 24);
    // It saved its own snapshot when built (the next test damages that one).
    await other.index.close();
  });

  it('a damaged snapshot is detected: the graph is built and answers as before', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const file = path.join(dir, manifest.graph);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const third = await startIndex();
    assert.ok(third.messages.includes('search index snapshot not used: the index is read from the database'), third.messages.join('; '));
    assert.ok(third.messages.includes('vector graph built'));
    // The drone company and the one given its vector above, tied.
    const falcon = (await t.db.query<{ id: string }>("SELECT id FROM companies WHERE name = 'Falcon Drone Surveys'"))[0]!.id;
    assert.deepEqual(new Set(await nearest(third.index, await vectorOf(falcon), 2)), new Set([falcon, ids[2]!]));
  });

  it('a damaged index file is caught by its checksum as it is read: the index is read from the database', async () => {
    // The previous test rebuilt the graph and saved a new snapshot; one byte of its index file is changed.
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const file = path.join(dir, manifest.index);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0x10;
    fs.writeFileSync(file, bytes);
    const started = await startIndex();
    assert.ok(started.messages.includes('search index snapshot did not load: the index is read from the database'), started.messages.join('; '));
    assert.ok(started.messages.includes('vector index loaded'));
    assert.equal(started.index.status().companies, 24);
  });

  it('an index file that does not read back (its checksum matching) is caught: the index is read from the database', async () => {
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
    const garbage = Buffer.from('not the index at all');
    fs.writeFileSync(path.join(dir, manifest.index), garbage);
    const { createHash } = await import('node:crypto');
    fs.writeFileSync(file, JSON.stringify({ ...manifest, indexSha256: createHash('sha256').update(garbage).digest('hex') }));
    const fourth = await startIndex();
    assert.ok(fourth.messages.includes('search index snapshot did not load: the index is read from the database'), fourth.messages.join('; '));
    assert.ok(fourth.messages.includes('vector index loaded'));
    assert.equal(fourth.index.status().companies, 24);
    assert.equal((await otherSides(fourth.index)).names?.length, 23);
  });
});
