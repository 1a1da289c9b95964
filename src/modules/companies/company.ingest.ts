import { zoneAt } from '../../lib/time-zone.js';
import type { Db } from '../../platform/db.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { cityCoordinates } from '../../lib/geo.js';
import { toE164 } from '../../lib/phone.js';
import { sameValue } from '../../lib/stable-json.js';
import { createCompaniesRepo } from './companies.repo.js';
import type { CompanyInput } from './companies.schemas.js';
import { derivedFields, normalizeCompany } from './company.normalize.js';
import type { CompanyFields, CompanyRecord } from './company.record.js';
import { embeddingFor } from './company.write.js';
import { hasValue, stampsFor } from './company.freshness.js';
import { embedProfiles, embeddingText } from './profile-vector.js';

/**
 * What a crawl may write; everything else (verification, featuring, website, source, service areas) is kept.
 * phone_e164 is not listed: it follows the phone and country the merge keeps. A field missing here would be
 * taken from the crawl as it is, so a crawl that found no prices blanked the owner's (price_range was missing).
 */
const CRAWLED_FIELDS = [
  'name', 'category', 'industry', 'description', 'country', 'country_code', 'city', 'address', 'service_type',
  'keywords', 'services', 'languages', 'contact_email', 'phone', 'locations', 'social_links', 'logo_url', 'founded_year',
  'opening_hours', 'price_range', 'service_prices',
] as const;

/**
 * What a reviewed crawl (the monthly website check) may propose to the owner: the crawled fields an owner
 * edits (the country's code, the branches and the logo URL follow from others or have their own screens).
 */
const SUGGESTED_FIELDS = CRAWLED_FIELDS.filter((f) => f !== 'country_code' && f !== 'locations' && f !== 'logo_url');

/** A reviewed crawl's findings: the fields where the site now says something else than the profile. */
export type CrawlReview = { row: CompanyRecord; changes: Record<string, { current: unknown; proposed: unknown }> };

/** Texts per embedding call during imports: small enough that every embedding worker gets a share of a batch. */
const EMBED_CHUNK = 16;

export type CrawlSaveResult = { row: CompanyRecord; outcome: 'created' | 'updated' | 'unchanged'; changes: Record<string, { before: unknown; after: unknown }>; kept: string[] };

const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

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

/** The crawl's profile merged into the stored one: fields set by hand, verification, featuring and the website are kept, and nothing found is blanked. */
function mergeCrawled(existing: CompanyRecord, next: CompanyFields, held: ReadonlySet<string>): Omit<CrawlSaveResult, 'row' | 'outcome'> & { fields: CompanyFields } {
  const edited = new Set(existing.owner_edited_fields);
  // What no crawl reads (the owner's service areas) stays as stored, like verification and the website.
  const merged: Record<string, unknown> = {
    ...next, website_url: existing.website_url, is_verified: existing.is_verified, is_featured: existing.is_featured, source: existing.source,
    service_areas: existing.service_areas,
  };
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const kept: string[] = [];
  for (const f of CRAWLED_FIELDS) {
    const before = existing[f] as unknown;
    let after = next[f] as unknown;
    const ownedBy = f === 'country_code' ? 'country' : f;
    if (edited.has(ownedBy)) {
      after = before;
      if (f !== 'country_code') kept.push(f);
    } else if (held.has(ownedBy) || (isEmpty(after) && !isEmpty(before))) {
      // a value held for the owner (below its publish threshold) leaves the stored one as it is
      after = before;
    }
    merged[f] = after;
    if (!sameValue(before, after)) changes[f] = { before, after };
  }
  const fields = merged as unknown as CompanyFields;
  Object.assign(fields, derivedFields(fields));
  if (fields.phone_e164 !== existing.phone_e164) changes.phone_e164 = { before: existing.phone_e164, after: fields.phone_e164 };
  return { fields, changes, kept };
}

/**
 * Machine writes of whole companies: the import and the seed, the crawl, the reindex and the
 * backfills of derived fields. Same rules (company.normalize.ts), same repository, embeddings
 * computed before a row is written.
 */
