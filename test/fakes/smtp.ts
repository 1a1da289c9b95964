import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A received message: envelope recipients and the decoded text of the raw message. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone (enough to read links). */
  text: string;
}

/** Undoes quoted-printable: soft line breaks and =XX escapes. */
export function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * A real SMTP server on a free local port for tests. `failNext(n)` makes the next n messages
 * be refused (451), to exercise retries.
 */
export async function startSmtpSink(): Promise<{
  url: string;
  messages: ReceivedMail[];
  waitFor: (predicate: (m: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  failNext: (n: number) => void;
  close: () => Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          const e = new Error('Try again later') as Error & { responseCode: number };
          e.responseCode = 451;
          callback(e);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  // A client that dies mid-session (the crash test kills the server process) resets its connection;
  // smtp-server reports that as an 'error' event, which would otherwise be an uncaught exception.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext: (n) => {
      failures = n;
    },
    // Waiting for the background job to deliver: a bound on waiting, not a timing assertion.
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no matching mail arrived');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
