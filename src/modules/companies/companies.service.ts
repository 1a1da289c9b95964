import { approximateBytes, BoundedCache } from '../../lib/bounded-cache.js';
import { openState } from '../../lib/opening-hours.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { CacheGeneration } from '../../platform/cache-generation.js';
import type { Db } from '../../platform/db.js';
import type { ReadPool } from '../../platform/read-pool.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import { digitsWithin, PG_MAX } from '../../lib/ids.js';
import { normalizeDomain } from '../../lib/url.js';
import { createCompaniesRepo } from './companies.repo.js';
import { CATEGORIES, type ChangesResponse, type CompanyProfile, type CompanySummary } from './companies.schemas.js';
import { createCompanyIngest } from './company.ingest.js';
import { freshnessOf } from './company.freshness.js';
import { publicPhotos, type CompanyRecord } from './company.record.js';
import { createCompanyWriter } from './company.write.js';

export { canonicalCategory } from './company.normalize.js';

export interface CompaniesServiceDeps {
  db: Db;
  embeddings: EmbeddingProvider;
  baseUrl: string;
  /** Records administrators' changes in the audit log, in the change's transaction (the admin module). */
  audit: AuditRecorder;
  /** When exact, public profiles are kept in memory until any company changes. */
  cache?: CacheGeneration;
  /**
   * Where agents' and visitors' reads go (platform/read-pool.ts: a read replica within the lag bound, or the one a
   * search is pinned to): public profiles, search result rows, the change feed. Everything else reads `db`.
   */
  reads?: Pick<ReadPool, 'query' | 'pinned'>;
  /** Memory the kept public profiles and search result rows may take, half each (bytes, estimated: lib/bounded-cache.ts); 16 MB unless said. */
  cacheBytes?: number;
}

/**
 * The company record's owner: reads for agents and pages (kept in memory while nothing changes),
 * the change feed, and every write, through company.write.ts (people's changes) and
 * company.ingest.ts (import, crawl, reindex, backfills), both on the one repository.
 */
/** Open now and the next change, from the hours in the company's zone; both null without hours or a zone. */
export function openNow(row: Pick<CompanyRecord, 'opening_hours' | 'timezone'>, at: Date): { open_now: boolean | null; next_change_at: string | null } {
  if (!row.opening_hours || !row.timezone) return { open_now: null, next_change_at: null };
  return openState(row.opening_hours, row.timezone, at);
}

