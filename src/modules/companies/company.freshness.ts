import type { CompanyRecord } from './company.record.js';

/** Who last set or confirmed a field, and when (0031_field_sources.sql). */
export interface FieldSource {
  source: 'owner' | 'admin' | 'crawl';
  at: string;
}

/** What an agent reads about one section of a profile: where it came from and when it was last confirmed. */
export interface SectionFreshness {
  source: string;
  last_confirmed_at: string;
}

/** The sections of a profile and the stored fields each is made of. */
export const SECTIONS = {
  profile: ['name', 'category', 'industry', 'description', 'keywords', 'services', 'languages', 'service_type', 'founded_year', 'social_links', 'logo_url'],
  contact: ['contact_email', 'phone'],
  location: ['country', 'city', 'address', 'locations', 'service_areas'],
  hours: ['opening_hours'],
  prices: ['price_range', 'service_prices'],
  photos: ['photos'],
} as const;
export type Section = keyof typeof SECTIONS;

export const hasValue = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/**
 * Per section, the latest confirmation among its fields that hold a value; a field never stamped (imported, or
 * stored before freshness was kept) counts as the row's source when the row was created: never later than the truth.
 * Null for a section with no value.
 */
export function freshnessOf(row: CompanyRecord): Record<Section, SectionFreshness | null> {
  const stamps = (row.field_sources ?? {}) as Record<string, FieldSource | undefined>;
  const fallback: SectionFreshness = { source: row.source || 'import', last_confirmed_at: new Date(row.created_at).toISOString() };
  const out = {} as Record<Section, SectionFreshness | null>;
  for (const [section, fields] of Object.entries(SECTIONS) as [Section, readonly string[]][]) {
    const present = fields.filter((f) => hasValue((row as unknown as Record<string, unknown>)[f]));
    if (!present.length) {
      out[section] = null;
      continue;
    }
    const seen = present.map((f) => {
      const s = stamps[f];
      return s ? { source: s.source, last_confirmed_at: s.at } : fallback;
    });
    out[section] = seen.reduce((a, b) => (b.last_confirmed_at > a.last_confirmed_at ? b : a));
  }
  return out;
}

/** The stamps for `fields`, set by `source` now. */
export function stampsFor(fields: string[], source: FieldSource['source'], at = new Date()): Record<string, FieldSource> {
  return Object.fromEntries(fields.map((f) => [f, { source, at: at.toISOString() }]));
}
