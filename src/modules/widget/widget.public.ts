import { toPlainText } from '../../lib/text.js';
import { AppError, invalid } from '../../platform/errors.js';
import { AGENT_ANSWER_PROMPT, agentAnswerFromProfile, answerFromProfile, answerWithModel, askModel, type AgentAnswer } from './widget.answers.js';
import { brandingShown, effectiveOrigins, normalizeOrigin, type WidgetCtx, type WidgetLeadInput } from './widget.context.js';
import { AgentAnswerModelOutputSchema, type WidgetChatRequest } from './widget.schemas.js';

/** The widget as visitors' browsers call it (config, sources, chat), and its answers for AI agents. */

/**
 * The enabled widget and its company for a public call from `origin`, or an error: 404 when the
 * id is unknown or the widget is disabled, 403 when the origin is not allowed, 429 over the limit
 * (counted per widget, origin and client IP).
 */
async function publicWidget(ctx: WidgetCtx, publicId: string, rawOrigin: string | undefined, ip: string, kind: 'read' | 'chat') {
  const row = await ctx.repo.findByPublicId(publicId);
  if (!row?.enabled) throw new AppError('not_found', 'Widget not found or disabled');
  const company = await ctx.companies.getById(row.company_id).catch(() => undefined);
  if (!company) throw new AppError('not_found', 'Widget not found or disabled');
  const origin = rawOrigin ? normalizeOrigin(rawOrigin) : undefined;
  if (!origin) throw new AppError('forbidden', 'This widget only answers on the sites its owner allowed: the request names no site origin (send site_origin or an Origin header)');
  if (!effectiveOrigins(row, company).includes(origin)) throw new AppError('forbidden', `This widget is not allowed on ${origin}`);
  const limiter = kind === 'chat' ? ctx.chatLimiter : ctx.readLimiter;
  const hit = limiter.hit(`${publicId}|${origin}|${ip}`);
  if (!hit.ok) throw new AppError('rate_limited', 'Too many requests from this site: wait a moment and try again', { headers: { 'retry-after': String(hit.retryAfterSeconds) } });
  return { row, company, origin };
}

export async function publicConfig(ctx: WidgetCtx, publicId: string, origin: string | undefined, ip: string) {
  const { row, company, origin: allowed } = await publicWidget(ctx, publicId, origin, ip, 'read');
  return {
    allowedOrigin: allowed,
    body: {
      widget_public_id: row.widget_public_id,
      company_name: company.name,
      title: row.title || company.name,
      greeting: row.greeting || `Hi! Ask me anything about ${company.name}.`,
      primary_color: row.primary_color,
      text_color: row.text_color,
      position: row.position,
      powered_by: (await brandingShown(ctx, row)) ? { name: ctx.siteName, url: `${ctx.baseUrl}/` } : null,
      accepts_requests: Boolean(ctx.leads) && company.is_verified,
    },
  };
}

export async function publicSources(ctx: WidgetCtx, publicId: string, origin: string | undefined, ip: string) {
  const { row, company, origin: allowed } = await publicWidget(ctx, publicId, origin, ip, 'read');
  const sources = [{ type: 'profile', title: `${company.name} directory profile`, url: `${ctx.baseUrl}/api/v1/agent/companies/${company.id}` }];
  if (row.sources.includes('pages') && ctx.pages) {
    for (const p of (await ctx.pages(company.id)).slice(0, 50)) sources.push({ type: 'page', title: p.title || p.url, url: p.url });
  }
  return { allowedOrigin: allowed, body: { widget_public_id: row.widget_public_id, sources } };
}

/** Checks a CORS preflight: the origin must be allowed for this (enabled) widget. */
export async function preflight(ctx: WidgetCtx, publicId: string, origin: string | undefined): Promise<string> {
  const row = await ctx.repo.findByPublicId(publicId);
  const company = row?.enabled ? await ctx.companies.getById(row.company_id).catch(() => undefined) : undefined;
  const o = origin ? normalizeOrigin(origin) : undefined;
  if (!row || !company || !o || !effectiveOrigins(row, company).includes(o)) throw new AppError('forbidden', 'Origin not allowed');
  return o;
}

/** A visitor leaves name, address and request: it reaches the owner's inbox (origin widget) and is answered by email. */
export async function lead(ctx: WidgetCtx, publicId: string, origin: string | undefined, ip: string, body: WidgetLeadInput) {
  const { company, origin: allowed } = await publicWidget(ctx, publicId, origin, ip, 'chat');
  if (!ctx.leads) throw new AppError('unavailable', 'Requests cannot be left here right now. Please use the contact details on this website.');
  const sent = await ctx.leads.send(company.id, { name: body.name, email: body.email, message: body.message, phone: body.phone }, ip);
  return { allowedOrigin: allowed, body: { message: sent.message } };
}

export async function chat(ctx: WidgetCtx, publicId: string, origin: string | undefined, ip: string, body: WidgetChatRequest) {
  const { llm, pages, log } = ctx;
  const { row, company, origin: allowed } = await publicWidget(ctx, publicId, origin, ip, 'chat');
  const last = [...body.messages].reverse().find((m) => m.role === 'user');
  if (!last?.content.trim()) throw invalid(['body', 'messages'], 'The conversation needs a user message', undefined, 'missing');
  const question = last.content.trim();
  const pageTexts = row.sources.includes('pages') && pages ? await pages(company.id).catch(() => []) : [];
  const useProfile = row.sources.includes('profile') || pageTexts.length === 0;
  const grounding = useProfile ? company : { ...company, description: '', services: [], keywords: [] };
  let result: { answer: string; answered: boolean } | undefined;
  if (llm) {
    result = await answerWithModel(llm, body.messages, grounding, pageTexts, question).catch((err: unknown) => {
      log?.warn({ err }, 'widget: language model failed, answering from the profile');
      return undefined;
    });
  }
  result ??= answerFromProfile(question, grounding, pageTexts);
  if (!result.answered) ctx.insights.recordLater({ companyIds: [company.id], question, source: 'widget', reason: 'unanswered' });
  return { allowedOrigin: allowed, body: result };
}

/**
 * An AI agent's question about one company (its own MCP server): answered like a widget chat, from its profile and
 * crawled pages only (the language model when configured, else the deterministic answer), with a verdict. Reads no
 * other company. A model failure falls back to the deterministic answer.
 */
export async function answerForAgent(ctx: WidgetCtx, companyId: string, question: string): Promise<AgentAnswer> {
  const { llm, pages, log } = ctx;
  const company = await ctx.companies.getById(companyId);
  const pageTexts = pages ? await pages(company.id).catch(() => []) : [];
  if (llm) {
    const schema = { system: AGENT_ANSWER_PROMPT(company.name), schemaName: 'company_answer', schema: AgentAnswerModelOutputSchema };
    const out = await askModel(llm, schema, [{ role: 'user', content: question }], company, pageTexts, question).catch((err: unknown) => {
      log?.warn({ err }, 'company answer: language model failed, answering from the profile');
      return undefined;
    });
    const answer = out ? toPlainText(out.answer).slice(0, 3000) : '';
    if (out && answer) return { answer, answer_status: out.answer_status, answered_by: 'model' };
  }
  return agentAnswerFromProfile(question, company, pageTexts);
}
