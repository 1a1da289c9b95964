/**
 * The MCP Server Card (SEP-2127, served at /.well-known/mcp/server-card.json): one shape for the
 * cards the scans bundle writes for companies' hosted servers and for this service's own server.
 * Pure: the same input gives the same card, member order included.
 */
export const MCP_SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json';

export interface McpServerCardInput {
  name: string;
  title: string;
  description: string;
  version: string;
  /** serverInfo.name: the name the server gives itself when a client connects. */
  serverName: string;
  /** The Streamable HTTP endpoint. */
  url: string;
  documentation: string;
  /** More members of the remote entry (supportedProtocolVersions, headers, authentication). */
  remote?: Record<string, unknown>;
  /** Members after the common ones (websiteUrl, icons, capabilities, tools, _meta). */
  extra?: Record<string, unknown>;
}

export function mcpServerCard(card: McpServerCardInput): Record<string, unknown> {
  return {
    $schema: MCP_SERVER_CARD_SCHEMA,
    name: card.name,
    title: card.title,
    description: card.description,
    version: card.version,
    serverInfo: { name: card.serverName, title: card.title, version: card.version },
    remotes: [{ type: 'streamable-http', url: card.url, ...card.remote }],
    transport: { type: 'streamable-http', url: card.url },
    documentation: card.documentation,
    ...card.extra,
  };
}
