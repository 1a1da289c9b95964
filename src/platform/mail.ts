import type { FastifyBaseLogger } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import type { Queryable } from './db.js';
import { jobName, type Jobs } from './jobs.js';
import { mailOutcomes } from './outcomes.js';

/**
 * Outgoing mail contract. The implementation (createMailer, in this file, built by the accounts
 * work) enqueues a job: SMTP when SMTP_URL is set, otherwise the outbox table + log.
 * `send` returns once the message is durably queued, never waiting on the mail server.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A one-click unsubscribe address (RFC 8058): sent as List-Unsubscribe with List-Unsubscribe-Post. */
  listUnsubscribe?: string;
  /** Where the reader's answer goes (a company answering a person: the company's own address). */
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /**
   * Stores the message inside the caller's transaction, so it commits (or vanishes) with the
   * change it reports: a crash after the commit cannot lose it. Returns the outbox id when a
   * delivery job must follow; pass the ids to `dispatch` once the transaction has committed.
   */
  queueIn(tx: Queryable, message: MailMessage): Promise<string | undefined>;
  /** Enqueues delivery of messages stored by `queueIn`; one missed here is requeued at the next start. */
  dispatch(ids: readonly string[]): Promise<void>;
}

/** One stored message of the outbox (the developer mailbox and tests read these). */
export interface OutboxMessage {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  list_unsubscribe: string | null;
  reply_to: string | null;
  status: 'queued' | 'sent' | 'logged' | 'failed';
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface MailService extends Mailer {
  /** Newest first; for the developer mailbox and tests. */
  recent(options?: { limit?: number; to?: string }): Promise<OutboxMessage[]>;
  /** Re-enqueues messages still queued (after a crash between the insert and the enqueue). */
  requeuePending(): Promise<number>;
  close(): Promise<void>;
}

export interface MailerDeps {
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'nodeEnv' | 'serviceName'>;
  db: Queryable;
  jobs: Jobs;
  log: FastifyBaseLogger;
  /** First retry delay (doubles each time); tests shorten it. */
  retryDelaySeconds?: number;
}

export const MAIL_JOB = jobName<{ id: string }>('mail.send');
const MAIL_RETRY_LIMIT = 8;

/**
 * Outbox-first delivery. `send` stores the message and enqueues `mail.send` (job id = outbox
 * id, so a re-enqueue never duplicates it); the job talks to SMTP with retries and backoff, so
 * a slow or failing mail server never slows a request and nothing is lost on restart.
 * Without SMTP_URL the message is only stored (the log says that it was, never its body), so
 * a developer on the same machine can follow the link from /dev/mailbox.
 */
export function createMailer({ config, db, jobs, log, retryDelaySeconds = 10 }: MailerDeps): MailService {
  let transport: Transporter | undefined;
  const smtp = () => {
    transport ??= createTransport({
      url: config.smtpUrl!,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return transport;
  };

  jobs.define<{ id: string }>({
    name: MAIL_JOB,
    retryLimit: MAIL_RETRY_LIMIT,
    retryDelaySeconds,
    // Each worker fetches one job per polling interval (0.5 s): one worker sent 2 mails a second,
    // so a burst of proposals (or a restart with a backlog) waited minutes for its notifications.
    concurrency: 6,
    async handler({ id }, meta) {
      const [row] = await db.query<OutboxMessage>('SELECT * FROM mail_outbox WHERE id = $1', [id]);
      if (!row || row.status === 'sent' || row.status === 'logged') return;
      try {
        await smtp().sendMail({
          from: config.mailFrom,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          ...(row.html_body ? { html: row.html_body } : {}),
          ...(row.reply_to ? { replyTo: row.reply_to } : {}),
          ...(row.list_unsubscribe ? { list: { unsubscribe: row.list_unsubscribe }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
        });
      } catch (err) {
        const last = meta.retryCount >= MAIL_RETRY_LIMIT;
        await db.query(
          `UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, status = CASE WHEN $3 THEN 'failed' ELSE status END WHERE id = $1`,
          [id, String((err as Error).message ?? err).slice(0, 500), last],
        );
        log.warn({ mailId: id, attempt: meta.retryCount + 1, err: (err as Error).message }, 'mail delivery failed');
        mailOutcomes.inc({ outcome: last ? 'failed' : 'retry' });
        throw err;
      }
      await db.query(`UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, last_error = NULL, sent_at = now() WHERE id = $1`, [id]);
      log.info({ mailId: id, subject: row.subject }, 'mail sent');
      mailOutcomes.inc({ outcome: 'sent' });
    },
  });

  /** Inserts the outbox row; without SMTP that row is the delivery (status logged). */
  async function store(q: Queryable, message: MailMessage): Promise<string | undefined> {
    if (!config.smtpUrl) {
      const [row] = await q.query<{ id: string }>(
        `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, list_unsubscribe, reply_to, status, sent_at) VALUES ($1, $2, $3, $4, $5, $6, 'logged', now()) RETURNING id`,
        [message.to, message.subject, message.text, message.html ?? null, message.listUnsubscribe ?? null, message.replyTo ?? null],
      );
      mailOutcomes.inc({ outcome: 'logged' });
      // Never the body: it may hold a sign-in link, and logs travel further than the outbox.
      if (config.nodeEnv === 'production') {
        log.warn({ mailId: row!.id, subject: message.subject }, 'SMTP_URL is not set: mail kept in the outbox, not delivered');
      } else {
        log.info({ mailId: row!.id, subject: message.subject }, 'mail queued in the outbox (no SMTP configured; open /dev/mailbox from this machine)');
      }
      return undefined;
    }
    const [row] = await q.query<{ id: string }>(
      `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, list_unsubscribe, reply_to) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [message.to, message.subject, message.text, message.html ?? null, message.listUnsubscribe ?? null, message.replyTo ?? null],
    );
    return row!.id;
  }

  async function dispatch(ids: readonly string[]): Promise<void> {
    for (const id of ids) await jobs.send(MAIL_JOB, { id }, { id });
  }

  return {
    async send(message) {
      const id = await store(db, message);
      if (id) await dispatch([id]);
    },

    queueIn: store,
    dispatch,

    async recent({ limit = 50, to } = {}) {
      return db.query<OutboxMessage>(
        `SELECT * FROM mail_outbox WHERE ($2::text IS NULL OR lower(to_address) = lower($2)) ORDER BY created_at DESC, id DESC LIMIT $1`,
        [limit, to ?? null],
      );
    },

    async requeuePending() {
      if (!config.smtpUrl) return 0;
      const rows = await db.query<{ id: string }>(`SELECT id FROM mail_outbox WHERE status = 'queued' ORDER BY created_at LIMIT 1000`);
      for (const r of rows) await jobs.send(MAIL_JOB, { id: r.id }, { id: r.id });
      return rows.length;
    },

    async close() {
      transport?.close();
    },
  };
}
