import { expect, inject, it } from 'vitest';
import { measureBundle } from '../../scripts/bench/bundle-size';

// The size budgets (docs/decisions.md#performance-budgets) are deterministic, so they guard every CI run. The e2e global
// setup has just built dist/ the way `npm start` does.
it.each(measureBundle(inject('distDir')))('$figure stays within its budget', ({ bytes, budget, detail }) => {
  expect(bytes, detail).toBeGreaterThan(0);
  expect(bytes, detail).toBeLessThanOrEqual(budget);
});
