/**
 * The text content of tool results: a compact summary for the model to read. The data itself is the structured
 * content (declared by the tool's outputSchema), never repeated here as JSON. Values a client must keep (an API key,
 * a webhook secret) and what a company wrote (proposal threads) are in the text too, for clients that show only text.
 */
type Data = Record<string, unknown>;

const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const list = (v: unknown): Data[] => (Array.isArray(v) ? (v as Data[]) : []);
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** One line per company: name, city/country, relevance (and distance, verified), id. */
export function companyLine(c: Data): string {
  const loc = c.location as { city?: string; country?: string } | undefined;
  const where = loc ? [loc.city, loc.country].filter(Boolean).join(', ') : '';
  const head = [text(c.name), where && `(${where})`].filter(Boolean).join(' ');
  const facts = [
    typeof c.relevance === 'string' ? `relevance ${c.relevance}` : '',
    typeof c.distance_km === 'number' ? `${Math.round(c.distance_km)} km` : '',
    c.accepts_proposals === true || c.is_verified === true ? 'verified' : '',
    `id ${text(c.id)}`,
  ].filter(Boolean);
  return `- ${head ? `${head} · ` : ''}${facts.join(' · ')}`;
}

export function searchSummary(d: Data): string {
  const companies = list(d.companies);
  const q = text(d.query);
  const place = d.place as { name?: string } | null | undefined;
  const about = `${q ? ` for "${clip(q, 120)}"` : ''}${place?.name ? ` near ${place.name}` : ''}`;
  if (companies.length === 0) return q ? `No company meets the need${about}.` : `No company${about} matches the filters.`;
  const head = `${companies.length} of ${text(d.total_found)} companies${about}:`;
  const more = d.has_more === true ? [`More: offset=${Number(d.offset) + companies.length}.`] : [];
  return [head, ...companies.map(companyLine), ...more, 'Profiles: get_company with an id.'].join('\n');
}

export function profileSummary(p: Data): string {
  const contact = p.contact as { email?: string | null; phone?: string | null } | undefined;
  const facts = [
    p.website_url ? `website ${text(p.website_url)}` : '',
    p.category ? `category ${text(p.category)}` : '',
    contact?.email ? `email ${contact.email}` : '',
    contact?.phone ? `phone ${contact.phone}` : '',
    Array.isArray(p.services) && p.services.length ? `services: ${clip((p.services as string[]).join(', '), 300)}` : '',
    typeof p.accepts_proposals === 'boolean' ? (p.accepts_proposals ? 'accepts proposals' : 'does not accept proposals (not verified)') : '',
  ].filter(Boolean);
  return [companyLine(p), ...(facts.length ? [`  ${facts.join('; ')}`] : [])].join('\n');
}

export const categoriesSummary = (d: Data) => `${text(d.total)} categories: ${list(d.categories).join(', ')}`;

export function askSummary(d: Data): string {
  return [`${d.found === false ? 'Nothing fits' : 'Found'}: ${text(d.answer)}`, ...list(d.companies).map(companyLine)].join('\n');
}

export function agentSummary(a: Data): string {
  const confirmed = a.email_confirmed === true ? 'confirmed' : a.email_confirmed === false ? 'not confirmed yet (follow the emailed link)' : '';
  return `Agent "${text(a.name)}" (id ${text(a.id)}), owner ${text(a.owner_email)}${confirmed ? ` (${confirmed})` : ''}, ${a.is_active === false ? 'deactivated' : 'active'}.`;
}

export function registrationSummary(d: Data): string {
  const agent = (d.agent ?? {}) as Data;
  const usage = (d.usage ?? {}) as { mcp_config?: unknown };
  return [
    `Agent "${text(agent.name)}" registered (id ${text(agent.id)}).`,
    `API key, shown only this once: ${text(d.api_key)}`,
    `Reconnect to this MCP server with the header X-API-Key set to it; MCP client configuration: ${JSON.stringify(usage.mcp_config)}`,
    text(d.message),
  ].join('\n');
}

function messageLine(m: Data): string {
  return `  [${text(m.author_role)} ${text(m.kind)}${m.action ? ` ${text(m.action)}` : ''}, ${text(m.created_at)}] ${clip(text(m.text), 2000)}`;
}

export function proposalSummary(p: Data): string {
  const messages = list(p.messages);
  return [`Proposal ${text(p.id)} to ${text(p.company_name)} for ${text(p.customer_name)}: ${text(p.status)}, ${messages.length || text(p.message_count)} message(s).`, ...messages.map(messageLine)].join('\n');
}

