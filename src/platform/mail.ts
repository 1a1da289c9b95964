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
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
