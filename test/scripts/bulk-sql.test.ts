import { describe, expect, it } from 'vitest';
import { MAX_STATEMENT_BYTES, inlineParams, insertStatements, sqlLiteral } from '../../src/worker/provider/db/bulk';

describe('insertStatements', () => {
  it('packs rows into statements each under D1’s 100 KB of SQL, every row once', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [i, `${'ü'.repeat(i % 700)}'\n;`]);
    const statements = [...insertStatements('notes', ['id', 'body'], rows)];
    expect(statements.length).toBeGreaterThan(10);
    for (const sql of statements) expect(new TextEncoder().encode(sql).byteLength).toBeLessThan(MAX_STATEMENT_BYTES);
    const ids = statements.flatMap((sql) => [...sql.matchAll(/\((\d+),/g)].map((match) => Number(match[1])));
    expect(ids).toEqual(rows.map(([id]) => id));
  });

  it('refuses a row longer than one statement may be', () => {
    expect(() => [...insertStatements('notes', ['body'], [['x'.repeat(MAX_STATEMENT_BYTES)]])]).toThrow(/longer than one D1 statement/);
  });
});

describe('sqlLiteral', () => {
  it('writes text with line breaks as one hex term, so no number of breaks deepens the expression', () => {
    expect(sqlLiteral("it's\r\n✓")).toBe("CAST(X'697427730d0ae29c93' AS TEXT)");
    expect(sqlLiteral('a\n'.repeat(5000))).toMatch(/^CAST\(X'(?:610a){5000}' AS TEXT\)$/);
    expect(sqlLiteral("O'Hara")).toBe("'O''Hara'");
  });
});

describe('inlineParams', () => {
  it('writes each numbered parameter in as a quoted literal', () => {
    expect(inlineParams({ sql: 'INSERT INTO t (a, b, c, d) VALUES (?1, ?2, ?3, ?2)', params: ["O'Hara", null, 12] })).toBe("INSERT INTO t (a, b, c, d) VALUES ('O''Hara', NULL, 12, NULL)");
    expect(() => inlineParams({ sql: 'SELECT ?2', params: [1] })).toThrow(/no value for \?2/);
  });
});