export function batchSummary(d: Data): string {
  const lines = list(d.results).map((r) => {
    const proposal = r.proposal as Data | undefined;
    return r.outcome === 'created' ? `- ${text(r.company_id)}: created proposal ${text(proposal?.id)} (${text(proposal?.company_name)})` : `- ${text(r.company_id)}: refused (${text(r.reason)}) ${text(r.detail)}`;
  });
  return [`${text(d.created)} created, ${text(d.refused)} refused.`, ...lines].join('\n');
}

export function proposalListSummary(d: Data): string {
  const rows = list(d.proposals).map((p) => `- ${text(p.id)} → ${text(p.company_name)}: ${text(p.status)}, ${text(p.message_count)} message(s), updated ${text(p.updated_at)}`);
  return [`${rows.length} of ${text(d.total)} proposals${d.has_more === true ? ` (more: offset=${Number(d.offset) + rows.length})` : ''}.`, ...rows].join('\n');
}

function endpointLine(e: Data): string {
  const state = e.enabled === false ? `disabled (${text(e.disabled_reason)})` : 'enabled';
  return `- ${text(e.id)} → ${text(e.url)}: ${state}; events ${list(e.event_types).join(', ')}`;
}

export function webhookSecretSummary(d: Data): string {
  return [endpointLine((d.endpoint ?? {}) as Data), `Signing secret, shown only this once: ${text(d.secret)}`, text(d.message)].join('\n');
}

export const webhookListSummary = (d: Data) => [`${text(d.total)} webhook endpoint(s).`, ...list(d.endpoints).map(endpointLine)].join('\n');
export const webhookSummary = (d: Data) => endpointLine(d);
export const webhookDeletedSummary = (d: Data) => `Deleted webhook endpoint ${text(d.id)}.`;

function deliveryLine(d: Data): string {
  const response = d.response_status ? `, last response ${text(d.response_status)}` : d.last_error ? `, last error ${clip(text(d.last_error), 200)}` : '';
  return `- ${text(d.id)}: ${text(d.event_type)} ${text(d.status)}, ${text(d.attempts)} attempt(s)${response}`;
}

export const deliveryListSummary = (d: Data) => [`${list(d.deliveries).length} of ${text(d.total)} deliveries.`, ...list(d.deliveries).map(deliveryLine)].join('\n');
export const deliverySummary = (d: Data) => deliveryLine(d);

export function servicesSummary(d: Data): string {
  const c = (d.contact ?? {}) as Record<string, string | null>;
  const contact = [c.email && `email ${c.email}`, c.phone && `phone ${c.phone}`, c.website && `website ${c.website}`, [c.address, c.city, c.country].filter(Boolean).join(', ')].filter(Boolean);
  return [`${text(d.name)} (id ${text(d.company_id)})`, `Services: ${list(d.services).join(', ') || 'none listed'}`, `Contact: ${contact.join('; ')}`].join('\n');
}

const STATUS_LABEL: Record<string, string> = { yes: 'Yes', no: 'No', not_stated: 'Not stated' };

export function companyAnswerSummary(d: Data): string {
  const c = (d.contact ?? {}) as Record<string, string | null>;
  const contact = [c.website && `website ${c.website}`, c.email && `email ${c.email}`, c.phone && `phone ${c.phone}`].filter(Boolean).join('; ');
  return [`answer_status: ${text(d.answer_status)} (${STATUS_LABEL[text(d.answer_status)] ?? ''})`, text(d.answer), `Contact ${text(d.company_name)}: ${contact}.`, text(c.proposals)].join('\n');
}

/** A company's rating and its reviews, one line each (stars, author, date, text, the company's answer). */
export function reviewListSummary(d: Data): string {
  const rating = (d.rating ?? {}) as { average?: number | null; count?: number };
  const reviews = list(d.reviews);
  if (!rating.count) return 'No published reviews yet.';
  return [
    `Rated ${text(rating.average)} out of 5 from ${text(rating.count)} review(s), each by the customer of a proposal the company approved:`,
    ...reviews.map((r) => `- ${text(r.rating)}/5 by ${text(r.author)} on ${text(r.published_at).slice(0, 10)}: ${clip(text(r.text), 300)}${r.reply ? ` (answer: ${clip(text((r.reply as Data).text), 200)})` : ''} · id ${text(r.id)}`),
  ].join('\n');
}
