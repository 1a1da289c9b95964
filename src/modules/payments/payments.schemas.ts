import { Type, type Static } from 'typebox';

/** Request and response bodies of the payments operations (spec 4.4). */
const Interval = Type.Union([Type.Literal('month'), Type.Literal('year')]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const CODE = '^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$';

export const CheckoutRequestSchema = Type.Object({
  tool_id: Type.String({ format: 'uuid', description: 'The company to subscribe' }),
  plan: Type.Literal('pro', { description: 'The paid plan (free needs no checkout)' }),
  interval: Type.Optional(Type.Union([Type.Literal('month'), Type.Literal('year')], { default: 'month' })),
  promo_code: Type.Optional(Type.String({ pattern: CODE, description: 'A code checked with POST /api/payments/promo/validate' })),
  success_url: Type.Optional(Type.String({ maxLength: 2000, description: 'Where the browser lands after paying; must be within BASE_URL (default /app/billing?status=success)' })),
  cancel_url: Type.Optional(Type.String({ maxLength: 2000, description: 'Where the browser goes when the payment is abandoned; within BASE_URL' })),
}, { $id: 'CheckoutRequest', additionalProperties: false });
export type CheckoutRequest = Static<typeof CheckoutRequestSchema>;

const Price = Type.Object({ amount: Type.Integer({ description: 'Minor units (cents)' }), amount_discounted: Type.Integer(), currency: Type.String() });

export const CheckoutResponseSchema = Type.Object({
  checkout_id: Type.String(), url: Type.String({ description: 'Send the browser here (the provider\'s payment page; offline: the success landing)' }),
  expires_at: Type.String({ format: 'date-time' }), provider: Type.String(), plan: Type.String(), interval: Interval,
  price: Price, promo: Nullable(Type.Object({ code: Type.String() })), reused: Type.Boolean({ description: 'An open checkout for the same choice was returned' }),
}, { $id: 'CheckoutResponse' });

const Discount = Type.Object({
  type: Type.Union([Type.Literal('percent'), Type.Literal('amount')]), percent_off: Nullable(Type.Number()), amount_off: Nullable(Type.Integer()),
  currency: Nullable(Type.String()), duration: Type.Union([Type.Literal('once'), Type.Literal('repeating'), Type.Literal('forever')]), duration_in_months: Nullable(Type.Integer()),
});

export const PromoValidateRequestSchema = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 40 }),
  plan: Type.Literal('pro'),
  interval: Type.Optional(Interval),
  tool_id: Type.Optional(Type.String({ format: 'uuid', description: 'For first-time-only codes' })),
}, { $id: 'PromoValidateRequest', additionalProperties: false });

export const PromoValidateResponseSchema = Type.Object({
  valid: Type.Boolean(), code: Type.String(),
  reason: Type.Optional(Type.Union(['not_found', 'inactive', 'expired', 'exhausted', 'not_applicable', 'first_time_only'].map((r) => Type.Literal(r)))),
  discount: Type.Optional(Discount),
  price: Type.Optional(Type.Object({ currency: Type.String(), amount: Type.Integer(), amount_discounted: Type.Integer(), interval: Interval })),
  note: Type.Optional(Type.String()),
}, { $id: 'PromoValidateResponse' });

export const PromoCreateRequestSchema = Type.Object({
  code: Type.String({ pattern: CODE, description: 'Stored upper case; unique case-insensitively' }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  discount_type: Type.Union([Type.Literal('percent'), Type.Literal('amount')]),
  percent_off: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
  amount_off: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
  currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$' })),
  duration: Type.Union([Type.Literal('once'), Type.Literal('repeating'), Type.Literal('forever')]),
  duration_in_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 36 })),
  plans: Type.Optional(Type.Array(Type.Literal('pro'), { maxItems: 4 })),
  intervals: Type.Optional(Type.Array(Interval, { maxItems: 2 })),
  first_time_only: Type.Optional(Type.Boolean()),
  max_redemptions: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  expires_at: Type.Optional(Type.String({ format: 'date-time' })),
  active: Type.Optional(Type.Boolean()),
}, { $id: 'PromoCreateRequest', additionalProperties: false });
export type PromoCreate = Static<typeof PromoCreateRequestSchema>;

const immutable = (what: string) => Type.Optional(Type.Unknown({ description: `${what}: immutable, sending it is a 422 (create a new code)` }));
export const PromoUpdateRequestSchema = Type.Object({
  active: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  max_redemptions: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
  code: immutable('code'), discount_type: immutable('discount_type'), percent_off: immutable('percent_off'), amount_off: immutable('amount_off'),
  currency: immutable('currency'), duration: immutable('duration'), duration_in_months: immutable('duration_in_months'),
  plans: immutable('plans'), intervals: immutable('intervals'), first_time_only: immutable('first_time_only'),
}, { $id: 'PromoUpdateRequest', additionalProperties: false });
export type PromoUpdate = Static<typeof PromoUpdateRequestSchema>;

