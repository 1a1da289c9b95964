import { offsetParam } from '../../platform/http.js';
import { Type, type Static } from 'typebox';
import type { ProposalStatus } from './proposal-status.js';
import { DETAIL_KEY_PATTERN, MAX_BUDGET, MAX_DETAIL_KEY, MAX_DETAIL_NUMBER, MAX_DETAIL_TEXT, MAX_DETAILS, MAX_LOCATION, NEEDED_BY_YEARS } from './proposals.fields.js';

export const StatusSchema = Type.Union(
  [Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('responded')],
  { description: 'pending, approved, rejected or responded' },
);
export const TypeSchema = Type.Union([Type.Literal('standard'), Type.Literal('custom')], { description: 'standard or custom; default custom' });
const ActionSchema = Type.Union([Type.Literal('approve'), Type.Literal('reject'), Type.Literal('respond')]);

export const ProposalMessageSchema = Type.Object(
  {
    id: Type.Integer(),
    author_role: Type.Union([Type.Literal('agent'), Type.Literal('company')]),
    kind: Type.Union([Type.Literal('request'), Type.Literal('reply'), Type.Literal('response')], {
      description: "request: the agent's original description; reply: an agent reply; response: a company response",
    }),
    action: Type.Union([ActionSchema, Type.Null()], { description: 'For company responses: approve, reject or respond' }),
    text: Type.String({ description: 'Plain text' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ProposalMessage' },
);
export type ProposalMessage = Static<typeof ProposalMessageSchema>;

const proposalFields = {
  id: Type.String({ format: 'uuid' }),
  agent_id: Type.String({ format: 'uuid' }),
  agent_name: Type.String(),
  origin: Type.Union([Type.Literal('agent'), Type.Literal('quote_form'), Type.Literal('widget')], {
    description:
      "Who sent it: an agent, or a person (quote_form: the company page's \"Ask for a quote\"; widget: the company's chat widget). " +
      "A person's request is answered by email: the company's answer is mailed to customer_email.",
  }),
  company_id: Type.String({ format: 'uuid' }),
  company_name: Type.String(),
  customer_email: Type.String(),
  customer_name: Type.String(),
  description: Type.String(),
  type: TypeSchema,
  budget: Type.Union([Type.Object({ amount: Type.Number(), currency: Type.String({ description: 'ISO 4217, upper case' }) }), Type.Null()], {
    description: 'The budget the request named, or null',
  }),
  needed_by: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The date the work is needed by (YYYY-MM-DD), or null' }),
  location: Type.Union([Type.String(), Type.Null()], { description: 'Where the work is to be done, or null' }),
  details: Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])), Type.Null()], {
    description: 'Category-specific details (snake_case keys), or null',
  }),
  delivery: Type.Union([Type.Literal('dashboard'), Type.Literal('email'), Type.Literal('none')], {
    description:
      'How the proposal reached the company when it was sent: dashboard (an owner reads the inbox and is told by email), email (the listing was unclaimed: ' +
      "the company's public address was invited to claim it and answer, at most once every 30 days) or none (unclaimed, and no public address to invite: nobody could read it yet)",
  }),
  delivery_note: Type.String({ description: 'The same in a sentence an agent can pass on' }),
  status: StatusSchema,
  message_count: Type.Integer({ description: 'Messages in the conversation thread, the original request included' }),
  is_deleted: Type.Boolean({ description: 'Soft-deleted by the company (hidden from its listings)' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const ProposalSchema = Type.Object(proposalFields, { $id: 'Proposal' });
export type Proposal = Static<typeof ProposalSchema>;

/** A proposal with its conversation thread, oldest first. */
export const ProposalDetailSchema = Type.Object(
  { ...proposalFields, messages: Type.Array(Type.Ref('ProposalMessage')) },
  { $id: 'ProposalDetail' },
);
export type ProposalDetail = Proposal & { messages: ProposalMessage[] };

export const ProposalListSchema = Type.Object(
  {
    proposals: Type.Array(Type.Ref('Proposal')),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  },
  { $id: 'ProposalList' },
);

export const ProposalDetailListSchema = Type.Object(
  {
    proposals: Type.Array(Type.Ref('ProposalDetail')),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  },
  { $id: 'ProposalDetailList' },
);

export const BatchResultSchema = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        company_id: Type.String(),
        outcome: Type.Union([Type.Literal('created'), Type.Literal('refused')]),
        proposal: Type.Optional(Type.Ref('Proposal')),
        reason: Type.Optional(Type.Union([Type.Literal('not_found'), Type.Literal('not_verified'), Type.Literal('blocked')])),
        detail: Type.Optional(Type.String()),
      }),
      { description: 'One entry per distinct company id, in request order' },
    ),
    created: Type.Integer(),
    refused: Type.Integer(),
  },
  { $id: 'ProposalBatchResult' },
);
export interface BatchResult {
  results: { company_id: string; outcome: 'created' | 'refused'; proposal?: Proposal; reason?: 'not_found' | 'not_verified' | 'blocked'; detail?: string }[];
  created: number;
  refused: number;
}

