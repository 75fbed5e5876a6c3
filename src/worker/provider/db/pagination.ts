import type { Page } from '../../../shared/types';
import type { ListQuery } from '../../../shared/schemas/list';
import { likeLiteral } from './sql';

export const pageWindow = ({ page, pageSize }: ListQuery) => ({ limit: pageSize, offset: (page - 1) * pageSize });

export const pageOf = <T>(items: T[], total: number, { page, pageSize }: ListQuery): Page<T> => ({
  items,
  total,
  page,
  pageSize,
});

/** A LIKE pattern matching `q` anywhere, with the wildcards in `q` taken literally (ESCAPE '\'). */
export const containsPattern = (q: string) => `%${likeLiteral(q)}%`;

/** The `count(*) AS total` of a list's count statement. */
export const totalOf = (result: D1Result | undefined) => (result?.results[0] as { total: number } | undefined)?.total ?? 0;
