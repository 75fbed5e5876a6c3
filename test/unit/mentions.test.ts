import { describe, expect, it } from 'vitest';
import { MAX_MENTIONS, mentionParts, mentionToken, mentionedIds } from '../../src/shared/mentions';

describe('mentions', () => {
  it('reads the distinct ids of well-formed tokens only', () => {
    const text = `${mentionToken('Ann Lee', 3)} and @[Bob](user:7), again ${mentionToken('Ann Lee', 3)}; not @[x](user:0) nor @[y](user:abc) nor @Ann`;
    expect(mentionedIds(text)).toEqual([3, 7]);
    expect(mentionedIds(null)).toEqual([]);
    const many = Array.from({ length: MAX_MENTIONS + 5 }, (_, i) => mentionToken('P', i + 1)).join(' ');
    expect(mentionedIds(many)).toHaveLength(MAX_MENTIONS);
  });

  it('keeps a name from breaking its token', () => {
    expect(mentionToken('Odd [name]\nhere', 5)).toBe('@[Odd  name  here](user:5)');
  });

  it('cuts text into plain runs and tokens', () => {
    expect(mentionParts('hi @[Ann](user:3)!')).toEqual([{ text: 'hi ' }, { name: 'Ann', userId: 3, token: '@[Ann](user:3)' }, { text: '!' }]);
  });
});
