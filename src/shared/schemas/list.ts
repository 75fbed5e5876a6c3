import { number, object, type InferType } from 'yup';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants';
import { line } from './fields';

/** Query values every list call takes; validated with casting because query values arrive as text. */
export const listQuerySchema = object({
  page: number().typeError('Must be a number').integer('Must be a whole number').min(1, 'Must be at least 1').max(1_000_000, 'Too large').default(1),
  pageSize: number()
    .typeError('Must be a number')
    .integer('Must be a whole number')
    .min(1, 'Must be at least 1')
    .max(MAX_PAGE_SIZE, `Must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  q: line(200),
});
export type ListQuery = InferType<typeof listQuerySchema>;
