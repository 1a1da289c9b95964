import { AppError } from '../../platform/errors.js';
import type { ReviewList } from '../reviews/reviews.schemas.js';
import { CATEGORIES, type CompanyProfile, type CompanySummary } from '../companies/companies.schemas.js';
import { canonicalCategory, type CompaniesService } from '../companies/companies.service.js';
import type { SearchService } from '../search/search.service.js';
import type { WidgetService } from '../widget/widget.service.js';
import type { SiteRepo } from './site.repo.js';
import { SEARCH_WINDOW, textResults, unknownFilterOf, type SearchView } from './site.search.js';
import { categorySlug, MAX_PAGE, PAGE_SIZE, SITEMAP_SIZE, type Listed } from './site.listed.js';

export interface Home {
  categories: { name: string; slug: string; count: number }[];
  total: number;
  featured: Listed[];
  recent: Listed[];
}

const COUNTS_TTL_MS = 60_000;
const EXTRAS_TTL_MS = 60_000;
const PAGE_CACHE_SIZE = 10_000;

export interface SearchPageQuery {
  q?: string;
  category?: string;
  country?: string;
  city?: string;
  page?: number;
}

export type CompanyPage =
  | { kind: 'found'; slug: string; profile: CompanyProfile; claimed: boolean; grade?: { score: number; grade: string; scanned_at: string }; widgetId?: string; reviews?: ReviewList }
  | { kind: 'moved'; slug: string };

export interface SiteServiceDeps {
  repo: SiteRepo;
  companies: CompaniesService;
  search: SearchService;
  /** The latest completed scan's grade (the scans module). */
  scans: { latestSummary(companyId: string): Promise<{ score: number; grade: string; scanned_at: string } | undefined> };
  widget: WidgetService;
  /** Whether anyone owns a listing (the ownership module): unclaimed pages offer "Claim this business". */
  isClaimed(companyId: string): Promise<boolean>;
  /** Published reviews and the rating (the reviews module). */
  reviews?: { listPublished(companyId: string, limit: number, offset: number): Promise<ReviewList> } | undefined;
  /** A person's "Ask for a quote" into the company's inbox (the proposals module; its limits and sentences). */
  quoteRequests?: { send(companyId: string, input: QuoteRequestInput, ip: string): Promise<{ message: string }> } | undefined;
  baseUrl: string;
  now?: () => number;
}

/** What a person's "Ask for a quote" form sends (website: the hidden field people leave empty). */
export interface QuoteRequestInput {
  name: string;
  email: string;
  message: string;
  phone?: string | undefined;
  website?: string | undefined;
}

/**
 * What the public pages show, read through the same services as the agent API: hybrid search
 * (search.search), public profiles (companies.findProfileBySlug, readManyByIds), the latest scan grade (scans).
 */
