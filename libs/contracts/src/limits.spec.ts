import { z } from 'zod';
import {
  TEXT_LIMITS,
  bytesizeErrors,
  characterCount,
  humanSize,
  isModelIssueParams,
  lengthErrors,
  modelLimits,
  utf8ByteCount,
} from './limits';

describe("GitLab's text limits", () => {
  it('When characters are counted, then code points count once as in Ruby (an emoji is one)', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('😁😁')).toBe(2);
    expect(utf8ByteCount('short😁')).toBe(9);
    expect(utf8ByteCount('short⇏')).toBe(8);
    expect(utf8ByteCount('é')).toBe(2);
  });

  it("When sizes are shown, then as GitLab's number_to_human_size (its BytesizeValidator spec values)", () => {
    expect(humanSize(9)).toBe('9 B');
    expect(humanSize(1023)).toBe('1023 B');
    expect(humanSize(1024)).toBe('1 KiB');
    expect(humanSize(1536)).toBe('1.5 KiB');
    expect(humanSize(512 * 1024)).toBe('512 KiB');
    expect(humanSize(1024 * 1024 - 1)).toBe('1020 KiB');
    expect(humanSize(1024 * 1024)).toBe('1 MiB');
    expect(humanSize(1024 * 1024 + 1)).toBe('1 MiB');
    expect(humanSize(2 * 1024 * 1024)).toBe('2 MiB');
  });

  it('When a value is at or over a length limit, then nothing or Rails\' "is too long" message', () => {
    expect(lengthErrors('x'.repeat(255), 255)).toEqual([]);
    expect(lengthErrors('😁'.repeat(255), 255)).toEqual([]);
    expect(lengthErrors('x'.repeat(256), 255)).toEqual(['is too long (maximum is 255 characters)']);
    expect(lengthErrors(undefined, 255)).toEqual([]);
  });

  it("When a value is at or over a bytesize limit, then nothing or GitLab's BytesizeValidator message", () => {
    const max = TEXT_LIMITS.issuableDescriptionBytes;
    expect(bytesizeErrors('x'.repeat(max), max)).toEqual([]);
    expect(bytesizeErrors('x'.repeat(max + 1), max)).toEqual([
      'is too long (1 MiB). The maximum size is 1 MiB.',
    ]);
    expect(bytesizeErrors('é'.repeat(max), max)).toEqual(['is too long (2 MiB). The maximum size is 1 MiB.']);
    expect(bytesizeErrors('very long', 7)).toEqual(['is too long (9 B). The maximum size is 7 B.']);
  });

  it('When a schema field carries a model limit, then its issue is marked with the attribute and style', () => {
    const schema = z.object({ name: z.string().superRefine(modelLimits.length('title', 3, 'sentence')) });
    const result = schema.safeParse({ name: 'abcd' });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.message).toBe('is too long (maximum is 3 characters)');
    expect(isModelIssueParams((issue as { params?: unknown }).params)).toBe(true);
    expect((issue as { params?: unknown }).params).toEqual({ model: 'sentence', attribute: 'title' });
    expect(schema.safeParse({ name: 'abc' }).success).toBe(true);
  });
});
