import type { OutboxMessage } from '../../platform/mail.js';

/**
 * Small server-rendered pages for people (not agents): the magic-link confirm page and the
 * developer mailbox. Every dynamic value goes through esc().
 */
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#222}
button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#1f5eff;color:#fff;cursor:pointer}
code,textarea{font:13px/1.4 ui-monospace,monospace;word-break:break-all}textarea{width:100%;height:6rem}
.mail{border:1px solid #ddd;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}.meta{color:#666;font-size:13px}
pre{white-space:pre-wrap;word-break:break-word}</style></head><body>${body}</body></html>`;
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
<button type="submit">Sign in</button></form>`);
}

/** After a browser sign-in: the session is in an HttpOnly cookie (never in page script or storage); go on to the dashboard. */
export function signedInPage(opts: { service: string; email: string; next: string; extra?: string }): string {
  return page(`Signed in to ${opts.service}`, `<meta http-equiv="refresh" content="1;url=${esc(opts.next)}"><h1>Signed in</h1>
<p>You are signed in as <strong>${esc(opts.email)}</strong>. ${opts.extra ? esc(opts.extra) : ''}</p>
<p><a href="${esc(opts.next)}">Continue to your dashboard</a></p>`);
}

export function errorPage(service: string, message: string): string {
  return page(`${service}: sign-in failed`, `<h1>Sign-in failed</h1><p>${esc(message)}</p>`);
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
