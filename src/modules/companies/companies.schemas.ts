import { Type, type Static } from 'typebox';
import categoriesFile from './categories.json' with { type: 'json' };
import { MAX_SERVICE_PRICES, PRICE_UNITS, SERVICE_NAME_MAX } from '../../lib/price-range.js';

/** At most this many places in service_areas. */
export const MAX_SERVICE_AREAS = 20;

export const CATEGORIES: readonly string[] = categoriesFile.categories;
export const SERVICE_TYPES = ['remote', 'local', 'nationwide', 'hybrid'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const ServiceTypeSchema = Type.Union([Type.Literal('remote'), Type.Literal('local'), Type.Literal('nationwide'), Type.Literal('hybrid')], {
  description: 'remote, local, nationwide or hybrid',
});

export const LocationSchema = Type.Object(
  {
    country: Type.String({ description: 'Country name in English' }),
    country_code: Type.String({ description: 'ISO 3166-1 alpha-2 code, empty when unknown' }),
    city: Type.String(),
    address: Type.String(),
    latitude: Type.Union([Type.Number(), Type.Null()], { description: 'Latitude of the city (decimal degrees, from an offline gazetteer of GeoNames cities); null when the city is unknown' }),
    longitude: Type.Union([Type.Number(), Type.Null()], { description: 'Longitude of the city; null when the city is unknown' }),
  },
  { $id: 'Location' },
);

/** One of the company's other places (a branch), beyond its main address; found by the crawl. */
export const CompanyLocationSchema = Type.Object(
  {
    address: Type.String({ description: 'The address as one line' }),
    city: Type.String(),
    country: Type.String({ description: 'Country name in English' }),
    phone: Type.Optional(Type.String({ description: 'The number written next to this address (international form), when there is one' })),
  },
  { $id: 'CompanyLocation' },
);
export type CompanyLocation = Static<typeof CompanyLocationSchema>;

/** At most this many locations are kept per company. */
export const MAX_LOCATIONS = 20;

/** A company as returned by search (spec 2.2) plus what an agent needs to decide on the next call. */
export const CompanySummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    website_url: Type.String(),
    category: Type.String(),
    industry: Type.String(),
    description: Type.String({ description: 'Plain text' }),
    location: Type.Ref('Location'),
    service_type: ServiceTypeSchema,
    is_verified: Type.Boolean({ description: 'Only verified companies accept proposals' }),
    match_score: Type.Number({ description: 'Ranking score in [0, 1]; higher is better' }),
    match_sources: Type.Array(Type.Union([Type.Literal('semantic'), Type.Literal('keyword')])),
    relevance: Type.Optional(Type.Union([Type.Literal('strong'), Type.Literal('partial'), Type.Literal('weak'), Type.Null()], {
      description: 'How well the company meets the need in q, judged on its own evidence (not its rank): strong (does what was asked), partial (an adjacent service or part of the request, scoring close to the best result), weak (shares words or meaning only, or scores far below the best; returned only with include_weak=true). null when listing without q',
    })),
    rating: Type.Optional(Type.Object({
      average: Type.Union([Type.Number(), Type.Null()], { description: 'Mean of the published reviews, one decimal; null without any' }),
      count: Type.Integer({ description: 'Published reviews (from customers of proposals the company approved)' }),
    })),
    profile_url: Type.String({ description: 'URL of the full profile in this API' }),
    distance_km: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Distance from the searched place (near, or a place named in q) to the company\'s city, in km; null when the city is unknown. Present only when a place was searched' })),
  },
  { $id: 'CompanySummary' },
);
export type CompanySummary = Static<typeof CompanySummarySchema>;

const TimeRangeSchema = Type.Array(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$' }), { minItems: 2, maxItems: 2, description: '["HH:MM", "HH:MM"], 24-hour; a close at or before the open runs past midnight' });
const DayHoursSchema = Type.Optional(Type.Array(TimeRangeSchema, { maxItems: 6 }));

export const OpeningHoursSchema = Type.Object(
  {
    monday: DayHoursSchema, tuesday: DayHoursSchema, wednesday: DayHoursSchema, thursday: DayHoursSchema,
    friday: DayHoursSchema, saturday: DayHoursSchema, sunday: DayHoursSchema,
    exceptions: Type.Optional(Type.Array(Type.Object({
      date: Type.String({ format: 'date', description: 'YYYY-MM-DD, in the company\'s time zone' }),
      closed: Type.Optional(Type.Boolean({ description: 'Closed all day (the default when hours is absent)' })),
      hours: Type.Optional(Type.Array(TimeRangeSchema, { maxItems: 6, description: 'The hours of that date instead of the weekday\'s' })),
      note: Type.Optional(Type.String({ maxLength: 120 })),
    }), { maxItems: 60, description: 'Dates that differ from the week: holidays, closed days, special hours' })),
  },
  { $id: 'OpeningHours', additionalProperties: false, description: 'A day left out is closed that day' },
);

export const PriceRangeSchema = Type.Object(
  {
    from: Type.Number({ minimum: 0, description: 'The lowest price' }),
    to: Type.Optional(Type.Number({ minimum: 0, description: 'The highest price; absent for "from" prices' })),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' }),
    unit: Type.Union(PRICE_UNITS.map((u) => Type.Literal(u)), { description: 'What the price is per' }),
  },
  { $id: 'PriceRange', additionalProperties: false },
);

export const ServicePriceSchema = Type.Object(
  {
    service: Type.String({ minLength: 1, maxLength: SERVICE_NAME_MAX, description: 'The service priced, as the company names it' }),
    from: Type.Number({ minimum: 0, maximum: 1e9, description: 'The lowest price of this service' }),
    to: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'The highest price; absent for "from" prices and single prices' })),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' }),
    unit: Type.Union(PRICE_UNITS.map((u) => Type.Literal(u)), { description: 'What the price is per' }),
  },
  { $id: 'ServicePrice', additionalProperties: false },
);

