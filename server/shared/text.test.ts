import { describe, expect, it } from 'vitest';
import { isMultiLineText, isSingleLineText, multiLineText, singleLineText } from './text';

describe('the typed-text rule', () => {
  it.each(['Li Lei', '88 Tianhe Road, Building 3', '中文地址 1201 室', 'café', '😀 tea', '', 'a\u00A0b'])(
    'takes %j on one line',
    (value) => {
      expect(isSingleLineText(value)).toBe(true);
    },
  );

  it.each([
    ['NUL', 'a\u0000b'],
    ['tab', 'a\tb'],
    ['line feed', 'a\nb'],
    ['carriage return', 'a\rb'],
    ['escape', '\u001B[31m'],
    ['DEL', 'a\u007Fb'],
    ['C1 NEL', 'a\u0085b'],
    ['C1 CSI', '\u009B'],
    ['lone high surrogate', 'a\uD800b'],
    ['lone low surrogate', '\uDC00'],
    ['high surrogate at the end', 'tea\uD83D'],
  ])('refuses %s on one line', (_name, value) => {
    expect(isSingleLineText(value)).toBe(false);
  });

  it('keeps tab, line feed and CR LF in several lines, nothing else', () => {
    expect(isMultiLineText('Leave at the door.\nRing twice.\r\n\tThanks')).toBe(true);
    expect(isMultiLineText('a\rb')).toBe(false);
    expect(isMultiLineText('a\u0000b')).toBe(false);
    expect(isMultiLineText('a\u000Bb')).toBe(false);
    expect(isMultiLineText('a\u0085b')).toBe(false);
    expect(isMultiLineText('a\uDFFFb')).toBe(false);
  });

  it('refuses with the one message key, after trimming and within the length', () => {
    expect(singleLineText(10).parse('  tea  ')).toBe('tea');
    expect(
      singleLineText(10)
        .safeParse('te\u0000a')
        .error?.issues.map((issue) => issue.message),
    ).toEqual(['validation.controlCharacters']);
    expect(multiLineText(20).parse(' one\ntwo ')).toBe('one\ntwo');
    expect(
      multiLineText(20)
        .safeParse('one\u0007')
        .error?.issues.map((issue) => issue.message),
    ).toEqual(['validation.controlCharacters']);
    expect(singleLineText(3).safeParse('teapot').error?.issues[0]?.code).toBe('too_big');
  });

  it('gives a missing value its own message when asked', () => {
    expect(singleLineText(10, 'address.detailRequired').safeParse(undefined).error?.issues[0]?.message).toBe(
      'address.detailRequired',
    );
  });
});
