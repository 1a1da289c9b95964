import { Type } from 'typebox';

export const AiPluginSchema = Type.Object(
  {
    schema_version: Type.Literal('v1'),
    name_for_human: Type.String({ maxLength: 20 }),
    name_for_model: Type.String({ maxLength: 50, pattern: '^[a-zA-Z0-9_]+$' }),
    description_for_human: Type.String({ maxLength: 100 }),
    description_for_model: Type.String({ maxLength: 8000 }),
    auth: Type.Object({ type: Type.Literal('none') }),
    api: Type.Object({ type: Type.Literal('openapi'), url: Type.String(), is_user_authenticated: Type.Boolean() }),
    logo_url: Type.String(),
    contact_email: Type.String(),
    legal_info_url: Type.String(),
  },
  { $id: 'AiPluginManifest' },
);

const UcpEntity = Type.Object(
  {
    version: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    spec: Type.Optional(Type.String()),
    schema: Type.Optional(Type.String()),
    transport: Type.Optional(Type.Union([Type.Literal('rest'), Type.Literal('mcp'), Type.Literal('a2a'), Type.Literal('embedded')])),
    endpoint: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const UcpProfileSchema = Type.Object(
  {
    ucp: Type.Object({
      version: Type.String({ description: 'UCP version (YYYY-MM-DD)' }),
      services: Type.Record(Type.String(), Type.Array(UcpEntity), { description: 'Service bindings keyed by reverse-domain name: REST and MCP transports' }),
      capabilities: Type.Record(Type.String(), Type.Array(UcpEntity)),
      payment_handlers: Type.Record(Type.String(), Type.Array(UcpEntity), { description: 'Empty: the directory takes no payments from agents' }),
    }),
  },
  { $id: 'UcpProfile' },
);

const Url = (description?: string) => Type.String({ format: 'uri', ...(description ? { description } : {}) });
/** Arbitrary JSON members (tool input schemas, annotations, _meta): serialized as they are. */
const OpenObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

const McpListedTool = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    description: Type.String(),
    inputSchema: OpenObject('JSON Schema of the arguments, as tools/list gives it'),
    annotations: OpenObject('Tool annotations (readOnlyHint, destructiveHint, ...)'),
  },
  { additionalProperties: true },
);

export const McpServerCardSchema = Type.Object(
  {
    $schema: Url(),
    name: Type.String({ description: 'Reverse-domain name of the server' }),
    title: Type.String(),
    description: Type.String(),
    version: Type.String(),
    serverInfo: Type.Object({ name: Type.String(), title: Type.String(), version: Type.String() }),
    remotes: Type.Array(
      Type.Object(
        {
          type: Type.Literal('streamable-http'),
          url: Url(),
          supportedProtocolVersions: Type.Optional(Type.Array(Type.String())),
          headers: Type.Optional(Type.Array(Type.Object({ name: Type.String(), description: Type.String(), isRequired: Type.Boolean(), isSecret: Type.Boolean() }))),
          authentication: Type.Optional(Type.Object({ required: Type.Boolean(), schemes: Type.Array(Type.String()) })),
        },
        { additionalProperties: true },
      ),
    ),
    transport: Type.Object({ type: Type.Literal('streamable-http'), url: Url() }),
    documentation: Url(),
    websiteUrl: Type.Optional(Url()),
    icons: Type.Optional(Type.Array(Type.Object({ src: Url(), mimeType: Type.String(), sizes: Type.Array(Type.String()) }))),
    capabilities: Type.Optional(OpenObject('Server capabilities (ServerCapabilities)')),
    tools: Type.Optional(Type.Array(McpListedTool, { description: 'The tools of the server, exactly as tools/list lists them' })),
    _meta: Type.Optional(OpenObject('Who needs the API key')),
  },
  { $id: 'McpServerCard', additionalProperties: true },
);

const A2aRequirement = Type.Object({ schemes: Type.Record(Type.String(), Type.Object({ list: Type.Array(Type.String()) })) });

export const A2aAgentCardSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    supportedInterfaces: Type.Array(Type.Object({ url: Url(), protocolBinding: Type.String(), protocolVersion: Type.String() }), { description: 'In order of preference' }),
    provider: Type.Object({ organization: Type.String(), url: Url() }),
    iconUrl: Type.Optional(Url()),
    version: Type.String(),
    documentationUrl: Type.Optional(Url()),
    capabilities: Type.Object({ streaming: Type.Boolean(), pushNotifications: Type.Boolean(), extendedAgentCard: Type.Boolean() }),
    securitySchemes: Type.Record(
      Type.String(),
      Type.Object({ apiKeySecurityScheme: Type.Object({ location: Type.Literal('header'), name: Type.String(), description: Type.String() }) }),
    ),
    defaultInputModes: Type.Array(Type.String()),
    defaultOutputModes: Type.Array(Type.String()),
    skills: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        description: Type.String(),
        tags: Type.Array(Type.String()),
        examples: Type.Array(Type.String()),
        securityRequirements: Type.Optional(Type.Array(A2aRequirement)),
      }),
    ),
  },
  { $id: 'A2aAgentCard' },
);

const LinkTarget = Type.Object({ href: Url(), type: Type.Optional(Type.String()) });

export const ApiCatalogSchema = Type.Object(
  {
    linkset: Type.Array(
      Type.Object(
        {
          anchor: Url('The API base URL'),
          'service-desc': Type.Array(LinkTarget, { description: 'The OpenAPI document' }),
          'service-doc': Type.Array(LinkTarget, { description: 'The API reference for people' }),
          status: Type.Optional(Type.Array(LinkTarget, { description: 'The health check' })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { $id: 'ApiCatalog' },
);
