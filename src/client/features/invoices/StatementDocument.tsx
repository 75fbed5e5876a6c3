import { createPortal } from 'react-dom';
import { SOURCE_LABELS } from '../../../shared/schemas/invoices';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatDate, formatMonth } from '../../lib/format';
import classes from './print.module.css';

/**
 * The statement as a printed document: sender, recipient, number, period, issue and due dates,
 * lines, total, what was paid and the balance due (a void one asks for no payment). It is a
 * direct child of <body> that only print media shows, while print hides every other child of
 * <body> (the app, drawers, dialogs, toasts), so the page holds nothing else.
 */
export function StatementDocument({ statement }: { statement: StatementDetail }) {
  const { issuer } = statement;
  const voided = statement.status === 'void';
  // Issued or paid: what was received so far and what is still owed; a void one owes nothing.
  const billed = statement.status === 'issued' || statement.status === 'paid';
  const noun = statement.ledger === 'gifs' ? 'statement' : 'invoice';
  return createPortal(
    <article className={classes.document} data-testid="statement-document">
      <header className={classes.header}>
        <div className={classes.sender}>
          <strong>{issuer.name}</strong>
          <span className={classes.address}>{issuer.address}</span>
        </div>
        <div className={classes.heading}>
          <h1>{statement.ledger === 'gifs' ? 'Statement' : 'Invoice'}</h1>
          <span>{statement.number}</span>
          {statement.status === 'void' ? <span className={classes.stamp}>Void</span> : null}
          {statement.status === 'open' ? <span className={classes.stamp}>Draft, not issued</span> : null}
        </div>
      </header>
      <section className={classes.parties}>
        <div>
          <h2>Bill to</h2>
          <strong>{statement.companyName ?? '—'}</strong>
          <span className={classes.address}>{statement.companyAddress ?? ''}</span>
        </div>
        <dl className={classes.facts}>
          <dt>{statement.ledger === 'gifs' ? 'Statement number' : 'Invoice number'}</dt>
          <dd>{statement.number}</dd>
          <dt>Period</dt>
          <dd>{formatMonth(statement.period)}</dd>
          <dt>Issue date</dt>
          <dd>{statement.issuedAt ? formatDate(statement.issuedAt) : 'Not issued'}</dd>
          <dt>Due date</dt>
          <dd>{statement.dueOn ? formatDate(statement.dueOn) : `${issuer.paymentTermsDays} days after issue`}</dd>
        </dl>
      </section>
      {voided ? <p className={classes.note}>Void: {statement.voidReason}. Nothing is due on this {noun}; its lines are shown as billed.</p> : null}
      <table className={voided ? `${classes.lines} ${classes.voided}` : classes.lines}>
        <thead>
          <tr>
            <th>Description</th>
            <th>Reference</th>
            <th className={classes.number}>Qty</th>
            <th className={classes.number}>Unit price</th>
            <th className={classes.number}>Amount</th>
          </tr>
        </thead>
        <tbody>
          {statement.lines.map((line) => (
            <tr key={line.id}>
              <td>
                {line.description}
                <span className={classes.source}> · {SOURCE_LABELS[line.source] ?? line.source}</span>
                {/* Every line is the bill-to's; an invoice made before invoices were per company names each line's own. */}
                {line.companyName !== statement.companyName ? <span className={classes.source}> · {line.companyName ?? 'No company'}</span> : null}
              </td>
              <td>{line.reference}</td>
              <td className={classes.number}>{line.quantity.toLocaleString()}</td>
              <td className={classes.number}>{formatCents(line.unitPriceCents)}</td>
              <td className={classes.number}>{formatCents(line.amountCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={4}>{voided ? 'Total billed (void)' : 'Total'}</th>
            <th className={classes.number}>{formatCents(statement.totalCents)}</th>
          </tr>
          {billed && statement.paidCents > 0 ? (
            <tr className={classes.paid}>
              <th colSpan={4}>Paid</th>
              <th className={classes.number}>−{formatCents(statement.paidCents)}</th>
            </tr>
          ) : null}
          {billed ? (
            <tr className={classes.due}>
              <th colSpan={4}>Balance due</th>
              <th className={classes.number}>{formatCents(statement.balanceCents)}</th>
            </tr>
          ) : null}
        </tfoot>
      </table>
      <p className={classes.note}>
        {voided ? `This ${noun} is void and asks for no payment.` : null}
        {billed && statement.balanceCents === 0 ? 'Paid in full. Thank you.' : null}
        {statement.status === 'open' || (billed && statement.balanceCents > 0)
          ? `Payment terms: ${issuer.paymentTermsDays} days from the issue date. Please quote ${statement.number} with your payment.`
          : null}
      </p>
    </article>,
    document.body,
  );
}
