import { Type } from 'typebox';
import { z } from 'zod';
import { agentsSchemas, AgentInfoSchema, AgentKeyEnvelopeSchema } from '../agents/agents.schemas.js';
import { AskResponseSchema } from '../ask/ask.schemas.js';
import { CategoriesResponseSchema, CompanyLocationSchema, CompanyProfileSchema, CompanySummarySchema, LocationSchema, OpeningHoursSchema, PhotoSchema, PriceRangeSchema, ServicePriceSchema } from '../companies/companies.schemas.js';
import { BatchResultSchema, ProposalDetailSchema, ProposalListSchema, proposalsSchemas } from '../proposals/proposals.schemas.js';
import { SearchResponseSchema } from '../search/search.schemas.js';
import { reviewsSchemas } from '../reviews/reviews.schemas.js';
import { WebhookDeliveryListSchema, WebhookDeliverySchema, WebhookEndpointListSchema, WebhookEndpointSchema, WebhookSecretEnvelopeSchema, webhooksSchemas } from '../webhooks/webhooks.schemas.js';
import { ANSWER_STATUSES } from '../widget/widget.schemas.js';

type Json = Record<string, unknown>;

/** The $id'd response schemas the tools' results are built of (the REST routes' own). */
const REGISTRY = new Map<string, unknown>(
  [
    ...agentsSchemas, ...proposalsSchemas, ...webhooksSchemas, ...reviewsSchemas,
    LocationSchema, CompanyLocationSchema, OpeningHoursSchema, PriceRangeSchema, ServicePriceSchema, PhotoSchema,
    CompanySummarySchema, CompanyProfileSchema, CategoriesResponseSchema, SearchResponseSchema, AskResponseSchema,
  ].map((s): [string, unknown] => [(s as unknown as { $id: string }).$id, s]),
);

/** A TypeBox schema as a self-contained JSON Schema (an outputSchema stands alone): every Type.Ref inlined, $id dropped. */
export function inlineSchema(schema: unknown): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const { $id: _id, $ref, ...rest } = node as Json;
    const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]));
    if (typeof $ref !== 'string') return out;
    const target = REGISTRY.get($ref);
    if (!target) throw new Error(`outputSchema: no schema ${$ref}`);
    return { ...(walk(target) as Json), ...out };
  };
  // The JSON round trip drops TypeBox's symbol keys.
  return walk(JSON.parse(JSON.stringify(schema))) as Json;
}

/** The top-level fields a caller may pick with `fields`: of a search result, of a profile. */
export const SUMMARY_FIELDS: readonly string[] = Object.keys(CompanySummarySchema.properties);
export const PROFILE_FIELDS: readonly string[] = Object.keys(CompanyProfileSchema.properties);

/** With `fields`, a company carries only some of its properties: id is the one always there. */
const onlyIdRequired = (s: Json): Json => ({ ...s, required: ['id'] });

function searchOutput(): Json {
  const s = inlineSchema(SearchResponseSchema);
  const companies = (s.properties as Record<string, Json>).companies!;
  return { ...s, properties: { ...(s.properties as Json), companies: { ...companies, items: onlyIdRequired(companies.items as Json) } } };
}

const contactRoute = Type.Object({
  website: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  proposals: Type.String({ description: 'How an agent sends this company a proposal (verified companies only)' }),
});

/** outputSchema of every tool, by result shape. */
export const OUTPUTS = {
  search: searchOutput(),
  profile: onlyIdRequired(inlineSchema(CompanyProfileSchema)),
  categories: inlineSchema(CategoriesResponseSchema),
  ask: inlineSchema(AskResponseSchema),
  agentInfo: inlineSchema(AgentInfoSchema),
  agentKey: inlineSchema(AgentKeyEnvelopeSchema),
  proposal: inlineSchema(ProposalDetailSchema),
  proposalBatch: inlineSchema(BatchResultSchema),
  proposalList: inlineSchema(ProposalListSchema),
  webhookSecret: inlineSchema(WebhookSecretEnvelopeSchema),
  webhookList: inlineSchema(WebhookEndpointListSchema),
  webhook: inlineSchema(WebhookEndpointSchema),
  webhookDeleted: inlineSchema(Type.Object({ deleted: Type.Boolean(), id: Type.String({ format: 'uuid' }) })),
  deliveryList: inlineSchema(WebhookDeliveryListSchema),
  delivery: inlineSchema(WebhookDeliverySchema),
  servicesAndContact: inlineSchema(Type.Object({
    company_id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    services: Type.Array(Type.String()),
    service_type: Type.String(),
    languages: Type.Array(Type.String()),
    contact: Type.Object({
      email: Type.Union([Type.String(), Type.Null()]),
      phone: Type.Union([Type.String(), Type.Null()]),
      phone_e164: Type.Union([Type.String(), Type.Null()]),
      website: Type.String(),
      address: Type.String(),
      city: Type.String(),
      country: Type.String(),
    }),
    social_links: Type.Record(Type.String(), Type.String()),
    accepts_proposals: Type.Boolean(),
  })),
  companyAnswer: inlineSchema(Type.Object({
    company_id: Type.String({ format: 'uuid' }),
    company_name: Type.String(),
    question: Type.String(),
    answer_status: Type.Union(ANSWER_STATUSES.map((s) => Type.Literal(s)), {
      description: 'yes: the company\'s profile or pages state it (for a question asking whether it does something: it does); no: they state it does not; not_stated: they do not say',
    }),
    answer: Type.String({ description: 'Plain text, about this company only' }),
    answered_by: Type.Union([Type.Literal('model'), Type.Literal('profile')], { description: 'model: the language model grounded in the profile and pages; profile: the deterministic answer from them' }),
    accepts_proposals: Type.Boolean(),
    contact: contactRoute,
  })),
} satisfies Record<string, Json>;

const fieldNames = (v: string | string[]) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))];

/** The `fields` argument: comma-separated or an array of top-level field names; an unknown one is an argument error naming the valid ones. */
export function fieldsArgument(valid: readonly string[], of: string) {
  return z
    .union([z.string().max(2000), z.array(z.string().max(100)).max(100)])
    .superRefine((v, ctx) => {
      const unknown = fieldNames(v).filter((n) => !valid.includes(n));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; valid fields: ${valid.join(', ')}` });
    })
    .optional()
    .describe(`Only these top-level fields of ${of}, comma-separated or as an array (id is always included; default: all). Valid: ${valid.join(', ')}`);
}

/** Keeps id and the requested fields of one company; no (or an empty) `fields` keeps everything. */
export function project(company: object, fields: unknown): Record<string, unknown> {
  const names = typeof fields === 'string' || Array.isArray(fields) ? fieldNames(fields as string | string[]) : [];
  if (names.length === 0) return company as Record<string, unknown>;
  const keep = new Set(['id', ...names]);
  return Object.fromEntries(Object.entries(company).filter(([k]) => keep.has(k)));
}
