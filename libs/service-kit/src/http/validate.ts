import type { z } from 'zod';
import { ParamError } from '../errors';

/** Grape names nested parameters with brackets: `position[base_sha]`. */
function paramName(path: PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return head + rest.map((p) => `[${p}]`).join('');
}

function grapeMessage(issue: z.core.$ZodIssue): string {
  const name = paramName(issue.path);
  if (issue.code === 'custom')
    return issue.message.includes(' ') ? issue.message : `${name} ${issue.message}`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${name} is missing`;
  if (issue.code === 'invalid_value') return `${name} does not have a valid value`;
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1)
    return `${name} is empty`;
  return `${name} is invalid`;
}

/**
 * Validates merged request parameters with a contract schema and fails the way Grape does:
 * 400 {"error":"a is missing, b is invalid"}. Unknown parameters are ignored, as GitLab ignores them.
 */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map(grapeMessage))];
  throw new ParamError(messages);
}

/** Grape's `exactly_one_of`: none → "a, b are missing, exactly one parameter must be provided". */
export function requireExactlyOne(params: Record<string, unknown>, keys: readonly string[]): string {
  const given = keys.filter((k) => params[k] !== undefined && params[k] !== null);
  if (given.length === 0) {
    throw new ParamError([`${keys.join(', ')} are missing, exactly one parameter must be provided`]);
  }
  if (given.length > 1) throw new ParamError([`${given.join(', ')} are mutually exclusive`]);
  return given[0]!;
}

/** Grape's `at_least_one_of`. */
export function requireAtLeastOne(params: Record<string, unknown>, keys: readonly string[]): void {
  if (keys.every((k) => params[k] === undefined)) {
    throw new ParamError([`${keys.join(', ')} are missing, at least one parameter must be provided`]);
  }
}