export function createCompanyIngest({ db, embeddings }: { db: Db; embeddings: EmbeddingProvider }) {
  const repo = createCompaniesRepo(db);
  return {
    /**
     * Writes many companies (import, seed): normalised, embedded in batches, upserted by domain.
     * Returns per-outcome counts; a company whose content did not change keeps its embedding and is reported unchanged.
     */
    async upsertMany(inputs: CompanyInput[], options: { batchSize?: number; onProgress?: (done: number) => void } = {}) {
      const batchSize = options.batchSize ?? 64;
      const counts = { created: 0, updated: 0, unchanged: 0 };
      const ids: string[] = [];
      /** Normalises a batch and embeds what changed (compared with what is stored), in chunks every embedding worker can take. */
      const prepare = async (start: number) => {
        const batch = inputs.slice(start, start + batchSize).map((c) => normalizeCompany(c));
        const existing = await Promise.all(batch.map((c) => repo.findByDomain(c.domain)));
        const needs = batch.map((c, j) => !existing[j] || embeddingText(existing[j]!) !== embeddingText(c));
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
          const vector = needs[j] ? vectors[v++]! : undefined;
          const { row, outcome } = await repo.upsertByDomain(batch[j]!, vector ? { vector: toPgVector(vector), model: embeddings.model } : null);
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
     * website, and without blanking a field the crawl did not find. Fields in `held` (values the crawl holds
     * for the owner to confirm) keep their stored value and are not stamped as read. Returns what changed.
     */
    async saveCrawled(input: CompanyInput, options: { held?: readonly string[] } = {}): Promise<CrawlSaveResult> {
      const next = normalizeCompany({ ...input, source: 'crawl' });
      const existing = await repo.findByDomain(next.domain);
      const held = new Set(options.held ?? []);
      const { fields, changes, kept } = existing ? mergeCrawled(existing, next, held) : { fields: next, changes: {}, kept: [] };
      // Nothing to embed (a site that states no description or services) keeps the old vector.
      const embedding = embeddingText(fields) === '' ? undefined : await embeddingFor(embeddings, existing, fields);
      const { row, outcome } = await repo.upsertByDomain(fields, embedding ?? null);
      // Freshness: every field the crawl read is confirmed now (read again unchanged counts), except those kept by hand.
      const read = (Object.keys(next) as (keyof typeof next)[]).filter((f) => f !== 'source' && f !== 'domain' && f !== 'website_url' && !kept.includes(f) && !held.has(f) && hasValue(next[f]));
      const stamped = read.length ? await repo.stampSources(row.id, stampsFor(read, 'crawl')) : undefined;
      return { row: stamped ?? row, outcome, changes, kept };
    },

    /**
     * Compares a crawled profile with the stored company without changing any value (the monthly website
     * check): returns the fields where the site states something else, for the owner to accept or not, fields
     * set by hand included. Values the site states as they are stored count as confirmed now (freshness),
     * except those kept by hand, which stay the owner's. Undefined when no live company has the domain.
     */
    async reviewCrawled(input: CompanyInput): Promise<CrawlReview | undefined> {
      const next = normalizeCompany({ ...input, source: 'crawl' });
      const existing = await repo.findByDomain(next.domain);
      if (!existing) return undefined;
      const edited = new Set(existing.owner_edited_fields);
      const changes: CrawlReview['changes'] = {};
      const confirmed: string[] = [];
      for (const f of SUGGESTED_FIELDS) {
        const proposed = next[f] as unknown;
        if (isEmpty(proposed)) continue;
        if (!sameValue(existing[f], proposed)) changes[f] = { current: existing[f], proposed };
        else if (!edited.has(f)) confirmed.push(f);
      }
      const stamped = confirmed.length ? await repo.stampSources(existing.id, stampsFor(confirmed, 'crawl')) : undefined;
      return { row: stamped ?? existing, changes };
    },

    /**
     * Rebuilds every live company's search_vector (trigger) and embedding from stored data, in
     * small batches: each row is its own statement, so search keeps answering throughout.
     */
    async reindexAll(onProgress: (done: number) => Promise<void>, batchSize = 32): Promise<number> {
      let after: string | null = null;
      let done = 0;
      for (;;) {
        const rows = await repo.embeddingSources(after, batchSize);
        if (rows.length === 0) return done;
        const vectors = await embedProfiles(embeddings, rows);
        for (let i = 0; i < rows.length; i++) await repo.setEmbedding(rows[i]!.id, { vector: toPgVector(vectors[i]!), model: embeddings.model });
        done += rows.length;
        after = rows[rows.length - 1]!.id;
        await onProgress(done);
      }
    },

    /** Coordinates for companies stored before they had any (run at start; bounded batches). */
    backfillCoordinates: (batchSize = 1000) => backfill(repo.listWithoutCoordinates, (r) => {
      const c = cityCoordinates(r.city, r.country_code);
      return c.latitude === null || c.longitude === null ? undefined : { id: r.id, latitude: c.latitude, longitude: c.longitude };
    }, repo.setCoordinates, batchSize),

    /** The time zone of located companies stored before it existed (run at start, after the coordinates; bounded batches). */
    backfillTimeZones: (batchSize = 1000) => backfill(repo.listWithoutTimeZone, (r) => {
      const timezone = zoneAt(r.latitude, r.longitude);
      return timezone ? { id: r.id, timezone } : undefined;
    }, repo.setTimeZones, batchSize),

    /** The E.164 form for phones stored before it existed (run at start; bounded batches; unparsable ones stay null). */
    backfillPhoneE164: (batchSize = 1000) => backfill(repo.listPhonesWithoutE164, (r) => {
      const e164 = toE164(r.phone, r.country_code);
      return e164 ? { id: r.id, phone_e164: e164 } : undefined;
    }, repo.setPhonesE164, batchSize),
  };
}

export type CompanyIngest = ReturnType<typeof createCompanyIngest>;
