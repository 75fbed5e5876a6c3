import { STORE_NAME } from '../../lib/constants';

/** A choice made in the palette, shown again while its box is empty. */
export interface RecentChoice {
  key: string;
  kind: string;
  title: string;
  subtitle: string;
  address: string;
}

const KEY = `${STORE_NAME}-recent-search`;
const KEEP = 5;

const isChoice = (value: unknown): value is RecentChoice =>
  !!value && typeof value === 'object' && ['key', 'kind', 'title', 'subtitle', 'address'].every((field) => typeof (value as Record<string, unknown>)[field] === 'string');

export const readRecent = (): RecentChoice[] => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    // Only in-app addresses: a stored value is never trusted to point elsewhere.
    return Array.isArray(stored) ? stored.filter(isChoice).filter((choice) => choice.address.startsWith('/') && !choice.address.startsWith('//')).slice(0, KEEP) : [];
  } catch {
    return [];
  }
};

export const remember = (choice: RecentChoice) => {
  const next = [choice, ...readRecent().filter((item) => item.key !== choice.key)].slice(0, KEEP);
  localStorage.setItem(KEY, JSON.stringify(next));
};
