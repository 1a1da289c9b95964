import { toPlainLine } from '../../lib/text.js';
import { normalizeDomain } from '../../lib/url.js';
import type { AnalysedProfile } from './crawl.analyse.js';
import { CrawlFailure, type CrawlCtx, type CrawlRunOptions } from './crawl.context.js';
import type { CrawlEvent, CrawlOutcome } from './crawl.engine.js';
import { FetchError } from './crawl.fetcher.js';
import { assembleMaterial } from './crawl.material.js';
import { branchLocations, pagesToStore } from './crawl.views.js';

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

/** The analysed profile saved as the company (owner edits kept), and this crawl's pages as its stored pages. */
async function saveProfile(ctx: CrawlCtx, target: Target, outcome: CrawlOutcome, profile: AnalysedProfile, hooks: PipelineHooks) {
  const { companies, repo, config } = ctx.deps;
  // The identity is the domain asked for; the website the one the site actually lives on when it is the same domain.
  const website = normalizeDomain(outcome.origin) === target.domain ? outcome.origin : new URL(target.url).origin;
  const saved = await companies.saveCrawled({
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
  });
  // The widget answers from these: the company's stored pages become exactly this crawl's pages.
  const stored = pagesToStore(outcome.pages, config.crawl.maxPages);
  await repo.replacePages(saved.row.id, stored);
  const changes = Object.entries(saved.changes).map(([field, c]) => ({ field, before: c.before, after: c.after }));
  hooks.event({
    at: new Date().toISOString(),
    stage: 'save',
    message: `company ${saved.outcome}`,
    data: { company_id: saved.row.id, changed: changes.map((c) => c.field), kept_owner_edits: saved.kept, pages_stored: stored.length },
  });
  return { saved, changes };
}

/** Fetch, extract, analyse, save. Reports progress through the callbacks; throws CrawlFailure for site problems. */
export async function pipeline(ctx: CrawlCtx, target: Target, opts: CrawlRunOptions, hooks: PipelineHooks) {
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
  const { saved, changes } = await saveProfile(ctx, target, outcome, profile, hooks);
  return { saved, changes, outcome, profile };
}

export type PipelineResult = Awaited<ReturnType<typeof pipeline>>;
