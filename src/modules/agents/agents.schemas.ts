import { offsetParam } from '../../platform/http.js';
import { Type, type Static } from 'typebox';

/** Spec 2.1: exactly these four fields. */
export const AgentSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    owner_email: Type.String(),
    is_active: Type.Boolean({ description: 'false after deactivation; a deactivated agent\'s key is refused' }),
  },
  { $id: 'Agent' },
);
export type Agent = Static<typeof AgentSchema>;

/** GET/PUT /me: the agent plus when it and its current key were created. */
export const AgentInfoSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    owner_email: Type.String(),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    key_created_at: Type.String({ format: 'date-time', description: 'When the current API key was issued (registration or last rotation)' }),
    email_confirmed: Type.Boolean({ description: 'Whether owner_email was confirmed by the emailed link; until then nothing else is mailed to it' }),
    email_confirm_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'While unconfirmed: when the link expires; after that the key stops working and the address is free to register again',
    }),
  },
  { $id: 'AgentInfo' },
);
export type AgentInfo = Static<typeof AgentInfoSchema>;

/** Spec 2.3 registration envelope; key rotation answers the same shape. */
export const AgentKeyEnvelopeSchema = Type.Object(
  {
    agent: Type.Ref('Agent'),
    api_key: Type.String({ description: 'Shown once; only a hash is stored. Send it as the X-API-Key header.' }),
    message: Type.String(),
    usage: Type.Object({
      header: Type.String({ description: 'The header line to send, e.g. "X-API-Key: agp_live_..."' }),
      mcp_config: Type.Object({
        mcpServers: Type.Record(
          Type.String(),
          Type.Object({
            url: Type.String({ description: 'This service\'s agent MCP endpoint' }),
            headers: Type.Object({ 'X-API-Key': Type.String() }),
          }),
        ),
      }),
    }),
  },
  { $id: 'AgentKeyEnvelope' },
);
export type AgentKeyEnvelope = Static<typeof AgentKeyEnvelopeSchema>;

export const AgentDeactivatedSchema = Type.Object(
  {
    agent: Type.Ref('Agent'),
    message: Type.String(),
  },
  { $id: 'AgentDeactivated' },
);

const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
const Name = Type.String({ minLength: 1, maxLength: 100 });

export const RegisterBody = Type.Object(
  { name: Name, owner_email: Email },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Type.Union([Name, Type.Null()])),
    owner_email: Type.Optional(Type.Union([Email, Type.Null()])),
  },
  { additionalProperties: false },
);
export type UpdateAgentBody = Static<typeof UpdateAgentBody>;

// Administration (spec 4.5)

export const ProposalCountsSchema = Type.Object({
  total: Type.Integer(),
  pending: Type.Integer(),
  approved: Type.Integer(),
  rejected: Type.Integer(),
  responded: Type.Integer(),
});

export const AdminAgentSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    owner_email: Type.String(),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    deactivated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    proposal_counts: ProposalCountsSchema,
    reports: Type.Integer({ description: 'Times companies reported this agent (spam, abuse)' }),
    blocked_by: Type.Integer({ description: 'Companies that blocked this agent' }),
  },
  { $id: 'AdminAgent' },
);
export type AdminAgent = Static<typeof AdminAgentSchema>;

export const AdminAgentListSchema = Type.Object(
  {
    agents: Type.Array(Type.Ref('AdminAgent')),
    total: Type.Integer({ description: 'Agents matching q' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page (keyset); null at the end' }),
  },
  { $id: 'AdminAgentList' },
);

export const AdminAgentListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: offsetParam(),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page; when given, offset is ignored' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Substring of the name or owner email' })),
});

export const AgentIdParams = Type.Object({ agent_id: Type.String({ format: 'uuid' }) });

export const AgentReportSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    agent_id: Type.String({ format: 'uuid' }),
    agent_name: Type.String(),
    agent_active: Type.Boolean(),
    company_id: Type.String({ format: 'uuid' }),
    company_name: Type.String({ description: 'The company whose owner reported the agent' }),
    proposal_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    proposal_text: Type.Union([Type.String(), Type.Null()], { description: 'What the agent sent (its first 600 characters)' }),
    reason: Type.Union([Type.Literal('spam'), Type.Literal('abuse'), Type.Literal('other')]),
    note: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    open_reports_of_agent: Type.Integer(),
    blocked_by: Type.Integer({ description: 'Companies that blocked this agent' }),
  },
  { $id: 'AgentReport' },
);
export const AgentReportQueueSchema = Type.Object({ reports: Type.Array(Type.Ref('AgentReport'), { description: 'Open reports, oldest first (at most 100)' }) }, { $id: 'AgentReportQueue' });
export const AgentReportIdParams = Type.Object({ report_id: Type.String({ format: 'uuid' }) });
export const ResolveAgentReportBody = Type.Object({
  decision: Type.Union([Type.Literal('dismiss'), Type.Literal('deactivate_agent')], {
    description: 'dismiss closes this report; deactivate_agent deactivates the agent (its key is refused, its webhooks hear agent.deactivated) and closes all its open reports',
  }),
});

export interface AgentRow {
  id: string;
  name: string;
  owner_email: string;
  is_active: boolean;
  api_key_hash: string;
  key_created_at: Date | string;
  deactivated_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  /** Null until the owner follows the confirmation link. */
  email_confirmed_at: Date | string | null;
  email_confirm_expires_at: Date | string | null;
}

/** $id'd schemas registered once in app.ts (referenced with Type.Ref). */
export const agentsSchemas = [AgentSchema, AgentInfoSchema, AgentKeyEnvelopeSchema, AgentDeactivatedSchema, AdminAgentSchema, AdminAgentListSchema, AgentReportSchema, AgentReportQueueSchema];
