import { describe, expect, it } from 'vitest';
import { CSV_BOM, centsToDecimal, csvCell, toCsv } from '../../src/shared/csv';

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1', "'\t=1"],
    ['\r=1', '"\'\r=1"'],
    ['\tplain', "'\tplain"],
    [' =1+1', "' =1+1"],
    ['   -2', "'   -2"],
    ['\u00a0=1+1', "'\u00a0=1+1"],
    ['\u200b=1+1', "'\u200b=1+1"],
    ['\ufeff=1+1', "'\ufeff=1+1"],
    ['\u2060\u200d@x', "'\u2060\u200d@x"],
    ['\u3000+1', "'\u3000+1"],
    ['\n=1', '"\'\n=1"'],
  ])('neutralises %j as a formula', (hostile, written) => {
    expect(csvCell(hostile)).toBe(written);
  });

  it.each([
    ['Tracker;=1+1', '"Tracker;=1+1"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1;2', '"\'=1;2"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
  ])('quotes %j', (cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  it.each([
    ['plain text', 'plain text'],
    ['e-mail', 'e-mail'],
    ['a=b', 'a=b'],
    ['', ''],
    [' leading space', ' leading space'],
  ])('leaves %j alone', (cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  it('writes numbers and money the app formats as plain numbers, and nothing for null', () => {
    expect(csvCell(-12)).toBe('-12');
    expect(csvCell(4)).toBe('4');
    expect(csvCell(centsToDecimal(-1234))).toBe('-12.34');
    expect(csvCell(centsToDecimal(5))).toBe('0.05');
    expect(csvCell(centsToDecimal(100_000_000_000_000))).toBe('1000000000000.00');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('toCsv', () => {
  it('starts with a UTF-8 BOM and ends every row with CRLF', () => {
    const csv = toCsv(['name', 'opened', 'resolved'], [['Zoë;=cmd', 4, 5]]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.slice(1)).toBe('name,opened,resolved\r\n"Zoë;=cmd",4,5\r\n');
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });
});
