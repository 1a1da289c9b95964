import { randomBytes } from 'node:crypto';
import type { WindowLimiter } from '../../lib/rate-window.js';
import type { LlmClient } from '../../platform/llm.js';
import type { InsightsService } from '../ask/insights.service.js';
import type { CompaniesService } from '../companies/companies.service.js';
import type { CompanyRecord } from '../companies/company.record.js';
import type { Entitlements } from '../payments/index.js';
import type { WidgetRepo, WidgetRow } from './widget.repo.js';

/** Text of a page the crawl module stored for a company (used when the widget may use pages). */
export interface WidgetPage {
  url: string;
  title: string;
  text: string;
}

export interface WidgetServiceDeps {
  repo: WidgetRepo;
  companies: CompaniesService;
  insights: InsightsService;
  llm: LlmClient | undefined;
  baseUrl: string;
  /** Crawled pages of a company, when a crawl module stores them; otherwise answers use the profile only. */
  pages?: (companyId: string) => Promise<WidgetPage[]>;
  log?: { warn: (obj: object, msg: string) => void };
  limits?: { chatPerMinute: number; readPerMinute: number };
  now?: () => number;
  /** Plan limits: hiding the "Powered by" line needs widget_unbranded (payments.plans.ts). */
  entitlements?: Pick<Entitlements, 'entitlementsOf' | 'require'>;
  /** The directory's display name for the "Powered by" line. */
  siteName?: string;
  /** A visitor's contact details and request into the owner's inbox (the proposals module: its limits and sentences). */
  leads?: { send(companyId: string, input: WidgetLeadInput, ip: string): Promise<{ message: string }> } | undefined;
}

/** What a visitor leaves in the widget's "Leave your details" form. */
export interface WidgetLeadInput {
  name: string;
  email: string;
  message: string;
  phone?: string | undefined;
}

/** What every verb group of the widget service shares: its dependencies (defaults filled in) and the rate windows. */
export interface WidgetCtx extends Omit<WidgetServiceDeps, 'limits' | 'now' | 'siteName'> {
  siteName: string;
  chatLimiter: WindowLimiter;
  readLimiter: WindowLimiter;
}

export const newPublicId = () => `wgt_${randomBytes(18).toString('base64url')}`;

/** scheme://host[:port] in lower case, or undefined when the input is not an http(s) origin or domain. */
export function normalizeOrigin(input: string): string | undefined {
  const raw = input.trim();
  if (!raw || raw === 'null') return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (!url.hostname || url.username || url.password) return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The company website's origins (with and without www, http and https). */
function websiteOrigins(websiteUrl: string): string[] {
  const origin = normalizeOrigin(websiteUrl);
  if (!origin) return [];
  const host = new URL(origin).host;
  const bare = host.replace(/^www\./, '');
  return [bare, `www.${bare}`].flatMap((h) => [`https://${h}`, `http://${h}`]);
}

/** The origins a widget answers on: the owner's list, or else the company website's. */
export function effectiveOrigins(row: WidgetRow, company: CompanyRecord): string[] {
  return row.allowed_origins.length ? row.allowed_origins : websiteOrigins(company.website_url);
}

/** Visitors see the line unless the owner hid it and the plan still allows that. */
export async function brandingShown(ctx: WidgetCtx, row: WidgetRow): Promise<boolean> {
  if (row.show_branding || !ctx.entitlements) return true;
  return !(await ctx.entitlements.entitlementsOf(row.company_id)).limits.widget_unbranded;
}
