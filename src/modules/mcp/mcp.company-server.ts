import { agentFacingProfile } from '../../lib/untrusted-text.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../platform/errors.js';
import type { CompanyProfile } from '../companies/companies.schemas.js';
import { companyTools, type CompanyToolsDeps } from './mcp.company-tools.js';
import type { McpEndpoint } from './mcp.tools.js';

/** The MCP server of one company (/mcp/company/{id}): its name, instructions and tools, built per request. */

/** A lowercase slug of at most 64 characters for a company (Agent Skills `name`). */
export function skillName(profile: CompanyProfile): string {
  const slug = profile.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return (slug || profile.domain.replace(/[^a-z0-9]+/g, '-')).slice(0, 64).replace(/-+$/g, '') || 'company';
}

/** The MCP server of one company; unknown, malformed or deleted ids are 404. */
export async function companyEndpoint(deps: CompanyToolsDeps & { version: string }, toolId: string): Promise<{ endpoint: McpEndpoint; profile: CompanyProfile }> {
  const { companies, serviceName: service } = deps;
  if (!isUuid(toolId)) throw notFound('Company');
  // Owner-written text becomes tool descriptions and SKILL.md, which agents read as guidance: filtered once here.
  const profile = agentFacingProfile(companies.toProfile(await companies.getById(toolId.toLowerCase())));
  const endpoint: McpEndpoint = {
    name: `${service}-${skillName(profile)}`.slice(0, 100),
    title: `${profile.name} on ${service}`,
    version: deps.version,
    instructions:
      `Tools about one company, ${profile.name} (${profile.website_url}), listed in the ${service} directory. ` +
      `ask_about_company answers questions about ${profile.name} from its own profile and website pages only (yes, no or not stated) and never names another company. ` +
      (profile.accepts_proposals ? 'It is verified and accepts proposals (send_proposal, with an agent API key).' : 'It is not verified yet, so it cannot receive proposals.'),
    tools: companyTools(profile, deps),
  };
  return { endpoint, profile };
}