export const PhotoSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'Public URL of the photo: a JPEG of at most 1600 px, without metadata' }),
    width: Type.Integer(),
    height: Type.Integer(),
    caption: Type.String({ description: 'What the photo shows, in the owner\'s words; may be empty' }),
  },
  { $id: 'Photo' },
);
export type Photo = Static<typeof PhotoSchema>;

const SectionFreshness = Type.Union([
  Type.Object({
    source: Type.String({ description: 'owner, admin or crawl; for data not confirmed since it was loaded, how it was loaded (import, seed)' }),
    last_confirmed_at: Type.String({ format: 'date-time', description: 'When that source last set or confirmed the section (a crawl that reads a value again confirms it)' }),
  }),
  Type.Null(),
]);

export const CompanyProfileSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    website_url: Type.String(),
    domain: Type.String({ description: 'Website host without scheme or www.' }),
    category: Type.String(),
    industry: Type.String(),
    description: Type.String({ description: 'Plain text' }),
    location: Type.Ref('Location'),
    service_type: ServiceTypeSchema,
    is_verified: Type.Boolean(),
    keywords: Type.Array(Type.String()),
    services: Type.Array(Type.String(), { description: 'Services offered' }),
    languages: Type.Array(Type.String(), { description: 'Languages the company works in (ISO 639-1 codes)' }),
    contact: Type.Object({
      email: Type.Union([Type.String(), Type.Null()]),
      phone: Type.Union([Type.String(), Type.Null()], { description: 'As the company writes it (display form)' }),
      phone_e164: Type.Union([Type.String(), Type.Null()], { description: 'The phone in E.164 (+4930123456), parsed for the company\'s country; null when it does not parse' }),
    }),
    locations: Type.Array(Type.Ref('CompanyLocation'), { description: 'Other places of the company (branches) beyond location.address, as its website lists them; at most 20' }),
    social_links: Type.Record(Type.String(), Type.String(), { description: 'Network name → profile URL' }),
    logo_url: Type.Union([Type.String(), Type.Null()]),
    founded_year: Type.Union([Type.Integer(), Type.Null()]),
    opening_hours: Type.Union([Type.Null(), Type.Ref('OpeningHours')], { description: 'Weekly opening hours in the company\'s time zone, with dated exceptions; null when unknown' }),
    timezone: Type.Union([Type.String(), Type.Null()], { description: 'IANA time zone of the company (from its city), the zone opening_hours and next_change_at are in' }),
    open_now: Type.Union([Type.Boolean(), Type.Null()], { description: 'Open at the time of the request by its opening hours (exceptions included); null when the hours or the time zone are unknown' }),
    next_change_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When it next opens (closed now) or closes (open now), RFC 3339 with the company\'s own UTC offset; null when unknown or nothing changes in the next two weeks' }),
    price_range: Type.Union([Type.Null(), Type.Ref('PriceRange')], { description: 'What the company charges; null when unknown' }),
    service_prices: Type.Array(Type.Ref('ServicePrice'), {
      maxItems: MAX_SERVICE_PRICES,
      description: 'Prices of single services, in the order the company lists them (at most 30; empty when none are known): set by the owner, or read from the company\'s website where it prices a service on its own line. ' +
        'price_range is the company-wide summary; max_price filters by price_range only. freshness.prices covers both',
    }),
    service_areas: Type.Array(Type.String(), {
      maxItems: MAX_SERVICE_AREAS,
      description: 'Places the company serves beyond its own city (towns, regions or countries, as the owner writes them; at most 20; empty when none are named). ' +
        'Set by the owner, never read from the website; the place filters of search read location and branches only. freshness.location covers it',
    }),
    photos: Type.Array(Type.Ref('Photo'), { description: 'The company\'s gallery, in the owner\'s order; empty when none' }),
    freshness: Type.Object(
      { profile: SectionFreshness, contact: SectionFreshness, location: SectionFreshness, hours: SectionFreshness, prices: SectionFreshness, photos: SectionFreshness },
      { description: 'Per section, where the values came from and when they were last confirmed; null for a section with no value' },
    ),
    rating: Type.Optional(Type.Ref('Rating', { description: 'Average, count and distribution of the published reviews (on lookups by id or website); the reviews themselves: GET /reviews?company_id={id}' })),
    accepts_proposals: Type.Boolean({ description: 'True when the company is verified and can receive proposals' }),
    profile_url: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: 'Last time the profile changed' }),
    agent_readiness: Type.Optional(
      Type.Union([Type.Object({ score: Type.Integer({ minimum: 0, maximum: 100 }), grade: Type.String(), scanned_at: Type.String({ format: 'date-time' }) }), Type.Null()], {
        description: 'Latest agent-readiness scan of the website (score 0-100, grade A-F); null before the first completed scan',
      }),
    ),
    reachability: Type.Optional(Type.Object({
      claimed: Type.Boolean({ description: 'Someone owns the listing and reads proposals in the dashboard' }),
      delivery: Type.Union([Type.Literal('dashboard'), Type.Literal('email'), Type.Literal('none')], {
        description:
          "dashboard: a proposal reaches an owner who reads the inbox; email: the listing is unclaimed, and a proposal is announced to the company's public address " +
          'as an invitation to claim the listing and answer (at most once every 30 days); none: nobody will read it (not verified, or unclaimed with no public address that accepts invitations)',
      }),
      response_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'Share of the last 365 days of proposals that the company answered (unanswered ones younger than 3 days not counted yet); null without any' }),
      median_response_hours: Type.Union([Type.Number(), Type.Null()], { description: 'Median hours to the first answer; null when none was answered' }),
      measured_on: Type.Integer({ description: 'Proposals the figures are measured on' }),
    }, { description: 'How a proposal reaches this company, from its real proposal history (on lookups by id or website)' })),
  },
  { $id: 'CompanyProfile' },
);
export type CompanyProfile = Static<typeof CompanyProfileSchema>;

