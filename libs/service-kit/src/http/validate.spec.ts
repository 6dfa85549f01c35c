import { z } from 'zod';
import { booleanParam, integerParam, modelLimits } from '@gl/contracts';
import { ModelError, ParamError } from '../errors';
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

  describe('model size limits marked in a contract', () => {
    const limited = z.object({
      title: z.string().superRefine(modelLimits.length('title', 5)),
      description: z.string().superRefine(modelLimits.bytesize('description', 4)).optional(),
      weight: integerParam.optional(),
    });
    const modelErrorOf = (fn: () => unknown): ModelError => {
      try {
        fn();
      } catch (err) {
        if (err instanceof ModelError) return err;
        throw err;
      }
      throw new Error('expected a ModelError');
    };

    it("When only model limits are broken, then the model's body lists every attribute", () => {
      const err = modelErrorOf(() => parseParams(limited, { title: 'toolong', description: 'ééé' }));
      expect(err.status).toBe(400);
      expect(err.body).toEqual({
        title: ['is too long (maximum is 5 characters)'],
        description: ['is too long (6 B). The maximum size is 4 B.'],
      });
    });

    it('When a Grape-level check also fails, then only the Grape error is reported, as GitLab validates parameters first', () => {
      expect(messageOf(() => parseParams(limited, { title: 'toolong', weight: 'x' }))).toBe(
        'weight is invalid',
      );
    });

    it('When the contract asks for the sentence style, then one error of full messages (Snippets::CreateService)', () => {
      const snippet = z.object({
        title: z.string().superRefine(modelLimits.length('title', 3, 'sentence')),
        file_name: z.string().superRefine(modelLimits.length('file_name', 3, 'sentence')),
      });
      const one = modelErrorOf(() => parseParams(snippet, { title: 'abcd', file_name: 'a' }));
      expect(one.body).toEqual({ error: 'Title is too long (maximum is 3 characters)' });
      const two = modelErrorOf(() => parseParams(snippet, { title: 'abcd', file_name: 'abcd' }));
      expect(two.body).toEqual({
        error:
          'Title is too long (maximum is 3 characters) and File name is too long (maximum is 3 characters)',
      });
    });
  });
});
