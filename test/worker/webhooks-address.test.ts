import { describe, expect, it } from 'vitest';
import { refusedAddress, resolveOverHttps, type Resolve } from '../../src/worker/provider/webhooks/address-guard';

// Where a webhook may be sent (docs/api.md#webhooks): a public address only, in whatever form
// the address is written, and a host name only when every DNS answer is public.

const noDns: Resolve = () => Promise.reject(new Error('DNS must not be asked for an address literal'));
const dns =
  (answers: Record<string, string[]>): Resolve =>
  (host) =>
    Promise.resolve(answers[host] ?? []);

describe('webhook address guard', () => {
  const refused = [
    'https://127.0.0.1/hook',
    'https://127.8.9.10/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0177.0.0.1/hook',
    'https://0x7f.1/hook',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://172.31.255.255/',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/',
    'https://[::1]/',
    'https://[::]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[fe80::1]/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://localhost/',
    'https://api.localhost/',
    'https://metadata.google.internal/',
    'https://user:pass@203.0.113.10/',
    'http://203.0.113.10/',
    'ftp://203.0.113.10/',
    'not a url',
  ];
  it.each(refused)('refuses %s', async (url) => {
    expect(await refusedAddress(url, false, noDns)).toEqual(expect.any(String));
  });

  it.each(['https://203.0.113.10/hook', 'https://172.32.0.1/', 'https://[2606:4700::1111]/', 'https://8.8.8.8:8443/x'])('allows %s', async (url) => {
    expect(await refusedAddress(url, false, noDns)).toBeNull();
  });

  it('judges a host name by every DNS answer', async () => {
    const resolve = dns({
      'good.example': ['203.0.113.5', '2606:4700::1'],
      'rebind.example': ['203.0.113.5', '10.0.0.7'],
      'inside.example': ['192.168.0.10'],
      'six.example': ['fd00::5'],
      'mapped.example': ['::ffff:169.254.169.254'],
    });
    expect(await refusedAddress('https://good.example/hook', false, resolve)).toBeNull();
    expect(await refusedAddress('https://rebind.example/hook', false, resolve)).toMatch(/10\.0\.0\.7/);
    expect(await refusedAddress('https://inside.example/hook', false, resolve)).toMatch(/192\.168\.0\.10/);
    expect(await refusedAddress('https://six.example/hook', false, resolve)).toMatch(/fd00::5/);
    expect(await refusedAddress('https://mapped.example/hook', false, resolve)).toMatch(/169\.254/);
    expect(await refusedAddress('https://nowhere.example/hook', false, resolve)).toMatch(/no address/);
  });

  it('with WEBHOOK_ALLOW_LOOPBACK lets only loopback and plain http through as well', async () => {
    expect(await refusedAddress('http://127.0.0.1:8787/hook', true, noDns)).toBeNull();
    expect(await refusedAddress('http://localhost:8787/hook', true, noDns)).toBeNull();
    expect(await refusedAddress('http://[::1]:8787/hook', true, noDns)).toBeNull();
    expect(await refusedAddress('http://10.0.0.1/hook', true, noDns)).toEqual(expect.any(String));
    expect(await refusedAddress('https://169.254.169.254/', true, noDns)).toEqual(expect.any(String));
    expect(await refusedAddress('https://[fe80::1]/', true, noDns)).toEqual(expect.any(String));
  });

  it('asks DNS over HTTPS for A and AAAA answers', async () => {
    const asked: string[] = [];
    const fetcher: typeof fetch = (input) => {
      const url = new URL(String(input));
      asked.push(`${url.origin}${url.pathname} ${url.searchParams.get('name')} ${url.searchParams.get('type')}`);
      const answer = url.searchParams.get('type') === 'A' ? [{ type: 1, data: '198.51.100.4' }, { type: 5, data: 'alias.example.' }] : [{ type: 28, data: 'fd00::1' }];
      return Promise.resolve(Response.json({ Answer: answer }));
    };
    expect(await resolveOverHttps(fetcher)('hooks.example.com')).toEqual(['198.51.100.4', 'fd00::1']);
    expect(asked.sort()).toEqual(['https://cloudflare-dns.com/dns-query hooks.example.com A', 'https://cloudflare-dns.com/dns-query hooks.example.com AAAA']);
  });
});
