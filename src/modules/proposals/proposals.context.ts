import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import type { CompaniesService } from '../companies/companies.service.js';
import type { WebhookEmitter } from '../webhooks/webhooks.events.js';
import type { StructuredInput } from './proposals.fields.js';
import type { ProposalsRepo } from './proposals.repo.js';

/**
 * What the agents module must offer proposals: the address an agent's answers are mailed to. A port,
 * so proposals do not import the agents module (whose administration lists proposals).
 */
export interface AgentAddresses {
  /** The agent's confirmed owner_email; undefined when nobody confirmed it (it then gets nothing but its confirmation link). */
  confirmedEmailOf(agentId: string): Promise<string | undefined>;
  /** The built-in sender that carries people's requests from a company page or a chat widget. */
  builtinSender(kind: PersonChannel): Promise<string>;
}

/** Where a person's request came from: the company page's quote form or the company's chat widget. */
export type PersonChannel = 'quote_form' | 'widget';

export interface ProposalsServiceDeps {
  db: Db;
  companies: CompaniesService;
  agents: AgentAddresses;
  /** Company ownership from the accounts module: which companies a user owns, and one check. */
  ownership: {
    companyIdsOf(userId: string): Promise<string[]>;
    owns(userId: string, companyId: string): Promise<boolean>;
    isClaimed(companyId: string): Promise<boolean>;
  };
  /** Notifications: absent mailer = no emails (tests of other modules, early wiring). */
  mail?: Mailer | undefined;
  ownerEmailsOf?: ((companyId: string) => Promise<string[]>) | undefined;
  serviceName: string;
  baseUrl: string;
  log?: { warn(obj: object, msg: string): void };
  /** Webhook events for the agent: recorded in the transaction of the change, dispatched after it. */
  events?: WebhookEmitter | undefined;
  /**
   * The reviews module's port: the customer of an approved proposal is invited to review the work, in the approval's
   * transaction (`owners`: the company's owners' addresses, read before it). Returns the mail ids to dispatch.
   */
  reviewInvitations?: { inviteIn(tx: Queryable, proposalId: string, owners: readonly string[]): Promise<string[]> } | undefined;
}

/** What every verb group of the proposals service shares. */
export interface ProposalsCtx {
  deps: ProposalsServiceDeps;
  repo: ProposalsRepo;
}

export interface ProposalInput extends StructuredInput {
  customer_email: string;
  customer_name: string;
  description: string;
  type?: 'standard' | 'custom' | undefined;
}
