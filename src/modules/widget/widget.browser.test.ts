import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';
import { eventually, patience } from '../../../test/helpers/timing.js';

/**
 * A local page on another origin embeds /widget.js; Debian's Chromium (scripts/ci/setup-chromium.sh)
 * opens it, asks a question with the keyboard only and sees the answer. The screenshot is saved to
 * test-artifacts/widget-browser.png. Skipped, with a message, when Chromium is not installed.
 * Waits are on the page (a locator, a value that settles), bounded against a hang by
 * test/helpers/timing.ts, never on a speed the machine must reach.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = path.resolve('test-artifacts');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('chat widget in a browser', () => {
  const available = fs.existsSync(CHROMIUM);
  const t = useTestApp();
  let apiBase = '';
  let page: http.Server;
  let pageUrl = '';

  before(async () => {
    if (!available) return;
    const [companyId] = (await seedCompanies(t.app, [
      companyFixture({
        name: 'Redline Plumbing',
        website_url: 'https://redline-plumbing.de',
        category: 'Construction & Home Services',
        description: 'Emergency plumbing in Berlin: leak repair, boiler service and bathroom installation, 24/7.',
        services: ['Leak repair', 'Boiler service'],
        contact_email: 'hello@redline-plumbing.de',
      }),
    ])) as [string];
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

    // The host page lives on another origin (localhost vs 127.0.0.1) and has hostile styles.
    page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pageUrl = `http://localhost:${(page.address() as AddressInfo).port}`;
    const { widget_public_id } = await t.app.services.widget.update(companyId, { enabled: true, greeting: 'Hi! Ask me about Redline Plumbing.', allowed_origins: [pageUrl] });
    const html = `<!doctype html><html lang="en"><head><title>Host page</title>
      <style>* { color: red !important; font-size: 40px !important; background: yellow; } button { display: none !important; }</style></head>
      <body><h1>A company website</h1>
      <script src="${apiBase}/widget.js" data-widget-id="${widget_public_id}" async></script></body></html>`;
  });

  after(async () => {
    if (!available) return;
    await new Promise((r) => page.close(r));
  });

  it('opens the widget by keyboard, asks a question and shows the answer', { timeout: patience(10 * 60_000) }, async (ctx) => {
    if (!available) {
      ctx.skip(`Chromium not found at ${CHROMIUM}: run scripts/ci/setup-chromium.sh to enable the browser test`);
      return;
    }
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: patience(60_000) });
    try {
      const tab = await browser.newPage({ viewport: { width: 900, height: 700 } });
      tab.setDefaultTimeout(patience(30_000));
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(pageUrl);
      // Playwright's CSS locators pierce the (open) shadow root.
      const launcher = tab.locator('button.launcher');
      await launcher.waitFor({ state: 'visible' });
      // Host styles do not reach inside: the launcher is visible although the page hides every button.
      assert.equal(await launcher.evaluate((b) => getComputedStyle(b).display), 'flex');
      assert.equal(await launcher.getAttribute('aria-expanded'), 'false');

      await tab.keyboard.press('Tab');
      await eventually(() => tab.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.className), 'launcher');
      await tab.keyboard.press('Enter');
      await eventually(() => launcher.getAttribute('aria-expanded'), 'true');
      await tab.locator('.msg.bot', { hasText: 'Hi! Ask me about Redline Plumbing.' }).waitFor();
      // A free plan shows the "Powered by" line, linking to the directory in a new tab.
      const powered = tab.locator('.foot a', { hasText: 'Powered by AgentPages' });
      await powered.waitFor();
      assert.equal(await powered.getAttribute('rel'), 'noopener');
      // Focus moved to the question field: type and press Enter.
      await tab.keyboard.type('Do you do leak repair?');
      await tab.keyboard.press('Enter');
      const answer = tab.locator('.msg.bot', { hasText: /leak repair/i }).last();
      await answer.waitFor({ timeout: patience(60_000) });
      assert.match((await answer.textContent()) ?? '', /leak repair/i);
      assert.equal(await tab.locator('.msg.me').textContent(), 'Do you do leak repair?');
      // The page's `* { font-size: 40px !important; color: red !important }` does not leak in.
      assert.equal(await answer.evaluate((e) => getComputedStyle(e).fontSize), '14px');
      assert.notEqual(await answer.evaluate((e) => getComputedStyle(e).color), 'rgb(255, 0, 0)');

      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await tab.screenshot({ path: path.join(ARTIFACTS, 'widget-browser.png') });

      // A question the profile does not answer offers to pass the visitor's details on (issue 38: leads into the inbox).
      await tab.locator('input#agp-q').fill('How much does a boiler service cost?');
      await tab.keyboard.press('Enter');
      const direct = tab.locator('button.leadbtn', { hasText: 'Ask Redline Plumbing directly' });
      await direct.waitFor({ timeout: patience(60_000) });
      await direct.click();
      await eventually(() => tab.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.id), 'agp-l-name', 'focus moves to the first field');
      assert.equal(await tab.locator('#agp-l-msg').inputValue(), 'How much does a boiler service cost?');
      await tab.locator('#agp-l-name').fill('Jonas Weber');
      await tab.locator('#agp-l-email').fill('jonas@example.org');
      const violations = await tab.evaluate(async (source) => {
        if (!('axe' in window)) (0, eval)(source);
        const r = await (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run(
          { include: [['[data-agentpages-widget]']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      }, AXE_SOURCE);
      assert.deepEqual(violations, [], 'axe on the open widget with its details form');
      await tab.screenshot({ path: path.join(ARTIFACTS, 'widget-lead-form.png') });
      await tab.locator('form.lead button.send').click();
      await tab.locator('.msg.bot', { hasText: 'Your request was sent to Redline Plumbing' }).waitFor();
      assert.ok(await tab.locator('input#agp-q').isVisible(), 'the question field is back');
      const rows = await t.db.query<{ kind: string; customer_name: string }>('SELECT a.kind, p.customer_name FROM proposals p JOIN agents a ON a.id = p.agent_id');
      assert.deepEqual(rows, [{ kind: 'widget', customer_name: 'Jonas Weber' }]);

      // Escape closes the panel and returns focus to the launcher.
      await tab.keyboard.press('Escape');
      await eventually(() => launcher.getAttribute('aria-expanded'), 'false');
      await eventually(() => tab.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.className), 'launcher', 'focus returns to the launcher');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
