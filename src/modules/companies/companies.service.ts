import type { ChangeFeed } from '../../platform/change-feed.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import { countryCode, countryName } from '../../lib/countries.js';
import { cityCoordinates } from '../../lib/geo.js';
import { digitsWithin, PG_MAX } from '../../lib/ids.js';
import { toE164 } from '../../lib/phone.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { canonicalWebsiteUrl, normalizeDomain } from '../../lib/url.js';
import type { CompaniesRepo, CompanyWrite } from './companies.repo.js';
import {
  CATEGORIES,
  MAX_LOCATIONS,
  SERVICE_TYPES,
  type ChangesResponse,
  type CompanyInput,
  type CompanyLocation,
  type CompanyProfile,
  type CompanyRow,
  type CompanySummary,
  type ServiceType,
} from './companies.schemas.js';
import { embedProfiles, embeddingText } from './profile-vector.js';

const categoryByLower = new Map(CATEGORIES.map((c) => [c.toLowerCase(), c]));

/** The canonical spelling of a category, or undefined when it is not one of the 25. */
export function canonicalCategory(input: string | undefined | null): string | undefined {
  if (!input) return undefined;
  return categoryByLower.get(input.trim().toLowerCase());
}

/**
 * Fills a value derived in code (not SQL) for rows stored before it existed: reads them by id in bounded
 * batches, writes what could be derived, and returns how many rows got it.
 */
async function backfill<Row extends { id: string }, Update>(
  list: (afterId: string, limit: number) => Promise<Row[]>,
  derive: (row: Row) => Update | undefined,
  write: (updates: Update[]) => Promise<void>,
  batchSize: number,
): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let written = 0;
  for (;;) {
    const rows = await list(after, batchSize);
    if (rows.length === 0) return written;
    after = rows[rows.length - 1]!.id;
    const updates = rows.map(derive).filter((u): u is Update => u !== undefined);
    await write(updates);
    written += updates.length;
  }
}

function cleanList(values: string[] | undefined, max = 50): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values ?? []) {
    const s = toPlainLine(v).slice(0, 120);
    const key = s.toLowerCase();
    if (s && !seen.has(key)) {
      seen.add(key);
      out.push(s);
    }
    if (out.length >= max) break;
  }
  return out;
}

/** Other places as plain one-line text, without empty or repeated addresses, at most MAX_LOCATIONS. */
function cleanLocations(values: CompanyLocation[] | undefined): CompanyLocation[] {
  const seen = new Set<string>();
  const out: CompanyLocation[] = [];
  for (const v of values ?? []) {
    const address = toPlainLine(v.address).slice(0, 300);
    const key = address.toLowerCase();
    if (!address || seen.has(key)) continue;
    seen.add(key);
    const phone = v.phone ? toPlainLine(v.phone).slice(0, 50) : '';
    out.push({ address, city: toPlainLine(v.city).slice(0, 100), country: toPlainLine(v.country).slice(0, 100), ...(phone ? { phone } : {}) });
    if (out.length >= MAX_LOCATIONS) break;
  }
  return out;
}

/**
 * What a crawl may write; everything else (verification, featuring, website, source) is kept.
 * phone_e164 is not listed: it follows the phone and country the merge keeps.
 */
const CRAWLED_FIELDS = [
  'name', 'category', 'industry', 'description', 'country', 'country_code', 'city', 'address', 'service_type',
  'keywords', 'services', 'languages', 'contact_email', 'phone', 'locations', 'social_links', 'logo_url', 'founded_year',
] as const;

export interface CompaniesServiceDeps {
  repo: CompaniesRepo;
  embeddings: EmbeddingProvider;
  baseUrl: string;
  /** When exact, public profiles are kept in memory until any company changes. */
  changes?: ChangeFeed;
}

const PROFILE_CACHE_SIZE = 10_000;

/** Texts per embedding call during imports: small enough that every embedding worker gets a share of a batch. */
const EMBED_CHUNK = 16;

/** Rows kept by cachedRows (about 1–2 KB each). */
const ROW_CACHE_SIZE = 10_000;

