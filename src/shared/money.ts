/**
 * Money as people read it, from the integer cents the API stores: with the currency's sign and
 * separators ("$620.06", "$1,250.00", "-$5.00"). The pages pass no locale, so the browser's
 * decides; the provider's messages are written in `MESSAGE_LOCALE`, so an answer reads the same
 * wherever the Worker runs. Plain decimals without a sign ("620.06") are for CSV cells and money
 * inputs only (src/shared/csv.ts, src/client/lib/money.ts).
 */
export const CURRENCY = 'USD';

/** The locale the provider's messages use for numbers and money. */
export const MESSAGE_LOCALE = 'en-US';

export const formatMoney = (cents: number, locale?: string) => new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY }).format(cents / 100);

/** Integer cents as a plain decimal, no sign or separators: -1234 → "-12.34", for CSV cells and money inputs. */
export const plainDecimal = (cents: number) => {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** Money inside an API message: "$620.06" on every server. */
export const moneyInMessage = (cents: number) => formatMoney(cents, MESSAGE_LOCALE);
