import { array, number, object, string, type InferType } from 'yup';
import { filledLine, filledParagraph, line } from './fields';
import { recordId } from './ids';
import { listQuerySchema } from './list';

export const INVOICE_SOURCES = ['autofi', '3dtracking', 'gifs-sla', 'gifs-azure'] as const;
export type InvoiceSource = (typeof INVOICE_SOURCES)[number];
export const isInvoiceSource = (value: string): value is InvoiceSource => (INVOICE_SOURCES as readonly string[]).includes(value);
/** Each ledger's name where it stands alone (search results); on a GIFS statement its lines say SLA or Azure. */
export const SOURCE_NAMES: Record<InvoiceSource, string> = { autofi: 'Autofi', '3dtracking': '3D Tracking', 'gifs-sla': 'GIFS SLA', 'gifs-azure': 'GIFS Azure' };
/** Each source as a statement's line names it: the GIFS statement already says GIFS. */
export const SOURCE_LABELS: Record<InvoiceSource, string> = { ...SOURCE_NAMES, 'gifs-sla': 'SLA', 'gifs-azure': 'Azure' };
export const LINE_STATUSES = ['draft', 'approved', 'invoiced'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
/** The statuses a caller may set on a line; `invoiced` follows from the line's statement being issued. */
export const EDITABLE_LINE_STATUSES = ['draft', 'approved'] as const;
export const STATEMENT_STATUSES = ['open', 'issued', 'paid', 'void'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];
/**
 * What a statement shows and its list filters by: its status, with `partial` for an issued one
 * that has received some of its total (paid stays a status of its own; partial is worked out).
 */
export const STATEMENT_STATES = ['open', 'issued', 'partial', 'paid', 'void'] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];
/** A line on a statement in one of these is billed and frozen (docs/architecture.md#billing-lines-and-statements). */
export const isBilled = (status: StatementStatus | null) => status === 'issued' || status === 'paid';
/** The moves a statement can make (docs/architecture.md#billing-lines-and-statements): open → issued → paid, or issued → void. */
export const STATEMENT_TRANSITIONS = { issued: 'open', paid: 'issued', void: 'issued' } as const satisfies Record<string, StatementStatus>;
export type StatementTarget = keyof typeof STATEMENT_TRANSITIONS;
export const VOID_REASON_MAX = 500;
export const VOID_REASON_REQUIRED = 'Give the reason for voiding';

/** Whose document a statement is: GIFS statements, or the invoice of a closed Autofi or 3D Tracking month. */
export const LEDGERS = ['gifs', 'autofi', '3dtracking'] as const;
export type Ledger = (typeof LEDGERS)[number];
/** The ledgers whose months are closed into one invoice. */
export const CLOSING_LEDGERS = ['autofi', '3dtracking'] as const;
export type ClosingLedger = (typeof CLOSING_LEDGERS)[number];
export const isClosingLedger = (value: string): value is ClosingLedger => (CLOSING_LEDGERS as readonly string[]).includes(value);
export const LEDGER_PREFIXES: Record<Ledger, string> = { gifs: 'GIFS', autofi: 'AUTOFI', '3dtracking': '3DTRACKING' };

/** A document's number: the first of a month is GIFS-2033-01-1 (AUTOFI-2033-01-1), later ones count on. */
export const statementNumber = (period: string, sequence: number, ledger: Ledger = 'gifs') => `${LEDGER_PREFIXES[ledger]}-${period}-${sequence}`;

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
export const period = () => string().matches(PERIOD, 'Must be a month as YYYY-MM');

// Whole units and whole cents keep every sum exact; the amount is always computed on the server.
const quantity = () => number().integer('Must be a whole number').min(0, 'Must not be negative').max(1_000_000, 'Too large');
const unitPriceCents = () =>
  number().integer('Must be whole cents').min(-100_000_000, 'Too small').max(100_000_000, 'Too large');
const lineStatus = () => string().oneOf(LINE_STATUSES, `Must be one of ${LINE_STATUSES.join(', ')}`);
const INVOICED_ONLY_BY_STATEMENT = 'A line becomes invoiced only when its statement is issued';
const editableLineStatus = () =>
  string()
    .notOneOf(['invoiced'], INVOICED_ONLY_BY_STATEMENT)
    .oneOf(EDITABLE_LINE_STATUSES, `Must be one of ${EDITABLE_LINE_STATUSES.join(', ')}`);

export const createLineSchema = object({
  companyId: recordId().nullable(),
  period: period().required('Required'),
  description: filledParagraph(1000, 'Required').required('Required'),
  quantity: quantity().required('Required'),
  unitPriceCents: unitPriceCents().required('Required'),
  reference: line(100),
  status: editableLineStatus(),
});
export type LinePayload = InferType<typeof createLineSchema>;

export const updateLineSchema = object({
  description: filledParagraph(1000, 'Required'),
  quantity: quantity(),
  unitPriceCents: unitPriceCents(),
  reference: line(100),
  status: editableLineStatus(),
});
export type LineChanges = InferType<typeof updateLineSchema>;

export const lineListQuerySchema = listQuerySchema.shape({
  period: period(),
  status: lineStatus(),
});
export type LineListQuery = InferType<typeof lineListQuerySchema>;

/** Bills a month's approved GIFS lines that are on no statement yet; `companyId` picks one company's. */
export const createStatementSchema = object({ period: period().required('Required'), companyId: recordId() });
export type StatementRequest = InferType<typeof createStatementSchema>;

const TARGETS = Object.keys(STATEMENT_TRANSITIONS) as StatementTarget[];

/**
 * A move to `status`. `from` names the status the caller saw, so a repeated or stale request
 * gets 409 instead of taking the next step; a void needs its reason, and nothing else takes one.
 */
export const updateStatementSchema = object({
  status: string<StatementTarget>().oneOf(TARGETS, `Must be one of ${TARGETS.join(', ')}`).required('Required'),
  from: string<StatementStatus>().oneOf(STATEMENT_STATUSES, `Must be one of ${STATEMENT_STATUSES.join(', ')}`),
  reason: string().when('status', {
    is: 'void',
    then: () => filledLine(VOID_REASON_MAX, VOID_REASON_REQUIRED).required(VOID_REASON_REQUIRED),
    otherwise: (schema) => schema.test('no-reason', 'Only a void takes a reason', (value) => value === undefined),
  }),
});
export type StatementChanges = InferType<typeof updateStatementSchema>;

/** The most lines one approval takes: a ledger page at its largest. */
export const APPROVE_MAX = 200;

/** Approves these draft lines, all or none. */
export const approveLinesSchema = object({
  ids: array(recordId().required('Required'))
    .min(1, 'Choose at least one line')
    .max(APPROVE_MAX, `At most ${APPROVE_MAX} lines at once`)
    .test('unique', 'Each line may be named once', (ids) => !ids || new Set(ids).size === ids.length)
    .required('Required'),
});
export type ApproveLinesRequest = InferType<typeof approveLinesSchema>;
