import { createHash, randomBytes } from 'node:crypto';
import type { AgentPrincipal, ApiKeyVerifier } from '../../platform/auth.js';
import type { Mailer } from '../../platform/mail.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import { apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, safeEqual } from '../../lib/api-key.js';
import { toPlainLine } from '../../lib/text.js';
import type { Db } from '../../platform/db.js';
import type { WebhookEmitter } from '../webhooks/webhooks.events.js';
import { createAgentsRepo, isUniqueViolation, type AgentsRepo, type BuiltinSender } from './agents.repo.js';
import type { AdminAgent, Agent, AgentInfo, AgentKeyEnvelope, AgentRow } from './agents.schemas.js';
import { emailDomain, isDisposableDomain } from '../../lib/email-domain.js';
import { domainAcceptsMail, systemDnsResolver, type MailDnsResolver } from '../../platform/mail-dns.js';
import { isoTime as iso } from '../../lib/time.js';
import { isUuid } from '../../lib/ids.js';

export interface AgentsServiceDeps {
  repo: AgentsRepo;
  serviceName: string;
  baseUrl: string;
  /** Sends the owner_email confirmation link (the only mail an unconfirmed address ever gets). */
  mail: Mailer;
  /** EMAIL_CHECK_MX: require an MX (or A/AAAA) record for the owner's email domain. */
  checkMx: boolean;
  /** DNS used by the MX check; tests pass a fake. */
  dns?: MailDnsResolver;
  /** Webhook events (agent.deactivated, agent.reactivated), recorded in the transaction of the change. */
  events?: { emitter: WebhookEmitter; db: Db };
}

/** Unconfirmed registrations one address may have waiting at once (each one mails a link to it). */
const MAX_PENDING_REGISTRATIONS = 3;
/** How long a registration may stay unconfirmed before its key stops working. */
export const EMAIL_CONFIRM_TTL_HOURS = 24;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Whether the agent's owner_email may receive mail (confirmed) and whether its key still works. */
export function emailConfirmed(row: Pick<AgentRow, 'email_confirmed_at'>): boolean {
  return row.email_confirmed_at !== null;
}
function confirmationExpired(row: Pick<AgentRow, 'email_confirmed_at' | 'email_confirm_expires_at'>): boolean {
  return row.email_confirmed_at === null && row.email_confirm_expires_at !== null && new Date(row.email_confirm_expires_at).getTime() <= Date.now();
}

export function toAgent(row: AgentRow): Agent {
  return { id: row.id, name: row.name, owner_email: row.owner_email, is_active: row.is_active };
}

