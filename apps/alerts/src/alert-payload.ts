import { createHash } from 'node:crypto';
import type { ALERT_SEVERITIES } from '@gl/contracts';

/**
 * The generic alert payload mapping (GitLab's Gitlab::AlertManagement::Payload::Generic, with the spec's
 * defaults: title `New: Incident`, severity `critical`, `unknown` allowed) and GitLab's fingerprint.
 */
export const DEFAULT_TITLE = 'New: Incident';
const SEVERITIES = new Set<string>(['critical', 'high', 'medium', 'low', 'info', 'unknown']);
/** Fields left out of the content fingerprint on higher tiers (EE generic_alert_fingerprinting). */
const EXCLUDED_FROM_FINGERPRINT = ['start_time', 'end_time', 'hosts'];

export interface MappedAlert {
  title: string;
  description: string | null;
  startedAt: Date;
  /** Set when the payload resolves an alert (`end_time` present). */
  endedAt: Date | null;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  severity: (typeof ALERT_SEVERITIES)[number];
  fingerprint: string | null;
  environmentName: string | null;
}

type Json = unknown;

function present(value: Json): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function text(value: Json, max: number): string | null {
  if (!present(value)) return null;
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s.length > max ? s.slice(0, max) : s;
}

function parseTime(value: Json): Date | null {
  if (!present(value)) return null;
  const date =
    typeof value === 'number' ? new Date(value) : typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** `Array(hosts).flatten`, the joined length kept within 255 characters as GitLab truncates it. */
function hostsOf(value: Json): string[] {
  if (!present(value)) return [];
  const flat = (Array.isArray(value) ? value.flat(Infinity) : [value])
    .filter(present)
    .map((h) => (typeof h === 'string' ? h : JSON.stringify(h)));
  const hosts: string[] = [];
  let left = 255;
  for (const host of flat) {
    if (left <= 0) break;
    hosts.push(host.slice(0, left));
    left -= host.length;
  }
  return hosts;
}

const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');

/** Ruby's `inspect` of a parsed JSON value, so hash fingerprints match GitLab's `.sort.to_s`. */
function rubyInspect(value: Json): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(rubyInspect).join(', ')}]`;
  const entries = Object.entries(value as Record<string, Json>);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}=>${rubyInspect(v)}`).join(', ')}}`;
}

/** SafeInlineHash.merge_keys!: nested hashes become dotted keys. */
function mergeKeys(hash: Record<string, Json>, prefix = ''): [string, Json][] {
  const out: [string, Json][] = [];
  for (const [key, value] of Object.entries(hash)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value))
      out.push(...mergeKeys(value as Record<string, Json>, name));
    else out.push([name, value]);
  }
  return out;
}

/** Gitlab::AlertManagement::Fingerprint.generate: blank → null; string/number, array, hash → SHA1. */
export function fingerprintOf(data: Json): string | null {
  if (!present(data)) return null;
  if (Array.isArray(data)) return sha1(data.flat(Infinity).map(rubyString).join(''));
  if (typeof data === 'object') {
    const pairs = mergeKeys(data as Record<string, Json>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return sha1(`[${pairs.map(([k, v]) => `[${JSON.stringify(k)}, ${rubyInspect(v)}]`).join(', ')}]`);
  }
  return sha1(rubyString(data));
}

/** Ruby's `to_s`. */
function rubyString(value: Json): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return rubyInspect(value);
}

export function mapGenericPayload(payload: Record<string, Json>, contentFingerprint: boolean): MappedAlert {
  const severity = typeof payload.severity === 'string' ? payload.severity.toLowerCase() : '';
  let fingerprint = fingerprintOf(payload.fingerprint);
  if (!fingerprint && contentFingerprint) {
    const rest = Object.fromEntries(
      Object.entries(payload).filter(([key]) => !EXCLUDED_FROM_FINGERPRINT.includes(key)),
    );
    fingerprint = Object.values(rest).some(present) ? fingerprintOf(rest) : null;
  }
  return {
    title: text(payload.title, 200) ?? DEFAULT_TITLE,
    description: text(payload.description, 1000),
    startedAt: parseTime(payload.start_time) ?? new Date(),
    endedAt: present(payload.end_time) ? (parseTime(payload.end_time) ?? new Date()) : null,
    service: text(payload.service, 100),
    monitoringTool: text(payload.monitoring_tool, 100),
    hosts: hostsOf(payload.hosts),
    severity: (SEVERITIES.has(severity) ? severity : 'critical') as MappedAlert['severity'],
    fingerprint,
    environmentName: text(payload.platform_environment_name ?? payload.gitlab_environment_name, 255),
  };
}

const PROMETHEUS_SEVERITIES: Record<string, MappedAlert['severity']> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  info: 'info',
  warning: 'high',
  error: 'high',
  page: 'critical',
};

/** One Alertmanager alert (Payload::Prometheus): annotations and labels carry the details. */
export function mapPrometheusAlert(alert: Record<string, Json>): MappedAlert {
  const obj = (v: Json): Record<string, Json> =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Json>) : {};
  const labels = obj(alert.labels);
  const annotations = obj(alert.annotations);
  const severity = typeof labels.severity === 'string' ? labels.severity.toLowerCase() : '';
  const startedAt = parseTime(alert.startsAt) ?? new Date();
  const resolved = alert.status === 'resolved';
  const title = text(annotations.title ?? annotations.summary ?? labels.alertname, 200) ?? DEFAULT_TITLE;
  return {
    title,
    description: text(annotations.description, 1000),
    startedAt,
    endedAt: resolved ? (parseTime(alert.endsAt) ?? new Date()) : null,
    service: null,
    monitoringTool: 'Prometheus',
    hosts: hostsOf(annotations.hosts),
    severity: PROMETHEUS_SEVERITIES[severity] ?? 'critical',
    fingerprint: fingerprintOf(
      present(alert.fingerprint) ? alert.fingerprint : [startedAt.toISOString(), title, alert.generatorURL],
    ),
    environmentName: text(labels.gitlab_environment_name, 255),
  };
}

/** Deepest nesting of objects/arrays in JSON text, measured without parsing (strings skipped). */
export function jsonDepth(raw: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}
