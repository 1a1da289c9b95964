import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { bearer, companyFixture, multipartForm, seedCompanies, signInAdmin, signInOwner, useTestApp } from '../../../test/helpers/index.js';

/** A multipart/form-data body with one file part. */
const multipartBody = (file: Buffer, filename = 'logo.png', contentType = 'image/png') => multipartForm([{ name: 'file', data: file, filename, contentType }]);

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } }).png().toBuffer();

describe('tools: public listing, owner editing, AI edit, logos', () => {
  const t = useTestApp();
  let a: { token: string; id: string };
  let b: { token: string; id: string };
  let adminToken: string;

  before(async () => {
    const [idA, idB] = await seedCompanies(t.app, [
      companyFixture({
        name: 'Alpha Roofing',
        website_url: 'https://alpha-roofing.com',
        category: 'Construction & Home Services',
        description: 'We repair and replace roofs in Berlin.',
        keywords: ['roofing', 'cheap'],
        services: ['Roof repair', 'Welding'],
        languages: ['en'],
        phone: '+49 30 1111',
        contact_email: 'info@alpha-roofing.com',
      }),
      companyFixture({ name: 'Beta Plumbing', website_url: 'https://beta-plumbing.com', category: 'Construction & Home Services', description: 'Plumbers.' }),
      companyFixture({ name: 'Gamma Software', category: 'Technology' }),
    ]) as [string, string];
    const ownerA = await signInOwner(t, 'owner@alpha-roofing.com', 'https://alpha-roofing.com');
    const ownerB = await signInOwner(t, 'owner@beta-plumbing.com', 'https://beta-plumbing.com');
    assert.equal(ownerA.companyId, idA);
    assert.equal(ownerB.companyId, idB);
    a = { token: ownerA.token, id: idA };
    b = { token: ownerB.token, id: idB };
    adminToken = await signInAdmin(t);
  });

  const inject = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token?: string, payload?: unknown) =>
    t.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload !== undefined ? { payload: payload as object } : {}) });

  describe('public listing', () => {
    it('lists, searches by keyword and filters by category', async () => {
      const all = await inject('GET', '/api/tools');
      assert.equal(all.statusCode, 200);
      assert.ok(all.json().length >= 3);
      const q = (await inject('GET', '/api/tools?q=roofs%20please')).json();
      assert.equal(q[0].id, a.id);
      assert.equal(q[0].location.city, 'Berlin');
      const cat = (await inject('GET', '/api/tools?category=technology')).json();
      assert.deepEqual(cat.map((c: { name: string }) => c.name), ['Gamma Software']);
    });

    it('enforces the bounds', async () => {
      for (const url of ['/api/tools?limit=0', '/api/tools?limit=1001', '/api/tools/recent?limit=51', '/api/tools/featured?limit=25', '/api/tools?category=Nope']) {
        const res = await inject('GET', url);
        assert.equal(res.statusCode, 422, url);
        assert.equal(res.json().detail[0].loc[0], 'query');
      }
      assert.equal((await inject('GET', '/api/tools?limit=1000')).statusCode, 200);
    });

    it('lists the newest first', async () => {
      const recent = (await inject('GET', '/api/tools/recent?limit=2')).json();
      assert.equal(recent.length, 2);
      assert.ok(recent[0].created_at >= recent[1].created_at);
    });

    it('shows the public detail without management state', async () => {
      const res = await inject('GET', `/api/tools/${a.id}`);
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.name, 'Alpha Roofing');
      assert.equal(body.subscription, null);
      assert.deepEqual(body.owner_edited_fields, []);
      assert.ok(body.editable_fields.includes('description'));
      assert.equal((await inject('GET', '/api/tools/00000000-0000-4000-8000-000000000000')).statusCode, 404);
      assert.equal((await inject('GET', '/api/tools/not-a-uuid')).statusCode, 422);
    });
  });

  describe('my-tools', () => {
    it("returns only the caller's companies", async () => {
      const res = await inject('GET', '/api/tools/my-tools', a.token);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json().map((c: { id: string }) => c.id), [a.id]);
      assert.equal((await inject('GET', '/api/tools/my-tools')).statusCode, 401);
      assert.equal((await inject('GET', '/api/tools/my-tools', 'garbage')).statusCode, 401);
    });
  });

  describe('tenancy', () => {
    it('another owner gets 404 on every management route of a company, and nothing changes', async () => {
      const before = (await inject('GET', `/api/tools/${a.id}/edit-data`, a.token)).json();
      const { payload, headers } = multipartBody(await png(64, 64));
      const attempts = [
        await inject('GET', `/api/tools/${a.id}/edit-data`, b.token),
        await inject('PUT', `/api/tools/${a.id}`, b.token, { name: 'Hijacked' }),
        await inject('DELETE', `/api/tools/${a.id}`, b.token),
        await inject('GET', `/api/tools/${a.id}/history`, b.token),
        await inject('POST', `/api/tools/${a.id}/ai-edit`, b.token, { instruction: 'set name to Hijacked', apply: true }),
        await inject('POST', `/api/tools/${a.id}/ai-edit/undo`, b.token),
        await t.app.inject({ method: 'POST', url: `/api/tools/${a.id}/logo`, payload, headers: { ...headers, ...bearer(b.token) } }),
      ];
      for (const res of attempts) {
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(typeof res.json().detail, 'string');
      }
      assert.deepEqual((await inject('GET', `/api/tools/${a.id}/edit-data`, a.token)).json(), before);
    });

    it('requires a token', async () => {
      for (const [method, url] of [['PUT', `/api/tools/${a.id}`], ['DELETE', `/api/tools/${a.id}`], ['GET', `/api/tools/${a.id}/edit-data`], ['POST', `/api/tools/${a.id}/ai-edit`], ['POST', `/api/tools/${a.id}/ai-edit/undo`], ['POST', `/api/tools/${a.id}/logo`]] as const) {
        assert.equal((await inject(method, url, undefined, method === 'PUT' || url.endsWith('ai-edit') ? { name: 'x', instruction: 'x' } : undefined)).statusCode, 401, url);
      }
    });
  });

  describe('PUT', () => {
    it('refuses protected and unknown fields, listing each, and applies nothing', async () => {
      const res = await inject('PUT', `/api/tools/${a.id}`, a.token, { name: 'Changed', is_verified: false, is_featured: true, domain: 'evil.com', owner_id: 'x', subscription: 'pro', foo: 1 });
      assert.equal(res.statusCode, 422);
      const locs = res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'));
      assert.deepEqual(locs.sort(), ['body.domain', 'body.foo', 'body.is_featured', 'body.is_verified', 'body.owner_id', 'body.subscription']);
      assert.match(res.json().detail.find((d: { loc: string[] }) => d.loc[1] === 'is_verified').msg, /administrators/);
      const after = (await inject('GET', `/api/tools/${a.id}`)).json();
      assert.equal(after.name, 'Alpha Roofing');
      assert.equal(after.is_featured, false);
    });

    it('validates values', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ category: 'Rocket Science' }, 'category'],
        [{ service_type: 'galactic' }, 'service_type'],
        [{ contact_email: 'not-an-email' }, 'contact_email'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: '' }, 'name'],
        [{ keywords: Array.from({ length: 31 }, (_, i) => `k${i}`) }, 'keywords'],
        [{ social_links: { linkedin: 'javascript:alert(1)' } }, 'social_links'],
        [{ founded_year: 3000 }, 'founded_year'],
        [{ languages: ['english language'] }, 'languages'],
      ];
      for (const [body, field] of cases) {
        const res = await inject('PUT', `/api/tools/${a.id}`, a.token, body);
        assert.equal(res.statusCode, 422, `${JSON.stringify(body)} ${res.body}`);
        assert.equal(res.json().detail[0].loc[1], field, res.body);
      }
      const empty = await inject('PUT', `/api/tools/${a.id}`, a.token, {});
      assert.equal(empty.statusCode, 422);
    });

    it('applies an edit, keeps history, and search reflects it at once', async () => {
      const before = (await inject('GET', `/api/v1/agent/companies?q=zyxquantum`)).json();
      assert.ok(!before.companies.some((c: { match_sources: string[] }) => c.match_sources.includes('keyword')));
      const res = await inject('PUT', `/api/tools/${a.id}`, a.token, {
        description: '<b>Zyxquantum</b> roof coatings for flat roofs.',
        keywords: ['roofing', 'cheap', 'flat roofs'],
        country: 'AT',
        category: 'construction & home services',
        social_links: { linkedin: 'https://linkedin.com/company/alpha' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.description, 'Zyxquantum roof coatings for flat roofs.');
      assert.equal(body.location.country, 'Austria');
      assert.equal(body.location.country_code, 'AT');
      assert.deepEqual([...body.owner_edited_fields].sort(), ['country', 'description', 'keywords', 'social_links']);
      const search = (await inject('GET', `/api/v1/agent/companies?q=zyxquantum`)).json();
      const hit = search.companies.find((c: { id: string }) => c.id === a.id);
      assert.ok(hit?.match_sources.includes('keyword'), JSON.stringify(search.companies));
      const hist = (await inject('GET', `/api/tools/${a.id}/history`, a.token)).json();
      assert.equal(hist.edits[0].source, 'edit');
      assert.equal(hist.edits[0].actor_email, 'owner@alpha-roofing.com');
      assert.deepEqual(hist.edits[0].changes.keywords, { before: ['roofing', 'cheap'], after: ['roofing', 'cheap', 'flat roofs'] });
      assert.equal(hist.edits[0].changes.category, undefined, 'an unchanged value is not a change');
    });

    it('lets an administrator edit and audits it', async () => {
      const res = await inject('PUT', `/api/tools/${b.id}`, adminToken, { industry: 'Plumbing' });
      assert.equal(res.statusCode, 200);
      const audit = (await inject('GET', `/api/tools/admin/audit-log?target_id=${b.id}`, adminToken)).json();
      assert.equal(audit.entries[0].action, 'companies.edit');
      assert.deepEqual(audit.entries[0].after, { industry: 'Plumbing' });
    });
  });

  describe('AI edit (rules, no model configured)', () => {
    it('previews a diff without changing anything, then applies the confirmed changes, then undoes exactly', async () => {
      const original = (await inject('GET', `/api/tools/${a.id}/edit-data`, a.token)).json();
      const instruction = 'we now also serve Germany; drop the old phone number; say we are ISO 27001 certified; add service Gutter cleaning';
      const preview = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction });
      assert.equal(preview.statusCode, 200, preview.body);
      const p = preview.json();
      assert.equal(p.interpreter, 'rules');
      assert.equal(p.applied, false);
      assert.equal(p.tool, null);
      assert.deepEqual(p.diff.map((d: { field: string }) => d.field).sort(), ['description', 'keywords', 'phone', 'services']);
      assert.deepEqual(p.diff.find((d: { field: string }) => d.field === 'phone'), { field: 'phone', before: '+49 30 1111', after: null });
      assert.deepEqual((await inject('GET', `/api/tools/${a.id}/edit-data`, a.token)).json(), original, 'preview changes nothing');

      const applied = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction, apply: true, changes: p.proposed });
      assert.equal(applied.statusCode, 200, applied.body);
      const ap = applied.json();
      assert.equal(ap.interpreter, 'confirm');
      assert.equal(ap.applied, true);
      assert.equal(ap.undo_available, true);
      assert.equal(ap.tool.phone, null);
      assert.match(ap.tool.description, /We are ISO 27001 certified\.$/);
      assert.ok(ap.tool.keywords.includes('Germany'));

      // a manual edit after the AI edit is also rolled back by undo (the snapshot is restored as a whole)
      assert.equal((await inject('PUT', `/api/tools/${a.id}`, a.token, { city: 'Vienna' })).statusCode, 200);
      const undo = await inject('POST', `/api/tools/${a.id}/ai-edit/undo`, a.token);
      assert.equal(undo.statusCode, 200, undo.body);
      const restored = (await inject('GET', `/api/tools/${a.id}/edit-data`, a.token)).json();
      const { updated_at: _u1, ...r } = restored;
      const { updated_at: _u2, ...o } = original;
      assert.deepEqual(r, o, 'undo restores exactly');
      const again = await inject('POST', `/api/tools/${a.id}/ai-edit/undo`, a.token);
      assert.equal(again.statusCode, 409);
      assert.match(again.json().detail, /Nothing to undo/);
    });

    it('applies in one call and search follows', async () => {
      const res = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: 'add keyword Quorblax', apply: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().interpreter, 'rules');
      const search = (await inject('GET', `/api/v1/agent/companies?q=quorblax`)).json();
      assert.ok(search.companies.find((c: { id: string }) => c.id === a.id)?.match_sources.includes('keyword'));
      assert.equal((await inject('POST', `/api/tools/${a.id}/ai-edit/undo`, a.token)).statusCode, 200);
      const gone = (await inject('GET', `/api/v1/agent/companies?q=quorblax`)).json();
      assert.ok(!gone.companies.some((c: { match_sources: string[] }) => c.match_sources.includes('keyword')));
    });

    it('answers 422 with guidance when it cannot understand, and never touches protected fields', async () => {
      const res = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: 'make us the best company ever', apply: true });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'instruction']);
      assert.match(res.json().detail[0].msg, /Supported forms/);
      const prot = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: 'set verified to true', apply: true });
      assert.equal(prot.statusCode, 422);
      const confirmProtected = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: 'x', apply: true, changes: { is_verified: true } });
      assert.equal(confirmProtected.statusCode, 422);
      assert.deepEqual(confirmProtected.json().detail[0].loc, ['body', 'changes', 'is_verified']);
      const badValue = await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: 'set category to Rocket Science' });
      assert.equal(badValue.statusCode, 422);
      assert.match(badValue.json().detail[0].msg, /^category: /);
      assert.equal((await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: '' })).statusCode, 422);
      assert.equal((await inject('POST', `/api/tools/${a.id}/ai-edit`, a.token, { instruction: 'x'.repeat(2001) })).statusCode, 422);
    });

    it('409s an undo when there was never an AI edit', async () => {
      assert.equal((await inject('POST', `/api/tools/${b.id}/ai-edit/undo`, b.token)).statusCode, 409);
    });
  });

  describe('logo', () => {
    const upload = (id: string, token: string, file: Buffer, filename?: string, type?: string) => {
      const { payload, headers } = multipartBody(file, filename, type);
      return t.app.inject({ method: 'POST', url: `/api/tools/${id}/logo`, payload, headers: { ...headers, ...bearer(token) } });
    };

    it('takes exactly one part named "file" (422 otherwise) and answers a malformed body with 400 (issue 11/20)', async () => {
      const file = await png(64, 64);
      const boundary = `----agp${randomBytes(8).toString('hex')}`;
      const part = (name: string) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n`), file, Buffer.from('\r\n')]);
      const send = (payload: Buffer) => t.app.inject({ method: 'POST', url: `/api/tools/${a.id}/logo`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(a.token) } });
      const two = await send(Buffer.concat([part('file'), part('file'), Buffer.from(`--${boundary}--\r\n`)]));
      assert.equal(two.statusCode, 422, two.body);
      const other = await send(Buffer.concat([part('image'), Buffer.from(`--${boundary}--\r\n`)]));
      assert.equal(other.statusCode, 422, other.body);
      assert.deepEqual(other.json().detail[0].loc, ['body', 'image']);
      const broken = await send(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="l.png"\r\n\r\nabc`));
      assert.ok([400, 422].includes(broken.statusCode), `${broken.statusCode} ${broken.body}`);
      assert.equal(typeof broken.json().detail === 'string' || Array.isArray(broken.json().detail), true);
    });

    it('normalises a PNG to at most 512 px and serves it with safe headers', async () => {
      const res = await upload(a.id, a.token, await png(1024, 512));
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.content_type, 'image/png');
      assert.equal(body.width, 512);
      assert.equal(body.height, 256);
      assert.equal(body.logo_url, `${t.config.baseUrl}/api/tools/${a.id}/logo`);
      const detail = (await inject('GET', `/api/tools/${a.id}`)).json();
      assert.equal(detail.logo_url, body.logo_url);
      const img = await inject('GET', `/api/tools/${a.id}/logo`);
      assert.equal(img.statusCode, 200);
      assert.equal(img.headers['content-type'], 'image/png');
      assert.equal(img.headers['x-content-type-options'], 'nosniff');
      assert.match(String(img.headers['cache-control']), /max-age/);
      const meta = await sharp(img.rawPayload).metadata();
      assert.equal(meta.format, 'png');
      assert.equal(meta.width, 512);
      const cached = await t.app.inject({ method: 'GET', url: `/api/tools/${a.id}/logo`, headers: { 'if-none-match': String(img.headers.etag) } });
      assert.equal(cached.statusCode, 304);
    });

    it('accepts JPEG, WebP and SVG by content (SVG is rasterised, never served as SVG)', async () => {
      const jpeg = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#0a0' } }).jpeg().toBuffer();
      const r1 = await upload(a.id, a.token, jpeg, 'logo.txt', 'text/plain');
      assert.equal(r1.statusCode, 200, r1.body);
      assert.equal(r1.json().original_format, 'jpeg');
      assert.equal(r1.json().width, 100, 'small images are not enlarged');
      const webp = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#00a' } }).webp().toBuffer();
      assert.equal((await upload(a.id, a.token, webp)).json().original_format, 'webp');
      const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><script>alert(1)</script><circle cx="12" cy="12" r="10" fill="red"/></svg>');
      const r3 = await upload(a.id, a.token, svg, 'logo.svg', 'image/svg+xml');
      assert.equal(r3.statusCode, 200, r3.body);
      assert.equal(r3.json().original_format, 'svg');
      assert.equal(r3.json().width, 512);
      const served = await inject('GET', `/api/tools/${a.id}/logo`);
      assert.equal(served.headers['content-type'], 'image/png');
      assert.doesNotMatch(served.rawPayload.toString('latin1'), /<script|<svg/);
    });

    it('limits SVG logos per caller (each costs up to seconds of a core to draw); other formats stay open (issue 35.6)', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="blue"/></svg>');
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push((await upload(a.id, a.token, svg, 'logo.svg', 'image/svg+xml')).statusCode);
      assert.deepEqual(codes, [200, 200, 200, 200, 200, 429], 'six in ten minutes, the first one in the test above');
      const limited = await upload(a.id, a.token, svg, 'logo.svg', 'image/svg+xml');
      assert.equal(limited.statusCode, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.match(limited.json().detail, /Too many SVG logos in a short time: try again in \d+ minutes, or upload a PNG/);
      assert.equal((await upload(a.id, a.token, await png(20, 20))).statusCode, 200, 'a PNG is not limited');
    });

    it('refuses other types, oversized files and oversized images', async () => {
      const text = await upload(a.id, a.token, Buffer.from('just text, named like an image'), 'logo.png', 'image/png');
      assert.equal(text.statusCode, 415);
      assert.match(text.json().detail, /PNG, JPEG, WebP or SVG/);
      const gif = await upload(a.id, a.token, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'logo.gif', 'image/gif');
      assert.equal(gif.statusCode, 415);
      const fakePng = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(100)]);
      assert.equal((await upload(a.id, a.token, fakePng)).statusCode, 422);
      const noise = await sharp(randomBytes(1100 * 1100 * 3), { raw: { width: 1100, height: 1100, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
      assert.ok(noise.length > 2 * 1024 * 1024);
      const big = await upload(a.id, a.token, noise);
      assert.equal(big.statusCode, 413);
      assert.match(big.json().detail, /2 MB/);
      const wide = await upload(a.id, a.token, await png(5000, 10));
      assert.equal(wide.statusCode, 422);
      assert.match(wide.json().detail[0].msg, /4096/);
      const notMultipart = await inject('POST', `/api/tools/${a.id}/logo`, a.token, { file: 'x' });
      assert.equal(notMultipart.statusCode, 415);
    });

    it('404s a company without a logo', async () => {
      assert.equal((await inject('GET', `/api/tools/${b.id}/logo`)).statusCode, 404);
    });
  });

  describe('DELETE', () => {
    it('removes the company from search and listings at once', async () => {
      assert.equal((await inject('GET', `/api/v1/agent/companies?q=Beta%20Plumbing`)).json().companies[0]?.id, b.id);
      const res = await inject('DELETE', `/api/tools/${b.id}`, b.token);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().deleted, true);
      assert.equal((await inject('GET', `/api/tools/${b.id}`)).statusCode, 404);
      assert.equal((await inject('GET', `/api/v1/agent/companies/${b.id}`)).statusCode, 404);
      const search = (await inject('GET', `/api/v1/agent/companies?q=Beta%20Plumbing`)).json();
      assert.ok(!search.companies.some((c: { id: string }) => c.id === b.id));
      assert.ok(!(await inject('GET', '/api/tools?limit=1000')).json().some((c: { id: string }) => c.id === b.id));
      assert.deepEqual((await inject('GET', '/api/tools/my-tools', b.token)).json(), []);
      assert.equal((await inject('DELETE', `/api/tools/${b.id}`, b.token)).statusCode, 404);
      assert.equal((await inject('PUT', `/api/tools/${b.id}`, adminToken, { name: 'x' })).statusCode, 404);
    });
  });
});
