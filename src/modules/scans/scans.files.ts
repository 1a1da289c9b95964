import { createHash } from 'node:crypto';
import type { ScanCompany } from './scans.context.js';
import { SEARCH_BOTS, TRAINING_BOTS } from './scans.robots.js';
import { agentPromptMd, headersMd, readmeMd } from './scans.files-docs.js';
import type { CheckResult } from './scans.types.js';
import { mcpServerCard } from '../../lib/mcp-server-card.js';
import { agentFacingProfile, agentFacingText } from '../../lib/untrusted-text.js';

/**
 * The agent files bundle, built only from the listing's real data and a completed scan: no
 * surface the company does not have is invented. The hosted AgentPages MCP endpoint of the
 * company is real, so its MCP server card is always offered; an A2A agent card only when the
 * site already runs an agent endpoint. Pure: the same inputs give the same files, byte for byte.
 */
export const GENERATOR_VERSION = '1.0.0';

export interface BundleOptions {
  /** Allow training crawlers (GPTBot, ClaudeBot, ...)? Default: keep what robots.txt says today. */
  ai_training?: 'allow' | 'deny';
}

export interface BundleInput {
  company: ScanCompany & { profile_url: string };
  scan: { id: string; url: string; rubric_version: string; finished_at: string; score: number | null; grade: string | null; results: CheckResult[] };
  options: BundleOptions;
  baseUrl: string;
  serviceName: string;
  /** Pages the latest crawl fetched (verified 2xx then): url and title. */
  pages: { url: string; title: string }[];
}

