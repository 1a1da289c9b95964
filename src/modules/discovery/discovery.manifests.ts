import { AGENT_PREFIX } from './discovery.openapi.js';

/** The plugin manifest, the UCP business profile and the logo: small fixed descriptions of the service. */
export const UCP_VERSION = '2026-04-08';

/** What the discovery files say about the service itself. */
export interface DiscoverySite {
  base: string;
  svc: string;
  /** The service name for people (displayName). */
  human: string;
  summary: string;
  contactEmail: string;
  version: string;
}

/**
 * The reverse-domain namespace UCP names our services with ("agentpages.com" → "com.agentpages");
 * hosts that are IP addresses or a single label (localhost) get a local namespace.
 */
export function ucpNamespace(baseUrl: string, serviceName: string): string {
  const host = new URL(baseUrl).hostname.toLowerCase();
  const svc = serviceName.replace(/[^a-z0-9]/g, '') || 'directory';
  if (/^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[')) return `local.${svc}`;
  const labels = host.split('.').filter(Boolean).reverse().map((l) => l.replace(/-/g, '_'));
  if (labels.length === 1) labels.push(svc);
  labels[0] = labels[0]!.replace(/[^a-z0-9]/g, '');
  if (!/^[a-z]/.test(labels[0]!)) labels[0] = `x${labels[0]}`;
  const ns = labels.map((l, i) => (i > 0 && !/^[a-z]/.test(l) ? `x${l}` : l)).join('.');
  return /^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+$/.test(ns) ? ns : `local.${svc}`;
}

export function aiPlugin(site: DiscoverySite) {
  const { base, human, svc, contactEmail } = site;
  return {
    schema_version: 'v1',
    name_for_human: human.slice(0, 20),
    name_for_model: svc.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, 50),
    description_for_human: 'Find businesses for any need and send them proposals: a company directory made for AI agents.'.slice(0, 100),
    description_for_model: (
      `Business directory for AI agents. Use it when the user needs to find a company, supplier or service provider, look one up by website, or contact one. ` +
      `Search with GET ${AGENT_PREFIX}/companies (q: the need in natural language, optional filters category, country, city, service_type, is_verified; limit 1 to 20). ` +
      `Read a profile with GET ${AGENT_PREFIX}/companies/{company_id} or by website with GET ${AGENT_PREFIX}/companies/by-url/{website_url}. ` +
      `To contact a company on the user's behalf, register once (POST ${AGENT_PREFIX}/register) and send the returned key in the X-API-Key header; ` +
      `then POST ${AGENT_PREFIX}/proposals with company_id, customer_name, customer_email and description. Only companies with accepts_proposals true can receive proposals. ` +
      `Ask the user before sending a proposal and never invent customer details. All text fields are plain text. Full guide: ${base}/${svc}.md`
    ).slice(0, 8000),
    auth: { type: 'none' },
    api: { type: 'openapi', url: `${base}/openapi.json`, is_user_authenticated: false },
    logo_url: `${base}/.well-known/logo.svg`,
    contact_email: contactEmail,
    legal_info_url: `${base}/${svc}.md`,
  };
}

export function ucpProfile(site: DiscoverySite) {
  const { base, svc } = site;
  const ns = ucpNamespace(base, svc);
  const spec = `${base}/${svc}.md`;
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        [`${ns}.directory`]: [
          { version: UCP_VERSION, spec, transport: 'rest', endpoint: `${base}${AGENT_PREFIX}`, schema: `${base}/openapi.json` },
          { version: UCP_VERSION, spec, transport: 'mcp', endpoint: `${base}/mcp` },
        ],
      },
      capabilities: {
        [`${ns}.directory.search`]: [{ version: UCP_VERSION, spec, schema: `${base}/openapi.json` }],
        [`${ns}.directory.proposals`]: [{ version: UCP_VERSION, spec, schema: `${base}/openapi.json` }],
      },
      // The directory takes no payments from agents.
      payment_handlers: {},
    },
  };
}

export function logoSvg(site: DiscoverySite): string {
  const letter = site.human[0] ?? 'A';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#1f3a8a"/><text x="256" y="340" font-family="Helvetica,Arial,sans-serif" font-size="280" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
}
