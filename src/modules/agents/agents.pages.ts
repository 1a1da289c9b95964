import { html, type SafeHtml } from '../../lib/html.js';

/** The page the owner_email confirmation link opens: a button (POST), so a mail scanner's GET cannot use the token. */
function page(title: string, body: SafeHtml): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#222}
button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#1f5eff;color:#fff;cursor:pointer}</style></head>
<body><main>${body}</main></body></html>`.value;
}

export function confirmEmailPage(token: string): string {
  return page('Confirm the agent owner email', html`<h1>Confirm your email</h1>
<p>Press the button to confirm that you own the AI agent registered with this address. The link works once.</p>
<form method="post" action="confirm-email"><input type="hidden" name="token" value="${token}"><button type="submit">Confirm</button></form>`);
}

export function confirmEmailResultPage(ok: boolean, message: string): string {
  return page(ok ? 'Email confirmed' : 'Confirmation failed', html`<h1>${ok ? 'Email confirmed' : 'Confirmation failed'}</h1><p>${message}</p>`);
}
