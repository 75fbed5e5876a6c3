import type { Attachment } from './schemas/attachments';
import type { AccessIdentity, AccessLoginPayload } from './schemas/access';
import type { AuditQuery } from './schemas/audit';
import type { LoginPayload } from './schemas/auth';
import type { ApiTokenListQuery, CreateApiTokenPayload } from './schemas/api-tokens';
import type { CreatedWebhook, DeliveryListQuery, Webhook, WebhookChanges, WebhookDelivery, WebhookPayload } from './schemas/webhooks';
import type { AddPasskeyPayload, PasskeyLoginPayload, RenamePasskeyPayload } from './schemas/passkeys';
import type { ApproveLinesRequest, LineChanges, LineListQuery, LinePayload, StatementChanges, StatementRequest } from './schemas/invoices';
import type { ImportListQuery, ImportQuery } from './schemas/imports';
import type { ListQuery } from './schemas/list';
import type { LiveChanges, LiveChangesQuery, LiveQuery, LiveTicket } from './live';
import type { MarkReadPayload, NotificationListQuery } from './schemas/notifications';
import type { MailLogQuery, NotificationSettingsPayload } from './schemas/mail';
import type { MailLogDetail, MailLogEntry, NotificationSettings } from './mail';
import type { AgingQuery, PaymentPayload, StatementListQuery } from './schemas/payments';
import type { CompanyChanges, CompanyPayload, TicketCategoryChanges, TicketCategoryPayload } from './schemas/lookups';
import type { DashboardQuery, SlaReportQuery, TicketReportQuery, TimesheetQuery } from './schemas/reports';
import type { SearchQuery } from './schemas/search';
import type { CalendarChanges, CalendarPayload, SlaPolicyChanges, SlaPolicyPayload } from './schemas/sla';
import type { Calendar, SlaPolicy, SlaReport } from './sla';
import type { ApproveWeeksPayload, RejectWeekPayload, RejectWeeksPayload, TimesheetWeekQuery, UnapprovedWeeksQuery } from './schemas/timesheets';
import type { BackupDownloadQuery } from './schemas/settings';
import type { CommentPayload, NewCommentPayload, TicketChanges, TicketListQuery, TicketPayload, TimeEntryChanges, TimeEntryPayload } from './schemas/tickets';
import type { ChangePasswordPayload, CreateUserPayload, ProfilePayload, UpdateUserPayload, UserListQuery } from './schemas/users';
import type {
  AgingSummary,
  ApiToken,
  AuditEntry,
  BackupList,
  BackupResult,
  BackupStarted,
  ChangePasswordResponse,
  Company,
  CreatedApiToken,
  DashboardSummary,
  ImportBatch,
  ImportReport,
  ImportResult,
  InvoiceLine,
  LinePage,
  LoginResponse,
  Passkey,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  LookupUses,
  NotificationPage,
  Page,
  SearchResult,
  Statement,
  StatementDetail,
  Ticket,
  TicketCategory,
  TicketComment,
  TicketReport,
  TicketWatchers,
  TimeEntry,
  TimesheetReport,
  TimesheetWeek,
  UnapprovedWeeks,
  UnreadCount,
  User,
} from './types';

/** A list answered whole, without paging. */
interface Items<T> {
  items: T[];
}

/**
 * Every JSON call of the provider API (docs/api.md), keyed `METHOD /path` under `/api/v1`:
 * what it takes (`query`, `body`, as the shared schemas type them) and what it answers
 * (`response`; null for 204). The client's calls are typed by it (lib/endpoints.ts), and
 * src/worker/provider/contract-check.ts holds it equal to the provider's routes, so a field
 * renamed on either end fails `npm run typecheck`.
 */
export interface ApiContract {
  'POST /auth/login': { body: LoginPayload; response: LoginResponse };
  'POST /auth/logout': { response: null };
  // Cloudflare Access: who it says is asking (null: 204, nobody), and signing in as them.
  'GET /auth/access': { response: AccessIdentity | null };
  'POST /auth/access': { body: AccessLoginPayload; response: LoginResponse };
  'POST /auth/passkeys/register-options': { response: PasskeyCreationOptions };
  'POST /auth/passkeys': { body: AddPasskeyPayload; response: Passkey };
  'GET /auth/passkeys': { response: Items<Passkey> };
  'PATCH /auth/passkeys/:id': { body: RenamePasskeyPayload; response: Passkey };
  'DELETE /auth/passkeys/:id': { response: null };
  'POST /auth/passkeys/login-options': { response: PasskeyRequestOptions };
  'POST /auth/passkeys/login': { body: PasskeyLoginPayload; response: LoginResponse };
  'POST /auth/api-tokens': { body: CreateApiTokenPayload; response: CreatedApiToken };
  'GET /auth/api-tokens': { query: ApiTokenListQuery; response: Items<ApiToken> };
  'DELETE /auth/api-tokens/:id': { response: null };