export function createCompaniesService({ repo, embeddings, baseUrl, changes }: CompaniesServiceDeps) {
  // Public profiles by id/domain, valid for one change generation (see platform/change-feed.ts).
  const profiles = new Map<string, { generation: number; profile: CompanyProfile }>();
  async function cachedProfile(key: string, load: () => Promise<CompanyRow>, toProfile: (r: CompanyRow) => CompanyProfile): Promise<CompanyProfile> {
    if (!changes?.exact) return toProfile(await load());
    // Read the generation before the row: a change committed in between makes this entry stale at once.
    const generation = changes.generation();
    const hit = profiles.get(key);
    if (hit && hit.generation === generation) return hit.profile;
    const profile = toProfile(await load());
    if (profiles.size >= PROFILE_CACHE_SIZE) profiles.clear();
    profiles.set(key, { generation, profile });
    return profile;
  }
  const profileUrl = (id: string) => `${baseUrl}/api/v1/agent/companies/${id}`;

  // Rows by id (search result pages), valid for one change generation like the profiles; frozen, as callers share them.
  const rows = new Map<string, CompanyRow>();
  let rowsGeneration = -1;
  async function cachedRows(ids: string[]): Promise<CompanyRow[]> {
    if (!changes?.exact) return repo.findManyByIds(ids);
    const generation = changes.generation();
    if (generation !== rowsGeneration) {
      rows.clear();
      rowsGeneration = generation;
    }
    const missing = ids.filter((id) => !rows.has(id));
    const fresh = missing.length ? await repo.findManyByIds(missing) : [];
    // Read under this generation: kept only while it still holds (a write meanwhile makes them stale at once).
    if (changes.generation() === generation) {
      if (rows.size + fresh.length > ROW_CACHE_SIZE) rows.clear();
      for (const r of fresh) rows.set(r.id, Object.freeze(r));
    }
    const byId = new Map(fresh.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id) ?? rows.get(id);
      return row ? [row] : [];
    });
  }

  function toLocation(row: CompanyRow) {
    return { country: row.country, country_code: row.country_code, city: row.city, address: row.address, latitude: row.latitude ?? null, longitude: row.longitude ?? null };
  }

  /**
   * Validates and normalises one company for writing: plain text everywhere, canonical
   * category and service type, domain from the website, country code from the country.
   * Throws a 422-shaped AppError naming the field.
   */
  function normalizeInput(input: CompanyInput, loc: (string | number)[] = ['body']): Omit<CompanyWrite, 'embedding' | 'embedding_model'> {
    const name = toPlainLine(input.name).slice(0, 200);
    if (!name) throw invalid([...loc, 'name'], 'Field required', input.name, 'missing');
    const website = canonicalWebsiteUrl(input.website_url ?? '');
    const domain = website ? normalizeDomain(website) : undefined;
    if (!website || !domain) throw invalid([...loc, 'website_url'], 'Input should be a valid website URL or domain', input.website_url, 'url_parsing');
    const category = canonicalCategory(input.category);
    if (!category) throw invalid([...loc, 'category'], `Input should be one of the ${CATEGORIES.length} categories (GET /api/v1/agent/categories)`, input.category, 'enum');
    const serviceType = (input.service_type ?? 'remote') as ServiceType;
    if (!SERVICE_TYPES.includes(serviceType)) throw invalid([...loc, 'service_type'], "Input should be 'remote', 'local', 'nationwide' or 'hybrid'", input.service_type, 'enum');
    const rawCountry = toPlainLine(input.country ?? '');
    const code = countryCode(rawCountry) ?? '';
    const country = rawCountry && code && rawCountry.length <= 3 ? (countryName(code) ?? rawCountry) : rawCountry;
    const founded = input.founded_year ?? null;
    if (founded !== null && (!Number.isInteger(founded) || founded < 1000 || founded > 2100)) {
      throw invalid([...loc, 'founded_year'], 'Input should be a year between 1000 and 2100', founded);
    }
    const social: Record<string, string> = {};
    for (const [k, v] of Object.entries(input.social_links ?? {})) {
      const key = toPlainLine(k).toLowerCase().slice(0, 40);
      if (key && typeof v === 'string' && /^https?:\/\//i.test(v)) social[key] = v.trim().slice(0, 500);
    }
    const phone = input.phone ? toPlainLine(input.phone).slice(0, 50) : null;
    return {
      name,
      website_url: website,
      domain,
      category,
      industry: toPlainLine(input.industry).slice(0, 200),
      description: toPlainText(input.description).slice(0, 5000),
      country: country.slice(0, 100),
      country_code: code,
      city: toPlainLine(input.city).slice(0, 100),
      address: toPlainLine(input.address).slice(0, 300),
      service_type: serviceType,
      is_verified: input.is_verified ?? false,
      is_featured: input.is_featured ?? false,
      keywords: cleanList(input.keywords, 30),
      services: cleanList(input.services, 50),
      languages: cleanList(input.languages, 20).map((l) => l.toLowerCase()),
      contact_email: input.contact_email ? toPlainLine(input.contact_email).toLowerCase().slice(0, 254) : null,
      phone,
      phone_e164: toE164(phone, code),
      locations: cleanLocations(input.locations),
      social_links: social,
      logo_url: input.logo_url && /^https?:\/\//i.test(input.logo_url) ? input.logo_url.trim().slice(0, 1000) : null,
      founded_year: founded,
      source: input.source ?? 'import',
      ...cityCoordinates(toPlainLine(input.city).slice(0, 100), code),
    };
  }

  return {
    normalizeInput,

    toProfile(row: CompanyRow): CompanyProfile {
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
        accepts_proposals: row.is_verified,
        profile_url: profileUrl(row.id),
        created_at: new Date(row.created_at).toISOString(),
        updated_at: new Date(row.updated_at).toISOString(),
      };
    },

    toSummary(row: CompanyRow, score: number, sources: ('semantic' | 'keyword')[]): CompanySummary {
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

    async getById(id: string): Promise<CompanyRow> {
      const row = await repo.findById(id);
      if (!row) throw notFound('Company');
      return row;
    },

    /** The public profile by id (agent API), from memory when nothing changed since it was read. */
    getProfile(id: string): Promise<CompanyProfile> {
      return cachedProfile(`id:${id}`, () => this.getById(id), (r) => this.toProfile(r));
    },

    /** The public profile by website (agent API), cached like getProfile. */
    getProfileByWebsite(website: string): Promise<CompanyProfile> {
      const domain = normalizeDomain(website) ?? website;
      return cachedProfile(`domain:${domain}`, () => this.getByWebsite(website), (r) => this.toProfile(r));
    },

    /** The public profile by its page slug (the public website), cached like getProfile; undefined when no live company has it. */
    async findProfileBySlug(slug: string): Promise<CompanyProfile | undefined> {
      const row = () => repo.findBySlug(slug).then((r) => r ?? Promise.reject(notFound('Company')));
      return cachedProfile(`slug:${slug}`, row, (r) => this.toProfile(r)).catch((e: unknown) => {
        if (e instanceof AppError && e.status === 404) return undefined;
        throw e;
      });
    },

    async getByWebsite(website: string): Promise<CompanyRow> {
      const domain = normalizeDomain(website);
      if (!domain) throw invalid(['path', 'website_url'], 'Input should be a URL or a domain such as acme.com', website, 'url_parsing');
      const row = await repo.findByDomain(domain);
      if (!row) throw new AppError('not_found', `No company with website ${domain} in the directory`);
      return row;
    },

    /** Live companies by id, in the order asked (missing ones left out); on PGlite from memory while nothing changed. */
    findManyByIds: (ids: string[]): Promise<CompanyRow[]> => cachedRows(ids),

    categories() {
      return { categories: [...CATEGORIES], total: CATEGORIES.length };
    },

    /**
     * Writes many companies (import, seed): normalised, embedded in batches, upserted by
     * domain. Returns per-outcome counts; a company whose content did not change keeps its
     * embedding and is reported unchanged.
     */
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
      const rows = await repo.changesAfter(after, limit + 1);
      const page = rows.slice(0, limit);
      const live = new Map((await repo.findManyByIds(page.filter((r) => !r.removed).map((r) => r.company_id))).map((r) => [r.id, r]));
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

    /** Coordinates for companies stored before they had any (run at start; bounded batches). */
    backfillCoordinates: (batchSize = 1000) => backfill(repo.listWithoutCoordinates, (r) => {
      const c = cityCoordinates(r.city, r.country_code);
      return c.latitude === null || c.longitude === null ? undefined : { id: r.id, latitude: c.latitude, longitude: c.longitude };
    }, repo.setCoordinates, batchSize),

    /** The E.164 form for phones stored before it existed (run at start; bounded batches; unparsable ones stay null). */
    backfillPhoneE164: (batchSize = 1000) => backfill(repo.listPhonesWithoutE164, (r) => {
      const e164 = toE164(r.phone, r.country_code);
      return e164 ? { id: r.id, phone_e164: e164 } : undefined;
    }, repo.setPhonesE164, batchSize),

    async upsertMany(inputs: CompanyInput[], options: { batchSize?: number; onProgress?: (done: number) => void } = {}) {
      const batchSize = options.batchSize ?? 64;
      const counts = { created: 0, updated: 0, unchanged: 0 };
      const ids: string[] = [];
      /** Normalises a batch and embeds what changed (compared with what is stored), in chunks every embedding worker can take. */
      const prepare = async (start: number) => {
        const batch = inputs.slice(start, start + batchSize).map((c) => normalizeInput(c));
        const existing = await Promise.all(batch.map((c) => repo.findByDomain(c.domain)));
        const needs = batch.map((c, j) => {
          const e = existing[j];
          return !e || embeddingText(e) !== embeddingText(c);
        });
        const changed = batch.filter((_, j) => needs[j]);
        const chunks: (typeof changed)[] = [];
        for (let k = 0; k < changed.length; k += EMBED_CHUNK) chunks.push(changed.slice(k, k + EMBED_CHUNK));
        const vectors = (await Promise.all(chunks.map((chunk) => embedProfiles(embeddings, chunk)))).flat();
        return { start, batch, needs, vectors };
      };
      // Pipelined: the next batch is embedded while this one is written.
      let next = inputs.length > 0 ? prepare(0) : undefined;
      while (next) {
        const { start, batch, needs, vectors } = await next;
        next = start + batchSize < inputs.length ? prepare(start + batchSize) : undefined;
        // A rejected look-ahead is reported when it is awaited, not as an unhandled rejection meanwhile.
        next?.catch(() => {});
        let v = 0;
        for (let j = 0; j < batch.length; j++) {
          const c = batch[j]!;
          const vector = needs[j] ? vectors[v++]! : undefined;
          const { row, outcome } = await repo.upsertByDomain({
            ...c,
            embedding: vector ? toPgVector(vector) : null,
            embedding_model: vector ? embeddings.model : null,
          });
          counts[outcome]++;
          ids.push(row.id);
        }
        options.onProgress?.(Math.min(start + batchSize, inputs.length));
      }
      return { ...counts, ids };
    },

    /**
     * Saves a crawled profile: creates the company, or updates the live one with the same
     * domain without touching fields its owner edited by hand, verification, featuring or the
     * website, and without blanking a field the crawl did not find. Returns what changed.
     */
    async saveCrawled(input: CompanyInput): Promise<{ row: CompanyRow; outcome: 'created' | 'updated' | 'unchanged'; changes: Record<string, { before: unknown; after: unknown }>; kept: string[] }> {
      const next = normalizeInput({ ...input, source: 'crawl' });
      const existing = await repo.findByDomain(next.domain);
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      const kept: string[] = [];
      let write: Omit<CompanyWrite, 'embedding' | 'embedding_model'> = next;
      if (existing) {
        const edited = new Set(await repo.ownerEditedFields(existing.id));
        const merged: Record<string, unknown> = { ...next, website_url: existing.website_url, is_verified: existing.is_verified, is_featured: existing.is_featured, source: existing.source };
        const empty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
        for (const f of CRAWLED_FIELDS) {
          const before = existing[f] as unknown;
          let after = next[f] as unknown;
          const ownedBy = f === 'country_code' ? 'country' : f;
          if (edited.has(ownedBy)) {
            after = before;
            if (f !== 'country_code') kept.push(f);
          } else if (empty(after) && !empty(before)) {
            after = before;
          }
          merged[f] = after;
          // Key order differs between jsonb and fresh objects: compare with sorted keys.
          const stable = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));
          if (stable(before) !== stable(after)) changes[f] = { before, after };
        }
        merged.phone_e164 = toE164(merged.phone as string | null, String(merged.country_code ?? ''));
        if (merged.phone_e164 !== existing.phone_e164) changes.phone_e164 = { before: existing.phone_e164, after: merged.phone_e164 };
        write = merged as typeof write;
      }
      const text = embeddingText(write);
      // Nothing to embed (a site that states no description or services) keeps the old vector.
      const needsEmbedding = text !== '' && (!existing || embeddingText(existing) !== text);
      const vector = needsEmbedding ? (await embedProfiles(embeddings, [write]))[0] : undefined;
      const { row, outcome } = await repo.upsertByDomain({ ...write, embedding: vector ? toPgVector(vector) : null, embedding_model: vector ? embeddings.model : null });
      return { row, outcome, changes, kept };
    },

    count: () => repo.count(),

    /**
     * The companies change generation when it is exact (PGlite: every write moves it before the write
     * returns), else undefined: readers may keep what they built from companies until it moves.
     */
    changeGeneration: (): number | undefined => (changes?.exact ? changes.generation() : undefined),
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
