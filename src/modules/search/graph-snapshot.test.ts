import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, testEmbeddings, useTestApp } from '../../../test/helpers/index.js';
import { createSearchRepo, type SearchRepo } from './search.repo.js';
import { createSearchIndexSync, type SearchIndexSync } from './search-index.sync.js';

// Issue 41: the HNSW graph is kept on disk and loaded on the next start instead of rebuilt, brought up to date
// with what changed meanwhile; a damaged snapshot is detected and the graph built as before.
const KINDS = [
  { category: 'Construction & Home Services', industry: 'Plumbing', description: 'Emergency plumbers for leaking pipes and blocked drains.' },
  { category: 'Finance', industry: 'Accounting', description: 'Bookkeeping, payroll and annual accounts for small businesses.' },
  { category: 'Technology', industry: 'Software development', description: 'Custom web and mobile applications for startups.' },
  { category: 'Healthcare', industry: 'Dental care', description: 'Family dentist for check-ups, fillings and implants.' },
];

describe('vector graph snapshot across restarts (issue 41)', () => {
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
    const index = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 4, buildThreads: 1, log, snapshotDir: dir });
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

  it('saves the built graph, then loads it on the next start with the writes made meanwhile', async () => {
    const first = await startIndex();
    assert.ok(first.messages.includes('vector graph built'), first.messages.join('; '));
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.companies, 24);
    assert.ok(fs.existsSync(path.join(dir, manifest.graph)));
    await first.index.close();

    // While no index runs: one company removed, one given another's vector, one added.
    const [gone, moved, twin] = [ids[0]!, ids[1]!, ids[6]!];
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [gone]);
    await t.db.query('UPDATE companies SET embedding = (SELECT embedding FROM companies WHERE id = $2) WHERE id = $1', [moved, twin]);
    const [added] = (await seedCompanies(t.app, [companyFixture({ name: 'Falcon Drone Surveys', industry: 'Drone surveying', description: 'Aerial drone surveys and roof inspections.', keywords: [] })])) as [string];

    const second = await startIndex();
    assert.ok(second.messages.includes('vector graph loaded from its snapshot'), second.messages.join('; '));
    assert.ok(!second.messages.includes('vector graph built'), 'not rebuilt');
    assert.equal(second.index.status().graph, 'ready');
    assert.equal(second.index.status().companies, 24);
    assert.equal((await nearest(second.index, await testEmbeddings().embedQuery('drone roof inspection'), 1))[0], added, 'a company added meanwhile is in the graph');
    assert.ok(!(await nearest(second.index, await vectorOf(gone), 24)).includes(gone), 'a company removed meanwhile is not');
    assert.deepEqual(new Set((await nearest(second.index, await vectorOf(twin), 2))), new Set([moved, twin]), 'a changed vector is the new one');
    // Writes after the load reach the graph as before, and close() keeps them in a new snapshot.
    await t.db.query('UPDATE companies SET embedding = (SELECT embedding FROM companies WHERE id = $2) WHERE id = $1', [ids[2]!, added]);
    assert.deepEqual(new Set(await nearest(second.index, await vectorOf(added), 2)), new Set([added, ids[2]!]));
    const before = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
    await second.index.close();
    assert.notEqual(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'), before, 'saved again on close');
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.usearch')).length, 1, 'the old graph file is removed');
  });

  it("another directory's snapshot (a replaced database) is not used", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const idsFile = path.join(dir, manifest.ids);
    const saved = fs.readFileSync(idsFile, 'utf8');
    fs.writeFileSync(idsFile, saved.split('\n').map((id) => (id ? randomUUID() : '')).join('\n'));
    const other = await startIndex();
    assert.ok(other.messages.includes('vector graph snapshot not used: the graph is built'), other.messages.join('; '));
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
    assert.ok(third.messages.includes('vector graph snapshot not used: the graph is built'), third.messages.join('; '));
    assert.ok(third.messages.includes('vector graph built'));
    // The drone company and the one given its vector above, tied.
    const falcon = (await t.db.query<{ id: string }>("SELECT id FROM companies WHERE name = 'Falcon Drone Surveys'"))[0]!.id;
    assert.deepEqual(new Set(await nearest(third.index, await vectorOf(falcon), 2)), new Set([falcon, ids[2]!]));
  });
});
