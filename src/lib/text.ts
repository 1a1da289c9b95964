const entities: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…',
  rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', copy: '©', reg: '®', trade: '™', euro: '€', pound: '£',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : ' ';
    }
    return entities[code.toLowerCase()] ?? m;
  });
}

/**
 * Plain text for agents: no HTML tags, no Markdown emphasis/links/headings, no control
 * characters, collapsed whitespace. Applied to every text field we store or return.
 */
export function toPlainText(input: string | null | undefined): string {
  if (!input) return '';
  let s = String(input);
  s = s.replace(/<(script|style|noscript|template)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  s = s.replace(/<!--[\s\S]*?-->/g, ' ');
  s = s.replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, '\n');
  s = s.replace(/<\/?[a-z][^>]*>/gi, ' ');
  s = decodeEntities(s);
  s = s.replace(/<\/?[a-z][^>]*>/gi, ' '); // tags that were entity-encoded
  s = s.replace(/[<>]/g, ' ');
  // Markdown: images, links, headings, emphasis, code fences, list bullets
  s = s.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1');
  s = s.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
  s = s.replace(/^\s{0,3}#{1,6}\s+/gm, '');
  s = s.replace(/`{3}[^\n]*\n?/g, '');
  s = s.replace(/(\*\*|__)(.+?)\1/g, '$2');
  s = s.replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,!?:;]|$)/g, '$1$2');
  s = s.replace(/`([^`]+)`/g, '$1');
  s = s.replace(/^\s*[-*+]\s+/gm, '');
  s = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u2028\u2029\ufeff]/g, ' ');
  s = s.replace(/[ \t\r\f\v]+/g, ' ').replace(/\s*\n\s*/g, '\n').replace(/\n{2,}/g, '\n');
  return s.trim();
}

/** Single-line plain text (names, cities, tags). */
export function toPlainLine(input: string | null | undefined): string {
  return toPlainText(input).replace(/\s+/g, ' ').trim();
}
