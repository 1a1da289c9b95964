import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/index.js';

// Issue 20: the queue's supervision pass (statistics, expiry, retention) runs on both stores.
describe('job queue supervision', () => {
  const t = useTestApp({ runJobs: true });

  it('runs the monitor and supervise passes without error and reports queue statistics', async () => {
    const errors: unknown[] = [];
    const boss = t.app.services.jobs.boss;
    boss.on('error', (e: unknown) => errors.push(e));
    await t.app.services.mail.send({ to: 'someone@example.org', subject: 'hello', text: 'queued' });
    await boss.supervise();
    const stats = await boss.getQueueStats('mail.send');
    assert.ok(Array.isArray(stats));
    assert.deepEqual(errors, []);
  });
});
