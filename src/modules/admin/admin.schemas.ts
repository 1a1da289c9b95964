import { offsetParam } from '../../platform/http.js';
import { Type } from 'typebox';
import { ToolResponseSchema } from '../companies/tools.schemas.js';

export const LookupQuery = Type.Object({
  website_url: Type.String({ minLength: 1, maxLength: 2048, description: 'A URL or bare domain' }),
});

export const LookupResponseSchema = Type.Object({
  exists: Type.Boolean(),
  domain: Type.String({ description: 'The website identity that was looked up' }),
  tool: Type.Union([Type.Ref('ToolResponse'), Type.Null()]),
});

export const AdminCompaniesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: offsetParam('Rows to skip (after the cursor when one is given)'),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page: keyset paging that stays correct while companies are added' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the company name' })),
  view: Type.Optional(Type.Union(
    [Type.Literal('all'), Type.Literal('to_verify'), Type.Literal('unverified'), Type.Literal('verified'), Type.Literal('featured'), Type.Literal('subscribed')],
    { description: 'all (default); to_verify: claimed by an owner and not verified yet (the verification queue); unverified; verified; featured; subscribed: on a paid plan that is running (active, trialing or past due)' },
  )),
});

export const AdminCompanySchema = Type.Object(
  {
    ...ToolResponseSchema.properties,
    subscription_plan: Type.Union([Type.String(), Type.Null()]),
    owner_edited_fields: Type.Array(Type.String()),
  },
  { $id: 'AdminCompany' },
);

export const AdminCompaniesResponseSchema = Type.Object({
  companies: Type.Array(Type.Ref('AdminCompany')),
  total: Type.Integer({ description: 'Companies matching q (all pages)' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' }),
});

export const FeaturedBody = Type.Object({ featured: Type.Boolean() }, { additionalProperties: false });

export const SubscriptionBody = Type.Object(
  {
    plan: Type.Union([Type.Literal('free'), Type.Literal('pro')], { description: 'One of the plans owners can buy (payments.plans.ts): free or pro' }),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('trialing'), Type.Literal('past_due'), Type.Literal('canceled')], { default: 'active' })),
    period_start: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    period_end: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    period_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'Shortcut: period_end = period_start (default now) + months' })),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const ReindexRunSchema = Type.Object(
  {
    id: Type.Integer(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
    total: Type.Integer({ description: 'Companies to reindex' }),
    done: Type.Integer({ description: 'Companies reindexed so far' }),
    progress: Type.Number({ description: 'done / total, 0 to 1' }),
    error: Type.Union([Type.String(), Type.Null()]),
    started_by: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ReindexRun' },
);

export const RunIdParams = Type.Object({ run_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: offsetParam(),
  target_id: Type.Optional(Type.String({ maxLength: 100 })),
  action: Type.Optional(Type.String({ maxLength: 100 })),
});

export const AuditResponseSchema = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      admin_id: Type.Union([Type.String(), Type.Null()]),
      admin_email: Type.String(),
      action: Type.String({ description: 'e.g. companies.verify, companies.subscription, reindex.start' }),
      target_type: Type.String(),
      target_id: Type.Union([Type.String(), Type.Null()]),
      target_name: Type.Union([Type.String(), Type.Null()], { description: "The company's name (also after it was deleted) for company targets; null otherwise" }),
      before: Type.Unknown(),
      after: Type.Unknown(),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
  total: Type.Integer(),
});

export const adminSchemas = [AdminCompanySchema, ReindexRunSchema];
