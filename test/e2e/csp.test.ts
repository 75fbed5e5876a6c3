import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, newPage } from './fixtures';

const PAGES = [
  '/',
  '/login/',
  '/dashboard/',
  '/users/?id=1&component=details',
  '/tickets/?id=3',
  '/lookups/companies/',
  '/lookups/ticket-categories/',
  '/invoices/autofi/?lineId=2',
  '/invoices/3dtracking/',
  '/invoices/gifs',
  '/invoices/gifs/statement?statementId=3',
  '/invoices/gifs/sla',
  '/invoices/gifs/azure',
  '/reports/timesheet/',
  '/reports/ticket-report/',
  '/no/such/page',
];

const expectSecurityHeaders = (headers: Headers, what: string) => {
  const csp = headers.get('content-security-policy') ?? '';
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
  expect(scriptSrc, what).toBe("'self'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(headers.get('strict-transport-security'), what).toMatch(/max-age=\d+/);
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBeTruthy();
  expect(headers.get('permissions-policy'), what).toContain('camera=()');
};

describe('security headers on every response', () => {
  it.each(PAGES)('page %s answers 200 with the app and the headers', async (path) => {
    const res = await fetch(`${baseUrl()}${path}`, { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expectSecurityHeaders(res.headers, path);
  });

  it.each(['/favicon.svg', '/api/v1/users', '/api/v1/auth/login', '/api/v1/nope'])('%s carries the headers', async (path) => {
    const res = await fetch(`${baseUrl()}${path}`, { method: path.endsWith('login') ? 'POST' : 'GET', body: path.endsWith('login') ? '{' : undefined });
    expectSecurityHeaders(res.headers, path);
  });
});

describe('content security policy in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('blocks an inline script while the app itself runs', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login/');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    const outcome = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; violated: string }>((resolve) => {
          const state = window as unknown as { inlineRan?: boolean };
          document.addEventListener('securitypolicyviolation', (event) => resolve({ ran: state.inlineRan === true, violated: event.effectiveDirective }), { once: true });
          const script = document.createElement('script');
          script.textContent = 'window.inlineRan = true;';
          document.body.append(script);
          setTimeout(() => resolve({ ran: state.inlineRan === true, violated: '' }), 2000);
        }),
    );
    expect(outcome).toEqual({ ran: false, violated: 'script-src-elem' });
    await context.close();
  });
});
