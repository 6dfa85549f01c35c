/**
 * The emoji names an award may use. GitLab validates against the TanukiEmoji index (Gitlab::EmojiNameValidator,
 * `find_by_alpha_code`) and stores the emoji's canonical name (AwardEmojis::BaseService#normalize_name, so
 * `+1` is stored as `thumbsup`). This is a built-in subset of that index: the reactions GitLab's picker
 * shows first and the common faces, hands, hearts and symbols, with their common aliases.
 */
const NAMES = `
thumbsup thumbsdown smile smiley grinning grin joy rofl laughing sweat_smile blush innocent wink
slight_smile upside_down relaxed heart_eyes kissing_heart yum stuck_out_tongue stuck_out_tongue_winking_eye
sunglasses nerd thinking neutral_face expressionless no_mouth rolling_eyes smirk unamused
grimacing relieved pensive confused worried slight_frown frowning2 open_mouth hushed astonished flushed
cry sob scream disappointed sweat weary tired_face triumph rage angry sleeping sleepy mask
zipper_mouth hugging shrug facepalm dizzy_face skull ghost alien robot poop clown
heart orange_heart yellow_heart green_heart blue_heart purple_heart black_heart broken_heart
heartpulse sparkling_heart two_hearts
clap wave ok_hand raised_hands pray muscle point_up point_down point_left point_right fist punch v
handshake raised_hand writing_hand metal call_me crossed_fingers
tada confetti_ball rocket fire star star2 sparkles zap boom 100 eyes eye trophy medal gift balloon
white_check_mark heavy_check_mark ballot_box_with_check x negative_squared_cross_mark warning
no_entry question grey_question exclamation heavy_plus_sign heavy_minus_sign bulb bug beetle
coffee beer beers pizza cake cookie doughnut taco apple
sun_with_face sunny cloud rainbow snowflake umbrella earth_americas
cat dog fox unicorn panda_face monkey see_no_evil hear_no_evil speak_no_evil turtle snail tiger
checkered_flag rotating_light construction lock unlock key hammer wrench gear link memo pencil pencil2
book books calendar chart_with_upwards_trend chart_with_downwards_trend hourglass stopwatch alarm_clock
mag bell speech_balloon thought_balloon
`;

/** Other names TanukiEmoji finds the same emoji by. */
const ALIASES: Readonly<Record<string, string>> = {
  '+1': 'thumbsup',
  '-1': 'thumbsdown',
  thumbs_up: 'thumbsup',
  thumbs_down: 'thumbsdown',
  satisfied: 'laughing',
  shit: 'poop',
  hankey: 'poop',
  poo: 'poop',
  slightly_smiling_face: 'slight_smile',
  upside_down_face: 'upside_down',
  nerd_face: 'nerd',
  thinking_face: 'thinking',
  hugs: 'hugging',
  thumbup: 'thumbsup',
  thumbdown: 'thumbsdown',
  facepunch: 'punch',
  ok: 'ok_hand',
  the_horns: 'metal',
};

const KNOWN: ReadonlySet<string> = new Set(NAMES.split(/\s+/).filter(Boolean));

/** GitLab's thumbsup and thumbsdown (AwardEmoji::UPVOTE_NAME, DOWNVOTE_NAME): an issuable's votes. */
export const UPVOTE_NAME = 'thumbsup';
export const DOWNVOTE_NAME = 'thumbsdown';

/** The canonical name of an emoji (colons allowed around it), or null when it is no known emoji. */
export function canonicalEmojiName(given: string): string | null {
  const name = given.replace(/^:(.+):$/, '$1');
  const canonical = ALIASES[name] ?? name;
  return KNOWN.has(canonical) ? canonical : null;
}
