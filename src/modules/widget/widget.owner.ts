import { toPlainText } from '../../lib/text.js';
import { invalid } from '../../platform/errors.js';
import type { CompanyRecord } from '../companies/company.record.js';
import { brandingShown, effectiveOrigins, newPublicId, normalizeOrigin, type WidgetCtx } from './widget.context.js';
import type { WidgetPatch, WidgetRow } from './widget.repo.js';
import type { WidgetConfigUpdate } from './widget.schemas.js';

/** The owner's side of the widget: its settings, and the embed code. */
function ownerView(ctx: WidgetCtx, row: WidgetRow, company: CompanyRecord, shown: boolean) {
  return {
    tool_id: row.company_id,
    widget_public_id: row.widget_public_id,
    enabled: row.enabled,
    title: row.title,
    greeting: row.greeting,
    primary_color: row.primary_color,
    text_color: row.text_color,
    position: row.position,
    allowed_origins: row.allowed_origins,
    effective_origins: effectiveOrigins(row, company),
    sources: row.sources,
    show_branding: row.show_branding,
    branding_shown: shown,
    embed_code: `<script src="${ctx.baseUrl}/widget.js" data-widget-id="${row.widget_public_id}" async></script>`,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export async function getForOwner(ctx: WidgetCtx, companyId: string) {
  const company = await ctx.companies.getById(companyId);
  const row = (await ctx.repo.findByCompany(companyId)) ?? (await ctx.repo.ensure(companyId, newPublicId()));
  return ownerView(ctx, row, company, await brandingShown(ctx, row));
}

function cleanOrigins(origins: string[]): string[] {
  return [
    ...new Set(
      origins.map((o, i) => {
        const n = normalizeOrigin(o);
        if (!n) throw invalid(['body', 'allowed_origins', i], 'Input should be a site origin such as https://www.example.com', o, 'url_parsing');
        return n;
      }),
    ),
  ];
}

export async function updateWidget(ctx: WidgetCtx, companyId: string, input: WidgetConfigUpdate) {
  const company = await ctx.companies.getById(companyId);
  await ctx.repo.ensure(companyId, newPublicId());
  const patch: WidgetPatch = {};
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.title !== undefined) patch.title = toPlainText(input.title).slice(0, 80);
  if (input.greeting !== undefined) patch.greeting = toPlainText(input.greeting).slice(0, 500);
  if (input.primary_color !== undefined) patch.primary_color = input.primary_color.toLowerCase();
  if (input.text_color !== undefined) patch.text_color = input.text_color.toLowerCase();
  if (input.position !== undefined) patch.position = input.position;
  if (input.sources !== undefined) patch.sources = [...new Set(input.sources)];
  if (input.allowed_origins !== undefined) patch.allowed_origins = cleanOrigins(input.allowed_origins);
  if (input.show_branding !== undefined) {
    if (!input.show_branding) await ctx.entitlements?.require(companyId, 'widget_unbranded', 'A chat widget without the "Powered by" line');
    patch.show_branding = input.show_branding;
  }
  if (input.regenerate_public_id === true) patch.widget_public_id = newPublicId();
  const row = await ctx.repo.update(companyId, patch);
  return ownerView(ctx, row, company, await brandingShown(ctx, row));
}

/**
 * The public id of the company's widget when its owner enabled it and it may answer on `origin`
 * (the public directory's company page); undefined otherwise. Read only: creates nothing.
 */
export async function embeddableOn(ctx: WidgetCtx, companyId: string, origin: string): Promise<string | undefined> {
  const row = await ctx.repo.findByCompany(companyId);
  if (!row?.enabled) return undefined;
  const company = await ctx.companies.getById(companyId).catch(() => undefined);
  return company && effectiveOrigins(row, company).includes(origin) ? row.widget_public_id : undefined;
}