const DETAIL_VALUE = `Plain text on one line (1 to ${MAX_DETAIL_TEXT} characters), a number (-${MAX_DETAIL_NUMBER} to ${MAX_DETAIL_NUMBER}) or a boolean; never an object, a list or null`;

/** The JSON Schema of `details`, around the schema of one value. */
function detailsSchema(value: Record<string, unknown>) {
  return {
    type: 'object',
    maxProperties: MAX_DETAILS,
    propertyNames: { type: 'string', maxLength: MAX_DETAIL_KEY, pattern: DETAIL_KEY_PATTERN },
    additionalProperties: value,
    description:
      `Category-specific facts the company needs to quote: at most ${MAX_DETAILS} snake_case keys (at most ${MAX_DETAIL_KEY} characters) to plain text, a number or a boolean. ` +
      'Examples by category: Construction & Home Services {"property_type": "house", "area_m2": 120, "floors": 2, "occupied": true}; ' +
      'Legal {"matter_type": "tenancy dispute", "jurisdiction": "DE", "opposing_party": "landlord"}; ' +
      'Logistics & Transportation {"from_city": "Berlin", "to_city": "Munich", "volume_m3": 30, "packing_needed": true}; ' +
      'Healthcare {"patient_age": 42, "insurance": "public"}; Technology {"platform": "web", "users": 500, "integrations": "Stripe, HubSpot"}; ' +
      'Hospitality & Travel {"guests": 4, "nights": 3}; Finance {"entity_type": "GmbH", "employees": 12}; Automotive {"vehicle": "VW Golf 2018", "mileage_km": 85000}.',
  };
}

/**
 * `details` for the MCP tools' arguments, with the value types spelled out: zod does not coerce types, so there the
 * union is safe, and a model reads the types from the tool's inputSchema.
 */
export const ToolDetailsSchema = detailsSchema({ type: ['string', 'number', 'boolean'], maxLength: MAX_DETAIL_TEXT, minimum: -MAX_DETAIL_NUMBER, maximum: MAX_DETAIL_NUMBER, description: DETAIL_VALUE });

/**
 * The structured fields of a request (issue 37). What JSON Schema cannot say is checked by the service
 * (proposals.fields.ts). A detail value has no `type` here on purpose: the app's validator coerces types, and a union
 * of string, number and boolean would turn 5 into "5"; the service checks the value's type instead.
 */