export const CompanyIdParams = Type.Object({
  company_id: Type.String({ format: 'uuid', description: 'Company id (UUID)' }),
});

export const WebsiteParams = Type.Object({
  website_url: Type.String({ minLength: 1, maxLength: 2048, description: 'A URL or bare domain, e.g. acme.com or https://www.acme.com/about' }),
});

export const CategoriesResponseSchema = Type.Object(
  {
    categories: Type.Array(Type.String()),
    total: Type.Integer(),
  },
  { $id: 'CategoriesResponse' },
);

/** What the importer, seeder, crawler and owners write. */
export interface CompanyInput {
  name: string;
  website_url: string;
  category: string;
  industry?: string;
  description?: string;
  country?: string;
  city?: string;
  address?: string;
  service_type?: ServiceType;
  is_verified?: boolean;
  is_featured?: boolean;
  keywords?: string[];
  services?: string[];
  languages?: string[];
  contact_email?: string | null;
  phone?: string | null;
  /** Other places beyond the main address (the crawl); absent means none. */
  locations?: CompanyLocation[];
  social_links?: Record<string, string>;
  logo_url?: string | null;
  founded_year?: number | null;
  /** Weekly hours with exceptions (lib/opening-hours.ts); checked by company.normalize. */
  opening_hours?: unknown;
  /** { from, to?, currency, unit } (lib/price-range.ts); checked by company.normalize. */
  price_range?: unknown;
  /** [{ service, from, to?, currency, unit }] (lib/price-range.ts); checked by company.normalize; absent or null is none. */
  service_prices?: unknown;
  /** Places served beyond the own city; cleaned like keywords (plain text, each once), at most MAX_SERVICE_AREAS. */
  service_areas?: string[];
  source?: string;
}

export const ChangesQuerySchema = Type.Object({
  since: Type.Optional(Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]*$', description: 'The next_cursor of the previous page; omit (or leave empty) to start from the beginning' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Changes per page' })),
});
export type ChangesQuery = Static<typeof ChangesQuerySchema>;

export const CompanyChangeSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Company id' }),
    change: Type.Union([Type.Literal('upserted'), Type.Literal('removed')], { description: 'upserted: created or changed (company holds the current profile); removed: deleted from the directory (a tombstone)' }),
    changed_at: Type.String({ format: 'date-time' }),
    company: Type.Union([Type.Ref('CompanyProfile'), Type.Null()], { description: 'The profile as it is now; null for removed companies' }),
  },
  { $id: 'CompanyChange' },
);

export const ChangesResponseSchema = Type.Object(
  {
    changes: Type.Array(Type.Ref('CompanyChange')),
    next_cursor: Type.String({ description: 'Pass as since to read on; store it to resume later' }),
    has_more: Type.Boolean({ description: 'true when more changes are waiting right now (read again at once)' }),
  },
  { $id: 'ChangesResponse' },
);
export type ChangesResponse = Static<typeof ChangesResponseSchema>;
/** One change as code reads it (the schema's Type.Refs resolve to these). */
export interface CompanyChange { id: string; change: 'upserted' | 'removed'; changed_at: string; company: CompanyProfile | null }
