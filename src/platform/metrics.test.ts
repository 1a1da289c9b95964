import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/index.js';
import { MAIL_JOB } from './mail.js';

// Issue 20: the operator's metrics, for loopback callers or with the metrics token only.
describe('Prometheus metrics', () => {
  const t = useTestApp({ runJobs: true, metricsToken: 'a-metrics-token-of-length' });

  it('reports request latency by route pattern and job queue depth', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/00000000-0000-4000-8000-000000000000' });
    await t.app.services.mail.send({ to: 'ops@example.org', subject: 'metrics', text: 'hello' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/plain/);
    assert.match(res.body, /http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1/);
    assert.match(res.body, /route="\/api\/v1\/agent\/companies\/:company_id",status="404"/);
    assert.ok(!res.body.includes('00000000-0000-4000'), 'ids never become labels');
    assert.match(res.body, /job_queue_jobs\{queue="[\w.]+",state="queued"\}/);
    assert.match(res.body, /process_resident_memory_bytes/);
    // Outcomes: the mail above was kept in the outbox (no SMTP in tests); webhook attempts are declared before the first.
    assert.match(res.body, /mail_deliveries_total\{outcome="logged"\} [1-9]/);
    assert.match(res.body, /# TYPE webhook_attempts_total counter/);
  });

  it('reports how long jobs run, by queue and outcome', async () => {
    // A mail job for a message that is not in the outbox: the handler finds nothing to send and completes.
    await t.app.services.jobs.send(MAIL_JOB, { id: '00000000-0000-4000-8000-000000000001' });
    const completed = /job_run_seconds_count\{queue="mail\.send",outcome="completed"\} [1-9]/;
    let body = '';
    for (let i = 0; i < 100 && !completed.test(body); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    }
    assert.match(body, completed);
    assert.match(body, /# TYPE job_run_seconds histogram/);
  });

  it('reports where search time goes and how often its caches answer', async () => {
    const q = encodeURIComponent('metrics stage timing probe for accountants');
    for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?q=${q}` })).statusCode, 200);
    const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    for (const stage of ['stats', 'embed', 'keyword', 'total']) assert.match(body, new RegExp(`search_stage_seconds_count\\{stage="${stage}"\\} [1-9]`), stage);
    assert.match(body, /search_stage_seconds_count\{stage="semantic_(index|database)"\} [1-9]/);
    // The second search of the same words at the same corpus version comes from the answer cache.
    assert.match(body, /search_answers_total\{outcome="cached"\} [1-9]/);
    assert.match(body, /search_answers_total\{outcome="computed"\} [1-9]/);
    assert.match(body, /query_embeddings_total\{outcome="computed"\} [1-9]/);
    assert.match(body, /query_embedding_batch_size_count [1-9]/);
  });

  it('is hidden from remote callers without the token', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.4' })).statusCode, 404);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.4', headers: { authorization: 'Bearer wrong' } });
    assert.equal(wrong.statusCode, 404);
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.4', headers: { authorization: 'Bearer a-metrics-token-of-length' } });
    assert.equal(ok.statusCode, 200);
  });
});

// Issue 41: the caches are bounded by memory (CACHE_MEMORY_MB); with none, every search is computed.
describe('answers kept within CACHE_MEMORY_MB', () => {
  const t = useTestApp({ cacheMemoryMb: 0 });
  const answered = async (outcome: string) => {
    const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(new RegExp(`search_answers_total\\{outcome="${outcome}"\\} (\\d+)`).exec(body)?.[1] ?? 0);
  };

  it('computes a repeated search again when no memory is given to the answers', async () => {
    const [cached, computed] = [await answered('cached'), await answered('computed')];
    const q = encodeURIComponent('cache budget probe for bookkeepers');
    for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?q=${q}` })).statusCode, 200);
    assert.equal(await answered('cached'), cached);
    assert.equal(await answered('computed'), computed + 2);
  });
});
