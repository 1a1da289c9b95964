import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { actors, bearer, buildTestApp, closeTestEmbeddings, companyFixture, seedCompanies, signInAdmin, signInOwner, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers/index.js';
import { eventually, patience, until } from '../../../test/helpers/timing.js';
import { SESSION_COOKIE } from '../../platform/session-cookie.js';
import { createScansRepo } from '../scans/scans.repo.js';
import { RUBRIC_VERSION, scoreResults } from '../scans/scans.scoring.js';
import type { CheckResult } from '../scans/scans.types.js';
import { PromoCodesScreen, ScansScreen } from './dashboard.pages.js';
import { WEB_DIST } from './web.routes.js';

interface AxeViolation { id: string; impact: string; help: string; nodes: { target: string[] }[] }
interface AxeWindow { axe: { run: (c: Document, o: unknown) => Promise<{ violations: AxeViolation[] }> } }

/**
 * The dashboard in Debian's Chromium (scripts/ci/setup-chromium.sh), against the real service and
 * the real build of web/ (npm install builds it). Journeys: a real magic-link sign-in through
 * the outbox; the owner inbox (respond, approve, delete, restore); AI edit preview, apply, undo;
 * logo upload; widget snippet; the administrator's verify/feature, agent deactivation, crawl
 * monitor and audit log. axe-core runs on every screen (no serious or critical violation);
 * screenshots go to test-artifacts/dashboard/. Skipped, with a message, without Chromium.
 *
 * Each journey runs in a fresh browser context signed in as the owner (beforeEach), so a journey
 * that fails takes no other down with it. Every wait is on the page (locators, URLs, downloads,
 * a value that settles), bounded against a hang by test/helpers/timing.ts, never by a speed the
 * machine must reach: on a busy machine a journey takes longer, and still passes.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = path.resolve('test-artifacts/dashboard');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 800 };
/** Bounds of one journey and of one wait on the page, scaled to the machine (test/helpers/timing.ts). */
const journey = () => ({ timeout: patience(10 * 60_000) });
const pageWait = () => patience(30_000);
/** The session cookie the sign-in sets, for a context that starts signed in. */
const sessionCookie = (token: string) => ({ name: SESSION_COOKIE, value: token, domain: '127.0.0.1', path: '/api', httpOnly: true, sameSite: 'Strict' as const });
const MOBILE = { width: 390, height: 844 };

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Runs axe on the page; fails on serious/critical violations (details written next to the screenshots). */
async function axe(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on and untouched.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const r = await (window as unknown as AxeWindow).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) fs.writeFileSync(path.join(ARTIFACTS, `a11y-${screen}.json`), JSON.stringify(violations, null, 2));
  assert.deepEqual(bad, [], `axe on ${screen}: ${JSON.stringify(bad)}`);
}

