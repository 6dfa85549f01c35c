import { z } from 'zod';

/**
 * GitLab's size limits on the text fields this API stores, in one place, each with the GitLab source it
 * is taken from. Lengths count characters as Ruby does (code points); sizes count UTF-8 bytes, as
 * GitLab's BytesizeValidator (app/validators/bytesize_validator.rb) does.
 */
export const TEXT_LIMITS = {
  /** app/models/concerns/notes/active_record.rb: `validates :note, length: { maximum: Gitlab::Database::MAX_TEXT_SIZE_LIMIT }` (lib/gitlab/database.rb: 1_000_000). */
  noteBody: 1_000_000,
  /** app/models/concerns/issuable.rb: TITLE_LENGTH_MAX = 255 (issues, merge requests, epics). */
  issuableTitle: 255,
  /** app/models/concerns/issuable.rb: DESCRIPTION_LENGTH_MAX = 1.megabyte, a bytesize validation. */
  issuableDescriptionBytes: 1024 * 1024,
  /** app/models/snippet.rb: `validates :title, presence: true, length: { maximum: 255 }`. */
  snippetTitle: 255,
  /** app/models/snippet.rb: `validates :file_name, length: { maximum: 255 }`. */
  snippetFileName: 255,
  /** app/models/snippet.rb: description bytesize at most DESCRIPTION_LENGTH_MAX (1.megabyte). */
  snippetDescriptionBytes: 1024 * 1024,
  /** app/models/snippet.rb: content bytesize at most the `snippet_size_limit` setting (50.megabytes by default). */
  snippetContentBytes: 50 * 1024 * 1024,
  /** app/models/label.rb: `validates :title, length: { maximum: 255 }`. */
  labelTitle: 255,
  /** app/models/label.rb: DESCRIPTION_LENGTH_MAX = 512.kilobytes, a bytesize validation. */
  labelDescriptionBytes: 512 * 1024,
  /** app/models/namespace.rb: name and path at most 255 characters. */
  namespaceName: 255,
  namespacePath: 255,
  /** app/models/namespace.rb: `validates :description, length: { maximum: 255 }`. */
  namespaceDescription: 255,
  /** app/models/project.rb: name and path at most 255 characters. */
  projectName: 255,
  projectPath: 255,
  /** app/models/project.rb: `validates :description, length: { maximum: 2000 }, allow_blank: true`. */
  projectDescription: 2000,
  /** app/models/user.rb: `validates :name, presence: true, length: { maximum: 255 }`. */
  userName: 255,
  /** app/models/user_detail.rb: `validates :bio, length: { maximum: 255 }, allow_blank: true`. */
  userBio: 255,
  /** app/models/error_tracking/project_error_tracking_setting.rb: `validates :api_url, length: { maximum: 255 }`. */
  errorTrackingApiUrl: 255,
  /** config/initializers/devise.rb: `config.password_length = 8..128`. */
  passwordMin: 8,
  passwordMax: 128,
} as const;

/** Ruby's String#length: characters (code points), not UTF-16 units. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Ruby's String#bytesize: UTF-8 bytes. */
export function utf8ByteCount(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const STORAGE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * ActiveSupport's number_to_human_size as GitLab configures it: base 1024, three significant digits,
 * insignificant zeros stripped, GitLab's unit names (its BytesizeValidator spec: "9 B", "1 MiB").
 */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), STORAGE_UNITS.length - 1);
  const value = Number((bytes / 1024 ** exponent).toPrecision(3));
  return `${value} ${STORAGE_UNITS[exponent]}`;
}

/** Rails' length validator message. */
export function tooLongMessage(maximum: number): string {
  return `is too long (maximum is ${maximum} characters)`;
}

/** Rails' length validator: [] when within `maximum` characters. */
export function lengthErrors(value: string | null | undefined, maximum: number): string[] {
  return value && characterCount(value) > maximum ? [tooLongMessage(maximum)] : [];
}

/** GitLab's BytesizeValidator: "is too long (2 MiB). The maximum size is 1 MiB." */
export function bytesizeErrors(value: string | null | undefined, maximum: number): string[] {
  if (!value) return [];
  const size = utf8ByteCount(value);
  return size > maximum
    ? [`is too long (${humanSize(size)}). The maximum size is ${humanSize(maximum)}.`]
    : [];
}

/**
 * How GitLab answers a model validation error on a given endpoint: `fields` is render_validation_error!
 * (400 `{"message":{"title":["is too long ..."]}}`); `sentence` is a service's error response built from
 * `errors.full_messages.to_sentence` (snippets: 400 `{"message":{"error":"Title is too long ..."}}`).
 */
export type ModelErrorStyle = 'fields' | 'sentence';

/** The marker a model-limit issue carries, so parameter validation renders it as GitLab's model does. */
export interface ModelIssueParams {
  model: ModelErrorStyle;
  attribute: string;
}

type Check = (value: string | null | undefined, maximum: number) => string[];

function modelLimit(check: Check, attribute: string, maximum: number, style: ModelErrorStyle) {
  return (value: string | null | undefined, ctx: z.RefinementCtx): void => {
    for (const message of check(value, maximum)) {
      const params: ModelIssueParams = { model: style, attribute };
      ctx.addIssue({ code: 'custom', message, params });
    }
  };
}

/**
 * Refinements for a parameter GitLab stores on a model with a size limit. Parameter validation
 * (service kit, parseParams) reports them only when every Grape-level check passed, as GitLab validates
 * the model after the API's parameters.
 */
export const modelLimits = {
  length: (attribute: string, maximum: number, style: ModelErrorStyle = 'fields') =>
    modelLimit(lengthErrors, attribute, maximum, style),
  bytesize: (attribute: string, maximum: number, style: ModelErrorStyle = 'fields') =>
    modelLimit(bytesizeErrors, attribute, maximum, style),
};

export function isModelIssueParams(params: unknown): params is ModelIssueParams {
  return (
    typeof params === 'object' &&
    params !== null &&
    typeof (params as ModelIssueParams).attribute === 'string' &&
    ((params as ModelIssueParams).model === 'fields' || (params as ModelIssueParams).model === 'sentence')
  );
}
