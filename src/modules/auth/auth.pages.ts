import type { OutboxMessage } from '../../platform/mail.js';
import { escapeHtml, raw } from '../../lib/html.js';
import { plainPage } from '../../platform/page-shell.js';

/**
 * Small server-rendered pages for people (not agents): the magic-link confirm page and the
 * developer mailbox, in the public site's layout and stylesheet. Every dynamic value goes through esc().
 */
export const esc = escapeHtml;

/** No referrer ever leaves these pages: their URLs carry sign-in tokens. */
function page(title: string, body: string, siteName = 'AgentPages'): string {
  return plainPage({ title, siteName, body: raw(body), referrer: 'no-referrer' });
}

/**
 * What the emailed link opens. Mail scanners follow links with GET; only the button (a POST)
 * uses the token, so a scanner cannot burn it.
 */
export function confirmPage(opts: { action: string; token: string; purpose?: string; service: string; admin: boolean }): string {
  const what = opts.admin ? 'the administration' : opts.purpose === 'login' || !opts.purpose ? opts.service : `${opts.service} and confirm your company`;
  return page(`Sign in to ${opts.service}`, `<h1>Sign in to ${esc(what)}</h1>
<p>Press the button to finish signing in. The link works once.</p>
<form method="post" action="${esc(opts.action)}">
<input type="hidden" name="token" value="${esc(opts.token)}">
${opts.purpose ? `<input type="hidden" name="purpose" value="${esc(opts.purpose)}">` : ''}
<button type="submit">Sign in</button></form>`, opts.service);
}

/** After a browser sign-in: the session is in an HttpOnly cookie (never in page script or storage); go on to the dashboard. */
export function signedInPage(opts: { service: string; email: string; next: string; extra?: string }): string {
  return page(`Signed in to ${opts.service}`, `<meta http-equiv="refresh" content="1;url=${esc(opts.next)}"><h1>Signed in</h1>
<p>You are signed in as <strong>${esc(opts.email)}</strong>. ${opts.extra ? esc(opts.extra) : ''}</p>
<p><a href="${esc(opts.next)}">Continue to your dashboard</a></p>`, opts.service);
}

export function errorPage(service: string, message: string): string {
  return page(`${service}: sign-in failed`, `<h1>Sign-in failed</h1><p>${esc(message)}</p>`, service);
}

const linkify = (text: string) =>
  esc(text).replace(/https?:\/\/[^\s<>"']+/g, (u) => `<a href="${u}">${u}</a>`);

export function mailboxPage(messages: OutboxMessage[]): string {
  const items = messages
    .map((m) => `<div class="mail"><div class="meta">${esc(new Date(m.created_at).toISOString())} · to ${esc(m.to_address)} · ${esc(m.status)}</div>
<strong>${esc(m.subject)}</strong><pre>${linkify(m.text_body)}</pre></div>`)
    .join('\n');
  return page('Developer mailbox', `<h1>Developer mailbox</h1>
<p class="meta">Messages in the outbox, newest first. This page exists outside production only.</p>${items || '<p>No messages yet.</p>'}`);
}
