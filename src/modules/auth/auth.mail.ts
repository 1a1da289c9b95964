import { escapeHtml } from '../../lib/html.js';

/** The sign-in (magic link) mail of owners and administrators, in plain text and HTML. */
export function signInMail(service: string, minutes: number, kind: 'user' | 'admin', to: string, link: string, purpose: string, website: string | null) {
  const intro = kind === 'admin'
    ? `Sign in to the ${service} administration.`
    : purpose === 'login'
      ? `Sign in to ${service}.`
      : `Confirm that you manage ${website} on ${service}${purpose === 'crawl' ? ' and start reading its website' : ''}.`;
  const subject = kind === 'admin' ? `${service} administrator sign-in link` : purpose === 'login' ? `Your ${service} sign-in link` : `Confirm your company on ${service}`;
  const text = `${intro}\n\nOpen this link (valid for ${minutes} minutes, usable once):\n${link}\n\nIf you did not ask for this, ignore this email: nothing happens without the link.\n\n${service}`;
  const html = `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">Continue to ${escapeHtml(service)}</a></p><p>The link is valid for ${minutes} minutes and works once. If you did not ask for it, ignore this email.</p><p style="color:#666;font-size:12px">${escapeHtml(link)}</p>`;
  return { to, subject, text, html };
}
