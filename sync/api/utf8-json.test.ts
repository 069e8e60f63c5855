import { describe, expect, it } from 'vitest';
import { parseUtf8Json } from './utf8-json';

const bytesOf = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
/** What a body's bytes read as through the platform's decoder: what parseUtf8Json must give. */
const decodedAndParsed = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));

/** Bytes with raw (unencoded) ones spliced in where `@` stands in `json`. */
function withRawBytes(json: string, raw: readonly number[]): Uint8Array {
  return Uint8Array.from(json.split('@').flatMap((part, i) => [...(i > 0 ? raw : []), ...bytesOf(part)]));
}

describe('parseUtf8Json', () => {
  it('reads characters past ASCII in values, keys and nested arrays as the decoder does', () => {
    const value = {
      title: 'Migration vers l’été: 中文 ✓ 🚀',
      tags: ['naïve', 'ascii', ['Ünïcödé', { 'clé é': 'valeur', plain: 'x' }]],
      description: 'ends with two-byte é',
      count: 3,
      none: null,
    };
    const bytes = bytesOf(JSON.stringify(value));
    expect(parseUtf8Json(bytes)).toEqual(value);
    expect(
      Object.keys((parseUtf8Json(bytes) as { tags: [string, string, [string, object]] }).tags[2][1]),
    ).toEqual(['clé é', 'plain']);
  });

  it('reads escapes past ASCII, alone or beside raw characters in one string', () => {
    for (const json of [
      '{"a":"caf\\u00e9"}',
      '{"a":"caf\\u00E9 and raw é"}',
      '{"a":"\\u4e2d and raw é"}',
      '{"a":"\\ud83d\\ude80 raw 🚀"}',
      '{"a":"a literal backslash then u00e9: \\\\u00e9 é"}',
      '{"a":"ASCII escapes \\u0041\\u007f\\n stay as they are é"}',
    ]) {
      const bytes = bytesOf(json);
      expect(parseUtf8Json(bytes), json).toEqual(decodedAndParsed(bytes));
    }
  });

  it('reads bytes that are not UTF-8 as the decoder does (U+FFFD)', () => {
    for (const raw of [[0xc3], [0xff], [0xf0, 0x9f, 0x9a], [0xe2, 0x82], [0x80, 0x80], [0xc3, 0xa9, 0xc3]]) {
      const bytes = withRawBytes('{"a":"x@y","b":"@"}', raw);
      expect(parseUtf8Json(bytes), raw.join(',')).toEqual(decodedAndParsed(bytes));
    }
  });

  it('drops a byte order mark, as the decoder does', () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...bytesOf('{"a":"é"}')]);
    expect(parseUtf8Json(bytes)).toEqual({ a: 'é' });
  });

  it('takes an ArrayBuffer and a view into a larger one', () => {
    const bytes = bytesOf('xx{"a":"é"}yy');
    expect(parseUtf8Json(bytes.subarray(2, bytes.length - 2))).toEqual({ a: 'é' });
    expect(parseUtf8Json(bytesOf('["é"]').buffer)).toEqual(['é']);
  });

  it('throws a SyntaxError for what is not JSON, raw bytes outside strings included', () => {
    expect(() => parseUtf8Json(bytesOf('{"a":'))).toThrow(SyntaxError);
    expect(() => parseUtf8Json(bytesOf(''))).toThrow(SyntaxError);
    expect(() => parseUtf8Json(withRawBytes('{"a":@1}', [0xc3, 0xa9]))).toThrow(SyntaxError);
  });

  it('agrees with the decoder on random text of every kind of character', () => {
    // A fixed seed: the same cases every run (a failure names its case).
    let seed = 28;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const characters = [
      'a',
      'Z',
      ' ',
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u007f',
      '\u0080',
      'é',
      'ÿ',
      'Ā',
      '中',
      '🚀',
      '\ud800',
    ];
    const randomText = () =>
      Array.from(
        { length: Math.floor(random() * 12) },
        () => characters[Math.floor(random() * characters.length)],
      ).join('');
    for (let n = 0; n < 500; n++) {
      const value = {
        [randomText()]: randomText(),
        list: [randomText(), { [randomText()]: [randomText()] }],
      };
      // JSON.stringify writes characters raw (a lone surrogate as an escape); some cases escape them all.
      let json = JSON.stringify(value);
      if (n % 5 === 0)
        json = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      const bytes = bytesOf(json);
      expect(parseUtf8Json(bytes), json).toEqual(decodedAndParsed(bytes));
    }
  });
});
