import { AppError } from '../../platform/errors.js';
import type { PaymentProvider } from './payments.provider.js';

/** The sentence an owner reads when nothing can be bought here. */
export const PAYMENTS_OFF_DETAIL = 'Paid plans cannot be bought on this server: payments are switched off. Please contact the people who run this service.';

/**
 * PAYMENTS_PROVIDER=off (the default in production without a Stripe key): nothing can be bought,
 * opened or cancelled. Plans an administrator sets still apply; every provider call is a 503 that says so.
 */
export function createPaymentsOffProvider(): PaymentProvider {
  const off = (): never => {
    throw new AppError('unavailable', PAYMENTS_OFF_DETAIL);
  };
  return {
    name: 'off',
    ensureCustomer: async () => off(),
    createCheckout: async () => off(),
    getCheckout: async () => null,
    createPortal: async () => off(),
    listSubscriptions: async () => [],
    getSubscription: async () => null,
    cancelAtPeriodEnd: async () => off(),
    resume: async () => off(),
    getInvoice: async () => null,
    createPromo: async () => ({ couponId: null, promotionCodeId: null }),
    setPromoActive: async () => {},
  };
}
