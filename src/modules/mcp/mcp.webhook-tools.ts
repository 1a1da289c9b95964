import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { CreateWebhookBody, DeliveryListQuery, DeliveryParams, EVENT_CATALOGUE, UpdateWebhookBody, WebhookIdParams } from '../webhooks/webhooks.schemas.js';
import { OUTPUTS } from './mcp.outputs.js';
import { deliveryListSummary, deliverySummary, webhookDeletedSummary, webhookListSummary, webhookSecretSummary, webhookSummary } from './mcp.summaries.js';
import { REPLAYED, withIdempotencyKey, zodFromTypeBox, zodFromTypeBoxes, type ToolDef } from './mcp.tools.js';
import { z } from 'zod';

/** What the webhook tools use of the webhooks service (the same calls as the REST routes). */
export type McpWebhooksPort = Pick<WebhooksService, 'create' | 'list' | 'update' | 'remove' | 'rotateSecret' | 'deliveries' | 'redeliver' | 'sendTest'>;

const asObject = (v: object) => v as Record<string, unknown>;
const signing =
  'Deliveries are signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature headers); verify them with the secret.';

/** The agent's webhook endpoints as MCP tools: events are pushed instead of polling list_proposals. */
export function webhookTools(webhooks: McpWebhooksPort): ToolDef[] {
  return [
    {
      name: 'create_webhook',
      title: 'Register a webhook endpoint',
      description: `Registers an https URL that receives this agent's events (POST, JSON). Returns the whsec_ signing secret once: store it. Pass an idempotency_key to retry safely. ${signing} ${EVENT_CATALOGUE} Needs X-API-Key.`,
      input: withIdempotencyKey(zodFromTypeBox(CreateWebhookBody)),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.webhookSecret,
      summary: webhookSecretSummary,
      run: async ({ idempotency_key, ...body }, ctx) => {
        const out = await webhooks.create(ctx.agent!.agentId, body as Parameters<McpWebhooksPort['create']>[1], idempotency_key as string | undefined);
        if (out.replayed) ctx.notes.push(REPLAYED);
        return asObject(out.body);
      },
    },
    {
      name: 'list_webhooks',
      title: 'List my webhook endpoints',
      description: "This agent's webhook endpoints: url, event types, enabled or why disabled (never the secrets). Needs X-API-Key.",
      input: z.object({}),
      needsKey: true,
      readOnly: true,
      output: OUTPUTS.webhookList,
      summary: webhookListSummary,
      run: async (_args, ctx) => asObject(await webhooks.list(ctx.agent!.agentId)),
    },
    {
      name: 'update_webhook',
      title: 'Change a webhook endpoint',
      description: 'Changes url, event_types or description, or enables/disables an endpoint (enabled true also re-enables one disabled after failures). Needs X-API-Key.',
      input: zodFromTypeBoxes(WebhookIdParams, UpdateWebhookBody),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.webhook,
      summary: webhookSummary,
      run: async (args, ctx) => {
        const { webhook_id, ...patch } = args;
        return asObject(await webhooks.update(ctx.agent!.agentId, String(webhook_id), patch as Parameters<McpWebhooksPort['update']>[2]));
      },
    },
    {
      name: 'delete_webhook',
      title: 'Delete a webhook endpoint',
      description: 'Deletes an endpoint and its delivery log. Needs X-API-Key.',
      input: zodFromTypeBox(WebhookIdParams),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.webhookDeleted,
      summary: webhookDeletedSummary,
      run: async (args, ctx) => {
        await webhooks.remove(ctx.agent!.agentId, String(args.webhook_id));
        return { deleted: true, id: String(args.webhook_id) };
      },
    },
    {
      name: 'rotate_webhook_secret',
      title: 'Rotate a webhook signing secret',
      description: 'Issues a new whsec_ secret (returned once); the previous one keeps signing alongside it for a grace period (two signatures per delivery). Needs X-API-Key.',
      input: zodFromTypeBox(WebhookIdParams),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.webhookSecret,
      summary: webhookSecretSummary,
      run: async (args, ctx) => asObject(await webhooks.rotateSecret(ctx.agent!.agentId, String(args.webhook_id))),
    },
    {
      name: 'list_webhook_deliveries',
      title: 'Webhook delivery log',
      description: "An endpoint's deliveries, newest first: status, attempts, last response status, latency and error, next attempt. Needs X-API-Key.",
      input: zodFromTypeBoxes(WebhookIdParams, DeliveryListQuery),
      needsKey: true,
      readOnly: true,
      output: OUTPUTS.deliveryList,
      summary: deliveryListSummary,
      run: async (args, ctx) =>
        asObject(await webhooks.deliveries(ctx.agent!.agentId, String(args.webhook_id), {
          status: args.status as Parameters<McpWebhooksPort['deliveries']>[2]['status'],
          limit: Number(args.limit ?? 50),
          offset: Number(args.offset ?? 0),
        })),
    },
    {
      name: 'redeliver_webhook',
      title: 'Redeliver a webhook event',
      description: 'Sends a delivered or failed delivery\'s event again (same webhook-id) as a new delivery. Needs X-API-Key.',
      input: zodFromTypeBox(DeliveryParams),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.delivery,
      summary: deliverySummary,
      run: async (args, ctx) => asObject(await webhooks.redeliver(ctx.agent!.agentId, String(args.webhook_id), String(args.delivery_id))),
    },
    {
      name: 'send_test_webhook',
      title: 'Send a test event',
      description: 'Queues a signed webhook.test event to the endpoint; follow it with list_webhook_deliveries. Needs X-API-Key.',
      input: zodFromTypeBox(WebhookIdParams),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.delivery,
      summary: deliverySummary,
      run: async (args, ctx) => asObject(await webhooks.sendTest(ctx.agent!.agentId, String(args.webhook_id))),
    },
  ];
}
