import { plainDecimal } from '../../shared/money';

/**
 * Money typed by people, as integer cents. Parsed from the text itself rather than through
 * floating point, so "0.29" is 29 cents and never 28.999….
 */
const MONEY_TEXT = /^(-?)(\d*)(?:\.(\d{0,2}))?$/;

/** "12.50" → 1250, "-3" → -300, "12." → 1200; null when the text is not an amount of at most two decimals. */
export const parseCents = (text: string): number | null => {
  const match = MONEY_TEXT.exec(text.trim().replace(/,/g, ''));
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (!whole && !fraction) return null;
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
};

/** 1250 → "12.50", -5 → "-0.05": cents as the text of a money input. */
export const centsToText = plainDecimal;
