import { html } from '../../lib/html.js';
import { layout, plainPage } from './site.layout.js';
import { siteUrl, type SiteContext } from './site.pages.listing.js';
import { discoveryUrl } from './site.pages.company.js';

export function forOwnersPage(ctx: SiteContext): string {
  return layout({
    title: `For company owners | ${ctx.siteName}`,
    description: `Claim your company on ${ctx.siteName}: correct the profile, answer proposals from AI agents, add a chat widget and check how agent-ready your website is.`,
    canonical: siteUrl(ctx, '/for-owners'), siteName: ctx.siteName, baseUrl: ctx.baseUrl,
  }, html`<div class="narrow"><h1>For company owners</h1>
<p class="lead">People and AI agents find your company here. Claim it to keep the profile right and to answer the agents that want to work with you.</p>
<h2>Claim your company</h2>
<ol>
<li>Open <a href="/app/">the dashboard</a> and enter your work email: an address at your company's own domain (you@yourcompany.com for yourcompany.com).</li>
<li>We email you a sign-in link. Open it and press <strong>Sign in</strong>: the link works once and confirms that you own the domain.</li>
<li>Your company is verified: it gets the Verified badge and accepts proposals from agents. Not listed yet? Enter your website and we read your public pages to create the profile.</li>
</ol>
<h2>What you can do then</h2>
<ul>
<li>Edit the profile by hand or describe the change in words and review it before it is applied.</li>
<li>Read and answer proposals that AI agents send on behalf of their users.</li>
<li>See what people ask about you and could not find in your profile.</li>
<li>Add the chat widget to your website; it answers from your profile and pages.</li>
<li>Scan your website: a grade for how well AI agents can find and use it, with fixes.</li>
</ul>
<p><a class="button" href="/app/">Sign in or claim your company</a></p></div>`);
}

export function forDevelopersPage(ctx: SiteContext): string {
  const base = ctx.baseUrl;
  return layout({
    title: `For AI agent developers | ${ctx.siteName}`,
    description: `Integrate ${ctx.siteName} into your agent: a REST API with hybrid search, one MCP server per company, SKILL.md files and a discovery file.`,
    canonical: siteUrl(ctx, '/for-agent-developers'), siteName: ctx.siteName, baseUrl: ctx.baseUrl,
    alternates: [{ type: 'text/markdown', href: discoveryUrl(ctx), title: `${ctx.siteName} for agents` }],
  }, html`<div class="narrow"><h1>For AI agent developers</h1>
<p class="lead">Everything on these pages is also available to agents, as JSON and over MCP.</p>
<h2>Start here</h2>
<ul>
<li>The discovery file: <a href="${discoveryUrl(ctx)}"><code>${discoveryUrl(ctx)}</code></a> (every endpoint with an example, limits and errors).</li>
<li>The OpenAPI document: <a href="/openapi.json"><code>${base}/openapi.json</code></a>, browsable at <a href="/docs">/docs</a>.</li>
<li>Plugin manifest: <a href="/.well-known/ai-plugin.json"><code>/.well-known/ai-plugin.json</code></a>.</li>
</ul>
<h2>Search and read</h2>
<pre><code>curl "${base}/api/v1/agent/companies?q=emergency+plumber&amp;city=Berlin"
curl "${base}/api/v1/agent/companies/{company_id}"</code></pre>
<p>Search is hybrid (meaning and words) with filters for category, country, city and service type. Each result links its JSON record.</p>
<h2>Register an agent</h2>
<p>Send <code>POST /api/v1/agent/register</code> with a name and an email; confirm the email and keep the API key. With it your agent can send proposals to verified companies and ask questions about them.</p>
<h2>MCP</h2>
<p>The directory is an MCP server at <code>${base}/mcp</code>; each company also has its own at <code>${base}/mcp/company/{company_id}</code> with an Agent Skills file at <code>…/SKILL.md</code>. Every company page links both.</p></div>`);
}

export function notFoundPage(ctx: Pick<SiteContext, 'siteName'>, path: string): string {
  return plainPage({
    title: `Page not found | ${ctx.siteName}`, siteName: ctx.siteName,
    body: html`<h1>Page not found</h1><p>There is no page at <code>${path}</code>. It may have moved, or the company may have left the directory.</p>
<form class="search" method="get" action="/search" role="search" aria-label="Search the directory"><div class="field q"><label for="q404">Search the directory</label><input id="q404" name="q" type="search" maxlength="2000"></div><button type="submit">Search</button></form>
<p><a href="/">Go to the home page</a> or <a href="/categories">browse the categories</a>.</p>`,
  });
}

export function badRequestPage(ctx: Pick<SiteContext, 'siteName'>, message: string): string {
  return plainPage({ title: `Bad request | ${ctx.siteName}`, siteName: ctx.siteName, body: html`<h1>That request did not work</h1><p>${message}</p><p><a href="/search">Start a new search</a></p>` });
}
