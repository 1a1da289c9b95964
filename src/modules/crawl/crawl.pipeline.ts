import { sameValue } from '../../lib/stable-json.js';
import { toPlainLine } from '../../lib/text.js';
import { normalizeDomain } from '../../lib/url.js';
import type { CompanyInput } from '../companies/companies.schemas.js';
import type { CompanyRecord } from '../companies/company.record.js';
import { PHOTO_MAX_COUNT } from '../companies/photo-limits.js';
import type { AnalysedProfile } from './crawl.analyse.js';
import { CrawlFailure, type CrawlCtx, type CrawlRunOptions } from './crawl.context.js';
import type { CrawlEvent, CrawlOutcome } from './crawl.engine.js';
import { FetchError } from './crawl.fetcher.js';
import { holdBelowThreshold, recordHeld } from './crawl.held.js';
import { assembleMaterial } from './crawl.material.js';
import { branchLocations, pagesToStore } from './crawl.views.js';
import type { FieldChange, SuggestedPhoto } from './website-checks.repo.js';

/** One crawl: fetch the site, extract, analyse, save the company and its pages. */
export interface PipelineHooks {
  event: (e: CrawlEvent) => void;
  stage: (s: string, pages?: number) => Promise<void>;
}

type Target = { url: string; domain: string };

/** The engine's crawl within the budget; a site problem becomes a CrawlFailure. */
async function fetchSite(ctx: CrawlCtx, target: Target, opts: CrawlRunOptions, hooks: PipelineHooks): Promise<CrawlOutcome> {
  const deadline = Date.now() + (ctx.deps.budgetMs ?? 180_000);
  let pagesFetched = 0;
  let outcome;
  try {
    await hooks.stage('robots');
    outcome = await ctx.engine.crawl(target.url, {
      maxPages: opts.maxPages,
      maxDepth: opts.maxDepth,
      delayMs: ctx.delayMs,
      adaptiveRetry: opts.adaptiveRetry,
      deadline,
      onEvent: (e) => {
        hooks.event(e);
        if (e.stage === 'fetch' && e.message === 'page fetched' && pagesFetched === 0) void hooks.stage('fetch', 1).catch(() => {});
      },
      onPage: (n) => {
        pagesFetched = n;
        if (n % 3 === 0) void hooks.stage('fetch', n).catch(() => {});
      },
    });
  } catch (err) {
    if (err instanceof FetchError) throw new CrawlFailure(err.kind, err.message, pagesFetched);
    throw err;
  }
  if (outcome.fatal) throw new CrawlFailure(outcome.fatal.kind, `Could not read ${target.domain}: ${outcome.fatal.message}`, 0, outcome.strategiesTried);
  return outcome;
}

/** The analysed profile as a company's input. */
function profileInput(target: Target, outcome: CrawlOutcome, profile: AnalysedProfile): CompanyInput {
  // The identity is the domain asked for; the website the one the site actually lives on when it is the same domain.
  const website = normalizeDomain(outcome.origin) === target.domain ? outcome.origin : new URL(target.url).origin;
  return {
    name: toPlainLine(profile.name) || target.domain,
    website_url: website,
    category: profile.category,
    industry: profile.industry,
    description: profile.description,
    country: profile.country,
    city: profile.city,
    address: profile.address,
    service_type: profile.service_type,
    keywords: profile.keywords,
    services: profile.services,
    languages: profile.languages,
    contact_email: profile.contact_email,
    phone: profile.phone,
    // the addresses found beyond the main one: the company's branches
    locations: branchLocations({ address: profile.address, city: profile.city, locations: profile.locations, mainLine: profile.provenance.address?.value }),
    social_links: profile.social_links,
    logo_url: profile.logo_url,
    founded_year: profile.founded_year,
    opening_hours: profile.opening_hours,
    price_range: profile.price_range,
    service_prices: profile.service_prices,
  };
}

/**
 * The monthly website check: nothing is written to the profile; what the site now says differently, and
 * its pictures, become the owner's pending suggestion. A company that is gone (or never was) is saved as usual.
 */
async function reviewProfile(ctx: CrawlCtx, target: Target, outcome: CrawlOutcome, profile: AnalysedProfile, hooks: PipelineHooks, jobId: number | null) {
  const review = await ctx.deps.companies.reviewCrawled(profileInput(target, outcome, profile));
  if (!review) return saveProfile(ctx, target, outcome, profile, hooks, jobId, 'photos');
  await ctx.deps.repo.replacePages(review.row.id, pagesToStore(outcome.pages, ctx.deps.config.crawl.maxPages));
  const suggestion = await suggest(ctx, review.row, outcome, jobId, review.changes);
  const changes = Object.entries(review.changes).map(([field, c]) => ({ field, before: c.current, after: c.proposed }));
  if (suggestion) await tellOwners(ctx, review.row, changes.length, suggestion.photos.length);
  hooks.event({
    at: new Date().toISOString(),
    stage: 'save',
    message: suggestion ? 'changes proposed to the owner' : 'profile confirmed: the site says what the profile says',
    data: { company_id: review.row.id, proposed: changes.map((c) => c.field), photos: suggestion?.photos.length ?? 0 },
  });
  return { saved: { row: review.row, outcome: 'unchanged' as const, changes: {}, kept: [] }, changes: [], proposed: changes, suggestionId: suggestion?.id ?? null };
}

