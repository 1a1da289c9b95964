import { buildApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { limitHeapGrowth, mallocSettingsNotice } from './platform/heap.js';

/**
 * `npm run worker`: the same services as the web process with the job runner on and no HTTP
 * listener, for running crawls (and every other queue) on separate machines or processes.
 * Jobs live in the database, so any number of workers and web processes share them; on
 * PGlite only one process may open the data folder, so a separate worker needs DATABASE_URL.
 */
const config = { ...loadConfigOrExit(), runJobs: true };
limitHeapGrowth(config.heapGrowingPercent);

const app = await buildApp(config);
await app.ready();
const mallocNotice = mallocSettingsNotice(process.env);
if (mallocNotice) app.log.info(mallocNotice);
app.log.info(`AgentPages worker running jobs (${config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, finishing running jobs`);
    const timer = setTimeout(() => process.exit(1), 30_000);
    timer.unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
