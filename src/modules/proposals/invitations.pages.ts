import { html, type SafeHtml } from '../../lib/html.js';

/** The pages of an invitation's unsubscribe link: a button (POST), so a mail scanner's GET changes nothing. */
function page(title: string, body: SafeHtml): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#222}
button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#1f5eff;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #111;outline-offset:2px}</style></head>
<body><main>${body}</main></body></html>`.value;
}

export function unsubscribePage(token: string, serviceName: string): string {
  return page('Stop invitations', html`<h1>Stop invitations from ${serviceName}</h1>
<p>${serviceName} emails a business's public address when an AI assistant sends it a request and nobody has claimed its listing yet, at most once a month.
Press the button and this address will get no more of these invitations.</p>
<form method="post" action="unsubscribe"><input type="hidden" name="token" value="${token}"><button type="submit">Stop invitations</button></form>`);
}

export function unsubscribeResultPage(ok: boolean, message: string): string {
  return page(ok ? 'Invitations stopped' : 'Unsubscribe failed', html`<h1>${ok ? 'Invitations stopped' : 'This link did not work'}</h1><p>${message}</p>`);
}
