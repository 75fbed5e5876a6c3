import type { StatementIssuer } from '../../shared/types';
import type { ProviderBindings } from './env';

export const DEFAULT_PAYMENT_TERMS_DAYS = 30;

/** The statement sender from wrangler.toml's vars; payment terms fall back to 30 days when unset or not a day count. */
export const issuerOf = (env: Pick<ProviderBindings, 'ORG_NAME' | 'ORG_ADDRESS' | 'PAYMENT_TERMS_DAYS'>): StatementIssuer => {
  const terms = /^\d{1,3}$/.test(env.PAYMENT_TERMS_DAYS ?? '') ? Number(env.PAYMENT_TERMS_DAYS) : DEFAULT_PAYMENT_TERMS_DAYS;
  return { name: env.ORG_NAME ?? '', address: env.ORG_ADDRESS ?? '', paymentTermsDays: terms };
};
