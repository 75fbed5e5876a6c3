import { number, object, string, type InferType } from 'yup';
import { line } from './fields';
import { calendarDate, filterFlag } from './filters';
import { LEDGERS, STATEMENT_STATES, type Ledger, type StatementState } from './invoices';
import { listQuerySchema } from './list';

export const PAYMENT_METHODS = ['bank', 'card', 'cash', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The largest single payment: a statement's total is far below it, and the sum stays exact in cents. */
const MAX_PAYMENT_CENTS = 100_000_000_000;

/**
 * A payment received against an issued statement. The amount is whole cents above zero; that it
 * does not exceed the balance is checked by the write itself, where it cannot be raced.
 */
export const paymentSchema = object({
  paidOn: calendarDate().required('Required'),
  amountCents: number()
    .typeError('Must be a number')
    .integer('Must be whole cents')
    .min(1, 'Must be more than zero')
    .max(MAX_PAYMENT_CENTS, 'Too large')
    .required('Required'),
  method: string<PaymentMethod>().oneOf(PAYMENT_METHODS, `Must be one of ${PAYMENT_METHODS.join(', ')}`).required('Required'),
  reference: line(100),
});
export type PaymentPayload = InferType<typeof paymentSchema>;

/**
 * The statements list: `ledger` whose documents (GIFS statements unless it names the invoices of
 * closed Autofi or 3D Tracking months); `overdue` keeps the issued ones past their due date with
 * a balance; `state` those a status badge shows as that state (`issued` without any payment yet,
 * `partial` issued with some of its total paid).
 */
export const statementListQuerySchema = listQuerySchema.shape({
  ledger: string<Ledger>().oneOf(LEDGERS, `Must be one of ${LEDGERS.join(', ')}`),
  overdue: filterFlag(),
  state: string<StatementState>().oneOf(STATEMENT_STATES, `Must be one of ${STATEMENT_STATES.join(', ')}`),
});
export type StatementListQuery = InferType<typeof statementListQuerySchema>;

/** The aging summary: of one ledger's documents when `ledger` names it, else of every ledger's. */
export const agingQuerySchema = object({
  ledger: string<Ledger>().oneOf(LEDGERS, `Must be one of ${LEDGERS.join(', ')}`),
});
export type AgingQuery = InferType<typeof agingQuerySchema>;

/** Days past due that each aging bucket covers; `current` is not yet due. */
export const AGING_BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'days90plus'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
