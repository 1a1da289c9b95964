// The stylesheet is part of the shared page shell (platform/page-shell.ts), which the sign-in pages use too.
export { SITE_CSS, SITE_CSS_HASH, SITE_CSS_HREF } from '../../platform/page-shell.js';
