/**
 * The one HTML escaping helper of the service. Profile text is untrusted: every value that goes
 * into a page goes through escapeHtml, or through the `html` tagged template, which escapes every
 * interpolated value unless it is already SafeHtml (another `html` result or `raw(...)`).
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Markup that is trusted as it is (constants written in this codebase, never user text). */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}