/** The owners hear that the check found something to decide; a mail that cannot be sent never fails the check. */
async function tellOwners(ctx: CrawlCtx, company: CompanyRecord, fields: number, photos: number) {
  const found = [fields ? `${fields} ${fields === 1 ? 'detail' : 'details'} that your profile states differently` : '', photos ? `${photos} ${photos === 1 ? 'picture' : 'pictures'} you may add to your gallery` : '']
    .filter(Boolean).join(' and ');
  const text = [
    `The monthly check of ${company.website_url} found ${found}.`,
    'Nothing has changed on your profile: take what is right, or dismiss it, on your profile page:',
    `${ctx.deps.config.baseUrl}/app/companies/${company.id}/profile`,
  ].join('\n');
  await ctx.deps.notifyOwners?.(company.id, { subject: `${company.name}: your website check found something to decide`, text })
    .catch((err: unknown) => ctx.deps.log.warn({ err, companyId: company.id }, 'website check mail not sent'));
}

/** Stores the pending suggestion (field changes and pictures not decided on before); undefined when there is nothing to propose. */
async function suggest(ctx: CrawlCtx, company: CompanyRecord, outcome: CrawlOutcome, jobId: number | null, found: Record<string, FieldChange> | undefined) {
  const checks = ctx.deps.checks;
  // A crawl that proposes pictures only keeps the changes a monthly check proposed that still differ from the profile it wrote.
  const changes = found ?? keptChanges(company, (await checks.pending(company.id))?.changes ?? {});
  const decided = await checks.decidedPhotoUrls(company.id);
  const seen = new Set<string>([...decided, ...(company.logo_url ? [company.logo_url] : [])]);
  const photos: SuggestedPhoto[] = [];
  for (const page of outcome.pages) {
    for (const img of page.images ?? []) {
      if (seen.has(img.url) || photos.length >= PHOTO_MAX_COUNT) continue;
      seen.add(img.url);
      photos.push(img);
    }
  }
  if (!Object.keys(changes).length && !photos.length) {
    await checks.dropPending(company.id);
    return undefined;
  }
  return checks.replacePending(company.id, jobId, changes, photos);
}

/** Proposed changes that still differ from the company as it is now, each with its current value. */
function keptChanges(company: CompanyRecord, changes: Record<string, FieldChange>): Record<string, FieldChange> {
  const row = company as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(changes).filter(([f, c]) => !sameValue(row[f], c.proposed)).map(([f, c]) => [f, { current: row[f] ?? null, proposed: c.proposed }]));
}

/** The analysed profile saved as the company (owner edits kept), and this crawl's pages as its stored pages. */
async function saveProfile(ctx: CrawlCtx, target: Target, outcome: CrawlOutcome, profile: AnalysedProfile, hooks: PipelineHooks, jobId: number | null, suggestWhat?: 'photos') {
  const { companies, repo, config } = ctx.deps;
  // Values below their publish threshold are not written: they wait for the owner or an administrator (issue 40).
  const { input, held } = holdBelowThreshold(profileInput(target, outcome, profile), profile, target.domain);
  const saved = await companies.saveCrawled(input, { held: held.map((h) => h.field) });
  const waiting = await recordHeld(ctx, saved.row, held, jobId);
  // The widget answers from these: the company's stored pages become exactly this crawl's pages.
  const stored = pagesToStore(outcome.pages, config.crawl.maxPages);
  await repo.replacePages(saved.row.id, stored);
  const changes = Object.entries(saved.changes).map(([field, c]) => ({ field, before: c.before, after: c.after }));
  hooks.event({
    at: new Date().toISOString(),
    stage: 'save',
    message: `company ${saved.outcome}`,
    data: { company_id: saved.row.id, changed: changes.map((c) => c.field), kept_owner_edits: saved.kept, held_for_owner: waiting.map((h) => h.field), pages_stored: stored.length },
  });
  // Pictures are proposed, never published: only the owner puts a photo in the gallery.
  const suggestion = suggestWhat === 'photos' ? await suggest(ctx, saved.row, outcome, jobId, undefined) : undefined;
  return { saved, changes, proposed: [] as { field: string; before: unknown; after: unknown }[], suggestionId: suggestion?.id ?? null };
}

/** Fetch, extract, analyse, save. Reports progress through the callbacks; throws CrawlFailure for site problems. */
export async function pipeline(ctx: CrawlCtx, target: Target, opts: CrawlRunOptions, hooks: PipelineHooks, jobId: number | null = null) {
  const outcome = await fetchSite(ctx, target, opts, hooks);
  const material = assembleMaterial(outcome.pages, outcome.origin);
  const textChars = outcome.pages.reduce((n, p) => n + p.text.length, 0);
  if (textChars < 40 && !material.org) {
    throw new CrawlFailure('empty', `Could not read ${target.domain}: its pages have no readable text (a JavaScript-only site?)${opts.adaptiveRetry ? '' : '; try again with adaptive_retry=true'}`, outcome.pages.length, outcome.strategiesTried);
  }
  await hooks.stage('analyse', outcome.pages.length);
  const profile: AnalysedProfile = await ctx.analyser.analyse(material);
  hooks.event({ at: new Date().toISOString(), stage: 'analyse', message: `profile analysed (${profile.analyser})`, data: { category: profile.category, city: profile.city, country: profile.country, service_type: profile.service_type } });
  await hooks.stage('save', outcome.pages.length);
  const { saved, changes, proposed, suggestionId } = opts.suggest === 'changes'
    ? await reviewProfile(ctx, target, outcome, profile, hooks, jobId)
    : await saveProfile(ctx, target, outcome, profile, hooks, jobId, opts.suggest);
  return { saved, changes, proposed, suggestionId, outcome, profile };
}

export type PipelineResult = Awaited<ReturnType<typeof pipeline>>;
