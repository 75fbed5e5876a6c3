import type { LiveHub } from './provider';

/**
 * Bindings and variables of the Worker, as wrangler.toml and `.dev.vars` declare them. Secrets,
 * which wrangler.toml does not name, carry `@secret`; `npm test` holds the rest equal to what
 * `wrangler types` makes of wrangler.toml (test/scripts/deploy-config.test.ts).
 */
export interface Env {
  ASSETS: Fetcher;
  DB: D1Database;
  BACKUPS: R2Bucket;
  LIVE: DurableObjectNamespace<LiveHub>;
  FILES: R2Bucket;
  APP_AUDIENCE: string;
  UPSTREAM_API_URL: string;
  /** "true" where Cloudflare's edge sets CF-Connecting-IP (production); "false" in local runs. */
  TRUST_CF_CONNECTING_IP: string;
  /** @secret `wrangler secret put JWT_SECRET`; `.dev.vars` locally. */
  JWT_SECRET: string;
  /** The sender block of printed statements. */
  ORG_NAME?: string;
  ORG_ADDRESS?: string;
  /** Days from a statement's issue to its due date; 30 when unset. */
  PAYMENT_TERMS_DAYS?: string;
  /** Retention of the scheduled backups (docs/operations.md#backups): whole numbers as text. */
  BACKUP_KEEP_DAILY: string;
  BACKUP_KEEP_MONTHLY: string;
  /** Rows a backup reads per page, 5,000 when unset; tests set a handful to make steps. */
  BACKUP_PAGE_ROWS?: string;
  /** The ceiling a backup's copies must fit under, in bytes; D1's 10 GB when unset. */
  D1_MAX_BYTES?: string;
  /** Cloudflare Access (docs/operations.md#cloudflare-access): the team's origin and the application's audience tag; empty is off. */
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
  /** "true": password sign-in is refused; Access and passkeys only. */
  ACCESS_REQUIRED?: string;
  /** Webhook deliveries (docs/operations.md#webhooks). */
  WEBHOOKS: Queue;
  /** "true" lets webhooks target http and loopback: local development and tests only. */
  WEBHOOK_ALLOW_LOOPBACK: string;
  /** Outgoing mail through Cloudflare's send_email binding (docs/operations.md#mail). */
  MAIL: SendEmail;
  /** The sender of every mail, the inbox whose domain carries reply addresses, and the app's address for links. */
  MAIL_FROM: string;
  MAIL_INBOX: string;
  APP_URL: string;
  /** Divides webhook retry delays; only the bench sets it. */
  WEBHOOK_RETRY_DIVISOR: string;
}
