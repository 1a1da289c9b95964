import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { type TestContext, useTestApp } from '../../../test/helpers/index.js';
import { INSIGHT_PURGE_JOB, INSIGHT_RETENTION_DAYS } from './insights.service.js';

/** Rows aged in days, directory-wide (company_id NULL). */
async function insertAged(t: TestContext, ages: number[]) {
  for (const days of ages) {
    await t.db.query(
      `INSERT INTO insight_queries (company_id, category, question, source, reason, created_at)
       VALUES (NULL, 'Other', $1, 'search', 'no_result', now() - make_interval(days => $2))`,
      [`asked ${days} days ago`, days],
    );
  }
}

const questions = async (t: TestContext) =>
  (await t.db.query<{ question: string }>('SELECT question FROM insight_queries ORDER BY created_at')).map((r) => r.question);

describe('insights retention: daily purge job', () => {
  describe('web process without a job runner (jobs in a separate worker)', () => {
    const t = useTestApp({ runJobs: false });

    it('still stores the daily schedule, so whichever process works the queue purges', async () => {
      const s = await t.app.services.jobs.boss.getSchedule(INSIGHT_PURGE_JOB);
      assert.ok(s, 'schedule stored');
      assert.equal(s.cron, '17 3 * * *');
      assert.equal(s.timezone, 'UTC');
    });

    it('recording a question no longer deletes anything on the request path', async () => {
      await insertAged(t, [INSIGHT_RETENTION_DAYS + 20]);
      await t.app.services.insights.record({ companyIds: [], question: 'Who repairs cuckoo clocks?', source: 'search', reason: 'no_result' });
      assert.deepEqual(await questions(t), [`asked ${INSIGHT_RETENTION_DAYS + 20} days ago`, 'Who repairs cuckoo clocks?']);
    });
  });

  describe('with the job runner', () => {
    const t = useTestApp({ runJobs: true });

    it('deletes rows older than the retention and keeps newer ones', async () => {
      await insertAged(t, [400, INSIGHT_RETENTION_DAYS + 1, INSIGHT_RETENTION_DAYS - 1, 0]);
      const id = await t.app.services.jobs.send(INSIGHT_PURGE_JOB, {});
      assert.ok(id);
      // Wait for the worker to finish the job (bounded, so a broken queue fails instead of hanging).
      let state: string | undefined;
      for (let i = 0; i < 200 && state !== 'completed' && state !== 'failed'; i++) {
        await sleep(50);
        state = (await t.app.services.jobs.boss.findJobs(INSIGHT_PURGE_JOB, { id }))[0]?.state;
      }
      assert.equal(state, 'completed');
      assert.deepEqual(await questions(t), [`asked ${INSIGHT_RETENTION_DAYS - 1} days ago`, 'asked 0 days ago']);
    });

    it('a second run with nothing to delete is harmless', async () => {
      assert.equal(await t.app.services.insights.purge(), 0);
      assert.equal((await questions(t)).length, 2);
    });
  });
});
