import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { testConfig } from '../../config.js';
import { createJobs, type Jobs } from '../../platform/jobs.js';
import { createMailer, type MailService } from '../../platform/mail.js';
import { createTestDb } from '../../../test/helpers/index.js';
import { startSmtpSink } from '../../../test/fakes/smtp.js';
import type { Db } from '../../platform/db.js';

describe('mailer: outbox first, SMTP in a background job with retries', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let jobs: Jobs;
  let mail: MailService;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

  before(async () => {
    ({ db, drop } = await createTestDb());
    smtp = await startSmtpSink();
    const log = Fastify({ logger: { level: 'silent' } }).log;
    jobs = createJobs(db, log);
    mail = createMailer({ config: { ...testConfig(), smtpUrl: smtp.url }, db, jobs, log, retryDelaySeconds: 1 });
    await jobs.start({ work: true });
  });
  after(async () => {
    await jobs.stop();
    await mail.close();
    await smtp.close();
    await drop();
  });

  it('delivers through SMTP and records the message as sent', async () => {
    await mail.send({ to: 'a@example.com', subject: 'Hello', text: 'Plain body https://x.test/a?token=1', html: '<p>Hello</p>' });
    const got = await smtp.waitFor((m) => m.to.includes('a@example.com'));
    assert.match(got.text, /Subject: Hello/);
    assert.match(got.text, /Plain body/);
    let row;
    for (let i = 0; i < 100; i++) {
      [row] = await mail.recent({ to: 'a@example.com' });
      if (row?.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(row!.status, 'sent');
    assert.equal(row!.attempts, 1);
  });

  it('retries when the SMTP server refuses, and nothing is lost', async () => {
    smtp.failNext(1);
    await mail.send({ to: 'retry@example.com', subject: 'Retry me', text: 'body' });
    const [queued] = await mail.recent({ to: 'retry@example.com' });
    assert.ok(queued, 'stored before delivery');
    await smtp.waitFor((m) => m.to.includes('retry@example.com'));
    let row;
    for (let i = 0; i < 100; i++) {
      [row] = await mail.recent({ to: 'retry@example.com' });
      if (row?.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(row!.status, 'sent');
    assert.equal(row!.attempts, 2);
  });

  it('requeuePending does not duplicate a queued message', async () => {
    await mail.requeuePending();
    const rows = await mail.recent();
    assert.equal(rows.filter((r) => r.to_address === 'a@example.com').length, 1);
    assert.equal(smtp.messages.filter((m) => m.to.includes('a@example.com')).length, 1);
  });
});
