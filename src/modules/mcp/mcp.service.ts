import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { agentTools, proposalSender } from './mcp.agent-tools.js';
import { companyEndpoint, skillName } from './mcp.company-server.js';
import type { McpServiceDeps } from './mcp.ports.js';
import { describeTool } from './mcp.protocol.js';
import { runTool, type McpEndpoint, type ToolRunnerDeps } from './mcp.tools.js';

export type { McpAgentsPort, McpAskPort, McpProposalsPort, McpServiceDeps } from './mcp.ports.js';

/**
 * The MCP servers: the agent server at /mcp (its tools in mcp.agent-tools.ts) and one server per
 * company (mcp.company-server.ts), answered by the 2026-07-28 handler or, for older clients, the SDK server.
 */
export function createMcpService(deps: McpServiceDeps) {
  const { config, companies, proposals } = deps;
  const baseUrl = config.baseUrl;
  const service = config.serviceName;
  const runner: ToolRunnerDeps = { baseUrl, verifyKey: () => deps.verifiers.apiKey, log: deps.log };
  const sender = proposals ? proposalSender(proposals) : undefined;

  const agentEndpoint: McpEndpoint = {
    name: service,
    title: `${service} business directory`,
    version: deps.version,
    instructions:
      `${service} is a business directory for AI agents. Find companies with search_companies (describe the customer's need in q), ` +
      `read one with get_company, and, with an agent API key in the X-API-Key header, send proposals to verified companies and follow their answers ` +
      `(create_proposal, list_proposals, get_proposal, reply_to_proposal), or have their answers pushed to you as signed webhooks (create_webhook). Register for a key with register_agent (or POST ${baseUrl}/api/v1/agent/register), then reconnect with it. Docs: ${baseUrl}/${service}.md`,
    tools: agentTools(deps, sender),
  };

  // Converted once: the company server is rebuilt per request, its schemas need not be.
  const sendProposal = sender ? { input: sender.input.omit({ company_id: true }), run: sender.run } : undefined;
  const companyServerDeps = { companies, answers: deps.companyAnswers, sendProposal, baseUrl, serviceName: service, version: deps.version };

  return {
    runner,
    agentEndpoint: () => agentEndpoint,

    /** The MCP server of one company; unknown, malformed or deleted ids are 404. */
    companyEndpoint: (toolId: string) => companyEndpoint(companyServerDeps, toolId),

    skillName,

    /** The registration response's usage.mcp_config, with a placeholder key. */
    mcpConfig(apiKey = '<YOUR_API_KEY>') {
      return { mcpServers: { [service]: { url: `${baseUrl}/mcp`, headers: { 'X-API-Key': apiKey } } } };
    },

    /**
     * An SDK server (initialize-era protocol) for one request: stateless, so a fresh one per
     * POST. tools/list and tools/call are answered by the same code as the 2026-07-28 handler,
     * so both generations list identical schemas and check the key before the arguments.
     */
    legacyServer(endpoint: McpEndpoint, apiKey: string | undefined): Server {
      const server = new Server(
        { name: endpoint.name, title: endpoint.title, version: endpoint.version },
        { capabilities: { tools: {} }, instructions: endpoint.instructions },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: endpoint.tools.map(describeTool) }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        const tool = endpoint.tools.find((t) => t.name === request.params.name);
        // Not McpError: its message repeats the code ("MCP error -32602: …") next to the code field.
        if (!tool) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
        return runTool(tool, request.params.arguments ?? {}, apiKey, runner);
      });
      return server;
    },
  };
}

export type McpService = ReturnType<typeof createMcpService>;