export function createSiteService(deps: SiteServiceDeps) {
  const { repo, companies, search, scans, widget, isClaimed, baseUrl, now = Date.now } = deps;
  const origin = new URL(baseUrl).origin;
  /**
   * What pages are built from is kept until a company changes (when the store says so exactly,
   * see platform/change-feed.ts) and at most EXTRAS_TTL_MS, which bounds how late a new scan grade
   * or a widget switch (not company writes) shows. Without an exact feed only what says `always`
   * (the category counts) is kept, for the TTL.
   */
  function cached<T>(store: Map<string, { generation: number | undefined; at: number; value: T }>, key: string, opts: { ttl: number; always?: boolean }, load: () => Promise<T>): Promise<T> {
    const generation = companies.changeGeneration();
    const hit = store.get(key);
    if (hit && hit.generation === generation && now() - hit.at < opts.ttl) return Promise.resolve(hit.value);
    return load().then((value) => {
      if (generation !== undefined || opts.always) {
        if (store.size >= PAGE_CACHE_SIZE) store.clear();
        store.set(key, { generation, at: now(), value });
      }
      return value;
    });
  }
  const countsCache = new Map<string, { generation: number | undefined; at: number; value: Map<string, number> }>();
  const homeCache = new Map<string, { generation: number | undefined; at: number; value: Home }>();
  const companyCache = new Map<string, { generation: number | undefined; at: number; value: CompanyPage | undefined }>();

  async function withSlugs(list: CompanySummary[]): Promise<Listed[]> {
    const slugs = await repo.slugsOf(list.map((c) => c.id));
    return list.flatMap((c) => {
      const slug = slugs.get(c.id);
      return slug ? [{ ...c, slug }] : [];
    });
  }

  // A full count: the home page is the busiest page.
  const categoryCounts = () => cached(countsCache, 'all', { ttl: COUNTS_TTL_MS, always: true }, () => repo.categoryCounts());

  async function loadHome(): Promise<Home> {
    const [countsNow, featured, recentIds] = await Promise.all([categoryCounts(), search.search({ limit: 6 }), repo.recentIds(6)]);
    const recentRows = await companies.readManyByIds(recentIds);
    return {
      categories: CATEGORIES.map((name) => ({ name, slug: categorySlug(name), count: countsNow.get(name) ?? 0 })),
      total: featured.total_found,
      featured: await withSlugs(featured.companies),
      recent: await withSlugs(recentRows.map((r) => companies.toSummary(r, 0, []))),
    };
  }

  async function loadCompanyPage(slug: string): Promise<CompanyPage | undefined> {
    const profile = await companies.findProfileBySlug(slug);
    if (!profile) {
      const current = await repo.currentSlugForOld(slug);
      return current ? { kind: 'moved', slug: current } : undefined;
    }
    const [grade, widgetId, claimed, reviews] = await Promise.all([
      scans.latestSummary(profile.id), widget.embeddableOn(profile.id, origin), isClaimed(profile.id), deps.reviews?.listPublished(profile.id, 10, 0),
    ]);
    return { kind: 'found', slug, profile, claimed, ...(grade ? { grade } : {}), ...(widgetId ? { widgetId } : {}), ...(reviews && reviews.rating.count > 0 ? { reviews } : {}) };
  }

  return {
    categoryCounts,

    home: () => cached(homeCache, 'home', { ttl: EXTRAS_TTL_MS }, loadHome),

    /**
     * The agent API's hybrid search for people. A text search lists its first SEARCH_WINDOW results at
     * once (strong matches first, then partial ones; the site pages through them) so the page can say
     * how many of each there are; browsing without words pages through the directory. An unknown
     * category or country is not an error page: the view says which value was not understood.
     */
    async searchPage(q: SearchPageQuery): Promise<{ page: number; category: string | undefined; view: SearchView }> {
      const page = Math.min(Math.max(q.page ?? 1, 1), MAX_PAGE);
      const text = q.q?.trim() ?? '';
      const filters = {
        ...(q.category?.trim() ? { category: q.category.trim() } : {}),
        ...(q.country?.trim() ? { country: q.country.trim() } : {}),
        ...(q.city?.trim() ? { city: q.city.trim() } : {}),
      };
      const category = canonicalCategory(filters.category);
      try {
        if (!text) {
          const result = await search.search({ ...filters, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
          return { page, category, view: { kind: 'browse', companies: await withSlugs(result.companies), total: result.total_found, hasMore: result.has_more } };
        }
        const result = await search.search({ q: text, ...filters, limit: SEARCH_WINDOW, offset: 0 });
        return { page, category, view: textResults(text, await withSlugs(result.companies), result) };
      } catch (err) {
        const problem = unknownFilterOf(err);
        if (!problem) throw err;
        const problems = [problem];
        // The search names one unknown value at a time, the category before the country.
        if (problem.field === 'category' && filters.country) {
          const more = await search.search({ country: filters.country, limit: 1 }).then(() => undefined, (e: unknown) => {
            const p = unknownFilterOf(e);
            if (!p) throw e;
            return p;
          });
          if (more) problems.push(more);
        }
        return { page, category, view: { kind: 'unknown-filter', problems } };
      }
    },

    /** A category's companies (featured, verified, then by name), or undefined past the last page. */
    async categoryPage(category: string, page: number) {
      const result = await search.search({ category, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
      if (page > 1 && result.companies.length === 0) return undefined;
      return { ...result, companies: await withSlugs(result.companies), pages: Math.max(1, Math.ceil(result.total_found / PAGE_SIZE)) };
    },

    async companyPage(slug: string): Promise<CompanyPage | undefined> {
      // Slugs are lower case: a hand-typed capital letter is sent to the canonical spelling.
      const lower = slug.toLowerCase();
      if (slug !== lower) {
        const page = await this.companyPage(lower);
        return page?.kind === 'found' ? { kind: 'moved', slug: lower } : page;
      }
      // Unknown slugs are not kept: random ones would only churn the cache.
      const page = await cached(companyCache, slug, { ttl: EXTRAS_TTL_MS }, loadCompanyPage.bind(null, slug));
      if (!page) companyCache.delete(slug);
      return page;
    },

    /** Sends a person's request to the company of a page; AppError sentences (422, 409, 429) for the form to show. */
    async sendQuote(companyId: string, input: QuoteRequestInput, ip: string): Promise<{ message: string }> {
      if (!deps.quoteRequests) throw new AppError('unavailable', 'Requests cannot be sent from this page right now. Please contact the company directly.');
      return deps.quoteRequests.send(companyId, input, ip);
    },

    sitemapChunks: () => repo.sitemapChunks(SITEMAP_SIZE),
    sitemapEntries: (chunk: number) => repo.sitemapEntries(chunk, SITEMAP_SIZE),
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
