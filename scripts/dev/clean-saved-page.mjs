#!/usr/bin/env node
// Cleans a saved web page for the real-page evaluation set (test/eval/crawl/real/): <script> elements
// removed except JSON-LD (application/ld+json), <style> elements and HTML comments removed, inline base64
// data replaced by an empty data URL, trailing spaces trimmed and runs of blank lines collapsed to one.
// All other markup is kept as saved.
//
//   node scripts/dev/clean-saved-page.mjs < saved.html > cleaned.html
//   gunzip -c saved.html.gz | node scripts/dev/clean-saved-page.mjs > cleaned.html
import { readFileSync } from 'node:fs';

export function cleanSavedPage(html) {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi, (whole, attrs) => (/ld\+json/i.test(attrs) ? whole : ''))
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, '')
    .replace(/data:[\w.+/-]*;base64,[A-Za-z0-9+/=]+/g, 'data:,')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .concat('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(cleanSavedPage(readFileSync(0, 'utf8')));
}
