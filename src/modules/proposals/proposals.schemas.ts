import { offsetParam } from '../../platform/http.js';
import { Type, type Static } from 'typebox';
import type { ProposalStatus } from './proposal-status.js';

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
  company_id: Type.String({ format: 'uuid' }),
  company_name: Type.String(),
  customer_email: Type.String(),
  customer_name: Type.String(),
  description: Type.String(),
  type: TypeSchema,
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
        reason: Type.Optional(Type.Union([Type.Literal('not_found'), Type.Literal('not_verified')])),
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
  results: { company_id: string; outcome: 'created' | 'refused'; proposal?: Proposal; reason?: 'not_found' | 'not_verified'; detail?: string }[];
  created: number;
  refused: number;
}

const common = {
  customer_email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  customer_name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ minLength: 1, maxLength: 10_000 }),
  type: Type.Optional(TypeSchema),
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
  company_id: string;
  company_name: string;
  customer_email: string;
  customer_name: string;
  description: string;
  type: 'standard' | 'custom';
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
