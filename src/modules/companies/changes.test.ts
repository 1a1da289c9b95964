import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { bearer, companyFixture, seedCompanies, signInAdmin, useTestApp } from '../../../test/helpers/index.js';

interface Change {
  id: string;
  change: 'upserted' | 'removed';
  changed_at: string;
  company: { id: string; name: string; location: { latitude: number | null } } | null;
}

describe('change feed: GET /api/v1/agent/companies/changes', () => {
  // The mirroring reader polls in a tight loop: lift the per-client request budget.
  const t = useTestApp({}, { RATE_LIMIT_IP_PER_MINUTE: '1000000' });
  let ids: string[];

  /** Every change after `since`, following next_cursor while has_more. */
  async function readAll(since: string | undefined, limit = 2): Promise<{ changes: Change[]; cursor: string }> {
    const changes: Change[] = [];
    let cursor = since;
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?limit=${limit}${cursor ? `&since=${cursor}` : ''}` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      changes.push(...body.changes);
      cursor = body.next_cursor;
      if (!body.has_more) return { changes, cursor: cursor! };
    }
  }

  /**
   * Reads on until at least `n` changes arrived. A change becomes visible once every older
   * transaction of the whole PostgreSQL cluster has ended, so while other test files run on the
   * same server it can arrive a moment later: a bound on waiting, not a timing assertion.
   */
  async function readAtLeast(since: string | undefined, n: number): Promise<{ changes: Change[]; cursor: string }> {
    const changes: Change[] = [];
    let cursor = since;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const page = await readAll(cursor);
      changes.push(...page.changes);
      cursor = page.cursor;
      if (changes.length >= n || Date.now() > deadline) return { changes, cursor };
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  before(async () => {
    ids = await seedCompanies(t.app, [
      companyFixture({ name: 'Feed One', city: 'Munich', country: 'Germany' }),
      companyFixture({ name: 'Feed Two', city: 'Nowhere Special', country: 'Germany' }),
      companyFixture({ name: 'Feed Three', city: 'Leeds', country: 'GB' }),
    ]);
  });

  it('lists every company from the start, paged, with current profiles and city coordinates', async () => {
    const { changes } = await readAtLeast(undefined, 3);
    assert.deepEqual(changes.map((c) => c.id), ids);
    assert.ok(changes.every((c) => c.change === 'upserted' && c.company?.id === c.id));
    assert.ok(Math.abs(changes[0]!.company!.location.latitude! - 48.137) < 0.01, 'Munich has coordinates');
    assert.equal(changes[1]!.company!.location.latitude, null, 'an unknown city has none');
  });

  it('reports updates and removals after the cursor, each company once, and never skips', async () => {
    const { cursor } = await readAtLeast(undefined, 3);
    const empty = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?since=${cursor}` });
    assert.deepEqual(empty.json().changes, []);
    assert.equal(empty.json().next_cursor, cursor, 'an empty page keeps the cursor');

    await t.db.query("UPDATE companies SET description = 'Changed once' WHERE id = $1", [ids[0]]);
    await t.db.query("UPDATE companies SET description = 'Changed twice' WHERE id = $1", [ids[0]]);
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [ids[1]]);
    const [added] = await seedCompanies(t.app, [companyFixture({ name: 'Feed Four' })]);
    await t.db.query('DELETE FROM companies WHERE id = $1', [ids[2]]);
    // An embedding refresh alone is no change an agent can see.
    await t.db.query('UPDATE companies SET embedding_model = embedding_model WHERE id = $1', [added]);

    const next = await readAtLeast(cursor, 4);
    assert.deepEqual(next.changes.map((c) => [c.id, c.change]), [[ids[0], 'upserted'], [ids[1], 'removed'], [added, 'upserted'], [ids[2], 'removed']]);
    assert.equal(next.changes[0]!.company!.name, 'Feed One');
    assert.equal(next.changes[1]!.company, null, 'a tombstone carries no profile');
    assert.deepEqual((await readAll(next.cursor)).changes, []);
  });

  it('sets coordinates when an owner edit changes the city', async () => {
    const { cursor } = await readAtLeast(undefined, 4);
    const admin = await signInAdmin(t);
    const edit = await t.app.inject({ method: 'PUT', url: `/api/tools/${ids[0]}`, headers: bearer(admin), payload: { city: 'Leeds', country: 'United Kingdom' } });
    assert.equal(edit.statusCode, 200, edit.body);
    const { changes } = await readAtLeast(cursor, 1);
    assert.equal(changes.length, 1);
    assert.ok(Math.abs(changes[0]!.company!.location.latitude! - 53.8) < 0.1, JSON.stringify(changes[0]!.company!.location));
  });

  it('reports a write that changes only the phone\'s E.164 form or the other locations', async () => {
    const { cursor } = await readAtLeast(undefined, 4);
    const branch = { address: '1 Park Row, Leeds LS1 5AB', city: 'Leeds', country: 'United Kingdom' };
    await t.db.query('UPDATE companies SET locations = $2::jsonb WHERE id = $1', [ids[0], JSON.stringify([branch])]);
    const first = await readAtLeast(cursor, 1);
    assert.deepEqual(first.changes.map((c) => c.id), [ids[0]]);
    assert.deepEqual((first.changes[0]!.company as unknown as { locations: unknown[] }).locations, [branch]);
    await t.db.query("UPDATE companies SET phone_e164 = '+441131234567' WHERE id = $1", [ids[0]]);
    const second = await readAtLeast(first.cursor, 1);
    assert.deepEqual(second.changes.map((c) => c.id), [ids[0]]);
  });

  it('records no change for bookkeeping agents never read (timestamps, field sources, the embedding), and does for a column it was not told about', async () => {
    const { cursor } = await readAtLeast(undefined, 3);
    await t.db.query(
      "UPDATE companies SET updated_at = now() + interval '1 minute', field_sources = '{\"city\": {\"source\": \"crawl\"}}'::jsonb, embedding_model = 'another', owner_edited_fields = '{city}' WHERE id = $1",
      [ids[0]],
    );
    // A visible change afterwards: had the first write been recorded, it would come first.
    await t.db.query("UPDATE companies SET timezone = 'Europe/Berlin' WHERE id = $1", [ids[1]]);
    const after = await readAtLeast(cursor, 1);
    assert.deepEqual(after.changes.map((c) => c.id), [ids[1]]);
  });

  it('refuses a malformed cursor or limit with a 422 naming the field', async () => {
    for (const [query, field] of [['since=not-a-cursor', 'since'], ['since=a%20b', 'since'], ['limit=0', 'limit'], ['limit=501', 'limit']] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?${query}` });
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, ['query', field]);
    }
  });

  it('refuses a cursor whose numbers do not fit their columns (txid xid8, seq bigint) with a 422 on since (issue 35 A2)', async () => {
    const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    for (const text of ['99999999999999999999.1', '18446744073709551616.0', '1.9223372036854775808', '1.99999999999999999999']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?since=${cursor(text)}` });
      assert.equal(res.statusCode, 422, `${text}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, ['query', 'since']);
    }
    // The largest values of the types are cursors (past every change so far).
    const edge = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?since=${cursor('18446744073709551615.9223372036854775807')}` });
    assert.equal(edge.statusCode, 200, edge.body);
    assert.deepEqual(edge.json().changes, []);
  });

  it('lets a reader that polls during concurrent writes mirror the directory exactly (no change skipped, deletions included)', async () => {
    const mirror = new Map<string, string>();
    let cursor: string | undefined;
    const poll = async () => {
      const page = await readAll(cursor, 7);
      for (const c of page.changes) {
        if (c.change === 'removed') mirror.delete(c.id);
        else mirror.set(c.id, (c.company as unknown as { description: string }).description);
      }
      cursor = page.cursor;
    };
    let writing = true;
    const writer = async (w: number) => {
      const mine: string[] = [];
      for (let i = 0; i < 12; i++) {
        if (i % 4 === 3 && mine.length) {
          await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [mine.shift()]);
        } else if (i % 2 === 1 && mine.length) {
          await t.db.query('UPDATE companies SET description = $2 WHERE id = $1', [mine[0], `writer ${w} step ${i}`]);
        } else {
          const [created] = await seedCompanies(t.app, [companyFixture({ name: `Mirror ${w}.${i}`, description: `writer ${w} created ${i}` })]);
          mine.push(created!);
        }
      }
    };
    const reader = (async () => {
      while (writing) {
        await poll();
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await Promise.all([0, 1, 2, 3].map(writer));
    writing = false;
    await reader;
    const live = await t.db.query<{ id: string; description: string }>('SELECT id, description FROM companies WHERE deleted_at IS NULL');
    const expected = new Map(live.map((r) => [r.id, r.description] as [string, string]).sort());
    // The last changes may still wait for older transactions elsewhere on the server (see readAtLeast).
    const deadline = Date.now() + 30_000;
    do {
      await poll();
      if (JSON.stringify([...mirror].sort()) === JSON.stringify([...expected])) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    assert.deepEqual(new Map([...mirror].sort()), expected);
  });

  it('holds a change back while an older transaction is still open, then delivers both (PostgreSQL: concurrent writers)', async (ctx) => {
    if (t.db.kind !== 'postgres') {
      ctx.skip('PGlite runs one transaction at a time: writes cannot commit out of order there');
      return;
    }
    // Everything written so far has arrived (so only this test's changes can show up below).
    const n = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM company_changes'))[0]!.n;
    const { cursor } = await readAtLeast(undefined, n);
    const [x, y] = await seedCompanies(t.app, [companyFixture({ name: 'Slow Writer' }), companyFixture({ name: 'Fast Writer' })]);
    const start = await readAtLeast(cursor, 2);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let slowStarted!: () => void;
    const started = new Promise<void>((r) => (slowStarted = r));
    // The older transaction (it takes its transaction id first) writes its company after the
    // younger one has committed, so the younger change commits first but sorts after it.
    const slow = t.db.transaction(async (tx) => {
      await tx.query('SELECT pg_current_xact_id()');
      slowStarted();
      await held;
      await tx.query("UPDATE companies SET description = 'slow' WHERE id = $1", [x]);
    });
    await started;
    await t.db.query("UPDATE companies SET description = 'fast' WHERE id = $1", [y]);
    const during = await readAll(start.cursor);
    assert.deepEqual(during.changes, [], 'a committed change waits while an older transaction is open');
    release();
    await slow;
    const afterwards = await readAtLeast(during.cursor, 2);
    assert.deepEqual(afterwards.changes.map((c) => c.id), [x, y], 'both arrive, in transaction order, after the cursor read during the wait');
  });
});
