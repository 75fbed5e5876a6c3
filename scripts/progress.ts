import type { RestoreProgress } from '../src/worker/provider/db/backup/restore';

const WIDTH = 30;
const number = (n: number) => n.toLocaleString('en-US');

/** One line of a restore's progress: a bar, rows and tables while writing; rows read while checking. */
export const progressLine = (p: RestoreProgress) => {
  if (p.phase === 'check' || !p.totalRows) return `Checking the file… ${number(p.rows)} rows read (${p.table})`;
  const share = Math.min(1, p.rows / p.totalRows);
  const filled = Math.round(share * WIDTH);
  return `[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}% ${number(p.rows)} / ${number(p.totalRows)} rows · table ${p.tablesDone + 1} of ${p.tables} (${p.table})`;
};

/**
 * Shows progress on `out`: redrawn in place on a terminal; in a log, a line whenever the table or
 * the tenth changes, so a long restore does not fill the log.
 */
export const progressReporter = (out: NodeJS.WriteStream = process.stderr) => {
  let last = '';
  return {
    report: (p: RestoreProgress) => {
      if (out.isTTY) {
        out.write(`\r\x1b[2K${progressLine(p)}`);
        return;
      }
      const step = `${p.phase} ${p.table} ${p.totalRows ? Math.floor((p.rows / p.totalRows) * 10) : ''}`;
      if (step === last) return;
      last = step;
      out.write(`${progressLine(p)}\n`);
    },
    done: () => {
      if (out.isTTY) out.write('\n');
    },
  };
};
