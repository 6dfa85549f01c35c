/** The emoji the matrix's create cells award: each caller awards each awardable once. */
export const CREATED_EMOJI = 'tada';

/** Emoji names for root's awards (fresh.ts), in turn per awardable: one user gives each emoji once. */
const NAMES = [
  'thumbsup',
  'thumbsdown',
  'smile',
  'heart',
  'rocket',
  'eyes',
  '100',
  'fire',
  'star',
  'sparkles',
  'clap',
  'wave',
  'pray',
  'muscle',
  'bulb',
  'bug',
  'coffee',
  'beer',
  'pizza',
  'cake',
  'sunny',
  'rainbow',
  'cat',
  'dog',
  'fox',
  'unicorn',
  'turtle',
  'snail',
  'tiger',
  'trophy',
  'medal',
  'gift',
  'balloon',
  'zap',
  'boom',
  'skull',
  'ghost',
  'robot',
  'alien',
  'clown',
  'confused',
  'worried',
  'cry',
  'sob',
  'joy',
  'grin',
  'wink',
];
const given = new Map<string, number>();

export function nextEmojiName(awardable: string): string {
  const n = given.get(awardable) ?? 0;
  if (n >= NAMES.length) throw new Error(`no emoji left for ${awardable}`);
  given.set(awardable, n + 1);
  return NAMES[n]!;
}
