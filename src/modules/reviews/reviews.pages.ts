import { html, type SafeHtml } from '../../lib/html.js';
import type { ReviewRow } from './reviews.repo.js';

/** The customer's review page: a form that works without JavaScript (POST), shown from the emailed link only. */
function page(title: string, body: SafeHtml): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#222}
fieldset{border:1px solid #999;border-radius:6px;padding:.5rem 1rem}legend{font-weight:600}
.stars label{display:inline-flex;gap:.3rem;align-items:center;margin-right:1rem}
textarea{width:100%;min-height:8rem;font:inherit;padding:.5rem;box-sizing:border-box}
button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#1f5eff;color:#fff;cursor:pointer;margin-top:1rem}
:focus-visible{outline:3px solid #111;outline-offset:2px}.error{color:#a00000}</style></head>
<body><main>${body}</main></body></html>`.value;
}

export function reviewFormPage(r: ReviewRow & { expired: boolean }, token: string, problem?: string): string {
  if (r.expired) return page('Link expired', html`<h1>This review link has expired</h1><p>Review links work for 60 days after the company accepted the request.</p>`);
  if (r.status === 'published' || r.status === 'hidden') {
    return page('Review published', html`<h1>Thank you</h1><p>Your review of ${r.company_name} is published (${r.rating} of 5). There is one review per request.</p>`);
  }
  const held = r.status === 'held';
  const stars = [5, 4, 3, 2, 1].map((n) => html`<label><input type="radio" name="rating" value="${n}" required ${(r.rating ?? 0) === n ? html`checked` : ''}> ${n} ${n === 1 ? 'star' : 'stars'}</label>`);
  return page(`Review ${r.company_name}`, html`<h1>How was the work of ${r.company_name}?</h1>
${held ? html`<p>Your assistant wrote this review for you. Check it, change what you like, and publish it: nothing is published until you do.</p>` : html`<p>Tell others how it went. Your first name and the initial of your last name are shown with the review.</p>`}
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<form method="post" action="/reviews/${token}">
<fieldset class="stars"><legend>Rating</legend>${stars}</fieldset>
<p><label for="text">Your review</label><br><textarea id="text" name="text" maxlength="2000" required>${r.body}</textarea></p>
<button type="submit">Publish the review</button>
</form>`);
}

export function reviewResultPage(ok: boolean, message: string): string {
  return page(ok ? 'Review published' : 'Review not published', html`<h1>${ok ? 'Thank you: your review is published' : 'The review was not published'}</h1><p>${message}</p>`);
}
