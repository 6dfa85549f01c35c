/**
 * GitLab's `older_than` parsing: ChronicDuration (henrypoydar/chronic_duration) with GitLab's patch
 * (a month is 30 days). Returns seconds, or null when nothing usable was found (GitLab: nil → the cleanup
 * errors and no tag is deleted). `m` is minutes, `mo`/`month` are months.
 */
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 31_557_600;

const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  dy: DAY,
  day: DAY,
  days: DAY,
  w: WEEK,
  wk: WEEK,
  wks: WEEK,
  week: WEEK,
  weeks: WEEK,
  mo: MONTH,
  mos: MONTH,
  month: MONTH,
  months: MONTH,
  y: YEAR,
  yr: YEAR,
  yrs: YEAR,
  year: YEAR,
  years: YEAR,
};

/** "3:41:59" (h:m:s), "41:59" (m:s): ChronicDuration's chrono form. */
function parseChrono(text: string): number | null {
  if (!/^\d+(:\d+){1,3}(\.\d+)?$/.test(text)) return null;
  const parts = text.split(':').map(Number);
  const weights = [DAY, HOUR, MINUTE, 1].slice(4 - parts.length);
  return parts.reduce((sum, part, i) => sum + part * weights[i]!, 0);
}

export function parseChronicDuration(input: string | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  const text = input.trim().toLowerCase();
  if (text === '') return null;
  const chrono = parseChrono(text);
  if (chrono !== null) return chrono > 0 ? chrono : null;

  // Split numbers from letters ("1month" → "1 month"), drop filler words and punctuation.
  const tokens = text
    .replace(/(\d+(?:\.\d+)?)/g, ' $1 ')
    .replace(/[,]/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '' && t !== 'and');
  let total = 0;
  let pending: number | null = null;
  for (const token of tokens) {
    if (/^\d+(\.\d+)?$/.test(token)) {
      if (pending !== null) total += pending; // a bare number counts as seconds
      pending = Number(token);
      continue;
    }
    const unit = UNITS[token];
    if (unit === undefined) continue; // unknown words are ignored
    total += (pending ?? 1) * unit;
    pending = null;
  }
  if (pending !== null) total += pending;
  return total > 0 ? total : null;
}
