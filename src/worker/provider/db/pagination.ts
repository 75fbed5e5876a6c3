import type { Page } from '../../../shared/types';
import type { ListQuery } from '../../../shared/schemas/list';
import { rowsOf } from './rows';

export const pageWindow = ({ page, pageSize }: ListQuery) => ({ limit: pageSize, offset: (page - 1) * pageSize });

export const pageOf = <T>(items: T[], total: number, { page, pageSize }: ListQuery): Page<T> => ({
  items,
  total,
  page,
  pageSize,
});

/** The `count(*) AS total` of a list's count statement. */
export const totalOf = (result: D1Result | undefined) => (result?.results[0] as { total: number } | undefined)?.total ?? 0;

/**
 * A list as SQL: `select` reads its rows (SELECT … FROM … its joins), `counted` is the table its
 * total counts (`tickets t`), and both take the same `where` (with WHERE, or empty) and `params`.
 */
export interface ListSpec {
  select: string;
  counted: string;
  where: string;
  orderBy: string;
  params?: unknown[];
}

/** The SQL of one page of a list and of its total, with their parameters. */
export const listSql = ({ select, counted, where, orderBy, params = [] }: ListSpec, query: ListQuery) => {
  const { limit, offset } = pageWindow(query);
  return {
    page: `${select} ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
    total: `SELECT count(*) AS total FROM ${counted} ${where}`,
    params,
  };
};

/**
 * One page of a list and its total, read in one batch with any `also` statements (their results
 * in `also`), the rows turned into the API's shape by `toApi`.
 */
export const readPage = async <Row, T>(
  db: D1Database,
  spec: ListSpec,
  query: ListQuery,
  toApi: (rows: Row[]) => T[] | Promise<T[]>,
  ...also: D1PreparedStatement[]
): Promise<{ page: Page<T>; also: D1Result[] }> => {
  const sql = listSql(spec, query);
  const [rows, count, ...rest] = await db.batch([db.prepare(sql.page).bind(...sql.params), db.prepare(sql.total).bind(...sql.params), ...also]);
  return { page: pageOf(await toApi(rowsOf<Row>(rows)), totalOf(count), query), also: rest };
};