async function shot(page: Page, name: string, mobile = false): Promise<void> {
  if (mobile) await page.setViewportSize(MOBILE);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${mobile ? 'mobile' : 'desktop'}.png`), fullPage: false });
  if (mobile) await page.setViewportSize(DESKTOP);
}

/**
 * A completed scan stored as the scan job would store it (the company's website is not reachable
 * from a test): a few passing checks, a failing llms.txt and JSON-LD, a warning on the sitemap.
 */
async function seedCompletedScan(t: TestContext, companyId: string, url: string): Promise<{ score: number; grade: string }> {
  const result = (r: Omit<CheckResult, 'evidence' | 'spec_url'>): CheckResult => ({ evidence: [{ url, http_status: 200 }], spec_url: null, ...r });
  const results = [
    result({ id: 'A01', key: 'home.reachable', group: 'access', title: 'Home page answers', severity: 'info', status: 'pass', message: 'The home page answered 200.', fix: null }),
    result({ id: 'A02', key: 'tls.https', group: 'access', title: 'Served over HTTPS', severity: 'high', status: 'pass', message: 'HTTPS with a valid certificate.', fix: null }),
    result({ id: 'A04', key: 'robots.ai_allowed', group: 'access', title: 'AI search and user agents may fetch the site', severity: 'critical', status: 'pass', message: 'No AI agent is blocked.', fix: null }),
    result({ id: 'D01', key: 'sitemap.present', group: 'discovery', title: 'Sitemap is present and parses', severity: 'medium', status: 'warn', message: 'The sitemap lists no pages.', fix: { summary: 'List your pages in sitemap.xml.', steps: ['Add every public page.', 'Name the sitemap in robots.txt.'], bundle_file: 'robots-ai.txt' } }),
    result({ id: 'D03', key: 'llms.present', group: 'discovery', title: '/llms.txt is present', severity: 'high', status: 'fail', message: '/llms.txt answered 404.', fix: { summary: 'Publish /llms.txt at the site root.', bundle_file: 'llms.txt' } }),
    result({ id: 'U03', key: 'jsonld.entity', group: 'understanding', title: 'JSON-LD describes the business', severity: 'high', status: 'fail', message: 'No Organization or LocalBusiness JSON-LD.', fix: { summary: 'Add the business as JSON-LD in the home page.', bundle_file: 'schema-snippet.html' } }),
  ];
  const repo = createScansRepo(t.db);
  const queued = await repo.insertQueued({ companyId, url, trigger: 'manual', requestedBy: null, rubricVersion: RUBRIC_VERSION });
  assert.ok(queued, 'no scan of this company is under way');
  const card = scoreResults(results);
  const done = await repo.complete(queued.id, { url, card, results, requests: 12, previousId: null });
  return { score: done.score!, grade: done.grade! };
}

describe('dashboard in a browser', () => {
  const available = fs.existsSync(CHROMIUM);
  const built = fs.existsSync(path.join(WEB_DIST, 'index.html'));
  let t: TestContext;
  let base = '';
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let companyId = '';
  let otherCompanyId = '';
  const OWNER = 'owner@dash-bakery.example';

  // Jane's proposal is needed by this day (YYYY-MM-DD), 30 days ahead.
  const neededBy = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  before(async () => {
    if (!available || !built) return;
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ baseUrl: base, runJobs: true });
    [companyId, otherCompanyId] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Dash Bakery', website_url: 'https://dash-bakery.example', phone: '+49 30 1111' }),
      companyFixture({ name: 'Someone Else GmbH', website_url: 'https://someone-else.example' }),
    ])) as [string, string];
    // Enough companies for the administrator's "Load more" (25 a page).
    await seedCompanies(t.app, Array.from({ length: 26 }, (_, i) => companyFixture({ name: `Filler Company ${String(i).padStart(2, '0')}`, website_url: `https://filler-${i}.example` })));
    assert.equal((await signInOwner(t, OWNER, 'https://dash-bakery.example')).companyId, companyId);
    await signInOwner(t, 'owner@someone-else.example', 'https://someone-else.example');
    const agent = await actors(t).agent('Procurement Bot', 'bot@agents.example.com');
    // Jane's request carries the structured fields (issue 37), shown beside the description.
    const janeFacts = { budget: { amount: 2500, currency: 'EUR' }, needed_by: neededBy, location: 'Berlin-Mitte', details: { pieces_per_week: 200, gluten_free: true } };
    for (const [name, text] of [['Jane Customer', 'We need 200 croissants every Friday.'], ['Max Buyer', 'Can you cater a wedding for 80 guests?']] as const) {
      const facts = name === 'Jane Customer' ? janeFacts : {};
      const r = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: agent.headers, payload: { company_id: companyId, customer_email: 'c@example.com', customer_name: name, description: text, ...facts } });
      assert.equal(r.statusCode, 201, r.body);
    }
    await t.app.listen({ port, host: '127.0.0.1' });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: patience(60_000) });
  }, { timeout: patience(5 * 60_000) });

  // A fresh context per journey, signed in as the owner: no journey depends on where another stopped.
  beforeEach(async () => {
    if (!available || !built) return;
    owner = await browser.newContext({ viewport: DESKTOP });
    await owner.addCookies([sessionCookie((await signInOwner(t, OWNER)).token)]);
    page = await owner.newPage();
    page.setDefaultTimeout(pageWait());
    page.on('pageerror', (e) => console.log('# page error:', e.message));
    page.on('console', (m) => { if (m.type() === 'error') console.log('# console:', m.text()); });
  });

  afterEach(async () => {
    await owner?.close();
  });

  after(async () => {
    if (!available || !built) return;
    await browser?.close();
    await t.close();
    await closeTestEmbeddings();
  });

  const skip = (ctx: { skip: (m: string) => void }) => {
    if (!available) ctx.skip(`Chromium not found at ${CHROMIUM}: run scripts/ci/setup-chromium.sh to enable the browser test`);
    else if (!built) ctx.skip(`web/dist is missing: run npm run build --prefix web`);
    return !available || !built;
  };

  it('sends a signed-out visitor to sign-in, then signs in by a real magic link (keyboard only)', journey(), async (ctx) => {
    if (skip(ctx)) return;
    await owner.clearCookies();
    await page.goto(`${base}/app/proposals`);
    await page.getByRole('heading', { name: 'Sign in to AgentPages' }).waitFor();
    assert.match(page.url(), /\/app\/sign-in$/);
    await axe(page, 'sign-in');
    await shot(page, 'sign-in', true);
    // Keyboard only: Tab to the field, type, Enter submits.
    await page.keyboard.press('Tab');
    if (!(await page.getByLabel('Email address').evaluate((el) => el === document.activeElement))) await page.getByLabel('Email address').focus();
    await page.keyboard.type(OWNER);
    await page.keyboard.press('Enter');
    await page.getByText('Check your mail.').waitFor();
    const isLink = (m: { text_body: string }) => /\/api\/auth\/confirm\?token=/.test(m.text_body);
    const mail = (await until(() => t.app.services.mail.recent({ to: OWNER, limit: 5 }), (mails) => mails.some(isLink), 'the sign-in mail in the outbox')).find(isLink)!;
    const link = /https?:\/\/\S+\/api\/auth\/confirm\?token=\S+/.exec(mail.text_body)![0];
    assert.ok(link.startsWith(base), link);
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My companies' }).waitFor().catch(async (e) => {
      console.log('# at', page.url(), (await page.locator('body').innerText()).slice(0, 500));
      throw e;
    });
    assert.match(page.url(), /\/app\/?$/);
    const cookies = await owner.cookies();
    const session = cookies.find((c) => c.name === 'agentpages_session')!;
    assert.ok(session.httpOnly && session.sameSite === 'Strict' && session.path === '/api');
    assert.equal(await page.evaluate(() => JSON.stringify(localStorage)), '{}', 'nothing in localStorage');
    await page.getByText('Dash Bakery').waitFor();
    await eventually(() => page.title(), 'My companies · AgentPages');
    // Add a company by website: a mismatching domain is refused with the API's reason; a bare domain on the owner's
    // own domain is claimed at once (the sign-in link already proved the address), no second mail.
    await page.getByLabel('Website').fill('https://not-my-domain.example');
    await page.getByRole('button', { name: 'Add my company' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Website').fill('shop.dash-bakery.example');
    await page.getByRole('button', { name: 'Add my company' }).click();
    await page.getByText('You now manage shop.dash-bakery.example.').waitFor();
    await axe(page, 'companies');
    await shot(page, 'companies');

    // A crawl that failed says why in a sentence and offers to try again (issue 38: no dead ends). The site cannot be
    // reached from here, so the failure is recorded as the crawl records one (kind network) rather than waited for.
    const ownerUserId = (await t.db.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [OWNER]))[0]!.id;
    await t.db.query(
      `UPDATE crawl_jobs SET status = 'failed', stage = 'fetch', error_kind = 'network', error = 'getaddrinfo ENOTFOUND shop.dash-bakery.example', finished_at = now()
       WHERE user_id = $1 AND domain = 'shop.dash-bakery.example'`,
      [ownerUserId],
    );
    await page.reload();
    await page.getByText(/: reading the website did not work\./).waitFor();
    const crawlCard = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Reading your website' }) });
    assert.match(await crawlCard.innerText(), /We could not reach shop\.dash-bakery\.example\. Check that the address is spelled right/);
    assert.doesNotMatch(await crawlCard.innerText(), /ENOTFOUND|getaddrinfo/);
    await axe(page, 'crawl-failed');
    await shot(page, 'crawl-failed');
    const jobsBefore = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM crawl_jobs WHERE user_id = $1', [ownerUserId]))[0]!.n;
    await crawlCard.getByRole('button', { name: 'Try again' }).click();
    await eventually(async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM crawl_jobs WHERE user_id = $1', [ownerUserId]))[0]!.n, jobsBefore + 1, 'a new crawl is started')
      .catch(async (e: unknown) => { console.log('# crawl card:', await crawlCard.innerText()); throw e; });

  });

  it('owner inbox: unread count, filters in the URL, respond, approve, delete, restore', journey(), async (ctx) => {
    if (skip(ctx)) return;
    await page.goto(`${base}/app`);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByLabel('2 pending').waitFor();
    await nav.getByRole('link', { name: /Proposals/ }).click();
    await page.getByRole('heading', { name: 'Proposals' }).waitFor();
    await page.getByLabel('Status').selectOption('pending');
    await page.waitForURL(/status=pending/);
    await eventually(() => nav.getByRole('link', { name: /Proposals/ }).getAttribute('aria-current'), 'page', 'the current screen is marked in the navigation');
    await page.getByRole('button', { name: /Jane Customer/ }).click();
    await page.waitForURL(/id=/);
    await page.getByText('We need 200 croissants every Friday.').first().waitFor();
    const facts = page.getByRole('definition');
    await eventually(() => page.getByRole('term').allTextContents(), ['Budget', 'Needed by', 'Location', 'Pieces per week', 'Gluten free']);
    const shown = await facts.allTextContents();
    // The date in the browser's locale: not the raw YYYY-MM-DD.
    assert.match(shown[1]!, new RegExp(neededBy.slice(0, 4)));
    assert.notEqual(shown[1], neededBy);
    assert.deepEqual([shown[0], ...shown.slice(2)], ['€2,500', 'Berlin-Mitte', '200', 'Yes']);
    await axe(page, 'proposals');
    await page.getByLabel('Your message').fill('Yes, we can deliver on Fridays at 7am.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply sent').waitFor();
    // After responding it no longer matches status=pending: clear the filter (kept in the URL).
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: /Jane Customer/ }).click();
    await page.getByText('Yes, we can deliver on Fridays at 7am.').waitFor();
    // Approving asks first, and the safe button has the focus.
    await page.getByRole('button', { name: 'Approve' }).click();
    const approveDialog = page.getByRole('dialog', { name: 'Approve this proposal?' });
    await approveDialog.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Go back');
    await approveDialog.getByRole('button', { name: 'Yes, approve' }).click();
    await page.getByText('Approved. The agent is told').waitFor();
    await nav.getByLabel('1 pending').waitFor();
    // The decision reads as a sentence, and the buttons that no longer apply are gone.
    await page.getByText('Approved the proposal.').waitFor();
    await page.getByText('You approved this proposal.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Approve', exact: true }).count(), 0);
    assert.equal(await page.getByText('(approve)').count(), 0);
    await shot(page, 'proposals-thread');

    // Delete by keyboard: the dialog opens, Escape closes it and focus returns to the button.
    const del = page.getByRole('button', { name: 'Delete', exact: true });
    await del.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete this proposal?' });
    await dialog.waitFor();
    await axe(page, 'proposals-delete-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await eventually(() => del.evaluate((el) => el === document.activeElement), true, 'focus returns to the opener');
    await del.click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Proposal deleted').waitFor().catch(async (e) => {
      console.log('# at', page.url(), (await page.locator('main').innerText()).slice(0, 800));
      throw e;
    });
    await page.getByRole('checkbox', { name: 'Deleted' }).check();
    await page.waitForURL(/deleted=true/);
    await page.getByRole('button', { name: /Jane Customer/ }).click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Proposal restored').waitFor();
    await page.getByRole('checkbox', { name: 'Deleted' }).uncheck();
    await page.getByRole('button', { name: /Jane Customer/ }).waitFor();
    await shot(page, 'proposals', true);

    // Keyboard only: the skip link comes first; Tab reaches a proposal, Enter opens it, Tab reaches the reply.
    await page.goto(`${base}/app/proposals`);
    await page.getByRole('button', { name: /Max Buyer/ }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    const tabTo = async (test: () => boolean, what: string) => {
      for (let i = 0; i < 40; i++) {
        if (await page.evaluate(test)) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`Tab never reached ${what}`);
    };
    await tabTo(() => !!document.activeElement?.textContent?.includes('Max Buyer'), 'the proposal');
    assert.equal(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle !== 'none'), true, 'focus is visible');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Max Buyer via Procurement Bot' }).waitFor();
    await tabTo(() => document.activeElement?.id === 'reply', 'the reply field');
    await page.keyboard.type('Happy to cater: 80 guests is fine.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Reply sent').waitFor();

    // Declining asks for an optional reason, which the agent reads in the thread.
    await page.getByRole('button', { name: 'Decline' }).click();
    const declineDialog = page.getByRole('dialog', { name: 'Decline this proposal?' });
    await declineDialog.waitFor();
    await axe(page, 'proposals-decline-dialog');
    await declineDialog.getByLabel('Reason (optional)').fill('We are fully booked that weekend.');
    await declineDialog.getByRole('button', { name: 'Yes, decline' }).click();
    await page.getByText('Declined. The agent is told').waitFor();
    await page.getByText('You declined this proposal.').waitFor();
    await page.locator('.thread').getByText('We are fully booked that weekend.').waitFor();

    // On a phone: the list, then the open thread in its place (scrolled to and focused), and a way back.
    await page.setViewportSize(MOBILE);
    await page.goto(`${base}/app/proposals`);
    const list = page.getByRole('list', { name: 'Proposal list' });
    await list.waitFor();
    await page.getByRole('button', { name: /Max Buyer/ }).click();
    const heading = page.getByRole('heading', { name: 'Max Buyer via Procurement Bot' });
    await heading.waitFor();
    await list.waitFor({ state: 'hidden' });
    await eventually(() => heading.evaluate((el) => el === document.activeElement), true, 'the opened thread has the focus');
    const box = (await heading.boundingBox())!;
    assert.ok(box.y >= 0 && box.y < MOBILE.height, `the thread's heading is on screen (y = ${box.y})`);
    await axe(page, 'proposals-thread-mobile');
    await page.screenshot({ path: path.join(ARTIFACTS, 'proposals-thread-phone.png') });
    await page.getByRole('button', { name: '← All proposals' }).click();
    await list.waitFor();
    await page.setViewportSize(DESKTOP);

    // Reporting an agent that sends spam blocks it by default, and can be undone.
    await page.getByRole('button', { name: /Max Buyer/ }).click();
    await page.getByRole('button', { name: 'Report agent' }).click();
    const reportDialog = page.getByRole('dialog', { name: 'Report Procurement Bot?' });
    await reportDialog.waitFor();
    await reportDialog.getByLabel('What is wrong').selectOption('spam');
    await reportDialog.getByLabel('Details (optional)').fill('Testing the report flow.');
    await axe(page, 'proposals-report-dialog');
    await reportDialog.getByRole('button', { name: 'Send report' }).click();
    await page.getByText('Reported, and blocked').waitFor();
    await page.getByRole('button', { name: 'Unblock Procurement Bot' }).click();
    await page.getByText('Procurement Bot may write to Dash Bakery again.').waitFor();

    const stored = (await t.app.inject({ method: 'GET', url: '/api/proposals', headers: (await actors(t).owner(OWNER)).headers })).json();
    const jane = stored.proposals.find((p: { customer_name: string }) => p.customer_name === 'Jane Customer');
    assert.equal(jane.status, 'approved');
    assert.equal(jane.is_deleted, false);
  });

  it('profile: AI edit preview, apply exactly that, undo; logo upload with preview', journey(), async (ctx) => {
    if (skip(ctx)) return;
    await page.goto(`${base}/app/companies/${companyId}/profile`);
    await page.getByRole('heading', { name: 'Dash Bakery: profile' }).waitFor();
    await axe(page, 'profile');
    await page.getByLabel('What should change?').fill('drop the old phone number; add service Wedding cakes');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const diff = page.getByRole('table').filter({ hasText: 'Before and after' });
    // Fields by their names, the change highlighted: the dropped number struck through, the new service underlined.
    await diff.getByRole('rowheader', { name: 'Phone' }).waitFor();
    assert.equal(await diff.getByRole('row', { name: /^Phone/ }).locator('del').innerText(), '+49 30 1111');
    const services = diff.getByRole('row', { name: /^Services/ });
    assert.deepEqual(await services.locator('ins').allInnerTexts(), ['Wedding cakes']);
    assert.equal(await services.locator('del').count(), 0, 'the services kept are not marked');
    await axe(page, 'ai-edit-preview');
    await shot(page, 'ai-edit-preview');
    await page.getByRole('button', { name: 'Apply exactly this' }).click();
    await page.getByText(/Applied 2 change/).waitFor();
    await page.getByLabel('Phone').and(page.locator('input')).waitFor();
    await eventually(() => page.getByLabel('Phone', { exact: true }).inputValue(), '');
    await page.getByRole('button', { name: 'Undo AI edit' }).click();
    await page.getByText(/AI edit undone: 2 field/).waitFor();
    await eventually(() => page.getByLabel('Phone', { exact: true }).inputValue(), '+49 30 1111');
    await page.getByRole('heading', { name: 'Edit history' }).scrollIntoViewIfNeeded();
    // The history follows at once, in words: the AI edit and its undo, with the fields by name (issue 38).
    const history = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Edit history' }) });
    await history.getByRole('cell', { name: 'AI edit undone', exact: true }).waitFor();
    await history.getByRole('cell', { name: 'AI edit', exact: true }).waitFor();
    await history.getByRole('cell', { name: 'Phone, Services' }).first().waitFor();
    assert.doesNotMatch(await history.innerText(), /ai_edit|\bundo\b/);

    // Logo: a too-big file is refused inline; a PNG is previewed and uploaded.
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1749c9' } }).png().toBuffer();
    await page.getByLabel(/^Image/).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
    await page.getByText('This file is over 2 MB.').waitFor();
    await page.getByLabel(/^Image/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Dash Bakery logo' }).waitFor();
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('Logo uploaded.').waitFor();

    // The form: a field error is shown next to the field and nothing is sent; a valid edit is saved.
    await page.getByLabel('Contact email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Not an email address').waitFor();
    assert.equal(await page.getByLabel('Contact email').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Contact email').fill('hello@dash-bakery.example');
    await page.getByLabel('Industry').fill('Artisan bakery');
    // Lists one item at a time (issue 38): Enter adds, a comma stays inside the item, each item has its own remove button.
    const servicesList = page.getByRole('group', { name: 'Services' });
    await servicesList.getByRole('textbox').fill('Cakes, tarts and pies');
    await servicesList.getByRole('textbox').press('Enter');
    await servicesList.getByRole('listitem').filter({ hasText: 'Cakes, tarts and pies' }).waitFor();
    await servicesList.getByRole('textbox').fill('cakes, tarts and pies');
    await servicesList.getByRole('button', { name: 'Add' }).click();
    await servicesList.getByText('“cakes, tarts and pies” is already in the list.').waitFor();
    const keywordsList = page.getByRole('group', { name: 'Keywords' });
    const firstKeyword = (await keywordsList.getByRole('listitem').first().innerText()).replace('×', '').trim();
    await keywordsList.getByRole('button', { name: `Remove ${firstKeyword}` }).click();
    // Category and where the company works are chosen from the directory's own lists, in words.
    await page.getByLabel('Category').selectOption('Food & Beverage');
    await page.getByLabel('Where you work').selectOption({ label: 'Locally, where customers are (on site or in the shop)' });
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved.').waitFor();
    const saved = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json();
    assert.equal(saved.industry, 'Artisan bakery');
    assert.ok(saved.services.includes('Cakes, tarts and pies'), JSON.stringify(saved.services));
    assert.ok(!saved.keywords.includes(firstKeyword), JSON.stringify(saved.keywords));
    assert.equal(saved.category, 'Food & Beverage');
    assert.equal(saved.service_type, 'local');
    await shot(page, 'profile', true);
  });

  it('opening hours, prices, website check and photos: the owner sets the week, a holiday, a price range, takes a change the website check found and adds a photo; agents and the public page see them (issue 39)', journey(), async (ctx) => {
    if (skip(ctx)) return;
    // What a monthly website check found (the crawl is covered by website-check.routes.test.ts): a new phone number.
    const phoneBefore = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().contact.phone;
    await t.db.query('INSERT INTO website_suggestions (company_id, changes) VALUES ($1, $2::jsonb)', [companyId, JSON.stringify({ phone: { current: phoneBefore, proposed: '+49 30 5550 1234' } })]);
    await page.goto(`${base}/app/companies/${companyId}/profile`);
    // The company's workspace: one tab per screen, the current one marked (issue 38).
    const tabs = page.getByRole('navigation', { name: /: screens$/ });
    assert.equal(await tabs.getByRole('link', { name: 'Profile' }).getAttribute('aria-current'), 'page');
    await tabs.getByRole('link', { name: 'Widget' }).click();
    await page.getByRole('heading', { name: 'Chat widget' }).waitFor();
    await tabs.getByRole('link', { name: 'Profile' }).click();
    const form = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Opening hours' }) });
    await form.scrollIntoViewIfNeeded();
    await form.getByText(/time zone \(Europe\/Berlin\)/).waitFor();
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']) await form.getByLabel(`Open on ${day}`).check();
    await form.getByLabel('Saturday opens', { exact: true }).fill('08:00');
    await form.getByLabel('Saturday closes', { exact: true }).fill('12:30');
    await form.getByRole('button', { name: 'Add an exception' }).click();
    await form.getByLabel('Date').fill('2026-12-25');
    await form.getByLabel('Note (for example Christmas)').fill('Christmas');
    await axe(page, 'opening-hours');
    await form.getByRole('button', { name: 'Save opening hours' }).click();
    await form.getByText('Opening hours saved.').waitFor();
    await shot(page, 'opening-hours');
    const profile = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json();
    assert.deepEqual(profile.opening_hours.monday, [['09:00', '17:00']]);
    assert.deepEqual(profile.opening_hours.saturday, [['08:00', '12:30']]);
    assert.equal(profile.opening_hours.sunday, undefined);
    assert.deepEqual(profile.opening_hours.exceptions, [{ date: '2026-12-25', closed: true, note: 'Christmas' }]);
    assert.equal(typeof profile.open_now, 'boolean');
    // Prices: a wrong amount is explained next to the field; a range is saved.
    const prices = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Prices', exact: true }) });
    await prices.getByLabel('From').fill('forty');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await prices.getByText(/Enter the lowest price as a number/).waitFor();
    await prices.getByLabel('From').fill('45');
    await prices.getByLabel('Up to (optional)').fill('90');
    await prices.getByLabel('Per').selectOption('job');
    await prices.getByRole('button', { name: 'Save prices', exact: true }).click();
    await prices.getByText('Prices saved.').waitFor();
    assert.deepEqual((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().price_range, { from: 45, to: 90, currency: 'EUR', unit: 'job' });
    // Prices per service: rows added and filled by their labels; a service listed twice is explained; the list is saved.
    const perService = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Prices per service' }) });
    await perService.getByText('No services priced yet.').waitFor();
    await perService.getByRole('button', { name: 'Add a service' }).click();
    await perService.getByLabel('Service, row 1').fill('Wedding cake');
    await perService.getByLabel('Price, row 1, Wedding cake').fill('250');
    await perService.getByLabel('Up to, row 1, Wedding cake').fill('600');
    await perService.getByRole('button', { name: 'Add a service' }).click();
    await perService.getByLabel('Service, row 2').fill('wedding cake');
    await perService.getByLabel('Price, row 2, wedding cake').fill('30');
    await perService.getByLabel('Per, row 2, wedding cake').selectOption('person');
    await perService.getByRole('button', { name: 'Save prices per service' }).click();
    await perService.getByText(/listed twice \(also in row 1\)/).waitFor();
    await perService.getByLabel('Service, row 2').fill('Bread tasting');
    await axe(page, 'service-prices');
    await perService.getByRole('button', { name: 'Save prices per service' }).click();
    await perService.getByText('Prices per service saved.').waitFor();
    await shot(page, 'service-prices');
    assert.deepEqual((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().service_prices, [
      { service: 'Wedding cake', from: 250, to: 600, currency: 'EUR', unit: 'job' },
      { service: 'Bread tasting', from: 30, currency: 'EUR', unit: 'person' },
    ]);
    // Languages by name (stored as codes for agents' filters).
    const edit = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Edit profile' }) });
    await edit.getByRole('checkbox', { name: 'German' }).check();
    await edit.getByRole('button', { name: 'Save profile' }).click();
    await edit.getByText('Profile saved.').waitFor();
    assert.ok((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().languages.includes('de'));
    // Social links: an address without its scheme is explained next to the field; a whole one is saved.
    const social = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Social links' }) });
    await social.getByLabel('Instagram').fill('instagram.com/dashbakery');
    await social.getByRole('button', { name: 'Save social links' }).click();
    await social.getByText('Paste the whole address, starting with https://').waitFor();
    await social.getByLabel('Instagram').fill('https://www.instagram.com/dashbakery');
    await social.getByRole('button', { name: 'Save social links' }).click();
    await social.getByText('Social links saved.').waitFor();
    await axe(page, 'social-links');
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().social_links.instagram, 'https://www.instagram.com/dashbakery');
    // Website check: turned on, and the change it found is taken into the profile by the owner.
    const check = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Website check' }) });
    await check.scrollIntoViewIfNeeded();
    await check.getByLabel('Check my website every month').check();
    await check.getByText(/The monthly check is on/).waitFor();
    await check.getByLabel(/^Phone:/).waitFor();
    assert.equal(await check.getByLabel(/^Phone:/).isChecked(), true, 'what the site says is ticked to be taken');
    await axe(page, 'website-check');
    await shot(page, 'website-check');
    await check.getByRole('button', { name: 'Take what is ticked' }).click();
    await check.getByText('1 change saved to your profile.').waitFor();
    await check.getByText(/Nothing to decide/).waitFor();
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().contact.phone, '+49 30 5550 1234');
    // Photos: one added with a caption, shown in the gallery; removing asks first.
    const gallery = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Photos', exact: true }) });
    await gallery.scrollIntoViewIfNeeded();
    await gallery.getByText('No photos yet.').waitFor();
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c96a17' } }).jpeg().toBuffer();
    await gallery.getByLabel(/^Add a photo/).setInputFiles({ name: 'counter.jpg', mimeType: 'image/jpeg', buffer: photo });
    await gallery.getByLabel('Caption (optional)').fill('Our bread counter');
    await gallery.getByRole('button', { name: 'Add photo' }).click();
    await gallery.getByRole('img', { name: 'Our bread counter' }).waitFor();
    await gallery.getByRole('button', { name: 'Remove Our bread counter' }).click();
    await gallery.getByRole('button', { name: 'Keep it' }).click();
    await axe(page, 'photos');
    await shot(page, 'photos');
    const photos = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json().photos;
    assert.deepEqual(photos.map((x: { caption: string; width: number }) => [x.caption, x.width]), [['Our bread counter', 800]]);
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [companyId]))[0]!.slug;
    await page.goto(`${base}/companies/${slug}`);
    const hours = page.getByRole('table', { name: 'Opening hours' });
    await hours.getByRole('row', { name: 'Saturday 08:00–12:30' }).waitFor();
    await hours.getByRole('row', { name: 'Sunday Closed' }).waitFor();
    await page.getByText(/^(Open|Closed) now/).waitFor();
    await page.getByText('€45–€90 per job').waitFor();
    await page.getByRole('list').getByRole('img', { name: 'Our bread counter' }).waitFor();
    await axe(page, 'company-page-hours');
    await shot(page, 'company-page-hours', true);
  });

  it('reviews: the customer confirms what the assistant wrote by the mailed link, the owner answers once, the page shows both; an administrator hides a reported one (issue 39)', journey(), async (ctx) => {
    if (skip(ctx)) return;
    const agent = await actors(t).agent('Review Bot', 'review-bot@agents.example.com');
    const ownerHeaders = (await actors(t).owner(OWNER)).headers;
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: agent.headers, payload: { company_id: companyId, customer_email: 'lena@customers.example', customer_name: 'Lena Fischer', description: 'A birthday cake for 30 people.' } });
    assert.equal(created.statusCode, 201, created.body);
    const proposalId = created.json().id as string;
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/proposals/${proposalId}/respond`, headers: ownerHeaders, payload: { action: 'approve', message: 'Happy to bake it.' } })).statusCode, 200);
    const held = await t.app.inject({ method: 'POST', url: `/api/v1/agent/proposals/${proposalId}/review`, headers: agent.headers, payload: { rating: 5, text: 'Beautiful cake, everyone loved it.' } });
    assert.equal(held.statusCode, 202, held.body);
    const isConfirm = (m: { subject: string; text_body: string }) => /\/reviews\/[A-Za-z0-9_-]+/.test(m.text_body) && /confirm/i.test(m.subject);
    const mails = await until(() => t.app.services.mail.recent({ to: 'lena@customers.example', limit: 10 }), (ms) => ms.some(isConfirm), 'the confirmation mail to the customer');
    const token = /\/reviews\/([A-Za-z0-9_-]+)/.exec(mails.find(isConfirm)!.text_body)![1];

    // The customer, on a phone: the assistant's words are there to check; she changes the stars and publishes.
    const customer = await browser.newContext({ viewport: MOBILE });
    try {
      const c = await customer.newPage();
      c.setDefaultTimeout(pageWait());
      await c.goto(`${base}/reviews/${token}`);
      await c.getByRole('heading', { name: 'How was the work of Dash Bakery?' }).waitFor();
      await c.getByText(/Your assistant wrote this review for you/).waitFor();
      assert.equal(await c.getByLabel('Your review').inputValue(), 'Beautiful cake, everyone loved it.');
      await axe(c, 'review-confirm');
      await c.getByLabel('4 stars').check();
      await c.getByRole('button', { name: 'Publish the review' }).click();
      await c.getByRole('heading', { name: 'Thank you: your review is published' }).waitFor();
      await c.screenshot({ path: path.join(ARTIFACTS, 'review-confirmed-mobile.png') });
    } finally {
      await customer.close();
    }

    // The owner answers once, from the company's reviews page.
    await page.goto(`${base}/app/companies/${companyId}/reviews`);
    await page.getByRole('heading', { name: 'Reviews' }).waitFor();
    await page.getByText('Beautiful cake, everyone loved it.').waitFor();
    await axe(page, 'owner-reviews');
    await page.getByLabel(/Your public answer/).fill('Thank you, Lena! Happy birthday.');
    await page.getByRole('button', { name: 'Publish answer' }).click();
    // The answer shows once the list is read again; then the form is gone (one answer only).
    await page.getByText('Your answer', { exact: true }).waitFor();
    await page.getByText('Thank you, Lena! Happy birthday.').waitFor();
    await eventually(() => page.getByRole('button', { name: 'Publish answer' }).count(), 0, 'one answer only');
    await shot(page, 'owner-reviews');

    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [companyId]))[0]!.slug;
    await page.goto(`${base}/companies/${slug}`);
    await page.getByText('4 out of 5').waitFor();
    await page.getByText('Beautiful cake, everyone loved it.').waitFor();
    await page.getByText(/Answer from Dash Bakery:/).waitFor();
    const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent();
    assert.match(jsonLd!, /"aggregateRating":\{"@type":"AggregateRating","ratingValue":4,"reviewCount":1/);
    await axe(page, 'company-page-reviews');

    // An agent reports it; an administrator reads the report and hides the review after a confirmation.
    const reviewId = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/reviews?company_id=${companyId}` })).json().reviews[0].id as string;
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/agent/reviews/${reviewId}/report`, headers: agent.headers, payload: { reason: 'fake' } })).statusCode, 200);
    const adminContext = await browser.newContext({ viewport: DESKTOP });
    try {
      await adminContext.addCookies([sessionCookie(await signInAdmin(t))]);
      const a = await adminContext.newPage();
      a.setDefaultTimeout(pageWait());
      await a.goto(`${base}/admin/reviews`);
      await a.getByRole('heading', { name: 'Dash Bakery: 4 out of 5 by Lena F.' }).waitFor();
      await a.getByText(/an agent says it is fake/).waitFor();
      await axe(a, 'admin-reviews');
      await a.getByRole('button', { name: 'Hide', exact: true }).click();
      await a.getByRole('dialog').getByRole('button', { name: 'Hide the review' }).click();
      await a.getByText('The review is hidden; the rating no longer counts it.').waitFor();
      await a.getByText('No reported reviews. Nothing to look at.').waitFor();
      await a.screenshot({ path: path.join(ARTIFACTS, 'admin-reviews-desktop.png') });
    } finally {
      await adminContext.close();
    }
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/reviews?company_id=${companyId}` })).json().rating.count, 0);
  });

  it('billing: upgrade through the offline provider, land on pro, cancel at period end (issue 13)', journey(), async (ctx) => {
    if (skip(ctx)) return;
    await page.goto(`${base}/app/billing`);
    await page.getByRole('heading', { name: 'Plan: free' }).waitFor();
    // Free and pro side by side, and what a year saves (issue 38).
    await page.getByRole('table', { name: 'What each plan includes' }).waitFor();
    await page.getByRole('row', { name: /Agent-readiness scans per month/ }).waitFor();
    await page.getByText(/save .+ a year against paying monthly/).waitFor();
    await page.getByLabel(/per year/).check();
    await page.getByLabel('Promo code (optional)').fill('NOSUCHCODE');
    await page.getByRole('button', { name: 'Check code' }).click();
    await page.getByText('This code cannot be used: there is no such code.').waitFor();
    await page.getByLabel('Promo code (optional)').fill('');
    await axe(page, 'billing-free');
    await shot(page, 'billing-free');
    // The local provider is a test provider: the page says so (issue 35).
    await page.getByText(/Payments are in test mode on this server: nothing is charged/).waitFor();
    await page.getByRole('button', { name: 'Continue to the test payment' }).click();
    // The offline provider's checkout lands on the success page, which syncs and redirects back here.
    await page.waitForURL(/\/app\/billing\?status=success/);
    await page.getByRole('heading', { name: 'Plan: pro' }).waitFor({ timeout: patience(60_000) });
    await page.getByText(/renews/).waitFor();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: "Yes, end it at the period's end" }).click();
    await page.getByText(/You cancelled: the plan ends on/).waitFor();
    await axe(page, 'billing-pro');
    await shot(page, 'billing-pro');
    await shot(page, 'billing-pro', true);
    // Changing one's mind before the period ends keeps the plan.
    await page.getByRole('button', { name: 'Keep my pro plan' }).click();
    await page.getByText(/renews/).waitFor();
    await page.getByRole('button', { name: 'Cancel subscription' }).waitFor();
  });

  it('widget snippet and insights screens; another owner’s company shows nothing of it', journey(), async (ctx) => {
    if (skip(ctx)) return;
    await page.goto(`${base}/app/companies/${companyId}/widget`);
    await page.getByRole('heading', { name: 'Embed snippet' }).waitFor();
    await page.getByTestId('embed-code').filter({ hasText: /widget\.js/ }).waitFor();
    // Empty title and greeting: the preview shows what visitors will read (issue 38).
    await page.getByLabel('Widget preview').getByText('Hi! Ask me anything about Dash Bakery.').waitFor();
    await page.getByLabel('Widget preview').getByText('Dash Bakery', { exact: true }).waitFor();
    await page.getByLabel('Greeting').fill('Hello from Dash Bakery!');
    await page.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Widget settings saved.').waitFor();
    await page.getByLabel('Widget preview').getByText('Hello from Dash Bakery!').waitFor();
    // An invalid value: the API's detail is shown, nothing is saved.
    await page.getByLabel(/Allowed websites/).fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save widget' }).click();
    const problem = page.getByRole('alert');
    await problem.waitFor();
    assert.match(await problem.innerText(), /origin|allowed|url/i);
    await page.getByLabel(/Allowed websites/).fill('');
    await axe(page, 'widget');
    await shot(page, 'widget');

    await t.app.services.insights.record({ companyIds: [companyId], question: 'Do you bake gluten-free bread?', source: 'widget', reason: 'unanswered' });
    await t.app.services.insights.record({ companyIds: [companyId], question: 'Do you bake gluten-free bread?', source: 'widget', reason: 'unanswered' });
    await page.goto(`${base}/app/companies/${companyId}/insights`);
    await page.getByRole('heading', { name: 'Audience insights' }).waitFor();
    await page.getByText('Do you bake gluten-free bread?').waitFor();
    await axe(page, 'insights');
    await shot(page, 'insights');
    // CSV export is a pro feature: on free the server's reason shows, with the way to upgrade (the billing journey may have left this company on pro).
    // The billing test's last provider events (its cancel) are processed by a job a moment later; an
    // administrator's free plan is not "in force", so a late event would put the company back on pro.
    await t.app.services.payments.processPending();
    const admin = (await actors(t).admin()).headers;
    const setPlan = (plan: string) => t.app.inject({ method: 'POST', url: `/api/tools/admin/companies/${companyId}/subscription`, headers: admin, payload: { plan, period_months: 1 } });
    assert.equal((await setPlan('free')).statusCode, 200);
    await page.reload();
    await page.getByText(/in the last 7 days \(free plan\)/).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('alert').filter({ hasText: /needs the pro plan/ }).waitFor();
    await page.getByRole('link', { name: 'Upgrade under Billing' }).waitFor();
    assert.equal((await setPlan('pro')).statusCode, 200);
    await page.reload();
    await page.getByText(/in the last 90 days \(pro plan\)/).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    assert.match(csv, /^asked_at,category,source,reason,question\r\n/);
    assert.match(csv, /gluten-free bread/);
    // "Answer this" opens the AI edit prefilled with the question.
    await page.getByRole('link', { name: 'Answer this' }).first().click();
    await page.getByRole('heading', { name: 'Dash Bakery: profile' }).waitFor();
    assert.match(await page.getByLabel('What should change?').inputValue(), /gluten-free bread/);
    await page.goBack();
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear all' }).click();
    await page.getByTestId('empty').waitFor();
    await page.getByText(/Cleared \d+ question/).waitFor();

    await page.goto(`${base}/app/companies/${companyId}/scans`);
    await page.getByRole('heading', { name: 'Agent-readiness scans' }).waitFor();
    await page.getByTestId('empty').or(page.getByRole('heading', { name: /^Score/ })).first().waitFor();
    await axe(page, 'scans');

    await page.goto(`${base}/app/companies/${otherCompanyId}/profile`);
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /not found/i);
    assert.equal(await page.getByText('Someone Else GmbH').count(), 0);
  });

  it('scans: score and findings of a completed scan; the agent files download as a ZIP', journey(), async (ctx) => {
    if (skip(ctx)) return;
    const { score, grade } = await seedCompletedScan(t, companyId, 'https://dash-bakery.example/');
    const scans = new ScansScreen(page);
    await scans.open(base, companyId);
    await scans.score.filter({ hasText: `Score ${score} (${grade})` }).waitFor();
    await page.getByRole('region', { name: 'Fix first' }).getByText('/llms.txt is present').waitFor();
    const llms = scans.finding('/llms.txt is present');
    await llms.getByText('fail', { exact: true }).waitFor();
    await llms.getByText('Publish /llms.txt at the site root.').waitFor();
    await scans.finding('Sitemap is present and parses').getByRole('listitem').filter({ hasText: 'Name the sitemap in robots.txt.' }).waitFor();
    assert.equal(await scans.findings.getByText(/\{"summary"/).count(), 0, 'fixes are shown as text, not JSON');
    await axe(page, 'scans-completed');
    await shot(page, 'scans');
    const zip = await scans.downloadAgentFiles();
    assert.equal(zip.bytes.subarray(0, 2).toString('latin1'), 'PK', 'a ZIP archive');
    assert.match(zip.filename, /^agentpages-dash-bakery-example-agent-files-\d{4}-\d{2}-\d{2}\.zip$/);
    assert.ok(zip.bytes.includes('llms.txt'), 'the archive holds llms.txt');
    await page.getByRole('status').filter({ hasText: /files ready/ }).waitFor();
    await axe(page, 'scans-files');
    await shot(page, 'scans', true);
  });

  it('the inbox becomes usable under 4× CPU throttling (the time is logged, not asserted)', journey(), async (ctx) => {
    if (skip(ctx)) return;
    const cdp = await owner.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const t0 = Date.now();
    await page.goto(`${base}/app/proposals`);
    await page.getByRole('button', { name: /Max Buyer/ }).waitFor({ timeout: patience(120_000) });
    // A measure for people reading the log (the machine's load changes it); speed is never asserted in tests.
    console.log(`# time to a usable inbox at 4x CPU throttling: ${Date.now() - t0} ms`);
  });

  it('a cross-site style cookie POST without the CSRF header is refused; sign-out revokes', journey(), async (ctx) => {
    if (skip(ctx)) return;
    await page.goto(`${base}/app`);
    await page.getByRole('heading', { name: 'My companies' }).waitFor();
    const status = await page.evaluate(async (id) => (await fetch(`/api/tools/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ industry: 'Hacked' }) })).status, companyId);
    assert.equal(status, 403);
    await page.goto(`${base}/app`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to AgentPages' }).waitFor();
    await page.goto(`${base}/app/proposals`);
    await page.getByRole('heading', { name: 'Sign in to AgentPages' }).waitFor();
  });

  it('administrator: verify, feature, typed-confirmation delete, agent deactivation, subscriptions, reported agents, crawl monitor, audit log, password sign-in', journey(), async (ctx) => {
    if (skip(ctx)) return;
    const token = await signInAdmin(t);
    const admin = await browser.newContext({ viewport: DESKTOP });
    await admin.addCookies([sessionCookie(token)]);
    const a = await admin.newPage();
    a.setDefaultTimeout(pageWait());
    try {
      await a.goto(`${base}/admin`);
      await a.getByText('29 companies').waitFor();
      await eventually(() => a.getByRole('row').count(), 26, 'header + 25');
      await a.getByRole('button', { name: 'Load more' }).click();
      await a.waitForFunction(() => document.querySelectorAll('tbody tr').length === 29);
      assert.equal(await a.getByRole('button', { name: 'Load more' }).count(), 0, 'no more pages');
      // The verification queue: companies an owner claimed that nobody verified yet (issue 38).
      await a.getByLabel('Show').selectOption('to_verify');
      await a.waitForURL(/view=to_verify/);
      await a.locator('tbody strong', { hasText: 'Shop Dash Bakery' }).waitFor();
      await eventually(() => a.getByRole('row').count(), 2, 'header + the one claimed, unverified company');
      await a.getByLabel('Show').selectOption('');
      await a.getByText('29 companies').waitFor();
      await a.getByLabel('Search by name or domain').fill('Someone');
      await a.keyboard.press('Enter');
      await a.waitForURL(/q=Someone/);
      await a.getByRole('heading', { name: 'Companies' }).waitFor();
      const row = a.getByRole('row').filter({ hasText: 'Someone Else GmbH' });
      await row.waitFor();
      await axe(a, 'admin-companies');
      // Unverifying (which tells agents) asks first, with the safe button focused: Enter goes back (issue 38).
      await row.getByRole('button', { name: /^Unverify/ }).click();
      const unverify = a.getByRole('dialog', { name: /Unverify Someone Else GmbH/ });
      await unverify.waitFor();
      await a.keyboard.press('Enter');
      await unverify.waitFor({ state: 'hidden' });
      assert.equal(await row.getByText('verified', { exact: true }).count(), 1, 'Enter changed nothing');
      await row.getByRole('button', { name: /^Unverify/ }).click();
      await unverify.getByRole('button', { name: 'Unverify' }).click();
      await a.getByText('Someone Else GmbH: unverified').waitFor();
      await row.getByRole('button', { name: /^Verify/ }).waitFor();
      // Only the plans owners can buy are offered; featuring is the administrator's decision on any plan (issue 35).
      assert.deepEqual(await row.getByLabel('Plan of Someone Else GmbH').locator('option').allTextContents(), ['free', 'pro']);
      await row.getByLabel('Plan of Someone Else GmbH').selectOption('pro');
      await row.getByRole('button', { name: /^Set plan/ }).click();
      await a.getByText('Someone Else GmbH: plan set to pro').waitFor();
      await row.getByRole('button', { name: /^Feature/ }).click();
      await row.getByText('featured', { exact: true }).waitFor();
      await shot(a, 'admin-companies');
      await row.getByRole('button', { name: 'Delete' }).click();
      const dialog = a.getByRole('dialog', { name: /Delete Someone Else GmbH/ });
      const confirm = dialog.getByRole('button', { name: 'Delete' });
      assert.equal(await confirm.isDisabled(), true, 'needs the typed domain');
      await dialog.getByLabel(/Type/).fill('someone-else.example');
      await confirm.click();
      await a.getByText('Someone Else GmbH: deleted').waitFor();

      await a.getByRole('link', { name: 'Agents', exact: true }).click();
      const agentRow = a.getByRole('row').filter({ hasText: 'Procurement Bot' });
      await agentRow.waitFor();
      await axe(a, 'admin-agents');
      await agentRow.getByRole('button', { name: /proposals of Procurement Bot/ }).click();
      await agentRow.getByText(/Dash Bakery: Can you cater a wedding/).waitFor();
      await agentRow.getByRole('button', { name: 'Deactivate' }).click();
      await a.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
      await agentRow.getByText('deactivated').waitFor();
      await agentRow.getByRole('button', { name: /Reactivate/ }).click();
      await agentRow.getByText('active', { exact: true }).waitFor();

      // Subscriptions (issue 38): every paid plan with the summary; the filter lives in the URL.
      await a.getByRole('link', { name: 'Subscriptions' }).click();
      await a.getByLabel('Summary').getByText(/a month/).waitFor();
      // Dash Bakery's plan, bought in the billing journey, was then set by hand in this one.
      await a.getByRole('row').filter({ hasText: 'Dash Bakery' }).getByText('Granted by an administrator').waitFor();
      await axe(a, 'admin-subscriptions');
      await shot(a, 'admin-subscriptions');
      await a.getByLabel('Show').selectOption('canceled');
      await a.waitForURL(/status=canceled/);
      await a.getByText('No subscription matches.').waitFor();

      // The moderation queue of reported agents (issue 38): the owner's report from the inbox journey, dismissed.
      await a.getByRole('link', { name: 'Reported agents' }).click();
      const reported = a.getByRole('list', { name: 'Open reports' }).getByRole('listitem').filter({ hasText: 'Procurement Bot: reported by Dash Bakery for spam' });
      await reported.getByText('Testing the report flow.').waitFor();
      await axe(a, 'admin-agent-reports');
      await shot(a, 'admin-agent-reports');
      await reported.getByRole('button', { name: /^Dismiss/ }).click();
      await a.getByText('The report is dismissed.', { exact: false }).waitFor();
      await a.getByText('No open reports. Nothing to look at.').waitFor();

      // A crawl that fails (the host does not exist) for the monitor's failed job and its timeline.
      const crawl = await t.app.inject({ method: 'POST', url: '/api/crawl/admin', headers: bearer(token), payload: { url: 'https://crawl-fails.invalid' } });
      assert.match(crawl.body, /crawl-fails\.invalid/);
      await a.getByRole('link', { name: 'Crawl monitor' }).click();
      await a.getByRole('heading', { name: 'Crawl monitor' }).waitFor();
      await a.getByRole('button', { name: /crawl-fails\.invalid/ }).click();
      await a.waitForURL(/job=/);
      const timeline = a.getByRole('list', { name: 'Event timeline' });
      await timeline.getByRole('listitem').first().waitFor();
      await shot(a, 'admin-crawl-timeline');
      await a.getByRole('button', { name: '7 days' }).click();
      await a.waitForURL(/hours=168/);
      await a.getByRole('heading', { name: 'Last 7 days' }).waitFor();
      await axe(a, 'admin-crawl');

      // A value a crawl held back (issue 40): the administrator's queue names the company and the page, in words.
      await t.db.query(
        `INSERT INTO crawl_held_fields (company_id, field, value, confidence, source_url, method)
         SELECT id, 'city', 'Leeds', 0.6, 'https://dash-bakery.example/contact', 'address-line' FROM companies WHERE name = 'Dash Bakery'`,
      );
      await a.getByRole('link', { name: 'Values to confirm' }).click();
      const waiting = a.getByRole('list', { name: 'Values to confirm' }).getByRole('listitem').filter({ hasText: 'Dash Bakery' });
      await waiting.getByText('The crawl read the town “Leeds” for Dash Bakery on the page /contact but was not sure it is right.').waitFor();
      await axe(a, 'admin-held');
      await shot(a, 'admin-held');
      await waiting.getByRole('button', { name: /^Dismiss/ }).click();
      await a.getByText('“Leeds” stays off Dash Bakery\'s profile and will not be suggested again.').waitFor();
      await a.getByText('Nothing waits for confirmation.').waitFor();

      await a.getByRole('link', { name: 'Reindex' }).click();
      await a.getByText('No reindex has run yet.').waitFor();
      await a.getByRole('button', { name: 'Start reindex' }).click();
      await a.getByRole('dialog').getByRole('button', { name: 'Start reindex' }).click();
      await a.getByRole('status').filter({ hasText: /100 %/ }).waitFor({ timeout: patience(120_000) });
      assert.equal(await a.getByRole('progressbar').getAttribute('value'), '100');
      await axe(a, 'admin-reindex');
      await shot(a, 'admin-reindex');

      await a.getByRole('link', { name: 'Audit log' }).click();
      // The log speaks in words and names the company (a link to it), never a raw id.
      await a.getByRole('cell', { name: 'Removed the verification' }).first().waitFor();
      await a.getByRole('link', { name: 'Someone Else GmbH' }).first().waitFor();
      const auditText = await a.locator('main').innerText();
      assert.doesNotMatch(auditText, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, 'no raw ids in the audit log');
      assert.doesNotMatch(auditText, /companies\.\w+/);
      await axe(a, 'admin-audit');
      await shot(a, 'admin-audit', true);

      // An owner session is not an administrator: the admin console says so.
      const ownerToken = (await signInOwner(t, OWNER)).token;
      await admin.clearCookies();
      await admin.addCookies([sessionCookie(ownerToken)]);
      await a.goto(`${base}/admin/agents`);
      await a.getByRole('alert').getByText(/Administrator access required/).waitFor();

      // Administrators may sign in with their password as well as by an emailed link (issue 38).
      await admin.clearCookies();
      await a.goto(`${base}/admin/sign-in`);
      const pw = a.locator('form').filter({ has: a.getByRole('heading', { name: 'Or sign in with your password' }) });
      await pw.getByLabel('Email address').fill(TEST_ADMIN_EMAIL);
      await pw.getByLabel('Password').fill('not the password');
      await pw.getByRole('button', { name: 'Sign in' }).click();
      await pw.getByRole('alert').waitFor();
      assert.doesNotMatch(await pw.getByRole('alert').innerText(), /\/api\/|401|POST/, 'the refusal is a sentence');
      await axe(a, 'admin-sign-in');
      await pw.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
      await pw.getByRole('button', { name: 'Sign in' }).click();
      await a.waitForURL(`${base}/admin`);
      await a.getByRole('link', { name: 'Reported agents' }).waitFor();
    } finally {
      await admin.close();
    }
  });

  it('administrator: promo codes: field validation, create, duplicate refused with the API reason, edit, load more, deactivate', journey(), async (ctx) => {
    if (skip(ctx)) return;
    const token = await signInAdmin(t);
    // 25 older codes: the list shows 25 a page, the new code comes first (newest first).
    for (let i = 0; i < 25; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/payments/admin/promo-codes', headers: bearer(token), payload: { code: `OLDER${String(i).padStart(2, '0')}`, discount_type: 'percent', percent_off: 5, duration: 'once' } });
      assert.equal(r.statusCode, 201, r.body);
    }
    const admin = await browser.newContext({ viewport: DESKTOP });
    await admin.addCookies([sessionCookie(token)]);
    const a = await admin.newPage();
    a.setDefaultTimeout(pageWait());
    a.on('pageerror', (e) => console.log('# page error:', e.message));
    try {
      const promos = new PromoCodesScreen(a);
      await a.goto(`${base}/admin`);
      await a.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Promo codes' }).click();
      await promos.heading.waitFor();
      await promos.row('OLDER24').waitFor();
      await eventually(() => promos.rows.count(), 25);
      await promos.toggleNew();
      await promos.form.getByText(/cannot change once a code exists/).waitFor();

      // Field validation: shown next to the field, nothing sent.
      await promos.fillNew({ code: 'x!', percentOff: '120' });
      await promos.submitNew();
      await promos.form.getByText('3 to 40 letters, digits, - or _, starting with a letter or digit').waitFor();
      await promos.form.getByText('A percentage above 0 and at most 100').waitFor();
      assert.equal(await promos.form.getByLabel('Code').getAttribute('aria-invalid'), 'true');

      await promos.fillNew({ code: 'welcome20', description: 'Launch week', percentOff: '20', months: '3', maxRedemptions: '100' });
      await promos.submitNew();
      await a.getByText('Promo code WELCOME20 created.').waitFor();
      const row = promos.row('WELCOME20');
      await row.getByText('20 % off, for 3 months').waitFor();
      await row.getByText('0 of 100 used').waitFor();
      assert.equal(await promos.rows.first().textContent().then((x) => x?.startsWith('WELCOME20')), true, 'newest first');

      // The same code in other letters: the API's 409 reason, shown as it is.
      await promos.fillNew({ code: 'Welcome20', percentOff: '10' });
      await promos.submitNew();
      await promos.form.getByRole('alert').filter({ hasText: /Not created: A promo code WELCOME20 exists already/ }).waitFor();
      await axe(a, 'admin-promos-new');
      await promos.toggleNew();
      await promos.form.waitFor({ state: 'hidden' });
      await axe(a, 'admin-promos');
      await shot(a, 'admin-promos');

      // Cursor pagination: 26 codes, 25 a page.
      await a.getByRole('button', { name: 'Load more' }).click();
      await promos.row('OLDER00').waitFor();
      await eventually(() => promos.rows.count(), 26);
      assert.equal(await a.getByRole('button', { name: 'Load more' }).count(), 0, 'no more pages');

      // Edit: only description, expiry and the limit; the discount is read-only.
      await row.getByRole('button', { name: 'Edit WELCOME20' }).click();
      const edit = a.getByRole('form', { name: 'Edit WELCOME20' });
      await edit.getByText(/deactivate the code and create a new one/).waitFor();
      await edit.getByLabel('Maximum redemptions').fill('0');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.getByText('A whole number from 1 to 1000000, or empty for no limit').waitFor();
      await edit.getByLabel('Maximum redemptions').fill('50');
      await edit.getByLabel('Description').fill('Launch week (extended)');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await row.getByText('0 of 50 used').waitFor();
      await row.getByText('Launch week (extended)').waitFor();

      await promos.deactivate('WELCOME20');
      await a.getByText('WELCOME20 deactivated').waitFor();
      await row.getByText('inactive', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Activate WELCOME20' }).waitFor();
      const check = await t.app.inject({ method: 'POST', url: '/api/payments/promo/validate', payload: { code: 'welcome20', plan: 'pro' } });
      assert.equal(check.json().reason, 'inactive');

      // The status filter lives in the URL.
      await a.getByLabel('Status').selectOption('false');
      await a.waitForURL(/active=false/);
      await promos.row('OLDER24').waitFor({ state: 'detached' });
      await promos.row('WELCOME20').waitFor();
      await eventually(() => promos.rows.count(), 1);
      await axe(a, 'admin-promos-inactive');
      await shot(a, 'admin-promos', true);
    } finally {
      await admin.close();
    }
  });
});
