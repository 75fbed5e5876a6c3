import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../src/worker/provider/db/search-terms';

describe('searchTerms', () => {
  it.each([
    ['#123', 123],
    ['123', 123],
    ['  #42 ', 42],
  ])('reads %j as ticket number %i', (input, id) => {
    expect(searchTerms(input).id).toBe(id);
  });

  it('quotes every word and makes the last one a prefix', () => {
    expect(searchTerms('router rout')).toMatchObject({ id: null, match: '"router" "rout"*', words: ['router', 'rout'] });
  });

  it('stops treating the last word as a prefix once a space follows it', () => {
    expect(searchTerms('router ').match).toBe('"router"');
  });

  it('keeps a quoted phrase together, even when it is not closed yet', () => {
    expect(searchTerms('"vpn drops" night').match).toBe('"vpn drops" "night"*');
    expect(searchTerms('night "vpn dro').match).toBe('"night" "vpn dro"');
  });

  it.each(['NEAR(a b)', 'title:x', 'a AND b', 'x^', '-foo', 'a OR b*'])('turns FTS operators in %j into plain words', (input) => {
    const { match } = searchTerms(input);
    expect(match).not.toBeNull();
    // Outside the quotes only the prefix star may remain.
    expect(match?.replace(/"[^"]*"/g, '').replace(/\*$/, '').trim()).toBe('');
  });

  it.each(['', '   ', '*', '"', '""', '--', '()', '#'])('finds nothing searchable in %j', (input) => {
    expect(searchTerms(input)).toMatchObject({ id: null, match: null, words: [] });
  });

  it('doubles a quote inside a word so it cannot close the phrase', () => {
    expect(searchTerms('o"brien x').match).toBe('"o" "brien" "x"*');
  });

  it('keeps letters of every script', () => {
    expect(searchTerms('Müller 東京').words).toEqual(['Müller', '東京']);
  });
});
