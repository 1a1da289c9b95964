import { offsetParam } from '../../platform/http.js';
import { MAX_SERVICE_PRICES, PRICE_UNITS, SERVICE_NAME_MAX } from '../../lib/price-range.js';
import { Type, type Static } from 'typebox';
import { MAX_SERVICE_AREAS, ServiceTypeSchema } from './companies.schemas.js';
import { PHOTO_CAPTION_MAX, PHOTO_MAX_COUNT } from './photo-limits.js';

/**
 * Dashboard ("tools") schemas: the company as owners and administrators see and edit it.
 * The agent API's CompanyProfile stays the agent-facing view; these carry the management state
 * (featured, subscription, fields set by hand, undo availability).
 */

/** Fields an owner (or an administrator acting as owner) may change with PUT or AI edit. */
export const EDITABLE_FIELDS = [
  'name', 'description', 'industry', 'category', 'service_type', 'country', 'city', 'address',
  'keywords', 'services', 'languages', 'contact_email', 'phone', 'social_links', 'founded_year', 'opening_hours', 'price_range',
  'service_prices', 'service_areas',
] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** Fields that exist on a company but are never changed by an edit: why, for the 422 message. */
export const PROTECTED_FIELDS: Record<string, string> = {
  id: 'the id is fixed',
  website_url: 'the website is the identity of the profile',
  domain: 'the website is the identity of the profile',
  is_verified: 'verification is granted by administrators (POST /api/tools/admin/companies/{tool_id}/verify)',
  is_featured: 'featuring is decided by administrators',
  featured: 'featuring is decided by administrators',
  verified: 'verification is granted by administrators',
  subscription: 'the subscription is set in billing or by administrators',
  plan: 'the subscription is set in billing or by administrators',
  owner: 'ownership comes from the verified sign-in, not from the profile',
  owners: 'ownership comes from the verified sign-in, not from the profile',
  owner_id: 'ownership comes from the verified sign-in, not from the profile',
  owner_email: 'ownership comes from the verified sign-in, not from the profile',
  user_id: 'ownership comes from the verified sign-in, not from the profile',
  logo_url: 'upload a logo with POST /api/tools/{tool_id}/logo',
  owner_edited_fields: 'kept by the service',
  source: 'kept by the service',
  accepts_proposals: 'follows verification',
  created_at: 'kept by the service',
  updated_at: 'kept by the service',
  deleted_at: 'use DELETE /api/tools/{tool_id}',
  embedding: 'computed by the service',
  search_vector: 'computed by the service',
  country_code: 'derived from country',
  phone_e164: 'derived from phone and country',
  locations: 'found by the crawl of the website',
};

/**
 * One service's price as owners send it: the currency in any case (stored upper case), checked against the known codes by the service.
 * `to` is one schema of two types, not a union: the app's ajv coerces types inside a union's branches, so null would be read as 0.
 */
const ServicePriceInput = Type.Object({
  service: Type.String({ minLength: 1, maxLength: SERVICE_NAME_MAX, description: 'The service, as you name it ("Boiler service")' }),
  from: Type.Number({ minimum: 0, maximum: 1e9, description: 'The lowest (or only) price' }),
  to: Type.Optional(Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: 0, maximum: 1e9, description: 'The highest price; leave out (or null) for a single or "from" price' })),
  currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217, e.g. EUR' }),
  unit: Type.Union(PRICE_UNITS.map((u) => Type.Literal(u)), { description: 'What the price is per' }),
}, { additionalProperties: false });

const SocialLinks = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500, pattern: '^https?://' }), {
  description: 'Network name → profile URL (http or https)',
  maxProperties: 20,
});

/** The editable fields with their bounds; every property optional (PUT changes only what is sent). */
export const ToolUpdateSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 5000, description: 'Plain text; markup is removed' })),
    industry: Type.Optional(Type.String({ maxLength: 200 })),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'One of the 25 categories (GET /api/v1/agent/categories)' })),
    service_type: Type.Optional(ServiceTypeSchema),
    country: Type.Optional(Type.String({ maxLength: 100, description: 'Country name or ISO code' })),
    city: Type.Optional(Type.String({ maxLength: 100 })),
    address: Type.Optional(Type.String({ maxLength: 300 })),
    keywords: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 120 }), { maxItems: 30 })),
    services: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 120 }), { maxItems: 50 })),
    languages: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z]{2})?$', description: 'ISO 639-1 code' }), { maxItems: 20 })),
    contact_email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
    phone: Type.Optional(Type.Union([Type.String({ minLength: 3, maxLength: 50, pattern: '^[0-9+()./ -]*[0-9][0-9+()./ -]*$' }), Type.Null()])),
    social_links: Type.Optional(SocialLinks),
    founded_year: Type.Optional(Type.Union([Type.Integer({ minimum: 1000, maximum: 2100 }), Type.Null()])),
    opening_hours: Type.Optional(Type.Unknown({
      description: 'The whole weekly schedule (the OpeningHours shape: monday … sunday as lists of ["HH:MM", "HH:MM"] pairs, and exceptions by date), in the company\'s time zone; null removes it. A bad time or date is a 422 naming where it is',
    })),
    price_range: Type.Optional(Type.Unknown({
      description: 'What you charge: { from, to (optional), currency (ISO 4217), unit (hour, day, job, visit, project, month, year, person, night, item) }; null removes it',
    })),
    service_prices: Type.Optional(Type.Union([Type.Array(ServicePriceInput, { maxItems: MAX_SERVICE_PRICES }), Type.Null()], {
      description: `The prices of single services, the whole list (at most ${MAX_SERVICE_PRICES}), each service once (compared without case); [] or null removes them. ` +
        'A bad entry is a 422 naming its index',
    })),
    service_areas: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: MAX_SERVICE_AREAS,
      description: `Places you serve beyond your own city (towns, regions or countries), the whole list (at most ${MAX_SERVICE_AREAS}); [] removes them`,
    })),
  },
  {
    $id: 'ToolUpdate',
    // Unknown and protected fields reach the service, which refuses them all in one 422.
    additionalProperties: true,
    description: `Only these fields can be changed. Any other field (${Object.keys(PROTECTED_FIELDS).slice(0, 6).join(', ')}, ...) is refused with 422 and nothing is applied.`,
  },
);
export type ToolUpdate = Static<typeof ToolUpdateSchema>;

