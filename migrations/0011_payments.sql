-- Payments (spec 4.4, 6): the subscription record becomes the one place for a company's plan, whoever set it
-- (an administrator, the local provider or Stripe); billing customers, checkouts, invoices, promo codes and
-- the received provider events (each processed once).

-- Stripe's subscription statuses (plus those an administrator sets). Entitled = active, trialing, past_due.
ALTER TABLE company_subscriptions DROP CONSTRAINT company_subscriptions_status_check;
ALTER TABLE company_subscriptions ADD CONSTRAINT company_subscriptions_status_check CHECK (status IN
  ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'));
ALTER TABLE company_subscriptions ADD COLUMN provider text;
ALTER TABLE company_subscriptions ADD COLUMN provider_subscription_id text;
ALTER TABLE company_subscriptions ADD COLUMN billing_interval text CHECK (billing_interval IN ('month', 'year'));
ALTER TABLE company_subscriptions ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false;
ALTER TABLE company_subscriptions ADD COLUMN cancel_at timestamptz;
ALTER TABLE company_subscriptions ADD COLUMN trial_end timestamptz;
ALTER TABLE company_subscriptions ADD COLUMN payment_failed_at timestamptz;
-- `created` (provider clock) of the newest event applied: an older event never moves the record back.
ALTER TABLE company_subscriptions ADD COLUMN last_event_at timestamptz;
-- The last plan-ending notice sent for this period (mail once per change).
ALTER TABLE company_subscriptions ADD COLUMN ending_notice_for timestamptz;
CREATE INDEX company_subscriptions_provider_sub ON company_subscriptions (provider_subscription_id);

-- One provider customer per company.
CREATE TABLE billing_customers (
  company_id  uuid PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  provider    text NOT NULL,
  customer_id text NOT NULL UNIQUE,
  email       text,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE promo_codes (
  id                  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Stored upper case; matched case-insensitively.
  code                text NOT NULL UNIQUE,
  description         text NOT NULL DEFAULT '',
  discount_type       text NOT NULL CHECK (discount_type IN ('percent', 'amount')),
  percent_off         numeric(5, 2),
  amount_off          integer,
  currency            text,
  duration            text NOT NULL CHECK (duration IN ('once', 'repeating', 'forever')),
  duration_in_months  integer,
  plans               text[],
  intervals           text[],
  first_time_only     boolean NOT NULL DEFAULT false,
  max_redemptions     integer,
  times_redeemed      integer NOT NULL DEFAULT 0,
  expires_at          timestamptz,
  active              boolean NOT NULL DEFAULT true,
  provider            text,
  provider_coupon_id  text,
  provider_promotion_code_id text,
  created_by          text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);

-- A checkout session we opened (the provider's id). Reused while open for the same company, plan, interval and promo.
CREATE TABLE checkouts (
  id              text PRIMARY KEY,
  company_id      uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  provider        text NOT NULL,
  plan            text NOT NULL,
  billing_interval text NOT NULL,
  promo_id        integer REFERENCES promo_codes (id),
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
  url             text NOT NULL,
  success_url     text NOT NULL,
  cancel_url      text NOT NULL,
  idempotency_key text,
  amount          integer NOT NULL,
  amount_discounted integer NOT NULL,
  currency        text NOT NULL,
  expires_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkouts_company ON checkouts (company_id, created_at DESC);
CREATE UNIQUE INDEX checkouts_idempotency ON checkouts (company_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- A redemption counts once per completed checkout.
CREATE TABLE promo_redemptions (
  promo_id    integer NOT NULL REFERENCES promo_codes (id),
  company_id  uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  checkout_id text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Invoices as the provider reported them (so /me lists them without a provider call, also in local mode).
CREATE TABLE invoices (
  id                 text PRIMARY KEY,
  company_id         uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  number             text,
  status             text NOT NULL,
  amount_paid        integer NOT NULL DEFAULT 0,
  amount_due         integer NOT NULL DEFAULT 0,
  currency           text NOT NULL,
  created            timestamptz NOT NULL,
  hosted_invoice_url text,
  invoice_pdf        text
);
CREATE INDEX invoices_company ON invoices (company_id, created DESC);

-- Every provider event received with a valid signature: the event id is processed once.
CREATE TABLE payment_events (
  event_id    text PRIMARY KEY,
  provider    text NOT NULL,
  type        text NOT NULL,
  created     timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed', 'ignored')),
  attempts    integer NOT NULL DEFAULT 0,
  error       text,
  payload     jsonb NOT NULL
);
CREATE INDEX payment_events_pending ON payment_events (status, received_at) WHERE status IN ('pending', 'failed');

-- The local provider's own objects (customers, checkout sessions, subscriptions, invoices) when no Stripe key
-- is configured: what Stripe would hold, so the same sync code reads them.
CREATE TABLE local_billing_objects (
  id          text PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('customer', 'checkout', 'subscription', 'invoice')),
  customer_id text,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX local_billing_objects_customer ON local_billing_objects (customer_id, kind);
