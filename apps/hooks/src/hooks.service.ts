import type { CreateHookParams, NamespaceContext, UpdateHookParams } from '@gl/contracts';
import { HttpError, ModelError, NotFoundError, type HostLookup, type PageRequest } from '@gl/service-kit';
import { hookErrors, interpolatedUrl, type HookErrors, type HookFields } from './hook-validation';
import type { ParentRemoval } from './delivery/parent-removal';
import type { HookDoc, HookParent, KeyValue } from './hooks.models';
import type { Ancestry, HookChanges, HooksStore, NewHook } from './hooks.store';

export type { HookParent };

export interface HooksServiceOptions {
  /** GitLab's allow_local_requests_from_web_hooks_and_services. */
  allowLocalRequests: boolean;
  /** The resolver the URL blocker asks (tests stub it). */
  lookup?: HostLookup;
  /** What a deleted hook takes with it on the delivery side (its deliveries and lease); none: nothing. */
  removal?: Pick<ParentRemoval, 'hooksGone'>;
}

/** The parameters that are not event switches; every other parameter ending in `_events` is one. */
const NOT_FLAGS = new Set(['url_variables', 'custom_headers']);

function flagsOf(params: UpdateHookParams): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(params).filter(
      ([name, value]) => name.endsWith('_events') && !NOT_FLAGS.has(name) && typeof value === 'boolean',
    ),
  ) as Record<string, boolean>;
}

/** web_hooks_helpers.rb: `url_variables.to_h { [key, value] }`, so a repeated key keeps its last value. */
function toPairs(list: KeyValue[] | undefined): KeyValue[] {
  const map = new Map((list ?? []).map(({ key, value }) => [key, value]));
  return [...map].map(([key, value]) => ({ key, value }));
}

/** Hash#merge: the given pairs over the stored ones, stored order first. */
function merge(stored: KeyValue[], given: KeyValue[]): KeyValue[] {
  const map = new Map(stored.map(({ key, value }) => [key, value]));
  for (const { key, value } of given) map.set(key, value);
  return [...map].map(([key, value]) => ({ key, value }));
}

/** The ancestry a request's signed namespace carries. */
export function ancestryOf(ns: NamespaceContext, at = new Date().toISOString()): Ancestry {
  const root = ns.ancestorGroupIds[0] ?? (ns.kind === 'group' ? ns.id : null);
  return { ancestorGroupIds: ns.ancestorGroupIds, rootGroupId: root, ancestryAt: at };
}

/**
 * lib/api/helpers/web_hooks_helpers.rb `save_hook`: a URL error is 422 "Invalid url given", a branch filter
 * error "Invalid branch filter given", a custom header error "Custom headers validation failed" (Grape's
 * `error!`, `{"error": …}`); any other is render_validation_error!(hook, 422).
 */
function refuse(errors: HookErrors): never {
  if (errors.url) throw new HttpError(422, { error: 'Invalid url given' });
  if (errors.push_events_branch_filter) throw new HttpError(422, { error: 'Invalid branch filter given' });
  if (errors.custom_headers) throw new HttpError(422, { error: 'Custom headers validation failed' });
  throw ModelError.fields(errors, 422);
}

