import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import robotsParserModule from 'robots-parser';
import { actors, bearer, closeTestEmbeddings, companyFixture, farmTestApp, seedCompanies, signInAdmin, signInOwner, type TestContext } from '../../../test/helpers/index.js';
import { until } from '../../../test/helpers/timing.js';
import { SCAN_FIXTURES, startScanFarm, type ScanFarm } from '../../../test/fixtures/scans/farm.js';
import { parseLlms } from './checks.shared.js';
import { unzipStore } from './scans.zip.js';

const robotsParser = ((robotsParserModule as unknown as { default?: unknown }).default ?? robotsParserModule) as (
  url: string,
  txt: string,
) => { isAllowed(url: string, ua: string): boolean | undefined };

describe('scans API', () => {
  let farm: ScanFarm;
  let t: TestContext;
  let admin: string;
  let owner: { token: string; userId: string };
  let other: { token: string; userId: string };
  const id: Record<string, string> = {};
  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
    t.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const scanNow = async (companyId: string) => {
    const scans = t.app.services.scans;
    const r = await scans.start({ userId: null }, companyId, false);
    await scans.runJob(r.scan.id);
    return scans.latest(companyId);
  };

  before(async () => {
    farm = await startScanFarm();
    t = await farmTestApp(farm);
    admin = await signInAdmin(t);
    for (const host of ['ready.test', 'legacy-agent.test', 'basic.test', 'search-blocked.test', 'gptbot-group.test']) {
      const listing = host === 'ready.test' ? { description: 'Web applications and a public booking API with an MCP server and an AI agent.', services: ['Web applications', 'Booking API'] } : { description: 'We help small businesses with their websites.', services: [] };
      id[host] = (await seedCompanies(t.app, [companyFixture({ name: host.replace('.test', ''), website_url: farm.url(host), keywords: [], service_type: 'remote', ...listing })]))[0]!;
    }
    const o = await signInOwner(t, 'owner@ready.test', farm.url('ready.test'));
    assert.equal(o.companyId, id['ready.test']);
    owner = o;
    other = await signInOwner(t, 'owner@legacy-agent.test', farm.url('legacy-agent.test'));
  });
  after(async () => {
    await t.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('guards every owner route: anonymous 401, another owner 404, owner and admin allowed', async () => {
    const tool = id['ready.test']!;
    const routes: ['GET' | 'POST', string][] = [
      ['GET', `/api/scans/tool/${tool}/latest`],
      ['GET', `/api/scans/tool/${tool}/history`],
      ['POST', `/api/scans/tool/${tool}/start`],
      ['POST', `/api/scans/tool/${tool}/generate-files`],
    ];
    for (const [method, url] of routes) {
      assert.equal((await call(method, url)).statusCode, 401, `${method} ${url} anonymous`);
      assert.equal((await call(method, url, 'not-a-token')).statusCode, 401, `${method} ${url} bad token`);
      const res = await call(method, url, other.token);
      assert.equal(res.statusCode, 404, `${method} ${url} other owner`);
      assert.match(res.json().detail, /not found among your companies/);
    }
    // Before any scan: latest is 404 (a real answer, not the guard), generate-files 409.
    assert.match((await call('GET', `/api/scans/tool/${tool}/latest`, owner.token)).json().detail, /not been scanned/);
    assert.equal((await call('GET', `/api/scans/tool/${tool}/latest`, admin)).statusCode, 404);
    assert.equal((await call('POST', `/api/scans/tool/${tool}/generate-files`, owner.token)).statusCode, 409);
    assert.equal((await call('GET', `/api/scans/tool/${tool}/history`, admin)).statusCode, 200);
    assert.equal((await call('GET', `/api/scans/download/unknown-token`)).statusCode, 404);
  });

  it('documents the five operations in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([p, o]) => Object.values(o).map((x) => `${p} ${x.operationId}`)).filter((x) => x.startsWith('/api/scans'));
    assert.deepEqual(ops.sort(), [
      '/api/scans/download/{token} scans.download',
      '/api/scans/tool/{tool_id}/generate-files scans.generateFiles',
      '/api/scans/tool/{tool_id}/history scans.history',
      '/api/scans/tool/{tool_id}/latest scans.latest',
      '/api/scans/tool/{tool_id}/start scans.start',
    ]);
    assert.ok(doc.paths['/api/scans/download/{token}'].get.responses['200'].content['application/zip']);
  });

  it('422s out-of-bounds parameters in the FastAPI shape', async () => {
    const tool = id['ready.test']!;
    const cases: ['GET' | 'POST', string, unknown, (string | number)[]][] = [
      ['GET', `/api/scans/tool/${tool}/history?limit=0`, undefined, ['query', 'limit']],
      ['GET', `/api/scans/tool/${tool}/history?limit=101`, undefined, ['query', 'limit']],
      ['GET', `/api/scans/tool/${tool}/history?offset=-1`, undefined, ['query', 'offset']],
      ['POST', `/api/scans/tool/${tool}/start?force=maybe`, undefined, ['query', 'force']],
      ['POST', `/api/scans/tool/${tool}/generate-files?scan_id=nope`, undefined, ['query', 'scan_id']],
      ['POST', `/api/scans/tool/${tool}/generate-files`, { ai_training: 'sometimes' }, ['body']],
      ['GET', '/api/scans/tool/not-a-uuid/latest', undefined, ['path', 'tool_id']],
    ];
    for (const [method, url, payload, loc] of cases) {
      const res = await call(method, url, admin, payload);
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc.slice(0, loc.length), loc, url);
    }
  });

  it('runs the lifecycle: queued job → completed; reuse within 24 h; one active scan; force cooldown; history with deltas', async () => {
    const tool = id['ready.test']!;
    const first = await call('POST', `/api/scans/tool/${tool}/start`, owner.token);
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(first.json().reused, false);
    const scanId = first.json().scan.id;
    assert.equal(first.json().scan.state, 'queued');
    const jobs = await t.db.query<{ data: { scanId: string } }>(`SELECT data FROM pgboss.job WHERE name = 'scans.run'`);
    assert.ok(jobs.some((j) => j.data.scanId === scanId), 'a pg-boss job carries the scan');
    // While it is queued, starting again (even forced) returns the same scan: never two at once.
    for (const url of [`/api/scans/tool/${tool}/start`, `/api/scans/tool/${tool}/start?force=true`]) {
      const again = await call('POST', url, owner.token);
      assert.equal(again.statusCode, 202);
      assert.deepEqual([again.json().reused, again.json().scan.id], [true, scanId]);
    }
    assert.equal((await call('GET', `/api/scans/tool/${tool}/latest`, owner.token)).json().state, 'queued');
    await t.app.services.scans.runJob(scanId);
    const latest = (await call('GET', `/api/scans/tool/${tool}/latest`, owner.token)).json();
    assert.equal(latest.state, 'completed');
    assert.ok(latest.score >= 85 && latest.grade === 'A', `${latest.score}`);
    assert.deepEqual(Object.keys(latest.group_scores).sort(), ['access', 'discovery', 'interfaces', 'understanding']);
    assert.equal(latest.findings[0].id, 'A02', 'findings ordered by points lost');
    assert.deepEqual(latest.top_fixes.slice(0, 1), ['A02']);
    assert.equal(latest.delta.previous_scan_id, null);
    // Recent completed scan reused without force.
    const reused = await call('POST', `/api/scans/tool/${tool}/start`, owner.token);
    assert.equal(reused.statusCode, 200);
    assert.deepEqual([reused.json().reused, reused.json().scan.id], [true, scanId]);
    // Force within the cooldown: 429 with Retry-After.
    const early = await call('POST', `/api/scans/tool/${tool}/start?force=true`, owner.token);
    assert.equal(early.statusCode, 429);
    assert.ok(Number(early.headers['retry-after']) > 0);
    await t.db.query(`UPDATE scans SET created_at = created_at - interval '10 minutes' WHERE company_id = $1`, [tool]);
    const forced = await call('POST', `/api/scans/tool/${tool}/start?force=true`, admin);
    assert.equal(forced.statusCode, 202);
    assert.equal(forced.json().reused, false);
    await t.app.services.scans.runJob(forced.json().scan.id);
    const second = (await call('GET', `/api/scans/tool/${tool}/latest`, admin)).json();
    assert.equal(second.id, forced.json().scan.id);
    // Nothing changed on the site, so nothing changed in the scan; but A10 (time to first byte) times the test's
    // own farm, which a busy machine slows: it may pass in one scan and not the other (moving the score with it).
    const timed = (checkId: string) => checkId === 'A10';
    const d = second.delta as { score: number; fixed: string[]; new: string[]; regressed: string[] };
    const timingMoved = [...d.fixed, ...d.new, ...d.regressed].some(timed);
    const steady = { ...d, score: timingMoved ? 0 : d.score, fixed: d.fixed.filter((x) => !timed(x)), new: d.new.filter((x) => !timed(x)), regressed: d.regressed.filter((x) => !timed(x)) };
    assert.deepEqual(steady, { score: 0, previous_scan_id: scanId, rubric_changed: false, fixed: [], new: [], regressed: [] });
    const history = (await call('GET', `/api/scans/tool/${tool}/history?limit=1`, owner.token)).json();
    assert.deepEqual([history.total, history.has_more, history.scans.length, history.scans[0].id], [2, true, 1, second.id]);
    assert.deepEqual(history.scans[0].delta, second.delta);
    const page2 = (await call('GET', `/api/scans/tool/${tool}/history?limit=1&offset=1`, owner.token)).json();
    assert.deepEqual([page2.scans[0].id, page2.has_more], [scanId, false]);
    assert.deepEqual(await t.app.services.scans.latestSummary(tool), { score: second.score, grade: second.grade, scanned_at: second.finished_at });
    // The agent API's company record carries it (null before a company's first completed scan).
    const profile = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${tool}` })).json();
    assert.deepEqual(profile.agent_readiness, { score: second.score, grade: second.grade, scanned_at: second.finished_at });
    const byUrl = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/by-url/ready.test` })).json();
    assert.equal(byUrl.agent_readiness.score, second.score);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id['basic.test']}` })).json().agent_readiness, null);
  });

  it('generates agent files that validate, and a single-use, expiring token for a byte-identical ZIP', async () => {
    const tool = id['ready.test']!;
    const res = await call('POST', `/api/scans/tool/${tool}/generate-files`, owner.token, { ai_training: 'deny' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    const file = (name: string) => body.files.find((f: { name: string }) => f.name === name)?.content as string;
    assert.deepEqual(body.files.map((f: { name: string }) => f.name).sort(), ['AGENT_PROMPT.md', 'README.md', 'agent-card.json', 'api-catalog.json', 'headers.md', 'llms.txt', 'manifest.json', 'mcp-server-card.json', 'robots-ai.txt', 'schema-snippet.html', 'schema.jsonld']);
    // llms.txt: H1, summary, sections with absolute links.
    const llms = parseLlms(file('llms.txt'), 'http://unused.invalid/');
    assert.equal(llms.firstLine, '# ready');
    assert.ok(llms.summary.length > 10);
    assert.ok(llms.sections.includes('Pages') && llms.sections.includes('Contact') && llms.sections.includes('Docs & API'), llms.sections.join());
    assert.ok(llms.links.length >= 3 && llms.links.every((l) => /^https?:\/\//.test(l.url) && !l.url.includes('unused.invalid')));
    // JSON-LD parses, with the right types and real data only.
    const ld = JSON.parse(file('schema.jsonld'));
    assert.equal(ld['@context'], 'https://schema.org');
    assert.deepEqual(ld['@graph'].map((n: { '@type': string }) => n['@type']), ['Organization', 'WebSite']);
    assert.equal(ld['@graph'][0].name, 'ready');
    assert.match(file('schema-snippet.html'), /^<script type="application\/ld\+json">/);
    // robots block: search agents allowed (the site's * rules restated), training denied, llms.txt always allowed.
    const origin = farm.url('ready.test', '');
    const robots = robotsParser(`${origin}/robots.txt`, file('robots-ai.txt'));
    assert.equal(robots.isAllowed(`${origin}/`, 'OAI-SearchBot'), true);
    assert.equal(robots.isAllowed(`${origin}/admin/x`, 'OAI-SearchBot'), false);
    assert.equal(robots.isAllowed(`${origin}/`, 'GPTBot'), false);
    assert.equal(robots.isAllowed(`${origin}/llms.txt`, 'GPTBot'), true);
    assert.equal(robots.isAllowed(`${origin}/admin/x`, 'SomeOtherBot'), false);
    assert.match(file('robots-ai.txt'), /Content-Signal: search=yes, ai-input=yes, ai-train=no/);
    // Cards: the hosted MCP endpoint is real; the A2A card has the v1.0 required fields.
    const mcp = JSON.parse(file('mcp-server-card.json'));
    assert.equal(mcp.remotes[0].url, `${t.config.baseUrl}/mcp/company/${tool}`);
    assert.ok(mcp.name && mcp.serverInfo.name && mcp.version);
    // The SKILL.md that llms.txt and the card point to is real, with the Agent Skills required fields.
    const skillUrl = llms.links.find((l) => l.url.endsWith('/SKILL.md'))!.url;
    assert.equal(skillUrl, `${mcp.remotes[0].url}/SKILL.md`);
    const skill = await t.app.inject({ method: 'GET', url: new URL(skillUrl).pathname });
    assert.equal(skill.statusCode, 200);
    const front = /^---\n([\s\S]*?)\n---/.exec(skill.body)?.[1] ?? '';
    assert.match(front, /^name: [a-z0-9-]+$/m);
    assert.match(front, /^description: .+/m);
    const card = JSON.parse(file('agent-card.json'));
    for (const k of ['name', 'description', 'version', 'supportedInterfaces', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills']) assert.ok(card[k] !== undefined, k);
    assert.deepEqual(Object.keys(card.supportedInterfaces[0]).sort(), ['protocolBinding', 'protocolVersion', 'url']);
    for (const s of card.skills) assert.ok(s.id && s.name && s.description && Array.isArray(s.tags));
    // Manifest hashes match the files.
    const manifest = JSON.parse(file('manifest.json'));
    const { createHash } = await import('node:crypto');
    for (const f of manifest.files) assert.equal(f.sha256, createHash('sha256').update(file(f.name)).digest('hex'), f.name);
    assert.match(file('AGENT_PROMPT.md'), /A02 Served over HTTPS/);

    // Download once: 200 ZIP with every file; then 410.
    const dl = await t.app.inject({ method: 'GET', url: `/api/scans/download/${body.download.token}` });
    assert.equal(dl.statusCode, 200);
    assert.equal(dl.headers['content-type'], 'application/zip');
    assert.match(String(dl.headers['content-disposition']), /attachment; filename="agentpages-ready-test-agent-files-\d{4}-\d{2}-\d{2}\.zip"/);
    assert.equal(dl.headers['cache-control'], 'no-store');
    const entries = unzipStore(dl.rawPayload);
    assert.equal(entries.size, body.files.length);
    assert.equal(entries.get('llms.txt')!.toString(), file('llms.txt'));
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/scans/download/${body.download.token}` })).statusCode, 410);
    // Same scan and options again: the same bytes (the token differs).
    const again = (await call('POST', `/api/scans/tool/${tool}/generate-files?scan_id=${body.scan_id}`, admin, { ai_training: 'deny' })).json();
    assert.notEqual(again.download.token, body.download.token);
    assert.equal(again.bundle_id, body.bundle_id);
    const dl2 = await t.app.inject({ method: 'GET', url: `/api/scans/download/${again.download.token}` });
    assert.ok(Buffer.compare(dl.rawPayload, dl2.rawPayload) === 0, 'byte-identical ZIP');
    // An expired token is gone too; the token is stored only as a hash.
    const third = (await call('POST', `/api/scans/tool/${tool}/generate-files`, owner.token, null)).json();
    assert.equal(third.options.ai_training, 'allow', 'default keeps the site\'s stance (training allowed today)');
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM scan_bundles');
    assert.ok(stored.every((r) => r.token_hash !== third.download.token && /^[0-9a-f]{64}$/.test(r.token_hash)));
    await t.db.query(`UPDATE scan_bundles SET token_expires_at = now() - interval '1 second'`);
    const expired = await t.app.inject({ method: 'GET', url: `/api/scans/download/${third.download.token}` });
    assert.equal(expired.statusCode, 410);
    assert.match(expired.json().detail, /used or has expired/);
    // Another company's scan id is not found.
    const otherScan = await scanNow(id['basic.test']!);
    assert.equal((await call('POST', `/api/scans/tool/${tool}/generate-files?scan_id=${otherScan.id}`, owner.token)).statusCode, 404);
  });

  it('offers an agent card only where an agent endpoint exists, and restates the site\'s own robots rules', async () => {
    const files = async (host: string, body?: unknown) => {
      await scanNow(id[host]!);
      const r = await call('POST', `/api/scans/tool/${id[host]}/generate-files`, admin, body);
      assert.equal(r.statusCode, 200, r.body);
      return new Map<string, string>(r.json().files.map((f: { name: string; content: string }) => [f.name, f.content]));
    };
    const legacy = await files('legacy-agent.test');
    const card = JSON.parse(legacy.get('agent-card.json')!);
    assert.equal(card.supportedInterfaces[0].url, farm.url('legacy-agent.test', '/agent'));
    assert.equal(card.skills[0].id, 'book');
    assert.ok(!legacy.has('api-catalog.json'));
    const lo = farm.url('legacy-agent.test', '');
    const lr = robotsParser(`${lo}/robots.txt`, legacy.get('robots-ai.txt')!);
    assert.equal(lr.isAllowed(`${lo}/private/x`, 'Claude-SearchBot'), false, '* rule restated inside the named group');
    assert.equal(lr.isAllowed(`${lo}/about`, 'Claude-SearchBot'), true);

    const basic = await files('basic.test');
    assert.ok(!basic.has('agent-card.json') && basic.has('mcp-server-card.json'));

    // A site that blocks everything: the block never restates "Disallow: /" for AI search agents.
    const hidden = await files('search-blocked.test');
    const ho = farm.url('search-blocked.test', '');
    const hr = robotsParser(`${ho}/robots.txt`, hidden.get('robots-ai.txt')!);
    assert.equal(hr.isAllowed(`${ho}/`, 'PerplexityBot'), true);
    assert.equal(hr.isAllowed(`${ho}/`, 'SomeOtherBot'), false);

    // GPTBot's own group blocks it today: the default keeps training denied.
    const gpt = await files('gptbot-group.test');
    assert.match(gpt.get('robots-ai.txt')!, /ai-train=no/);
    const go = farm.url('gptbot-group.test', '');
    assert.equal(robotsParser(`${go}/robots.txt`, gpt.get('robots-ai.txt')!).isAllowed(`${go}/`, 'ClaudeBot'), false);
  });

  it('re-scans entitled companies weekly and emails the owner when the score drops', async () => {
    const scans = t.app.services.scans;
    const tool = id['ready.test']!;
    const legacy = id['legacy-agent.test'];
    await t.db.query(`INSERT INTO company_subscriptions (company_id, plan, status) VALUES ($1, 'pro', 'active'), ($2, 'free', 'active')`, [tool, legacy]);
    // Nothing is due while the last scans are fresh.
    assert.equal(await scans.queueDueRescans(), 0);
    // A week later, and the last score was higher: the scheduled scan finds a drop.
    await t.db.query(`UPDATE scans SET finished_at = now() - interval '8 days', score = 100 WHERE company_id IN ($1, $2) AND state = 'completed'`, [tool, legacy]);
    assert.equal(await scans.queueDueRescans(), 1, 'only the entitled company');
    const queued = (await call('GET', `/api/scans/tool/${tool}/latest`, owner.token)).json();
    assert.deepEqual([queued.state, queued.trigger], ['queued', 'scheduled']);
    assert.equal(await scans.queueDueRescans(), 0, 'never two at once');
    await scans.runJob(queued.id);
    const done = (await call('GET', `/api/scans/tool/${tool}/latest`, owner.token)).json();
    assert.ok(done.delta.score < 0);
    assert.deepEqual((await call('GET', `/api/scans/tool/${tool}/history`, owner.token)).json().scans[0].delta, done.delta);
    const mail = await t.app.services.mail.recent({ to: 'owner@ready.test' });
    assert.ok(mail.some((m) => /score dropped/.test(m.subject) && m.text_body.includes(`scored ${done.score}`)), JSON.stringify(mail.map((m) => m.subject)));
  });

  it('stops a free company after its monthly scans with a 402 that names the plan; pro lifts the limit (issue 13)', async () => {
    const [tool] = await seedCompanies(t.app, [companyFixture({ name: 'Frequent Scanner', website_url: farm.url('quota.test') })]);
    // Failed scans (an unreachable site, our error) do not use the allowance; completed ones do.
    for (let i = 0; i < 8; i++) {
      const state = i < 5 ? 'completed' : 'failed';
      await t.db.query(`INSERT INTO scans (company_id, url, state, trigger, rubric_version, error) VALUES ($1, $2, $3, 'manual', 'test', 'x')`, [tool, farm.url('quota.test'), state]);
    }
    const [other] = await seedCompanies(t.app, [companyFixture({ name: 'Unlucky Scanner', website_url: farm.url('unlucky.test') })]);
    for (let i = 0; i < 5; i++) {
      await t.db.query(`INSERT INTO scans (company_id, url, state, trigger, rubric_version, error) VALUES ($1, $2, 'failed', 'manual', 'test', 'x')`, [other, farm.url('unlucky.test')]);
    }
    assert.equal((await call('POST', `/api/scans/tool/${other}/start`, admin)).statusCode, 202, 'five failed scans leave the allowance untouched');
    const refused = await call('POST', `/api/scans/tool/${tool}/start`, admin);
    assert.equal(refused.statusCode, 402, refused.body);
    assert.match(refused.json().detail, /5 scans for this month on the free plan/);
    assert.equal(refused.json().code, 'payment_required');
    assert.equal((await t.db.query('SELECT 1 FROM scans WHERE company_id = $1', [tool])).length, 8, 'nothing was queued');
    const upgraded = await call('POST', `/api/tools/admin/companies/${tool}/subscription`, admin, { plan: 'pro', period_months: 1 });
    assert.equal(upgraded.statusCode, 200, upgraded.body);
    assert.equal((await call('POST', `/api/scans/tool/${tool}/start`, admin)).statusCode, 202);
  });

  it('racing starts make one scan, racing downloads one ZIP', async () => {
    const [tool] = await seedCompanies(t.app, [companyFixture({ name: 'Racing', website_url: farm.url('nothing.test') })]);
    const scans = t.app.services.scans;
    const starts = await Promise.all(Array.from({ length: 5 }, () => scans.start({ userId: null }, tool!, true).catch((e: Error) => e)));
    const ids = new Set(starts.filter((r): r is Exclude<typeof r, Error> => !(r instanceof Error)).map((r) => r.scan.id));
    assert.equal(ids.size, 1, JSON.stringify(starts.map((r) => (r instanceof Error ? r.message : r.scan.id))));
    assert.equal((await t.db.query('SELECT 1 FROM scans WHERE company_id = $1', [tool])).length, 1);
    await scans.runJob([...ids][0]!);
    const gen = (await call('POST', `/api/scans/tool/${tool}/generate-files`, admin)).json();
    const codes = await Promise.all(Array.from({ length: 4 }, () => t.app.inject({ method: 'GET', url: `/api/scans/download/${gen.download.token}` }).then((r) => r.statusCode)));
    assert.deepEqual(codes.sort(), [200, 410, 410, 410]);
  });

  it('a re-scan reports what the owner fixed and how the score moved', async () => {
    const tool = id['basic.test']!;
    const before = await scanNow(tool);
    assert.equal(before.findings.find((f) => f.id === 'D03')!.status, 'fail');
    const site = SCAN_FIXTURES.find((f) => f.host === 'basic.test')!;
    site.routes['/llms.txt'] = '# Basic Web Studio\n\n> Websites for small businesses.\n\n## Pages\n\n- [Contact](http://HOSTPORT/contact)\n';
    try {
      await t.db.query(`UPDATE scans SET created_at = created_at - interval '10 minutes' WHERE company_id = $1`, [tool]);
      const forced = await call('POST', `/api/scans/tool/${tool}/start?force=true`, admin);
      await t.app.services.scans.runJob(forced.json().scan.id);
      const after = (await call('GET', `/api/scans/tool/${tool}/latest`, admin)).json();
      assert.equal(after.delta.previous_scan_id, before.id);
      assert.ok(after.delta.fixed.includes('D03'), JSON.stringify(after.delta));
      // A10 (time to first byte of the test's own farm) follows the machine's load, not the site.
      assert.deepEqual(after.delta.new.filter((checkId: string) => checkId !== 'A10'), []);
      assert.equal(after.delta.score, after.score - before.score!);
      assert.ok(after.delta.score > 0);
    } finally {
      delete site.routes['/llms.txt'];
    }
  });

  it('fails a scan with a reason when the site refuses the scanner or is not there', async () => {
    const [blocked, missing] = await seedCompanies(t.app, [
      companyFixture({ name: 'Blocked', website_url: farm.url('blocked.test') }),
      companyFixture({ name: 'Missing', website_url: farm.url('nowhere.test') }),
    ]);
    const a = await scanNow(blocked!);
    assert.deepEqual([a.state, a.failure_reason, a.score], ['failed', 'blocked', null]);
    assert.match(a.error!, /refused our scanner/);
    const b = await scanNow(missing!);
    assert.deepEqual([b.state, b.failure_reason], ['failed', 'unreachable']);
    assert.equal(await t.app.services.scans.latestSummary(blocked!), undefined);
  });
});

describe('scans through the real job queue', () => {
  it('a started scan is picked up by the pg-boss worker and completes', async () => {
    const farm = await startScanFarm();
    const t = await farmTestApp(farm, { runJobs: true });
    try {
      const [tool] = await seedCompanies(t.app, [companyFixture({ name: 'Basic', website_url: farm.url('basic.test'), keywords: [] })]);
      const admin = await actors(t).admin();
      const res = await t.app.inject({ method: 'POST', url: `/api/scans/tool/${tool}/start`, headers: admin.headers });
      assert.equal(res.statusCode, 202);
      const seen = new Set([res.json().scan.state]);
      // Until the job has run, however long that takes on a busy machine (the bound is for a hang).
      const state = await until(async () => {
        const now = (await t.app.inject({ method: 'GET', url: `/api/scans/tool/${tool}/latest`, headers: admin.headers })).json().state;
        seen.add(now);
        return now;
      }, (s) => s === 'completed' || s === 'failed', 'the scan to finish', 5 * 60_000);
      assert.equal(state, 'completed', [...seen].join(' → '));
    } finally {
      await t.close();
      await farm.close();
      await closeTestEmbeddings();
    }
  });
});