export const PromoSchema = Type.Object({
  id: Type.Integer(), code: Type.String(), description: Type.String(), discount: Discount,
  plans: Nullable(Type.Array(Type.String())), intervals: Nullable(Type.Array(Type.String())), first_time_only: Type.Boolean(),
  max_redemptions: Nullable(Type.Integer()), times_redeemed: Type.Integer(), expires_at: Nullable(Type.String({ format: 'date-time' })),
  active: Type.Boolean(), created_at: Type.String({ format: 'date-time' }), updated_at: Type.String({ format: 'date-time' }),
}, { $id: 'Promo' });

export const PromoListSchema = Type.Object({ items: Type.Array(Type.Ref('Promo')), next_cursor: Nullable(Type.String()) }, { $id: 'PromoList' });

const Limits = Type.Object({
  widget_unbranded: Type.Boolean(), insights_history_days: Type.Integer(), insights_csv_export: Type.Boolean(),
  scans_per_month: Type.Integer(), scheduled_rescans: Type.Boolean(), featuring_eligible: Type.Boolean(),
});
export const BillingStateSchema = Type.Object({
  tool_id: Type.String(), plan: Type.String(), effective_plan: Type.String(), interval: Nullable(Interval), status: Type.String({ description: 'none, or the provider status (active, trialing, past_due, canceled, …)' }),
  entitled: Type.Boolean(), source: Nullable(Type.String({ description: 'admin, local or stripe' })), provider: Type.String({ description: 'The provider in use: stripe, local (a test provider: nothing is charged) or off (nothing can be bought here)' }),
  test_mode: Type.Boolean({ description: 'Payments are in test mode: nothing is really charged (the local provider or a Stripe test key)' }),
  can_subscribe: Type.Boolean({ description: 'A plan can be bought on this server (false when payments are switched off)' }),
  current_period_end: Nullable(Type.String({ format: 'date-time' })), cancel_at_period_end: Type.Boolean(), cancel_at: Nullable(Type.String({ format: 'date-time' })),
  trial_end: Nullable(Type.String({ format: 'date-time' })), payment_failed_at: Nullable(Type.String({ format: 'date-time' })), has_billing_account: Type.Boolean(),
  limits: Limits,
  invoices: Type.Array(Type.Object({
    id: Type.String(), number: Nullable(Type.String()), status: Type.String(), amount_paid: Type.Integer(), currency: Type.String(),
    created: Type.String({ format: 'date-time' }), hosted_invoice_url: Nullable(Type.String()), invoice_pdf: Nullable(Type.String()),
  })),
  plans: Type.Array(Type.Object({ id: Type.String(), interval: Nullable(Interval), amount: Type.Integer(), currency: Type.String(), limits: Limits })),
}, { $id: 'BillingState' });

export const CancelResponseSchema = Type.Object({
  status: Type.String(), cancel_at_period_end: Type.Boolean(), current_period_end: Nullable(Type.String({ format: 'date-time' })), access_until: Nullable(Type.String({ format: 'date-time' })),
}, { $id: 'CancelSubscriptionResponse' });

export const SUBSCRIPTION_FILTERS = ['active', 'trialing', 'past_due', 'canceled', 'ending'] as const;
export const AdminSubscriptionsQuery = Type.Object({
  status: Type.Optional(Type.Union(SUBSCRIPTION_FILTERS.map((f) => Type.Literal(f)), { description: 'A status, or ending: cancelled by the owner, running until its period ends' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the company name or domain' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
});

export const AdminSubscriptionListSchema = Type.Object({
  subscriptions: Type.Array(Type.Object({
    company_id: Type.String({ format: 'uuid' }), company_name: Type.String(), company_domain: Type.String(),
    plan: Type.String(), status: Type.String(), interval: Nullable(Interval),
    source: Type.String({ description: 'admin (granted by hand, nothing charged), local (the test provider) or stripe' }),
    current_period_end: Nullable(Type.String({ format: 'date-time' })), cancel_at_period_end: Type.Boolean(),
    payment_failed_at: Nullable(Type.String({ format: 'date-time' })), trial_end: Nullable(Type.String({ format: 'date-time' })),
    note: Type.String(), updated_at: Type.String({ format: 'date-time' }),
  })),
  total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(),
  summary: Type.Object({
    active: Type.Integer(), trialing: Type.Integer(), past_due: Type.Integer(), canceled: Type.Integer(),
    ending: Type.Integer({ description: 'Cancelled by the owner, running until the period ends' }),
    granted: Type.Integer({ description: 'Paid plans granted by an administrator (not charged)' }),
    monthly_recurring: Type.Object({ amount: Type.Integer({ description: 'Minor units: what the paying plans bring per month (a yearly plan counts a twelfth), before promotions' }), currency: Type.String() }),
  }, { description: 'Over every paid plan of a live company, whatever the filter' }),
}, { $id: 'AdminSubscriptionList' });

export const paymentsSchemas = [
  AdminSubscriptionListSchema,
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  PromoValidateRequestSchema,
  PromoValidateResponseSchema,
  PromoCreateRequestSchema,
  PromoUpdateRequestSchema,
  PromoSchema,
  PromoListSchema,
  BillingStateSchema,
  CancelResponseSchema,
];
