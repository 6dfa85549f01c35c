import { z } from 'zod';
import { booleanParam, integerParam } from '@gl/contracts';
import { ParamError } from '../errors';
import { parseParams, requireExactlyOne } from './validate';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ParamError) return err.message;
    throw err;
  }
  throw new Error('expected a ParamError');
}

describe('Grape-style parameter validation', () => {
  const schema = z.object({
    name: z.string().min(1),
    weight: integerParam.optional(),
    level: z.enum(['watch', 'global']).optional(),
    active: booleanParam.optional(),
    position: z.object({ base_sha: z.string() }).optional(),
  });

  it('When a required parameter is absent, then "<name> is missing"', () => {
    expect(messageOf(() => parseParams(schema, {}))).toBe('name is missing');
  });

  it('When types or values are wrong, then every problem is listed, joined by ", "', () => {
    expect(messageOf(() => parseParams(schema, { name: 'x', weight: 'abc', level: 'loud' }))).toBe(
      'weight is invalid, level does not have a valid value',
    );
  });

  it('When a nested parameter is missing, then it is named with brackets', () => {
    expect(messageOf(() => parseParams(schema, { name: 'x', position: {} }))).toBe(
      'position[base_sha] is missing',
    );
  });

  it('When a required string is empty, then "<name> is empty"', () => {
    expect(messageOf(() => parseParams(schema, { name: '' }))).toBe('name is empty');
  });

  it.each([
    ['true', true],
    ['True', true],
    ['1', true],
    ['t', true],
    ['yes', true],
    ['false', false],
    ['False', false],
    ['0', false],
    [true, true],
  ])('When a boolean arrives as %p, then it parses to %p', (raw, expected) => {
    expect(parseParams(schema, { name: 'x', active: raw }).active).toBe(expected);
  });

  it('When exactly-one-of has none or several, then Grape messages', () => {
    const keys = ['label_id', 'milestone_id', 'assignee_id'];
    expect(messageOf(() => requireExactlyOne({}, keys))).toBe(
      'label_id, milestone_id, assignee_id are missing, exactly one parameter must be provided',
    );
    expect(messageOf(() => requireExactlyOne({ label_id: 1, assignee_id: 2 }, keys))).toBe(
      'label_id, assignee_id are mutually exclusive',
    );
    expect(requireExactlyOne({ milestone_id: 3 }, keys)).toBe('milestone_id');
  });
});
