import type { z } from 'zod';
import { isModelIssueParams, type ModelIssueParams } from '@gl/contracts';
import { ModelError, ParamError } from '../errors';
import { fullMessagesSentence } from './ruby-format';

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

function modelParams(issue: z.core.$ZodIssue): ModelIssueParams | null {
  const params = issue.code === 'custom' ? (issue.params as unknown) : undefined;
  return isModelIssueParams(params) ? params : null;
}

/** Model limits marked in the contract (libs/contracts limits.ts), rendered as GitLab's model answers. */
function modelError(issues: { issue: z.core.$ZodIssue; params: ModelIssueParams }[]): ModelError {
  if (issues.some(({ params }) => params.model === 'sentence')) {
    return ModelError.error(
      fullMessagesSentence(issues.map(({ issue, params }) => [params.attribute, issue.message])),
    );
  }
  const fields: Record<string, string[]> = {};
  for (const { issue, params } of issues) (fields[params.attribute] ??= []).push(issue.message);
  return ModelError.fields(fields);
}

/**
 * Validates merged request parameters with a contract schema and fails the way Grape does:
 * 400 {"error":"a is missing, b is invalid"}. Unknown parameters are ignored, as GitLab ignores them.
 * Size limits the contract marks as the model's are reported only once every parameter is valid, with
 * the model's body (GitLab validates the model after Grape has accepted the parameters).
 */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const grape = result.error.issues.filter((issue) => modelParams(issue) === null);
  if (grape.length > 0) throw new ParamError([...new Set(grape.map(grapeMessage))]);
  throw modelError(result.error.issues.map((issue) => ({ issue, params: modelParams(issue)! })));
}

/** A Grape group rule (`at_least_one_of`, `mutually_exclusive`): the message when broken, else null. */
export type ParamRule = (params: Record<string, unknown>) => string | null;

const isGiven = (params: Record<string, unknown>, key: string): boolean =>
  params[key] !== undefined && params[key] !== null;

/** Grape's `at_least_one_of`: "a, b are missing, at least one parameter must be provided". */
export function atLeastOneOf(...keys: string[]): ParamRule {
  return (params) =>
    keys.some((k) => isGiven(params, k))
      ? null
      : `${keys.join(', ')} are missing, at least one parameter must be provided`;
}

/** Grape's `mutually_exclusive`: names only the parameters actually given, "a, b are mutually exclusive". */
export function mutuallyExclusive(...keys: string[]): ParamRule {
  return (params) => {
    const present = keys.filter((k) => isGiven(params, k));
    return present.length > 1 ? `${present.join(', ')} are mutually exclusive` : null;
  };
}

/** Grape's `exactly_one_of`: none → "a, b are missing, exactly one parameter must be provided". */
export function requireExactlyOne(params: Record<string, unknown>, keys: readonly string[]): string {
  const exclusive = mutuallyExclusive(...keys)(params);
  if (exclusive) throw new ParamError([exclusive]);
  const given = keys.find((k) => isGiven(params, k));
  if (given === undefined) {
    throw new ParamError([`${keys.join(', ')} are missing, exactly one parameter must be provided`]);
  }
  return given;
}