/** Project and group webhooks: GitLab's ProjectHook and GroupHook with the WebHooks::Hook rules. */
export function createHooksService(store: HooksStore, options: HooksServiceOptions) {
  const rules = { allowLocal: options.allowLocalRequests, lookup: options.lookup };

  async function validate(fields: HookFields): Promise<void> {
    const errors = await hookErrors(fields, rules);
    if (Object.keys(errors).length > 0) refuse(errors);
  }

  function page(parent: HookParent, request: PageRequest) {
    return store.page(parent, request);
  }

  /** `hook_scope.find(params[:hook_id])`: ActiveRecord::RecordNotFound is `404 Not found`. */
  async function find(parent: HookParent, id: number): Promise<HookDoc> {
    const hook = await store.find(parent, id);
    if (!hook) throw new NotFoundError();
    return hook;
  }

  async function create(parent: HookParent, ancestry: Ancestry, params: CreateHookParams): Promise<HookDoc> {
    const strategy = params.branch_filter_strategy ?? 'wildcard';
    const fields: NewHook = {
      ...ancestry,
      url: params.url,
      name: params.name ?? null,
      description: params.description ?? null,
      token: params.token ?? null,
      // The web_hooks columns' defaults: push events on, SSL verification on, every other switch off.
      enableSslVerification: params.enable_ssl_verification ?? true,
      events: { push_events: true, ...flagsOf(params) },
      // Hook#set_branch_filter_nil: the all_branches strategy keeps no filter.
      pushEventsBranchFilter: strategy === 'all_branches' ? null : (params.push_events_branch_filter ?? null),
      branchFilterStrategy: strategy,
      customWebhookTemplate: params.custom_webhook_template ?? null,
      urlVariables: toPairs(params.url_variables),
      customHeaders: toPairs(params.custom_headers),
    };
    await validate(fields);
    return store.insert(parent, fields);
  }

  /**
   * web_hooks_helpers.rb `update_hook`: given URL variables and custom headers are merged into the stored
   * ones; nothing given is 400 "No parameters provided". Then the model's callbacks (web_hooks/hook.rb):
   * a new URL drops the token unless one is given, and a changed interpolated URL drops the URL variables it
   * shares with the old ones and every custom header, so secrets never follow a hook to another address.
   */
  async function update(
    parent: HookParent,
    id: number,
    ancestry: Ancestry,
    params: UpdateHookParams,
  ): Promise<HookDoc> {
    const hook = await find(parent, id);
    const { url_variables: givenVariables, custom_headers: givenHeaders, ...rest } = params;
    const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    const variables = toPairs(givenVariables);
    const headers = toPairs(givenHeaders);
    if (Object.keys(given).length === 0 && variables.length === 0 && headers.length === 0) {
      throw new HttpError(400, { error: 'No parameters provided' });
    }

    const url = params.url ?? hook.url;
    const urlChanged = url !== hook.url;
    let urlVariables = variables.length > 0 ? merge(hook.urlVariables, variables) : hook.urlVariables;
    const before = interpolatedUrl(hook.url, hook.urlVariables);
    const interpolatedChanged = () => interpolatedUrl(url, urlVariables) !== before;
    if (hook.urlVariables.length > 0 && interpolatedChanged()) {
      const storedKeys = new Set(hook.urlVariables.map(({ key }) => key));
      const storedPairs = new Set(hook.urlVariables.map(({ key, value }) => `${key}\u0000${value}`));
      if (urlVariables.some(({ key }) => storedKeys.has(key))) urlVariables = [];
      else if (urlChanged && urlVariables.some(({ key, value }) => storedPairs.has(`${key}\u0000${value}`))) {
        urlVariables = [];
      }
    }
    let customHeaders = headers.length > 0 ? merge(hook.customHeaders, headers) : hook.customHeaders;
    // An interpolation that fails leaves the headers: the hook is invalid and is not saved.
    if (interpolatedUrl(url, urlVariables) !== null && interpolatedChanged()) customHeaders = [];

    const strategy = params.branch_filter_strategy ?? hook.branchFilterStrategy;
    const filter = params.push_events_branch_filter ?? hook.pushEventsBranchFilter;
    const changes: HookChanges = {
      ...ancestry,
      url,
      name: params.name ?? hook.name,
      description: params.description ?? hook.description,
      token: params.token ?? (urlChanged ? null : hook.token),
      enableSslVerification: params.enable_ssl_verification ?? hook.enableSslVerification,
      events: { ...hook.events, ...flagsOf(params) },
      pushEventsBranchFilter: strategy === 'all_branches' ? null : filter,
      branchFilterStrategy: strategy,
      customWebhookTemplate: params.custom_webhook_template ?? hook.customWebhookTemplate,
      urlVariables,
      customHeaders,
    };
    await validate({ ...hook, ...changes });
    const updated = await store.update(parent, id, changes);
    if (!updated) throw new NotFoundError();
    return updated;
  }

  /**
   * WebHooks::DestroyService: the hook goes and WebHooks::LogDestroyWorker deletes its logs. Here its
   * deliveries (queued and logged) and its lease go too, before the hook, so a retried DELETE after a
   * failure between them still finds the hook and does it all again; and once more after, for what the
   * delivery consumer queued meanwhile from a read of the hooks before the deletion (what it queues later
   * still, the sender logs as failed: `hook deleted`). Deletes only, so doing it twice changes nothing.
   */
  async function remove(parent: HookParent, id: number): Promise<void> {
    await find(parent, id);
    await options.removal?.hooksGone([id]);
    if (!(await store.remove(parent, id))) throw new NotFoundError();
    await options.removal?.hooksGone([id]);
  }

  return { page, find, create, update, remove };
}

export type HooksService = ReturnType<typeof createHooksService>;