  'GET /webhooks': { response: Items<Webhook> };
  'POST /webhooks': { body: WebhookPayload; response: CreatedWebhook };
  'GET /webhooks/:id': { response: Webhook };
  'PATCH /webhooks/:id': { body: WebhookChanges; response: Webhook };
  'DELETE /webhooks/:id': { response: null };
  'GET /webhooks/:id/deliveries': { query: DeliveryListQuery; response: Page<WebhookDelivery> };
  'POST /webhooks/:id/deliveries/:deliveryId/retry': { response: WebhookDelivery };
  'POST /webhooks/:id/test': { response: WebhookDelivery };

  'GET /users': { query: UserListQuery; response: Page<User> };
  'POST /users': { body: CreateUserPayload; response: User };
  'PATCH /users': { body: UpdateUserPayload; response: User };
  'PATCH /users/profile': { body: ProfilePayload; response: User };
  'PATCH /users/change-password': { body: ChangePasswordPayload; response: ChangePasswordResponse };
  'GET /users/:id': { response: User };

  'POST /settings/backup-db': { response: BackupResult | BackupStarted };
  'GET /settings/backups': { response: BackupList };

  'GET /companies': { query: ListQuery; response: Page<Company> };
  'POST /companies': { body: CompanyPayload; response: Company };
  'GET /companies/:id': { response: Company };
  'GET /companies/:id/uses': { response: LookupUses };
  'PATCH /companies/:id': { body: CompanyChanges; response: Company };
  'DELETE /companies/:id': { response: null };

  'GET /ticket-categories': { query: ListQuery; response: Page<TicketCategory> };
  'POST /ticket-categories': { body: TicketCategoryPayload; response: TicketCategory };
  'GET /ticket-categories/:id': { response: TicketCategory };
  'GET /ticket-categories/:id/uses': { response: LookupUses };
  'PATCH /ticket-categories/:id': { body: TicketCategoryChanges; response: TicketCategory };
  'DELETE /ticket-categories/:id': { response: null };

  'GET /calendars': { query: ListQuery; response: Page<Calendar> };
  'POST /calendars': { body: CalendarPayload; response: Calendar };
  'GET /calendars/:id': { response: Calendar };
  'GET /calendars/:id/uses': { response: LookupUses };
  'PATCH /calendars/:id': { body: CalendarChanges; response: Calendar };
  'DELETE /calendars/:id': { response: null };

  'GET /sla-policies': { query: ListQuery; response: Page<SlaPolicy> };
  'POST /sla-policies': { body: SlaPolicyPayload; response: SlaPolicy };
  'GET /sla-policies/:id': { response: SlaPolicy };
  'GET /sla-policies/:id/uses': { response: LookupUses };
  'PATCH /sla-policies/:id': { body: SlaPolicyChanges; response: SlaPolicy };
  'DELETE /sla-policies/:id': { response: null };

  'GET /tickets': { query: TicketListQuery; response: Page<Ticket> };
  'POST /tickets': { body: TicketPayload; response: Ticket };
  'GET /tickets/:id': { response: Ticket };
  'PATCH /tickets/:id': { body: TicketChanges; response: Ticket };
  'GET /tickets/:id/comments': { response: Items<TicketComment> };
  'POST /tickets/:id/comments': { body: NewCommentPayload; response: TicketComment };
  'GET /tickets/:id/time-entries': { response: Items<TimeEntry> };
  'POST /tickets/:id/time-entries': { body: TimeEntryPayload; response: TimeEntry };
  'GET /tickets/:id/watchers': { response: TicketWatchers };
  'PUT /tickets/:id/watchers/me': { response: null };
  'DELETE /tickets/:id/watchers/me': { response: null };
  'PATCH /tickets/:id/comments/:commentId': { body: CommentPayload; response: TicketComment };
  'DELETE /tickets/:id/comments/:commentId': { response: null };
  'PATCH /tickets/:id/time-entries/:entryId': { body: TimeEntryChanges; response: TimeEntry };
  'DELETE /tickets/:id/time-entries/:entryId': { response: null };

