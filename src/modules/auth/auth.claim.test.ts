import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actors, useTestApp } from '../../../test/helpers/index.js';

/** Issue 38: a signed-in owner claims a company on their own domain without a second emailed link. */
describe('claiming a company while signed in', () => {
  const t = useTestApp();
  const as = actors(t);
  const claim = (headers: Record<string, string>, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/auth/claim', headers, payload });

  it('claims a bare domain on the address\'s own domain, once however often it is asked', async () => {
    const owner = await as.owner('ingrid@scandisolar.se');
    const res = await claim(owner.headers, { website_url: 'scandisolar.se', read_website: false });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.message, 'You now manage scandisolar.se.');
    assert.equal(body.website_url, 'https://scandisolar.se');
    const again = await claim(owner.headers, { website_url: 'https://www.scandisolar.se/', read_website: false });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().company_id, body.company_id);
    const me = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: owner.headers })).json();
    assert.deepEqual(me.user.company_ids, [body.company_id]);
    const owners = await t.db.query('SELECT 1 FROM company_owners WHERE company_id = $1', [body.company_id]);
    assert.equal(owners.length, 1);
  });

  it('refuses another domain or a public mail provider in a sentence, and changes nothing', async () => {
    const owner = await as.owner('kim@acme-roofing.example.com');
    const other = await claim(owner.headers, { website_url: 'https://rival-roofing.example.com' });
    assert.equal(other.statusCode, 400);
    assert.match(other.json().detail, /does not match the website domain \(rival-roofing\.example\.com\)/);
    const gmail = await as.owner('someone@gmail.com');
    const free = await claim(gmail.headers, { website_url: 'gmail.com' });
    assert.equal(free.statusCode, 400);
    assert.match(free.json().detail, /public email provider/);
    const bad = await claim(owner.headers, { website_url: 'not a website' });
    assert.equal(bad.statusCode, 422);
    assert.equal((await t.db.query("SELECT 1 FROM companies WHERE website_url LIKE '%rival-roofing%'")).length, 0);
  });

  it('needs a signed-in owner', async () => {
    assert.equal((await claim({}, { website_url: 'acme.com' })).statusCode, 401);
    const admin = await as.admin();
    assert.equal((await claim(admin.headers, { website_url: 'acme.com' })).statusCode, 403);
  });
});