const structuredFields = {
  budget: Type.Optional(
    Type.Object(
      {
        amount: Type.Number({ exclusiveMinimum: 0, maximum: MAX_BUDGET, description: `Greater than 0, at most 2 decimal places, at most ${MAX_BUDGET}` }),
        currency: Type.String({ minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code of a currency in use (EUR, USD, GBP, …); stored upper-cased' }),
      },
      { additionalProperties: false, description: 'What the customer means to spend: {"amount": 2500, "currency": "EUR"}' },
    ),
  ),
  needed_by: Type.Optional(
    Type.String({ format: 'date', description: `When the work is needed by: a calendar date YYYY-MM-DD, today (UTC) or later, at most ${NEEDED_BY_YEARS} years ahead` }),
  ),
  location: Type.Optional(
    Type.String({ minLength: 1, maxLength: MAX_LOCATION, description: 'Where the work is to be done (address, district or city): plain text on one line, no control characters' }),
  ),
  details: Type.Optional(Type.Unsafe<Record<string, unknown>>(detailsSchema({ description: DETAIL_VALUE }))),
};

const common = {
  customer_email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  customer_name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ minLength: 1, maxLength: 10_000 }),
  type: Type.Optional(TypeSchema),
  ...structuredFields,
};

export const CreateProposalBody = Type.Object(
  { company_id: Type.String({ format: 'uuid' }), ...common },
  { additionalProperties: false },
);
export type CreateProposalBody = Static<typeof CreateProposalBody>;

export const BatchProposalBody = Type.Object(
  { company_ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 10, description: 'Up to 10; duplicates collapse' }), ...common },
  { additionalProperties: false },
);
export type BatchProposalBody = Static<typeof BatchProposalBody>;

export { IdempotencyHeaders } from '../../platform/http.js';

export const ReplyBody = Type.Object({ message: Type.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: false });

export const ProposalResponseRequest = Type.Object(
  {
    action: Type.Union([Type.Literal('approve'), Type.Literal('reject'), Type.Literal('respond')], {
      description: 'approve → approved, reject → rejected, respond → responded',
    }),
    message: Type.Optional(Type.String({ maxLength: 10_000, description: 'Required for respond; optional note for approve/reject' })),
  },
  { additionalProperties: false, $id: 'ProposalResponseRequest' },
);
export type ProposalResponseRequest = Static<typeof ProposalResponseRequest>;

export const ProposalIdParams = Type.Object({ proposal_id: Type.String({ format: 'uuid' }) });

export const AgentListQuery = Type.Object({
  status: Type.Optional(StatusSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: offsetParam(),
});

export const OwnerListQuery = Type.Object({
  status: Type.Optional(StatusSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: offsetParam(),
  include_deleted: Type.Optional(Type.Boolean({ default: false })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Substring of the customer name or email' })),
});

export const AdminAgentProposalsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: offsetParam(),
  include_deleted: Type.Optional(Type.Boolean({ default: false })),
});

export interface ProposalRow {
  id: string;
  agent_id: string;
  agent_name: string;
  /** agents.kind: 'api' for an agent */
  origin: 'api' | 'quote_form' | 'widget';
  company_id: string;
  company_name: string;
  customer_email: string;
  customer_name: string;
  description: string;
  type: 'standard' | 'custom';
  /** numeric(15,2): a string from node-postgres */
  budget_amount: string | number | null;
  budget_currency: string | null;
  /** YYYY-MM-DD (read with to_char) */
  needed_by: string | null;
  location: string | null;
  details: Record<string, string | number | boolean> | null;
  delivery: 'dashboard' | 'email' | 'none';
  status: ProposalStatus;
  message_count: number;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at: Date | string | null;
}

export interface MessageRow {
  id: number | string;
  proposal_id: string;
  author_role: 'agent' | 'company';
  kind: 'request' | 'reply' | 'response';
  action: 'approve' | 'reject' | 'respond' | null;
  text: string;
  created_at: Date | string;
}

/** $id'd schemas registered once in app.ts (referenced with Type.Ref). */
export const proposalsSchemas = [ProposalMessageSchema, ProposalSchema, ProposalDetailSchema, ProposalListSchema, ProposalDetailListSchema, BatchResultSchema, ProposalResponseRequest];
