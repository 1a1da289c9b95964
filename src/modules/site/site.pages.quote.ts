import { html, type SafeHtml } from '../../lib/html.js';
import { layout } from './site.layout.js';
import type { SiteContext } from './site.pages.listing.js';
import type { CompanyView } from './site.pages.company.js';

/** "Ask for a quote" on a company page: a form that works without JavaScript, and the page after it. */

export interface QuoteFormValues {
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  message?: string | undefined;
}

/** A problem with one field (shown next to it) or with the request as a whole. */
export interface QuoteProblem {
  field?: 'name' | 'email' | 'phone' | 'message' | undefined;
  text: string;
}

const FIELD_WORDS: Record<NonNullable<QuoteProblem['field']>, string> = { name: 'your name', email: 'your email address', phone: 'the phone number', message: 'what you need' };

function field(id: 'name' | 'email' | 'phone', label: string, value: string | undefined, problem: QuoteProblem | undefined, attrs: SafeHtml): SafeHtml {
  const wrong = problem?.field === id;
  return html`<p class="field"><label for="q-${id}">${label}</label>
<input id="q-${id}" name="${id}" value="${value ?? ''}" ${attrs}${wrong ? html` aria-invalid="true" aria-describedby="q-${id}-error"` : ''}>
${wrong ? html`<span class="error" id="q-${id}-error">${problem.text}</span>` : ''}</p>`;
}

export function quoteFormPage(ctx: SiteContext, v: CompanyView, values: QuoteFormValues = {}, problem?: QuoteProblem): string {
  const p = v.profile;
  const back = `/companies/${v.slug}`;
  const messageWrong = problem?.field === 'message';
  const body = p.accepts_proposals
    ? html`<p>Tell ${p.name} what you need. Your request goes to the company's inbox, and it answers you by email. Your address is given to ${p.name} only.</p>
${problem && !problem.field ? html`<p class="error" role="alert">${problem.text}</p>` : ''}
${problem?.field ? html`<p class="error" role="alert">Please check the form: ${FIELD_WORDS[problem.field]} needs a change.</p>` : ''}
<form class="quote" method="post" action="${back}/quote" novalidate>
${field('name', 'Your name', values.name, problem, html`autocomplete="name" maxlength="200" required`)}
${field('email', 'Your email address', values.email, problem, html`type="email" autocomplete="email" maxlength="254" required`)}
${field('phone', 'Phone (optional)', values.phone, problem, html`type="tel" autocomplete="tel" maxlength="40"`)}
<p class="field"><label for="q-message">What do you need?</label>
<textarea id="q-message" name="message" rows="7" maxlength="5000" required${messageWrong ? html` aria-invalid="true" aria-describedby="q-message-error"` : ''}>${values.message ?? ''}</textarea>
${messageWrong ? html`<span class="error" id="q-message-error">${problem.text}</span>` : html`<span class="hint">The work, where and by when, and a budget if you have one.</span>`}</p>
<div class="trap" aria-hidden="true"><label for="q-website">Leave this empty</label><input id="q-website" name="website" tabindex="-1" autocomplete="off"></div>
<p><button type="submit">Send the request</button></p>
</form>`
    : html`<p>${p.name} has not confirmed its listing yet, so it cannot receive requests here.</p>
${p.contact.phone || p.contact.email ? html`<p>Contact it directly: ${p.contact.phone ? html`<a href="tel:${p.contact.phone.replace(/[^+\d]/g, '')}">${p.contact.phone}</a>` : ''}${p.contact.phone && p.contact.email ? ' or ' : ''}${p.contact.email ? html`<a href="mailto:${p.contact.email}">${p.contact.email}</a>` : ''}.</p>` : html`<p>Contact it through <a href="${p.website_url}" rel="noopener">its website</a>.</p>`}`;
  return layout({
    title: `Ask ${p.name} for a quote | ${ctx.siteName}`,
    description: `Send ${p.name} a request for a quote.`,
    canonical: `${ctx.baseUrl}${back}/quote`, siteName: ctx.siteName, baseUrl: ctx.baseUrl, robots: 'noindex',
  }, html`<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="${back}">${p.name}</a></li><li><a href="${back}/quote" aria-current="page">Ask for a quote</a></li></ol></nav>
<div class="narrow"><h1>Ask ${p.name} for a quote</h1>
${body}
<p><a href="${back}">Back to ${p.name}</a></p></div>`);
}

export function quoteSentPage(ctx: SiteContext, v: CompanyView, message: string): string {
  const back = `/companies/${v.slug}`;
  return layout({
    title: `Request sent to ${v.profile.name} | ${ctx.siteName}`,
    description: `Your request to ${v.profile.name}.`,
    canonical: `${ctx.baseUrl}${back}/quote`, siteName: ctx.siteName, baseUrl: ctx.baseUrl, robots: 'noindex',
  }, html`<div class="narrow"><h1>Request sent</h1><p role="status">${message}</p><p><a href="${back}">Back to ${v.profile.name}</a></p></div>`);
}
