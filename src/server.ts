import { buildApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { seedDemoIfEmpty } from './modules/companies/companies.seed.js';
import { loadGazetteer } from './lib/gazetteer.js';
import { limitHeapGrowth, mallocSettingsNotice } from './platform/heap.js';

const config = loadConfigOrExit();
limitHeapGrowth(config.heapGrowingPercent);

const app = await buildApp(config);
const mallocNotice = mallocSettingsNotice(process.env);
if (mallocNotice) app.log.info(mallocNotice);
// The embedded default seeds a demo directory on first start so the service is useful at once.
if (config.seedDemo && !config.databaseUrl) {
  await app.services.embeddings.ready();
  await seedDemoIfEmpty(app.services.companies, app.log);
}

// Companies stored before coordinates existed get them once (a no-op afterwards).
const located = await app.services.companies.backfillCoordinates();
if (located > 0) app.log.info({ located }, 'coordinates set for companies stored before them');
// Likewise the time zone opening hours are read in (migration 0026).
const zoned = await app.services.companies.backfillTimeZones();
if (zoned > 0) app.log.info({ zoned }, 'time zone set for companies stored before it');
// Likewise the E.164 form of phones stored before it existed (migration 0018).
const phonesParsed = await app.services.companies.backfillPhoneE164();
if (phonesParsed > 0) app.log.info({ phonesParsed }, 'E.164 phone set for companies stored before it');

// Most searches look for a place in their words: the first one would otherwise wait for the gazetteer.
loadGazetteer();

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    const timer = setTimeout(() => process.exit(1), config.shutdownDrainMs + 15_000);
    timer.unref();
    // Drain: readiness says 503 while requests are still served, so a load balancer moves traffic away
    // before the listener closes (closing at once would reset kept-alive connections a client just used).
    app.services.system.beginDrain();
    setTimeout(() => {
      app.close().then(() => process.exit(0), () => process.exit(1));
    }, config.shutdownDrainMs);
  });
}

await app.listen({ port: config.port, host: config.host });
app.log.info(`AgentPages listening on ${config.baseUrl} (API reference: ${config.baseUrl}/docs)`);