export function createAgentsService({ repo, serviceName, baseUrl, mail, checkMx, dns = systemDnsResolver, events }: AgentsServiceDeps) {
  const prefix = apiKeyPrefix(serviceName);

  /** Sets is_active; a real change is an event for the agent's webhooks, committed with it. */
  async function changeActive(agentId: string, active: boolean): Promise<AgentRow | undefined> {
    if (!events) return repo.setActive(agentId, active);
    const row = await events.db.transaction(async (tx) => {
      const txRepo = createAgentsRepo(tx);
      const before = await txRepo.findById(agentId);
      const after = await txRepo.setActive(agentId, active);
      if (after && before && before.is_active !== active) {
        await events.emitter.emit(tx, { type: active ? 'agent.reactivated' : 'agent.deactivated', agentId, data: { agent_id: agentId } });
      }
      return after;
    });
    // A failure loses nothing: the webhooks sweep queues recorded deliveries every minute.
    await events.emitter.dispatch().catch(() => {});
    return row;
  }

  /** Normalises and vets an owner email (loc names the field for the 422). */
  async function vetEmail(raw: string, loc: string[]): Promise<string> {
    const email = raw.trim().toLowerCase();
    const domain = emailDomain(email);
    if (!domain.includes('.')) throw invalid(loc, 'Email domain must be a full domain such as example.com', raw);
    if (isDisposableDomain(domain)) {
      throw invalid(loc, 'Disposable email addresses are not accepted: use a real, active address you own', raw);
    }
    if (checkMx && (await domainAcceptsMail(domain, dns)) === 'no') {
      throw invalid(loc, `The email domain ${domain} does not accept mail (no MX or address record)`, raw);
    }
    return email;
  }

  function cleanName(raw: string, loc: string[]): string {
    const name = toPlainLine(raw).slice(0, 100);
    if (!name) throw invalid(loc, 'Name must contain visible text', raw, 'string_too_short');
    return name;
  }

  const duplicate = () => new AppError('conflict', 'An agent with this email already exists (one agent per owner email)');

  function envelope(row: AgentRow, apiKey: string, message: string): AgentKeyEnvelope {
    return {
      agent: toAgent(row),
      api_key: apiKey,
      message,
      usage: {
        header: `X-API-Key: ${apiKey}`,
        mcp_config: { mcpServers: { [serviceName]: { url: `${baseUrl}/mcp`, headers: { 'X-API-Key': apiKey } } } },
      },
    };
  }

  function info(row: AgentRow): AgentInfo {
    return {
      ...toAgent(row),
      created_at: iso(row.created_at),
      key_created_at: iso(row.key_created_at),
      email_confirmed: emailConfirmed(row),
      email_confirm_expires_at: !emailConfirmed(row) && row.email_confirm_expires_at ? iso(row.email_confirm_expires_at) : null,
    };
  }

  /** A fresh confirmation token (only its hash is stored) and the mail that carries it. */
  async function sendConfirmation(row: Pick<AgentRow, 'name' | 'owner_email'>, token: string): Promise<void> {
    const link = `${baseUrl}/api/v1/agent/confirm-email?token=${encodeURIComponent(token)}`;
    await mail.send({
      to: row.owner_email,
      subject: `Confirm your email for the agent "${row.name}"`,
      text: [
        `Someone registered the AI agent "${row.name}" on ${serviceName} with this address as its owner.`,
        '',
        `If it was you, confirm the address (the link works once, for ${EMAIL_CONFIRM_TTL_HOURS} hours):`,
        link,
        '',
        'Until it is confirmed, nothing else is sent to this address. If it was not you, ignore this mail:',
        `the registration expires in ${EMAIL_CONFIRM_TTL_HOURS} hours and its API key stops working.`,
        '',
        `-- ${serviceName}`,
      ].join('\n'),
    });
  }
  const newConfirmToken = () => randomBytes(32).toString('base64url');

  async function mustGet(id: string): Promise<AgentRow> {
    const row = await repo.findById(id);
    if (!row) throw notFound('Agent');
    return row;
  }

  /** X-API-Key → agent. Malformed keys are refused before any database access. */
  const verifyApiKey: ApiKeyVerifier = async (key) => {
    if (!isWellFormedApiKey(key, prefix)) return { ok: false, reason: 'malformed' };
    const hash = hashApiKey(key);
    const row = await repo.findByKeyHash(hash);
    // The lookup is by hash; the constant-time compare keeps the final check free of timing leaks.
    if (!row || !safeEqual(row.api_key_hash, hash)) return { ok: false, reason: 'unknown' };
    if (!row.is_active) return { ok: false, reason: 'inactive' };
    if (confirmationExpired(row)) return { ok: false, reason: 'unconfirmed' };
    const agent: AgentPrincipal = { agentId: row.id, name: row.name, ownerEmail: row.owner_email };
    return { ok: true, agent };
  };

  return {
    verifyApiKey,
    keyPrefix: prefix,
    isWellFormedKey: (key: string) => isWellFormedApiKey(key, prefix),

    async register(input: { name: string; owner_email: string }): Promise<AgentKeyEnvelope> {
      const name = cleanName(input.name, ['body', 'name']);
      const email = await vetEmail(input.owner_email, ['body', 'owner_email']);
      // Only a confirmed registration holds its address: an unconfirmed one never locks the real owner out.
      if (await repo.findConfirmedByEmail(email)) throw duplicate();
      if ((await repo.pendingRegistrations(email)) >= MAX_PENDING_REGISTRATIONS) {
        throw new AppError('conflict', `${MAX_PENDING_REGISTRATIONS} registrations for this address are already waiting for confirmation: follow one of the links mailed to it, or register again once they expire (${EMAIL_CONFIRM_TTL_HOURS} hours)`);
      }
      const apiKey = generateApiKey(prefix);
      const confirmToken = newConfirmToken();
      let row: AgentRow;
      try {
        row = await repo.insert({ name, ownerEmail: email, apiKeyHash: hashApiKey(apiKey), confirmHash: sha256(confirmToken), confirmTtlHours: EMAIL_CONFIRM_TTL_HOURS });
      } catch (err) {
        // Two registrations racing on one email: the unique index decides.
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
      await sendConfirmation(row, confirmToken);
      return envelope(
        row,
        apiKey,
        'Agent registered. Store the API key now: it is shown only once and cannot be retrieved later. ' +
          `A confirmation link was sent to ${email}: until it is followed nothing else is mailed there, and after ${EMAIL_CONFIRM_TTL_HOURS} hours an unconfirmed registration expires (its key stops working).`,
      );
    },

    /** Follows the emailed link: confirms the address once, before the link expires. */
    async confirmEmail(token: string): Promise<{ message: string; agent: AgentInfo }> {
      let row: AgentRow | undefined;
      try {
        row = await repo.confirmEmail(sha256(token));
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('conflict', 'This address was already confirmed by another agent: one agent per owner email');
        throw err;
      }
      if (!row) throw new AppError('bad_request', 'This confirmation link is unknown, already used or expired');
      return { message: `The address ${row.owner_email} is confirmed for the agent "${row.name}".`, agent: info(row) };
    },

    async me(agentId: string): Promise<AgentInfo> {
      return info(await mustGet(agentId));
    },

    /** Only supplied (non-null) fields change; a new email keeps the one-agent-per-email rule. */
    async update(agentId: string, patch: { name?: string | null; owner_email?: string | null }): Promise<AgentInfo> {
      const current = await mustGet(agentId);
      const name = patch.name == null ? undefined : cleanName(patch.name, ['body', 'name']);
      let email: string | undefined;
      if (patch.owner_email != null) {
        email = patch.owner_email.trim().toLowerCase();
        if (email === current.owner_email.toLowerCase()) email = undefined;
        else {
          email = await vetEmail(patch.owner_email, ['body', 'owner_email']);
          const other = await repo.findConfirmedByEmail(email);
          if (other && other.id !== agentId) throw duplicate();
        }
      }
      try {
        const row = await repo.update(agentId, { ...(name ? { name } : {}), ...(email ? { ownerEmail: email } : {}) });
        if (!row) throw notFound('Agent');
        if (!email) return info(row);
        // A new address is confirmed again before it receives anything.
        const confirmToken = newConfirmToken();
        await repo.requireConfirmation(agentId, sha256(confirmToken), EMAIL_CONFIRM_TTL_HOURS);
        await sendConfirmation(row, confirmToken);
        return info((await repo.findById(agentId))!);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
    },

    async rotateKey(agentId: string): Promise<AgentKeyEnvelope> {
      const apiKey = generateApiKey(prefix);
      const row = await repo.setKeyHash(agentId, hashApiKey(apiKey));
      if (!row) throw new AppError('unauthorized', 'API key belongs to a deactivated agent');
      return envelope(row, apiKey, 'New API key issued; the previous key no longer works. Store it now: it is shown only once.');
    },

    async deactivateSelf(agentId: string) {
      const row = await changeActive(agentId, false);
      if (!row) throw notFound('Agent');
      return { agent: toAgent(row), message: 'Agent deactivated. Its proposals are kept; its API key no longer works.' };
    },

    async getById(agentId: string): Promise<AgentRow | undefined> {
      return repo.findById(agentId);
    },

    /** The agent's owner_email once confirmed (the only address other modules may mail); undefined otherwise. */
    async confirmedEmailOf(agentId: string): Promise<string | undefined> {
      const row = await repo.findById(agentId);
      return row && emailConfirmed(row) ? row.owner_email : undefined;
    },

    /** The built-in sender of people's quote requests or widget leads (proposals' port). */
    builtinSender(kind: BuiltinSender): Promise<string> {
      return repo.builtinSender(kind);
    },

    // Administration

    async setActive(agentId: string, active: boolean): Promise<AgentRow> {
      const row = await changeActive(agentId, active);
      if (!row) throw notFound('Agent');
      return row;
    },

    async mustExist(agentId: string): Promise<AgentRow> {
      return mustGet(agentId);
    },

    async list(query: { q?: string; limit: number; offset: number; cursor?: string }) {
      let cursorId: string | undefined;
      if (query.cursor) {
        cursorId = decodeCursor(query.cursor);
        if (!cursorId || !(await repo.findById(cursorId))) throw invalid(['query', 'cursor'], 'Invalid cursor: use next_cursor from a previous page', query.cursor);
      }
      const q = query.q?.trim() || undefined;
      const { rows, total } = await repo.list({ q, limit: query.limit + 1, offset: query.offset, cursorId });
      const hasMore = rows.length > query.limit;
      const page = rows.slice(0, query.limit);
      return { rows: page, total, hasMore, nextCursor: hasMore && page.length ? encodeCursor(page[page.length - 1]!.id) : null };
    },

    toAdmin(row: AgentRow, counts: AdminAgent['proposal_counts'], reports: Pick<AdminAgent, 'reports' | 'blocked_by'> = { reports: 0, blocked_by: 0 }): AdminAgent {
      return {
        ...toAgent(row),
        created_at: iso(row.created_at),
        deactivated_at: row.deactivated_at ? iso(row.deactivated_at) : null,
        proposal_counts: counts,
        reports: reports.reports,
        blocked_by: reports.blocked_by,
      };
    },
  };
}

/** Opaque keyset cursor: the last agent's id. */
function encodeCursor(id: string): string {
  return Buffer.from(`a:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = text.startsWith('a:') ? text.slice(2) : '';
  return isUuid(id) ? id.toLowerCase() : undefined;
}

export type AgentsService = ReturnType<typeof createAgentsService>;