export function createCompaniesService({ db, embeddings, baseUrl, audit, cache, reads, cacheBytes = 16 * 1024 * 1024 }: CompaniesServiceDeps) {
  const repo = createCompaniesRepo(db);
  // Reads only: the companies table's one writer is `repo` (through company.write.ts and company.ingest.ts).
  const readRepo: Pick<typeof repo, 'findById' | 'findByDomain' | 'findBySlug' | 'findManyByIds' | 'changesAfter'> = reads ? createCompaniesRepo(reads) : repo;
  const readPinned = <T>(fn: () => Promise<T>): Promise<T> => (reads ? reads.pinned(undefined, fn) : fn());
  // Public profiles by id/domain, valid for one change generation (see platform/change-feed.ts).
  const profiles = new BoundedCache<string, { generation: number; profile: CompanyProfile }>(cacheBytes / 2);
  async function cachedProfile(key: string, load: () => Promise<CompanyRecord>, toProfile: (r: CompanyRecord) => CompanyProfile): Promise<CompanyProfile> {
    if (!cache?.exact) return toProfile(await load());
    // Read the generation before the row: a change committed in between makes this entry stale at once.
    const generation = cache.generation();
    const hit = profiles.get(key);
    if (hit && hit.generation === generation) return hit.profile;
    const profile = toProfile(await load());
    profiles.set(key, { generation, profile }, approximateBytes(profile));
    return profile;
  }
  const profileUrl = (id: string) => `${baseUrl}/api/v1/agent/companies/${id}`;

  // Rows by id (search result pages), valid for one change generation like the profiles; frozen, as callers share them.
  const rows = new BoundedCache<string, CompanyRecord>(cacheBytes / 2);
  let rowsGeneration = -1;
  async function cachedRows(ids: string[]): Promise<CompanyRecord[]> {
    if (!cache?.exact) return readRepo.findManyByIds(ids);
    const generation = cache.generation();
    if (generation !== rowsGeneration) {
      rows.clear();
      rowsGeneration = generation;
    }
    // Taken before the fresh rows are kept, which may push older ones out.
    const byId = new Map(ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [[id, row] as const] : [];
    }));
    const missing = ids.filter((id) => !byId.has(id));
    const fresh = missing.length ? await readRepo.findManyByIds(missing) : [];
    // Read under this generation: kept only while it still holds (a write meanwhile makes them stale at once).
    const keep = cache.generation() === generation;
    for (const r of fresh) {
      byId.set(r.id, r);
      if (keep) rows.set(r.id, Object.freeze(r), approximateBytes(r));
    }
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  }

  function toLocation(row: CompanyRecord) {
    return { country: row.country, country_code: row.country_code, city: row.city, address: row.address, latitude: row.latitude ?? null, longitude: row.longitude ?? null };
  }

  return {
    ...createCompanyIngest({ db, embeddings }),
    ...createCompanyWriter({ db, embeddings, audit }),

    toProfile(row: CompanyRecord): CompanyProfile {
      return {
        id: row.id,
        name: row.name,
        website_url: row.website_url,
        domain: row.domain,
        category: row.category,
        industry: row.industry,
        description: row.description,
        location: toLocation(row),
        service_type: row.service_type,
        is_verified: row.is_verified,
        keywords: row.keywords,
        services: row.services,
        languages: row.languages,
        contact: { email: row.contact_email, phone: row.phone, phone_e164: row.phone_e164 ?? null },
        locations: row.locations ?? [],
        social_links: row.social_links ?? {},
        logo_url: row.logo_url,
        founded_year: row.founded_year,
        opening_hours: row.opening_hours ?? null,
        timezone: row.timezone ?? null,
        ...openNow(row, new Date()),
        price_range: row.price_range ?? null,
        service_prices: row.service_prices ?? [],
        service_areas: row.service_areas ?? [],
        photos: publicPhotos(baseUrl, row),
        freshness: freshnessOf(row),
        accepts_proposals: row.is_verified,
        profile_url: profileUrl(row.id),
        created_at: new Date(row.created_at).toISOString(),
        updated_at: new Date(row.updated_at).toISOString(),
      };
    },

    toSummary(row: CompanyRecord, score: number, sources: ('semantic' | 'keyword')[]): CompanySummary {
      return {
        id: row.id,
        name: row.name,
        website_url: row.website_url,
        category: row.category,
        industry: row.industry,
        description: row.description,
        location: toLocation(row),
        service_type: row.service_type,
        is_verified: row.is_verified,
        match_score: Math.round(score * 10000) / 10000,
        match_sources: sources,
        profile_url: profileUrl(row.id),
      };
    },

    async getById(id: string): Promise<CompanyRecord> {
      const row = await repo.findById(id);
      if (!row) throw notFound('Company');
      return row;
    },

    /** The public profile by id (agent API), from memory when nothing changed since it was read. */
    getProfile(id: string): Promise<CompanyProfile> {
      return cachedProfile(`id:${id}`, () => readRepo.findById(id).then((r) => r ?? Promise.reject(notFound('Company'))), (r) => this.toProfile(r));
    },

    /** The public profile by website (agent API), cached like getProfile. */
    getProfileByWebsite(website: string): Promise<CompanyProfile> {
      const domain = normalizeDomain(website) ?? website;
      return cachedProfile(`domain:${domain}`, () => this.getByWebsite(website, readRepo), (r) => this.toProfile(r));
    },

    /** The public profile by its page slug (the public website), cached like getProfile; undefined when no live company has it. */
    async findProfileBySlug(slug: string): Promise<CompanyProfile | undefined> {
      const row = () => readRepo.findBySlug(slug).then((r) => r ?? Promise.reject(notFound('Company')));
      return cachedProfile(`slug:${slug}`, row, (r) => this.toProfile(r)).catch((e: unknown) => {
        if (e instanceof AppError && e.status === 404) return undefined;
        throw e;
      });
    },

    async getByWebsite(website: string, from: Pick<typeof repo, 'findByDomain'> = repo): Promise<CompanyRecord> {
      const domain = normalizeDomain(website);
      if (!domain) throw invalid(['path', 'website_url'], 'Input should be a URL or a domain such as acme.com', website, 'url_parsing');
      const row = await from.findByDomain(domain);
      if (!row) throw new AppError('not_found', `No company with website ${domain} in the directory`);
      return row;
    },

    /** Live companies by id, in the order asked (missing ones left out), from the primary; on PGlite from memory while nothing changed. */
    findManyByIds: (ids: string[]): Promise<CompanyRecord[]> => (reads ? repo.findManyByIds(ids) : cachedRows(ids)),

    /**
     * The same for agents' and visitors' reads (search result pages, the public site, ask) through `reads`; on PGlite
     * from memory while nothing changed.
     */
    readManyByIds: (ids: string[]): Promise<CompanyRecord[]> => cachedRows(ids),

    categories() {
      return { categories: [...CATEGORIES], total: CATEGORIES.length };
    },

    /**
     * The change feed: companies created, changed or removed since the cursor, oldest first,
     * each with its current profile (or a tombstone). The cursor is opaque (base64url of the
     * transaction and sequence of the last change read).
     */
    async changes(since: string | undefined, limit = 100): Promise<ChangesResponse> {
      let after = { txid: '0', seq: '0' };
      if (since) {
        const m = /^(\d{1,20})\.(\d{1,20})$/.exec(Buffer.from(since, 'base64url').toString('utf8'));
        // Each number within its column's type (txid xid8, seq bigint): a larger one is no cursor this endpoint gave out.
        if (!m || !digitsWithin(m[1]!, PG_MAX.xid8) || !digitsWithin(m[2]!, PG_MAX.bigint)) {
          throw invalid(['query', 'since'], 'Input should be a next_cursor returned by this endpoint', since, 'value_error');
        }
        after = { txid: m[1]!, seq: m[2]! };
      }
      // One replica (or the primary) for both reads: the profiles are at least as new as the changes listed.
      const { rows, live } = await readPinned(async () => {
        const rows = await readRepo.changesAfter(after, limit + 1);
        const ids = rows.slice(0, limit).filter((r) => !r.removed).map((r) => r.company_id);
        return { rows, live: new Map((await readRepo.findManyByIds(ids)).map((r) => [r.id, r])) };
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const cursor = last ? { txid: last.txid, seq: last.seq } : after;
      return {
        changes: page.map((r) => {
          // Removed after the change was written: the later change says so too; report the state as it is now.
          const row = r.removed ? undefined : live.get(r.company_id);
          return { id: r.company_id, change: row ? 'upserted' as const : 'removed' as const, changed_at: new Date(r.changed_at).toISOString(), company: row ? this.toProfile(row) : null };
        }),
        next_cursor: Buffer.from(`${cursor.txid}.${cursor.seq}`, 'utf8').toString('base64url'),
        has_more: rows.length > limit,
      };
    },

    count: () => repo.count(),

    /**
     * The companies change generation when it is exact (PGlite: every write moves it before the write
     * returns), else undefined: readers may keep what they built from companies until it moves.
     */
    changeGeneration: (): number | undefined => (cache?.exact ? cache.generation() : undefined),
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