const Timestamp = Type.String({ format: 'date-time' });

/** Fields every dashboard view of a company carries (lists and the detail page). */
const toolCoreProperties = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  website_url: Type.String(),
  domain: Type.String(),
  category: Type.String(),
  industry: Type.String(),
  description: Type.String({ description: 'Plain text' }),
  location: Type.Ref('Location'),
  service_type: ServiceTypeSchema,
  keywords: Type.Array(Type.String()),
  services: Type.Array(Type.String()),
  is_verified: Type.Boolean(),
  is_featured: Type.Boolean(),
  logo_url: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** A company in dashboard lists (my-tools, listings, recent, featured). */
export const ToolResponseSchema = Type.Object(toolCoreProperties, { $id: 'ToolResponse' });
export type ToolResponse = Static<typeof ToolResponseSchema>;

export const SubscriptionSchema = Type.Object(
  {
    plan: Type.String({ description: 'Plan name: free or pro (older records may carry another name, which counts as its entitlement says)' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('trialing'), Type.Literal('past_due'), Type.Literal('canceled')]),
    period_start: Type.Union([Timestamp, Type.Null()]),
    period_end: Type.Union([Timestamp, Type.Null()]),
    source: Type.String({ description: 'admin (set by hand) or the payment provider' }),
    note: Type.String(),
    updated_at: Timestamp,
  },
  { $id: 'Subscription' },
);
export type Subscription = Static<typeof SubscriptionSchema>;

/** The full company for its detail and edit pages. */
export const ToolDetailResponseSchema = Type.Object(
  {
    ...toolCoreProperties,
    country: Type.String(),
    city: Type.String(),
    address: Type.String(),
    languages: Type.Array(Type.String({ description: 'ISO 639-1' })),
    contact_email: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
    phone_e164: Type.Union([Type.String(), Type.Null()], { description: 'The phone in E.164, parsed for the company\'s country; null when it does not parse (set by the service)' }),
    social_links: Type.Record(Type.String(), Type.String()),
    founded_year: Type.Union([Type.Integer(), Type.Null()]),
    opening_hours: Type.Union([Type.Null(), Type.Ref('OpeningHours')]),
    timezone: Type.Union([Type.String(), Type.Null()], { description: 'IANA time zone of the city, which the opening hours are in (set by the service)' }),
    price_range: Type.Union([Type.Null(), Type.Ref('PriceRange')]),
    service_prices: Type.Array(Type.Ref('ServicePrice')),
    service_areas: Type.Array(Type.String()),
    photos: Type.Array(Type.Ref('Photo')),
    accepts_proposals: Type.Boolean({ description: 'Verified companies receive proposals from agents' }),
    subscription: Type.Union([Type.Ref('Subscription'), Type.Null()], { description: 'Null on the public view or when no plan was ever set' }),
    owner_edited_fields: Type.Array(Type.String(), { description: 'Fields set by hand; a re-crawl keeps them. Empty on the public view' }),
    ai_edit_undo_available: Type.Boolean({ description: 'POST .../ai-edit/undo would restore a snapshot. False on the public view' }),
    editable_fields: Type.Array(Type.String(), { description: 'Fields PUT /api/tools/{tool_id} accepts' }),
    source: Type.String({ description: 'Where the profile came from: import, seed, crawl, owner' }),
    profile_url: Type.String({ description: 'The agent API view of this company' }),
  },
  { $id: 'ToolDetailResponse' },
);
export type ToolDetailResponse = Static<typeof ToolDetailResponseSchema>;

export const FieldChangeSchema = Type.Object(
  {
    field: Type.String(),
    before: Type.Unknown(),
    after: Type.Unknown(),
  },
  { $id: 'FieldChange' },
);
export type FieldChange = Static<typeof FieldChangeSchema>;

