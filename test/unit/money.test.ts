import { describe, expect, it } from 'vitest';
import { centsToText, parseCents } from '../../src/client/lib/money';
import { formatMoney, moneyInMessage } from '../../src/shared/money';

describe('parseCents', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    ['12.', 1200],
    ['0.29', 29],
    ['.05', 5],
    ['-3', -300],
    ['-0.01', -1],
    ['1,234.56', 123456],
    [' 7.10 ', 710],
    ['1000000', 100000000],
  ])('reads %j as %i cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each(['', '-', '.', '12.345', 'abc', '1e3', '12..5', '--1'])('refuses %j', (text) => {
    expect(parseCents(text)).toBeNull();
  });
});

describe('centsToText', () => {
  it.each([
    [1250, '12.50'],
    [5, '0.05'],
    [-5, '-0.05'],
    [0, '0.00'],
    [-123456, '-1234.56'],
  ])('writes %i cents as %j', (cents, text) => {
    expect(centsToText(cents)).toBe(text);
  });
});

describe('moneyInMessage: money in the API’s messages', () => {
  it.each([
    [62006, '$620.06'],
    [125000, '$1,250.00'],
    [5, '$0.05'],
    [-500, '-$5.00'],
    [0, '$0.00'],
  ])('%i cents read %s, with the sign the pages show', (cents, text) => {
    expect(moneyInMessage(cents)).toBe(text);
    expect(formatMoney(cents, 'en-US')).toBe(text);
  });
});
