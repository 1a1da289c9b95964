// Every test helper, from one import: `import { actors, useTestApp } from '<...>/test/helpers/index.js'`.
export * from './app.js';
export * from './actors.js';
export * from './companies.js';
export * from './timing.js';
export * from './multipart.js';
export * from './pg-standby.js';