export interface BundleFile {
  name: string;
  install_path: string;
  content_type: string;
  content: string;
  addresses_checks: string[];
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const mdText = (s: string) => oneLine(s).replace(/([[\]])/g, '\\$1');

export function resultOf(results: CheckResult[], id: string): CheckResult | undefined {
  return results.find((r) => r.id === id);
}

export function companyMcpUrl(baseUrl: string, companyId: string): string {
  return `${baseUrl}/mcp/company/${companyId}`;
}

function llmsTxt(i: BundleInput): string {
  const c = i.company;
  const origin = new URL(i.scan.url).origin;
  const summary = oneLine(c.description).split(/(?<=[.!?])\s/)[0] || `${c.name}: ${c.industry || c.category}.`;
  const where = [c.city, c.country].filter(Boolean).join(', ');
  const lines = [`# ${oneLine(c.name)}`, '', `> ${summary}`, ''];
  const detail = [c.industry && `${c.name} works in ${c.industry} (${c.category})`, where && `based in ${where}`, c.service_type && `serving customers ${c.service_type === 'remote' ? 'remotely' : c.service_type === 'local' ? 'locally' : c.service_type === 'nationwide' ? 'nationwide' : 'on site and remotely'}`].filter(Boolean).join(', ');
  if (detail) lines.push(`${detail}.`, '');
  const own = i.pages.filter((p) => p.url.startsWith(origin)).slice(0, 15);
  lines.push('## Pages', '', `- [Home](${origin}/): ${mdText(c.name)} home page`);
  for (const p of own) if (new URL(p.url).pathname !== '/') lines.push(`- [${mdText(p.title || new URL(p.url).pathname)}](${p.url})`);
  lines.push('');
  if (c.services.length) lines.push('## Products & services', '', ...c.services.slice(0, 20).map((s) => `- ${mdText(s)}`), '');
  const api = resultOf(i.scan.results, 'X01');
  if (api?.status === 'pass' && typeof api.facts?.url === 'string') lines.push('## Docs & API', '', `- [OpenAPI description](${api.facts.url}): machine-readable API`, '');
  const contact = [c.contact_email && `- Email: ${c.contact_email}`, c.phone && `- Phone: ${c.phone}`, c.address && `- Address: ${oneLine(c.address)}`].filter(Boolean) as string[];
  if (contact.length) lines.push('## Contact', '', ...contact, '');
  lines.push('## Optional', '', `- [${i.serviceName} profile](${c.profile_url}): the listing as JSON for agents`, `- [MCP server](${companyMcpUrl(i.baseUrl, c.id)}/SKILL.md): ask about ${mdText(c.name)} or send a proposal through ${i.serviceName}`);
  for (const [network, url] of Object.entries(c.social_links).sort()) lines.push(`- [${network}](${url})`);
  return `${lines.join('\n').trim()}\n`;
}

function robotsBlock(i: BundleInput): { text: string; training: 'allow' | 'deny' } {
  const a04 = resultOf(i.scan.results, 'A04');
  const a03 = resultOf(i.scan.results, 'A03');
  const blockedTraining = (a04?.facts?.blocked_training_bots as string[] | undefined) ?? [];
  const training = i.options.ai_training ?? (blockedTraining.length ? 'deny' : 'allow');
  const star = ((a03?.facts?.star_rules as { type: string; path: string }[] | undefined) ?? []).filter((r) => r.type === 'allow' || r.type === 'disallow');
  const sitemaps = (a03?.facts?.sitemaps as string[] | undefined) ?? [];
  const origin = new URL(i.scan.url).origin;
  const rule = (r: { type: string; path: string }) => `${r.type === 'allow' ? 'Allow' : 'Disallow'}: ${r.path}`;
  // A group that names a bot replaces the * group for it (RFC 9309): the site's own * rules are
  // repeated, except a site-wide "Disallow: /", which would hide the site from AI answers.
  const restated = star.filter((r) => !(r.type === 'disallow' && (r.path === '/' || r.path === '/*'))).map(rule);
  const lines = [
    `# AI agents: robots.txt block for ${new URL(i.scan.url).host}, generated by ${i.serviceName}`,
    '# Merge it into your robots.txt (replace your "User-agent: *" group with the one below: it repeats your rules).',
    '',
    '# AI search and user-triggered agents: they fetch pages to answer people and link back to you.',
    ...SEARCH_BOTS.map((b) => `User-agent: ${b}`),
    'Allow: /llms.txt',
    ...restated,
    'Allow: /',
    '',
    `# AI training crawlers: ${training === 'allow' ? 'allowed' : 'not allowed'} to use your content for model training.`,
    ...TRAINING_BOTS.map((b) => `User-agent: ${b}`),
    ...(training === 'allow' ? ['Allow: /llms.txt', ...restated, 'Allow: /'] : ['Allow: /llms.txt', 'Disallow: /']),
    '',
    '# Everyone else: your existing rules, plus how your content may be used (contentsignals.org).',
    'User-agent: *',
    `Content-Signal: search=yes, ai-input=yes, ai-train=${training === 'allow' ? 'yes' : 'no'}`,
    'Allow: /llms.txt',
    ...(star.length ? star.map(rule) : ['Allow: /']),
    '',
    ...(sitemaps.length ? sitemaps : [`${origin}/sitemap.xml`]).map((s) => `Sitemap: ${s}`),
  ];
  return { text: `${lines.join('\n')}\n`, training };
}

function schemaJsonLd(i: BundleInput): Record<string, unknown> {
  const c = i.company;
  const origin = new URL(i.scan.url).origin;
  const found = resultOf(i.scan.results, 'U03')?.facts?.type;
  const local = c.service_type === 'local' || c.service_type === 'hybrid';
  const type = typeof found === 'string' && /^[A-Z][A-Za-z]+$/.test(found) ? found : local ? 'LocalBusiness' : 'Organization';
  const org: Record<string, unknown> = { '@type': type, '@id': `${origin}/#organization`, name: c.name, url: `${origin}/` };
  if (c.description) org.description = oneLine(c.description);
  if (c.logo_url) org.logo = c.logo_url;
  if (c.contact_email) org.email = c.contact_email;
  if (c.phone) org.telephone = c.phone;
  if (c.address || c.city || c.country) {
    org.address = { '@type': 'PostalAddress', ...(c.address ? { streetAddress: oneLine(c.address) } : {}), ...(c.city ? { addressLocality: c.city } : {}), ...(c.country ? { addressCountry: c.country } : {}) };
  }
  if (c.contact_email || c.phone) org.contactPoint = { '@type': 'ContactPoint', contactType: 'customer service', ...(c.contact_email ? { email: c.contact_email } : {}), ...(c.phone ? { telephone: c.phone } : {}), ...(c.languages.length ? { availableLanguage: c.languages } : {}) };
  const sameAs = Object.keys(c.social_links).sort().map((k) => c.social_links[k]!);
  if (sameAs.length) org.sameAs = sameAs;
  if (c.founded_year) org.foundingDate = String(c.founded_year);
  if (c.services.length) org.makesOffer = c.services.slice(0, 20).map((s) => ({ '@type': 'Offer', itemOffered: { '@type': 'Service', name: s } }));
  if (c.keywords.length) org.keywords = c.keywords.join(', ');
  const site = { '@type': 'WebSite', '@id': `${origin}/#website`, url: `${origin}/`, name: c.name, publisher: { '@id': `${origin}/#organization` } };
  return { '@context': 'https://schema.org', '@graph': [org, site] };
}

function mcpCard(i: BundleInput): Record<string, unknown> {
  const c = i.company;
  const url = companyMcpUrl(i.baseUrl, c.id);
  return mcpServerCard({
    name: `${new URL(i.baseUrl).hostname}/${c.domain}`,
    title: `${c.name} on ${i.serviceName}`,
    description: `Ask about ${c.name} and send it proposals on behalf of customers (hosted by ${i.serviceName}).`,
    version: '1.0.0',
    serverName: `${i.serviceName}-${c.domain}`,
    url,
    documentation: `${url}/SKILL.md`,
  });
}

/** An A2A v1.0 card, only for an agent endpoint the site already announces (upgrades a legacy card). */
function agentCard(i: BundleInput): Record<string, unknown> | undefined {
  const x04 = resultOf(i.scan.results, 'X04');
  const card = x04?.facts?.card as Record<string, unknown> | undefined;
  const endpoint = (x04?.facts?.endpoint as string | undefined) ?? undefined;
  if (!card || !endpoint || !['pass', 'warn'].includes(x04!.status)) return undefined;
  const c = i.company;
  const skills = Array.isArray(card.skills) && card.skills.length
    ? (card.skills as Record<string, unknown>[]).map((s, n) => ({ id: String(s.id ?? `skill-${n + 1}`), name: String(s.name ?? s.id ?? c.name), description: String(s.description ?? s.name ?? ''), tags: Array.isArray(s.tags) ? s.tags.map(String) : [] }))
    : c.services.slice(0, 10).map((s, n) => ({ id: `service-${n + 1}`, name: s, description: `${s} by ${c.name}`, tags: [c.category] }));
  return {
    name: String(card.name ?? c.name),
    description: String(card.description ?? oneLine(c.description) ?? c.name),
    version: String(card.version ?? '1.0.0'),
    supportedInterfaces: [{ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    provider: { organization: c.name, url: `${new URL(i.scan.url).origin}/` },
    capabilities: (card.capabilities as object | undefined) ?? { streaming: false, pushNotifications: false },
    defaultInputModes: (card.defaultInputModes as string[] | undefined) ?? ['text/plain'],
    defaultOutputModes: (card.defaultOutputModes as string[] | undefined) ?? ['text/plain'],
    skills,
  };
}

function apiCatalog(i: BundleInput): Record<string, unknown> | undefined {
  const api = resultOf(i.scan.results, 'X01');
  if (api?.status !== 'pass' || typeof api.facts?.url !== 'string') return undefined;
  const origin = new URL(i.scan.url).origin;
  return { linkset: [{ anchor: `${origin}/`, 'service-desc': [{ href: api.facts.url, type: 'application/vnd.oai.openapi+json' }] }] };
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function buildBundle(input: BundleInput): { files: BundleFile[]; training: 'allow' | 'deny'; bundleKey: string } {
  // Every file here is read by agents: owner-written text goes through the same filter as SKILL.md.
  const company = agentFacingProfile(input.company);
  const i: BundleInput = {
    ...input,
    company: {
      ...company,
      industry: agentFacingText(company.industry),
      services: company.services.map(agentFacingText).filter(Boolean),
      keywords: company.keywords.map(agentFacingText).filter(Boolean),
    },
  };
  const robots = robotsBlock(i);
  const schema = schemaJsonLd(i);
  const files: BundleFile[] = [
    { name: 'llms.txt', install_path: '/llms.txt', content_type: 'text/plain; charset=utf-8', content: llmsTxt(i), addresses_checks: ['D03', 'D04', 'D05', 'D06', 'A07'] },
    { name: 'robots-ai.txt', install_path: '/robots.txt (merge)', content_type: 'text/plain; charset=utf-8', content: robots.text, addresses_checks: ['A03', 'A04', 'A05', 'A06', 'A07', 'D01'] },
    { name: 'schema.jsonld', install_path: 'inside <head> of the home page', content_type: 'application/ld+json', content: json(schema), addresses_checks: ['U02', 'U03', 'U09'] },
    { name: 'schema-snippet.html', install_path: 'inside <head> of the home page', content_type: 'text/html; charset=utf-8', content: `<script type="application/ld+json">\n${JSON.stringify(schema, null, 2).replace(/</g, '\\u003c')}\n</script>\n`, addresses_checks: ['U02', 'U03', 'U09'] },
    { name: 'mcp-server-card.json', install_path: '/.well-known/mcp/server-card.json', content_type: 'application/json', content: json(mcpCard(i)), addresses_checks: ['X03'] },
  ];
  const card = agentCard(i);
  if (card) files.push({ name: 'agent-card.json', install_path: '/.well-known/agent-card.json', content_type: 'application/json', content: json(card), addresses_checks: ['X04'] });
  const catalog = apiCatalog(i);
  if (catalog) files.push({ name: 'api-catalog.json', install_path: '/.well-known/api-catalog', content_type: 'application/linkset+json', content: json(catalog), addresses_checks: ['X02'] });
  files.push({ name: 'headers.md', install_path: '(web server configuration)', content_type: 'text/markdown; charset=utf-8', content: headersMd(i, files), addresses_checks: ['D08', 'D09'] });
  files.push({ name: 'README.md', install_path: '(read me first)', content_type: 'text/markdown; charset=utf-8', content: readmeMd(i, files), addresses_checks: [] });
  files.push({ name: 'AGENT_PROMPT.md', install_path: '(give to a coding agent)', content_type: 'text/markdown; charset=utf-8', content: agentPromptMd(i, files), addresses_checks: [] });
  const bundleKey = sha256(JSON.stringify({
    scan: i.scan.id,
    options: { ai_training: robots.training },
    generator: GENERATOR_VERSION,
    files: files.map((f) => [f.name, sha256(f.content)]),
  })).slice(0, 32);
  const manifest = {
    bundle_id: bundleKey,
    scan_id: i.scan.id,
    rubric_version: i.scan.rubric_version,
    generator_version: GENERATOR_VERSION,
    scanned_at: i.scan.finished_at,
    site: i.scan.url,
    options: { ai_training: robots.training },
    files: files.map((f) => ({
      name: f.name,
      install_path: f.install_path,
      content_type: f.content_type,
      bytes: Buffer.byteLength(f.content),
      sha256: sha256(f.content),
      addresses_checks: f.addresses_checks,
    })),
  };
  files.push({ name: 'manifest.json', install_path: '(integrity: sha256 of every file)', content_type: 'application/json', content: json(manifest), addresses_checks: [] });
  return { files, training: robots.training, bundleKey };
}
