import type { OpeningHours } from '../../lib/opening-hours.js';
import type { PriceRange, ServicePrice } from '../../lib/price-range.js';
import type { CompanyLocation, ServiceType } from './companies.schemas.js';

/**
 * One company as the directory stores it (a row of `companies`, without the embedding and the
 * tsvector). Every module reads this shape; only companies.repo.ts writes it.
 */
export interface CompanyRecord {
  id: string;
  name: string;
  website_url: string;
  domain: string;
  category: string;
  industry: string;
  description: string;
  country: string;
  country_code: string;
  city: string;
  address: string;
  service_type: ServiceType;
  is_verified: boolean;
  is_featured: boolean;
  keywords: string[];
  services: string[];
  languages: string[];
  contact_email: string | null;
  phone: string | null;
  /** The phone in E.164 (lib/phone.ts), null when it does not parse for the company's country. */
  phone_e164: string | null;
  locations: CompanyLocation[];
  social_links: Record<string, string>;
  logo_url: string | null;
  founded_year: number | null;
  source: string;
  /** The city's coordinates (lib/geo.ts cityCoordinates), null when the gazetteer does not know it. */
  latitude: number | null;
  longitude: number | null;
  /** Weekly hours with dated exceptions (lib/opening-hours.ts), null when unknown. */
  opening_hours: OpeningHours | null;
  /** The IANA zone the hours are in: the city's (derived from its coordinates), null when the city is unknown. */
  timezone: string | null;
  /** What the company charges, from–to in a currency per unit (lib/price-range.ts), null when unknown. */
  price_range: PriceRange | null;
  /** Prices of single services (lib/price-range.ts), at most 30; empty when none are known. */
  service_prices: ServicePrice[];
  /** Places served beyond the own city (towns, regions, countries as the owner writes them), at most 20; empty when none are named. */
  service_areas: string[];
  /** The published gallery in order (0029_company_photos.sql); the bytes are in company_photos. Never written by imports or the crawl. */
  photos: CompanyPhoto[];
  /** Who last set or confirmed each field, and when (company.freshness.ts); written only by stamps, never by imports. */
  field_sources: Record<string, { source: string; at: string }>;
  /** Fields the owner set by hand: a re-crawl keeps them. */
  owner_edited_fields: string[];
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** One photo of the gallery as companies.photos keeps it. */
export interface CompanyPhoto {
  id: string;
  width: number;
  height: number;
  caption: string;
}

/** The stored fields that importers, the crawl, owners and administrators write (everything else is the database's). */
export const STORED_FIELDS = [
  'name', 'website_url', 'domain', 'category', 'industry', 'description', 'country', 'country_code', 'city', 'address',
  'service_type', 'is_verified', 'is_featured', 'keywords', 'services', 'languages', 'contact_email', 'phone',
  'phone_e164', 'locations', 'social_links', 'logo_url', 'founded_year', 'source', 'latitude', 'longitude',
  'opening_hours', 'timezone', 'price_range', 'service_prices', 'service_areas',
] as const satisfies readonly (keyof CompanyRecord)[];

export type StoredField = (typeof STORED_FIELDS)[number];

/** A whole company ready to store: every stored field, normalised and derived (company.normalize.ts). */
export type CompanyFields = Pick<CompanyRecord, StoredField>;

/** What a person's change may set: stored fields and the gallery (which only its own routes write). */
export type ChangeableFields = Partial<CompanyFields> & { photos?: CompanyPhoto[] };

/** Columns kept as jsonb. */
export const JSON_FIELDS: ReadonlySet<string> = new Set(['locations', 'social_links', 'opening_hours', 'price_range', 'service_prices', 'photos']);

/** The columns every read selects (companies, search, site): never the embedding or the tsvector. */
export const COMPANY_COLUMNS = `id, ${STORED_FIELDS.join(', ')}, photos, field_sources, owner_edited_fields, created_at, updated_at, deleted_at`;

/** The published gallery as people and agents read it: each photo with its public URL (served by GET /api/tools/{id}/photos/{photo_id}). */
export function publicPhotos(baseUrl: string, row: Pick<CompanyRecord, 'id' | 'photos'>): (CompanyPhoto & { url: string })[] {
  return (row.photos ?? []).map((p) => ({ id: p.id, url: `${baseUrl}/api/tools/${row.id}/photos/${p.id}`, width: p.width, height: p.height, caption: p.caption }));
}
