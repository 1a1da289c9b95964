import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeTestEmbeddings, companyFixture, farmTestApp, seedCompanies, type TestContext } from '../../../test/helpers/index.js';
import { MAX_REQUESTS } from './scans.context.js';
import { SCAN_FIXTURES, startScanFarm, type ScanFarm } from '../../../test/fixtures/scans/farm.js';

/** Every fixture site is scanned through the service (start → job → latest) and lands in its band with the named statuses. */
describe('scan fixture farm', () => {
  let farm: ScanFarm;
  let t: TestContext;
  const ids = new Map<string, string>();

  before(async () => {
    farm = await startScanFarm();
    t = await farmTestApp(farm);
    const inputs = SCAN_FIXTURES.map((f) => companyFixture({ name: f.host, website_url: farm.url(f.host), description: f.listing.description, services: f.listing.services ?? [], service_type: f.listing.service_type ?? 'remote', keywords: [] }));
    const created = await seedCompanies(t.app, inputs);
    SCAN_FIXTURES.forEach((f, i) => ids.set(f.host, created[i]!));
  });
  after(async () => {
    await t.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('has at least 8 scored sites and the traps the issue names', () => {
    assert.ok(SCAN_FIXTURES.filter((f) => Object.keys(f.expect).length).length >= 8);
    for (const trap of ['spa.test', 'cdn-block.test', 'gptbot-group.test', 'jsonld-script.test', 'broken-llms.test']) assert.ok(SCAN_FIXTURES.some((f) => f.host === trap), trap);
  });

  for (const site of SCAN_FIXTURES) {
    it(`${site.host}: ${site.description}`, async () => {
      const scans = t.app.services.scans;
      const id = ids.get(site.host)!;
      const started = await scans.start({ userId: null }, id, false);
      assert.equal(started.scan.state, 'queued');
      const before = farm.requests.length;
      await scans.runJob(started.scan.id);
      const scan = await scans.latest(id);
      const sent = farm.requests.slice(before);
      assert.ok(sent.length <= MAX_REQUESTS, `${sent.length} requests`);
      assert.ok(sent.every((r) => r.host === site.host), 'only the company\'s own host is fetched');
      assert.equal(scan.requests_made, sent.length);
      if (site.host === 'blocked.test' || site.host === 'moved.test') {
        assert.equal(scan.state, 'failed');
        assert.equal(scan.failure_reason, site.host === 'blocked.test' ? 'blocked' : 'invalid_url');
        if (site.host === 'moved.test') assert.match(scan.error!, /redirects off the company's domain \(http:\/\/elsewhere\.test:\d+\//);
        assert.equal(scan.score, null);
        return;
      }
      assert.equal(scan.state, 'completed', scan.error ?? '');
      const statuses = Object.fromEntries(scan.findings.map((f) => [f.id, f.status]));
      const summary = `${site.host} score ${scan.score} ${JSON.stringify(statuses)}`;
      if (process.env.SCAN_FARM_REPORT) console.log(`# ${site.host} ${scan.score} ${scan.grade} ${JSON.stringify(scan.group_scores)}`);
      assert.ok(scan.score! >= site.band[0] && scan.score! <= site.band[1], summary);
      for (const [check, status] of Object.entries(site.expect)) assert.equal(statuses[check], status, `${check} on ${summary}\n${scan.findings.find((f) => f.id === check)?.message}`);
      assert.equal(scan.findings.length, 36);
      assert.equal(scan.rubric_version, '1.0.0');
      for (const f of scan.findings) {
        assert.ok(f.message.length > 0, f.id);
        if (f.status === 'fail' || f.status === 'warn') assert.ok(f.fix?.summary, `${f.id} has a fix`);
        if (f.status === 'fail' && f.group !== 'interfaces') assert.ok(f.evidence.length > 0, `${f.id} on ${site.host} shows evidence`);
        for (const e of f.evidence) assert.ok((e.excerpt ?? '').length <= 300);
      }
      const summaryOf = await t.app.services.scans.latestSummary(id);
      assert.deepEqual(summaryOf, { score: scan.score, grade: scan.grade, scanned_at: scan.finished_at });
    });
  }

  it('says why: soft 404s, the CDN block, the GPTBot group and script-injected JSON-LD are named in the findings', async () => {
    const scans = t.app.services.scans;
    const find = async (host: string, id: string) => (await scans.latest(ids.get(host)!)).findings.find((f) => f.id === id)!;
    assert.match((await find('spa.test', 'D03')).message, /HTML page/);
    assert.match((await find('cdn-block.test', 'A09')).message, /403.*cf-mitigated: challenge/);
    const cdn = await scans.latest(ids.get('cdn-block.test')!);
    assert.deepEqual(cdn.caps.map((c) => c.id), ['A09']);
    assert.match((await find('gptbot-group.test', 'A04')).message, /GPTBot \(its own group\)/);
    assert.match((await find('jsonld-script.test', 'U02')).message, /JavaScript/);
    assert.match((await find('broken-llms.test', 'D05')).message, /1 of 5/);
    const hidden = await scans.latest(ids.get('search-blocked.test')!);
    assert.ok(hidden.caps.some((c) => c.id === 'A04' && c.max === 39));
    const spa = await scans.latest(ids.get('spa.test')!);
    assert.ok(spa.caps.some((c) => c.id === 'U01'));
  });
});
