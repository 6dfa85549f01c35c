/**
 * GitLab's RelativePositioning (app/models/concerns/relative_positioning.rb, lib/gitlab/relative_positioning.rb)
 * as pure arithmetic: integer positions in the int4 range, new items IDEAL_DISTANCE after the last, a
 * move takes the middle of the gap between its neighbours. When a gap has no integer left, the items of
 * a window around it are spread out again (positions.store.ts writes them): the window is the smallest
 * aligned range of positions, doubling from 2^LEAF_BITS, that is sparse enough for its size, and smaller
 * windows may be denser than larger ones (list labelling with per-level density thresholds), so a window
 * just spread is not spread again before many more moves land in it. Repeated moves into one gap cost a
 * handful of item moves each on average, never a rebalance of the whole board.
 */

export const MIN_POSITION = -2_147_483_648;
export const MAX_POSITION = 2_147_483_647;
export const START_POSITION = 0;
/** lib/gitlab/relative_positioning.rb: 2**(STEPS - 1) + 1 with STEPS = 10. */
export const IDEAL_DISTANCE = 513;

const LEAF_BITS = 6;
const TOP_BITS = 32;

/** The middle of the gap between two positions, or null when no integer lies strictly between them. */
export function between(low: number, high: number): number | null {
  if (high - low < 2) return null;
  return Math.floor((low + high) / 2);
}

/** Where an item goes after `low` when nothing follows it, or null past the last position. */
export function after(low: number): number | null {
  if (low + IDEAL_DISTANCE <= MAX_POSITION) return low + IDEAL_DISTANCE;
  return between(low, MAX_POSITION + 1);
}

/** Where an item goes before `high` when nothing precedes it, or null before the first position. */
export function before(high: number): number | null {
  if (high - IDEAL_DISTANCE >= MIN_POSITION) return high - IDEAL_DISTANCE;
  return between(MIN_POSITION - 1, high);
}

export interface PositionWindow {
  low: number;
  high: number;
  bits: number;
}

/** The aligned window of 2^bits positions that holds `anchor`, clipped to the int4 range. */
export function windowAt(anchor: number, bits: number): PositionWindow {
  const size = 2 ** bits;
  const low = Math.floor((anchor - MIN_POSITION) / size) * size + MIN_POSITION;
  return { low, high: Math.min(low + size - 1, MAX_POSITION), bits };
}

/** The aligned windows around `anchor`, smallest first. */
export function windowsAround(anchor: number): PositionWindow[] {
  const out: PositionWindow[] = [];
  for (let bits = LEAF_BITS; bits <= TOP_BITS; bits++) out.push(windowAt(anchor, bits));
  return out;
}

/**
 * Whether a window may hold `count` items once spread: at most 1/16 of its positions at the smallest
 * size, falling to 1/8192 for the whole range (measured: 10,000 moves into one gap cost about 14 item
 * moves each; random moves under one).
 */
export function roomyEnough(window: PositionWindow, count: number): boolean {
  const level = (window.bits - LEAF_BITS) / (TOP_BITS - LEAF_BITS);
  const density = 2 ** -(4 + level * 9);
  return count <= density * (window.high - window.low + 1) || window.bits === TOP_BITS;
}

/**
 * Evenly spread positions for `count` items of a window with one free place kept at index `gapAt` (0 =
 * before the first item): the items' new positions in order, and the free place.
 */
export function spread(
  window: PositionWindow,
  count: number,
  gapAt: number,
): { positions: number[]; free: number } {
  const step = Math.floor((window.high - window.low + 1) / (count + 2));
  const slots = Array.from({ length: count + 1 }, (_, i) => window.low + step * (i + 1));
  const free = slots[gapAt]!;
  return { positions: slots.filter((_, i) => i !== gapAt), free };
}
