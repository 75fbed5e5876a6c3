import { optionalId, useTypedSearch } from '../../lib/search';

/** Ledger pages: `lineId` opens an invoice line. */
export const parseLineSearch = (params: URLSearchParams) => ({ lineId: optionalId(params.get('lineId')) });
export const useLineSearch = () => useTypedSearch(parseLineSearch);

/** `/invoices/gifs/statement`: `statementId` opens a statement. */
export const parseStatementSearch = (params: URLSearchParams) => ({ statementId: optionalId(params.get('statementId')) });
export const useStatementSearch = () => useTypedSearch(parseStatementSearch);
