import { createWindowLimiter } from '../../lib/rate-window.js';
import type { WidgetCtx, WidgetLeadInput, WidgetServiceDeps } from './widget.context.js';
import { embeddableOn, getForOwner, updateWidget } from './widget.owner.js';
import { answerForAgent, chat, lead, preflight, publicConfig, publicSources } from './widget.public.js';
import type { WidgetChatRequest, WidgetConfigUpdate } from './widget.schemas.js';

export { AGENT_ANSWER_PROMPT, WIDGET_SYSTEM_PROMPT, type AgentAnswer } from './widget.answers.js';
export { normalizeOrigin, type WidgetPage, type WidgetServiceDeps } from './widget.context.js';
export { pageExcerpts } from './widget.excerpts.js';

/**
 * The chat widget a company embeds on its site. The verbs live by group: the owner's settings
 * (widget.owner.ts), the public calls and agents' questions (widget.public.ts); answers from the
 * profile or the model in widget.answers.ts.
 */
export function createWidgetService(deps: WidgetServiceDeps) {
  const { limits = { chatPerMinute: 20, readPerMinute: 120 }, now = Date.now, siteName = 'AgentPages', ...rest } = deps;
  const ctx: WidgetCtx = {
    ...rest,
    siteName,
    chatLimiter: createWindowLimiter({ limit: limits.chatPerMinute, windowMs: 60_000, now }),
    readLimiter: createWindowLimiter({ limit: limits.readPerMinute, windowMs: 60_000, now }),
  };
  return {
    answerForAgent: (companyId: string, question: string) => answerForAgent(ctx, companyId, question),
    embeddableOn: (companyId: string, origin: string) => embeddableOn(ctx, companyId, origin),
    getForOwner: (companyId: string) => getForOwner(ctx, companyId),
    update: (companyId: string, input: WidgetConfigUpdate) => updateWidget(ctx, companyId, input),
    publicConfig: (publicId: string, origin: string | undefined, ip: string) => publicConfig(ctx, publicId, origin, ip),
    publicSources: (publicId: string, origin: string | undefined, ip: string) => publicSources(ctx, publicId, origin, ip),
    preflight: (publicId: string, origin: string | undefined) => preflight(ctx, publicId, origin),
    chat: (publicId: string, origin: string | undefined, ip: string, body: WidgetChatRequest) => chat(ctx, publicId, origin, ip, body),
    lead: (publicId: string, origin: string | undefined, ip: string, body: WidgetLeadInput) => lead(ctx, publicId, origin, ip, body),
  };
}

export type WidgetService = ReturnType<typeof createWidgetService>;
