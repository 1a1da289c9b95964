/**
 * What the crawl reads from one site of the real-page sets (test/eval/crawl/real): `npx tsx scripts/dev/crawl-site.ts
 * <id or part of its address> [name|phone|city|pages]`: the chosen value with its source and confidence, and the
 * candidates it was chosen from (`pages`: each page's name candidates). For studying a failure that `npm run
 * eval:crawl` lists; never run on the held-out set's sites.
 */
import { extractPage } from '../../src/lib/extract.js';
import { assembleMaterial } from '../../src/modules/crawl/crawl.material.js';
import { identify } from '../../src/modules/crawl/crawl.identity.js';
import { realSites } from '../../test/eval/crawl/real/index.js';
const id = process.argv[2]!;
const what = process.argv[3] ?? 'name';
for (const s of realSites((l) => l.set === 'dev' && (l.id === id || l.url.includes(id)))) {
  const origin = new URL(s.url).origin;
  const pages = Object.entries(s.pages).map(([p, html]) => extractPage(html, `${origin}${p}`));
  const m = assembleMaterial(pages, s.url);
  const idn = identify(m);
  console.log(s.url, JSON.stringify(s.expected));
  if (what === 'name') { console.log(idn.name); for (const c of idn.nameCandidates) console.log('  ', c.score, c.source, JSON.stringify(c.value)); }
  if (what === 'phone') { console.log(idn.phone, idn.phoneCandidates); }
  if (what === 'city') { console.log(idn.address, idn.cityDoubt); for (const l of idn.locations) console.log('  ', JSON.stringify(l)); }
  if (what === 'pages') for (const p of pages) console.log(p.url, JSON.stringify(p.contact.names));
}