  'GET /invoices/gifs/statements': { query: StatementListQuery; response: Page<Statement> };
  'GET /invoices/gifs/statements/aging': { query: AgingQuery; response: AgingSummary };
  'POST /invoices/gifs/statements/:id/payments': { body: PaymentPayload; response: StatementDetail };
  'DELETE /invoices/gifs/statements/:id/payments/:paymentId': { response: StatementDetail };
  'POST /invoices/:source/periods/:period/close': { response: { invoices: StatementDetail[] } };
  'GET /invoices/:source/periods/:period/invoices': { response: { invoices: StatementDetail[] } };
  'POST /invoices/gifs/statements': { body: StatementRequest; response: StatementDetail };
  'GET /invoices/gifs/statements/:id': { response: StatementDetail };
  'PATCH /invoices/gifs/statements/:id': { body: StatementChanges; response: StatementDetail };
  'GET /invoices/lines/:id': { response: InvoiceLine };
  'PATCH /invoices/lines/:id': { body: LineChanges; response: InvoiceLine };
  'DELETE /invoices/lines/:id': { response: null };
  'POST /invoices/lines/approve': { body: ApproveLinesRequest; response: { approved: number } };
  'GET /invoices/imports': { query: ImportListQuery; response: Page<ImportBatch> };
  'DELETE /invoices/imports/:batchId': { response: null };
  /** Takes a text/csv body, not JSON: a dry run answers the check (200), an import the batch (201) or the check with a message (400). */
  'POST /invoices/:source/lines/import': { query: ImportQuery; response: ImportReport | ImportResult };
  'GET /invoices/:source/lines': { query: LineListQuery; response: LinePage };
  'POST /invoices/:source/lines': { body: LinePayload; response: InvoiceLine };

  'GET /reports/timesheet': { query: TimesheetQuery; response: TimesheetReport };
  'GET /reports/tickets': { query: TicketReportQuery; response: TicketReport };
  'GET /reports/sla': { query: SlaReportQuery; response: SlaReport };
  /** With `userId`: that person's week; without, every person's week (approvers). */
  'GET /timesheets': { query: TimesheetWeekQuery; response: TimesheetWeek | Items<TimesheetWeek> };
  'GET /timesheets/unapproved': { query: UnapprovedWeeksQuery; response: UnapprovedWeeks };
  'POST /timesheets/:userId/:week/submit': { response: TimesheetWeek };
  'POST /timesheets/:userId/:week/approve': { response: TimesheetWeek };
  'POST /timesheets/:userId/:week/reject': { body: RejectWeekPayload; response: TimesheetWeek };
  'POST /timesheets/:userId/:week/reopen': { response: TimesheetWeek };
  'POST /timesheets/approve': { body: ApproveWeeksPayload; response: { decided: number } };
  'POST /timesheets/reject': { body: RejectWeeksPayload; response: { decided: number } };
  'GET /dashboard/summary': { query: DashboardQuery; response: DashboardSummary };
  'GET /search': { query: SearchQuery; response: Items<SearchResult> };
  'GET /audit': { query: AuditQuery; response: Page<AuditEntry> };

  'POST /live/ticket': { response: LiveTicket };
  'GET /live/changes': { query: LiveChangesQuery; response: LiveChanges };
  'GET /notifications': { query: NotificationListQuery; response: NotificationPage };
  'POST /notifications/read': { body: MarkReadPayload; response: UnreadCount };
  'GET /users/me/notification-settings': { response: NotificationSettings };
  'PUT /users/me/notification-settings': { body: NotificationSettingsPayload; response: NotificationSettings };
  'GET /settings/mail': { query: MailLogQuery; response: Page<MailLogEntry> };
  'GET /settings/mail/:id': { response: MailLogDetail };
  // An upload's body is multipart/form-data (field `file`, optional `commentId`), not JSON.
  'POST /tickets/:id/attachments': { response: Attachment };
  'GET /tickets/:id/attachments': { response: Items<Attachment> };
  'DELETE /attachments/:id': { response: null };
}

/** The calls that answer with something other than JSON: a file to save (CSV exports, backups) or the live socket. */
export interface ApiFiles {
  'GET /live': { query: LiveQuery };
  'GET /invoices/:source/lines.csv': { query: LineListQuery };
  'GET /audit.csv': { query: AuditQuery };
  'GET /settings/backups/download': { query: BackupDownloadQuery };
  // The file itself, with the headers of README "Attachments"; fetched with the token, never from an address holding it.
  'GET /attachments/:id/content': object;
}

export type Endpoint = keyof ApiContract;
export type ResponseOf<K extends Endpoint> = ApiContract[K]['response'];
