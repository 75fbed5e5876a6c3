import type { LiveHub } from './live/hub';
import type { WebhookMessage } from './webhooks/consumer';

/**
 * The bindings and variables the embedded provider reads. It stands in for an upstream API, so
 * it states its own needs rather than borrowing the Worker's Env; the Worker's Env meets them.
 */
export interface ProviderBindings {
  DB: D1Database;
  /** The team's live channel (docs/architecture.md#live-updates). */
  LIVE: DurableObjectNamespace<LiveHub>;
  BACKUPS: R2Bucket;
  /** Attachments (README "Attachments"). */
  FILES: R2Bucket;
  APP_AUDIENCE: string;
  JWT_SECRET: string;
  /** The sender block of printed statements. */
  ORG_NAME?: string;
  ORG_ADDRESS?: string;
  /** Days from a statement's issue to its due date; 30 when unset. */
  PAYMENT_TERMS_DAYS?: string;
  /** Retention of the scheduled backups (docs/operations.md#backups): whole numbers as text. */
  BACKUP_KEEP_DAILY?: string;
  BACKUP_KEEP_MONTHLY?: string;
  /** Rows a backup reads per page; tests set a handful (db/backup/vars.ts). */
  BACKUP_PAGE_ROWS?: string;
  /** The ceiling a backup must fit under, in bytes; D1's 10 GB when unset (db/backup/capacity.ts). */
  D1_MAX_BYTES?: string;
  /** Cloudflare Access (docs/operations.md#cloudflare-access): both set, or Access sign-in is off. */
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
  /** "true": password sign-in is refused; Access and passkeys only. */
  ACCESS_REQUIRED?: string;
  /** Webhook deliveries go through this queue after commit (docs/operations.md#webhooks); unbound, none are sent. */
  WEBHOOKS?: Queue<WebhookMessage>;
  /** "true": webhooks may target plain http and loopback (local development and tests only). */
  WEBHOOK_ALLOW_LOOPBACK?: string;
  /** Divides webhook retry delays; set only by the bench (docs/operations.md#webhooks). */
  WEBHOOK_RETRY_DIVISOR?: string;
  /** Outgoing mail (docs/operations.md#mail); unbound, mail stays queued and nothing is sent. */
  MAIL?: SendEmail;
  /** The sender of every mail, on a domain with SPF, DKIM and DMARC set up. */
  MAIL_FROM?: string;
  /** The address mail to the app goes to; its domain carries the tickets' reply addresses. */
  MAIL_INBOX?: string;
  /** The app's address, for the links in mail. */
  APP_URL?: string;
}