export { ToolIdParams } from '../../platform/http.js';

export const ToolListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 2000, description: 'Words matched against name, industry, keywords, services, description and place' })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
});

export const RecentQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 8 })) });
export const FeaturedQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 24, default: 6 })) });

export const ToolListSchema = Type.Array(Type.Ref('ToolResponse'));

export const DeleteResponseSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  deleted: Type.Literal(true),
  deleted_at: Timestamp,
});

/**
 * The logo upload's multipart body, for the OpenAPI document only: the handler reads the file stream
 * itself (size limit while streaming), so Fastify never validates this body.
 */
export const LogoUploadBodySchema = Type.Object({
  file: Type.String({ format: 'binary', description: 'The logo: PNG, JPEG, WebP or SVG (recognised by content), at most 2 MB and 4096×4096 px' }),
}, { required: ['file'] });

export const LogoResponseSchema = Type.Object({
  logo_url: Type.String({ description: 'Stable public URL of the normalised logo' }),
  content_type: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  size_bytes: Type.Integer(),
  original_format: Type.String({ description: 'Format detected from the uploaded bytes' }),
});

export const PhotoIdParams = Type.Object({
  tool_id: Type.String({ format: 'uuid' }),
  photo_id: Type.String({ format: 'uuid' }),
});

export const PhotoUploadBodySchema = Type.Object({
  file: Type.String({ format: 'binary', description: 'The photo: JPEG, PNG or WebP (recognised by content), at most 8 MB and 8000×8000 px' }),
  caption: Type.Optional(Type.String({ maxLength: PHOTO_CAPTION_MAX, description: 'What the photo shows' })),
}, { required: ['file'] });

export const PhotoChangeSchema = Type.Object({
  caption: Type.Optional(Type.String({ maxLength: PHOTO_CAPTION_MAX })),
  position: Type.Optional(Type.Integer({
    minimum: 0, maximum: PHOTO_MAX_COUNT - 1,
    description: `Move the photo to this place in the gallery (0 is first; at most ${PHOTO_MAX_COUNT - 1}, as a gallery holds ${PHOTO_MAX_COUNT} photos)`,
  })),
}, { additionalProperties: false, minProperties: 1 });

export const GalleryResponseSchema = Type.Object({
  photo: Type.Optional(Type.Ref('Photo')),
  photos: Type.Array(Type.Ref('Photo'), { description: 'The whole gallery after the change, in order' }),
  max_photos: Type.Integer(),
});

export const AiEditRequestSchema = Type.Object(
  {
    instruction: Type.String({ minLength: 1, maxLength: 2000, description: 'Plain-language change, e.g. "we now also serve Austria; drop the old phone number"' }),
    apply: Type.Optional(Type.Boolean({ default: false, description: 'false (default): only propose. true: save a snapshot, then apply' })),
    changes: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Confirm step: the `proposed` object of an earlier preview, applied as shown (with apply=true) instead of interpreting again. Validated like PUT.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AiEditResponseSchema = Type.Object(
  {
    instruction: Type.String(),
    interpreter: Type.Union([Type.Literal('llm'), Type.Literal('rules'), Type.Literal('confirm')], {
      description: 'llm: the configured language model; rules: the built-in interpreter; confirm: changes sent by the caller',
    }),
    proposed: Type.Record(Type.String(), Type.Unknown(), { description: 'Field → new value; send it back as `changes` with apply=true to apply exactly this' }),
    diff: Type.Array(Type.Ref('FieldChange')),
    rejected: Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }), { description: 'Changes the model proposed that are not allowed or not valid; never applied' }),
    notes: Type.String(),
    applied: Type.Boolean(),
    undo_available: Type.Boolean(),
    tool: Type.Union([Type.Ref('ToolDetailResponse'), Type.Null()], { description: 'The updated company when applied' }),
  },
  { $id: 'AiEditResponse' },
);
export type AiEditResponse = Static<typeof AiEditResponseSchema>;

export const UndoResponseSchema = Type.Object({
  restored: Type.Array(Type.Ref('FieldChange')),
  tool: Type.Ref('ToolDetailResponse'),
});

export const EditHistoryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: offsetParam(),
});

export const EditHistorySchema = Type.Object({
  edits: Type.Array(
    Type.Object({
      id: Type.Integer(),
      source: Type.String({ description: 'edit, ai_edit, undo, logo, delete, admin' }),
      actor_kind: Type.String(),
      actor_email: Type.Union([Type.String(), Type.Null()]),
      changes: Type.Record(Type.String(), Type.Object({ before: Type.Unknown(), after: Type.Unknown() })),
      created_at: Timestamp,
    }),
  ),
  total: Type.Integer(),
});

/** Schemas registered once with app.addSchema (referenced with Type.Ref). */
export const toolSchemas = [ToolUpdateSchema, ToolResponseSchema, SubscriptionSchema, ToolDetailResponseSchema, FieldChangeSchema, AiEditResponseSchema];
