import RE2 from 're2';
import { lengthErrors } from '@gl/contracts';
import { checkUrl, type HostLookup } from '@gl/service-kit';
import type { BranchFilterStrategy, KeyValue } from './hooks.models';

/** The fields of a hook its validations read. */
export interface HookFields {
  url: string;
  token: string | null;
  name: string | null;
  description: string | null;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: BranchFilterStrategy;
  customWebhookTemplate: string | null;
  urlVariables: KeyValue[];
  customHeaders: KeyValue[];
}

/** The model's errors by attribute, as `hook.errors` holds them. */
export type HookErrors = Record<string, string[]>;

/**
 * app/models/hooks/web_hook.rb: `validates :name, length: { maximum: 255 }`, `validates :description, length:
 * { maximum: 2048 }`; app/models/concerns/web_hooks/hook.rb: `validates :custom_webhook_template, length:
 * { maximum: 4096 }`.
 */
export const HOOK_LIMITS = { name: 255, description: 2048, customWebhookTemplate: 4096 } as const;

/** app/models/concerns/web_hooks/hook.rb VARIABLE_REFERENCE_RE: `{name}` in a URL template. */
const VARIABLE_REFERENCE = /\{([A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*)\}/g;

/**
 * app/validators/json_schemas/web_hooks_url_variables.json and web_hooks_custom_headers.json: at most 20
 * entries, keys of the pattern, values of 1 to 100 (variables) or 2048 (headers) characters.
 */
const URL_VARIABLES_SCHEMA = { maxEntries: 20, key: /^[A-Za-z_][A-Za-z0-9_]*$/, maxValue: 100 };
const CUSTOM_HEADERS_SCHEMA = {
  maxEntries: 20,
  key: /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/,
  maxValue: 2048,
};

/** app/validators/json_schema_validator.rb's message when the value does not match its schema. */
export const JSON_SCHEMA_MESSAGE = 'must be a valid json schema';

function matchesSchema(entries: KeyValue[], schema: typeof URL_VARIABLES_SCHEMA): boolean {
  return (
    entries.length <= schema.maxEntries &&
    entries.every(
      ({ key, value }) =>
        schema.key.test(key) && [...value].length >= 1 && [...value].length <= schema.maxValue,
    )
  );
}

/** Hook#interpolated_url: the URL with each `{name}` replaced by its variable; null when one is missing. */
export function interpolatedUrl(url: string, variables: KeyValue[]): string | null {
  const values = new Map(variables.map(({ key, value }) => [key, value]));
  let missing = false;
  const result = url.replace(VARIABLE_REFERENCE, (match, name: string) => {
    const value = values.get(name);
    if (value === undefined) missing = true;
    return value ?? match;
  });
  return missing ? null : result;
}

/** Hook#no_missing_url_variables: the names the URL uses that no variable defines. */
function missingVariables(url: string, variables: KeyValue[]): string[] {
  const defined = new Set(variables.map(({ key }) => key));
  const used = [...url.matchAll(VARIABLE_REFERENCE)].map((match) => match[1]!);
  return [...new Set(used.filter((name) => !defined.has(name)))];
}

/**
 * The branch filter validators: `untrusted_regexp` for the regex strategy (an expression RE2 compiles, as
 * Gitlab::UntrustedRegexp does), WildcardBranchFilterValidator for wildcards (what git allows in a ref
 * name, `*` aside: no spaces, control characters, `~^:?[\`, `..` or `@{`).
 */
function branchFilterErrors(filter: string | null, strategy: BranchFilterStrategy): string[] {
  if (!filter || strategy === 'all_branches') return [];
  if (strategy === 'regex') {
    try {
      new RE2(filter);
      return [];
    } catch (err) {
      // RE2 throws SyntaxError; read by shape (jest runs tests in another realm).
      const message = (err as { message?: unknown } | null)?.message;
      return [`not valid RE2 syntax: ${typeof message === 'string' ? message : String(err)}`];
    }
  }
  // eslint-disable-next-line no-control-regex
  const invalid = filter.split(',').some((branch) => /[\s\u0000-\u001f\u007f~^:?[\\]|\.\.|@\{/.test(branch));
  return invalid ? ['is not a valid branch name'] : [];
}

export interface UrlRules {
  allowLocal: boolean;
  lookup?: HostLookup;
}

/**
 * Every validation of GitLab's WebHook model (app/models/hooks/web_hook.rb and the WebHooks::Hook concern),
 * with the URL checked by PublicUrlValidator: GitLab's UrlBlocker without DNS rebinding protection, so an
 * unresolvable host passes (it is refused when a delivery is made). With URL variables the interpolated
 * URL is the one checked, once the rest is valid.
 */
export async function hookErrors(hook: HookFields, rules: UrlRules): Promise<HookErrors> {
  const errors: HookErrors = {};
  const add = (attribute: string, messages: string[]) => {
    if (messages.length > 0) errors[attribute] = [...(errors[attribute] ?? []), ...messages];
  };
  const check = async (url: string) => {
    const result = await checkUrl(url, {
      allowLocal: rules.allowLocal,
      requireResolution: false,
      lookup: rules.lookup,
    });
    if (!result.ok) add('url', [`is blocked: ${result.message}`]);
  };

  if (!hook.url.trim()) add('url', ["can't be blank"]);
  else if (hook.urlVariables.length === 0) await check(hook.url);
  if (hook.token?.includes('\n')) add('token', ['is invalid']);
  add(
    'push_events_branch_filter',
    branchFilterErrors(hook.pushEventsBranchFilter, hook.branchFilterStrategy),
  );
  if (!matchesSchema(hook.urlVariables, URL_VARIABLES_SCHEMA)) add('url_variables', [JSON_SCHEMA_MESSAGE]);
  const missing = missingVariables(hook.url, hook.urlVariables);
  if (missing.length > 0) {
    add('url', [
      `Invalid URL template. Missing keys: [${missing.map((name) => JSON.stringify(name)).join(', ')}]`,
    ]);
  }
  if (!matchesSchema(hook.customHeaders, CUSTOM_HEADERS_SCHEMA)) add('custom_headers', [JSON_SCHEMA_MESSAGE]);
  add('custom_webhook_template', lengthErrors(hook.customWebhookTemplate, HOOK_LIMITS.customWebhookTemplate));
  add('name', lengthErrors(hook.name, HOOK_LIMITS.name));
  add('description', lengthErrors(hook.description, HOOK_LIMITS.description));
  if (hook.urlVariables.length > 0 && Object.keys(errors).length === 0) {
    const url = interpolatedUrl(hook.url, hook.urlVariables);
    if (url !== null) await check(url);
  }
  return errors;
}
