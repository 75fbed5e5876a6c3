import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { expect, it } from 'vitest';
import { baseUrl, createUser } from './fixtures';

// `npm start` serves through a front that does what Cloudflare's edge does (scripts/edge-front.ts):
// CF-Connecting-IP is the connecting address, whatever the client sent, and the Worker trusts it
// as deployed. Every loopback address is this machine, so each attempt below picks the address it
// connects from, as clients on other machines would have theirs.
const attempt = (from: string, email: string, password: string, claimed?: string) =>
  new Promise<number>((resolve, reject) => {
    const url = new URL('/api/v1/auth/login', baseUrl());
    const body = JSON.stringify({ username: email, password, audience: 'staff-app' });
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(claimed ? { 'CF-Connecting-IP': claimed } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

it('counts sign-in failures per connecting address, and a stranger cannot lock a person out', async () => {
  const person = await createUser();
  // A stranger guesses, claiming a new CF-Connecting-IP each time: the front replaces it, so every
  // guess counts against the stranger's own address, and the sixth is refused.
  for (let i = 1; i <= 5; i++) expect(await attempt('127.0.0.2', person.email, 'a wrong guess', `198.51.100.${i}`)).toBe(401);
  expect(await attempt('127.0.0.2', person.email, 'a wrong guess', '198.51.100.200')).toBe(429);
  expect(await attempt('127.0.0.2', person.email, person.password, '127.0.0.3')).toBe(429);
  // Claiming the person's own address changes nothing either: the person, at theirs, signs in.
  expect(await attempt('127.0.0.3', person.email, person.password)).toBe(200);
});

it('gives each address its own count: another address guessing one account is counted apart', async () => {
  const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
  for (let i = 1; i <= 5; i++) expect(await attempt('127.0.0.4', email, 'a wrong guess')).toBe(401);
  expect(await attempt('127.0.0.4', email, 'a wrong guess')).toBe(429);
  expect(await attempt('127.0.0.5', email, 'a wrong guess', '127.0.0.4')).toBe(401);
});
