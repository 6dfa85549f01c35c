import { dumpOrder } from './databases';
import { subjectMatches } from './stream';

describe('backup order', () => {
  it('When collections are dumped, then ingested comes first and counters last', () => {
    expect(dumpOrder(['counters', 'stream_slots', 'activities', 'ingested', 'outbox'])).toEqual([
      'ingested',
      'activities',
      'outbox',
      'stream_slots',
      'counters',
    ]);
  });
});

describe('subjectMatches', () => {
  it.each([
    ['gl.>', 'gl.discussions.issue.opened', true],
    ['gl.>', 'gl', false],
    ['gl.identity.*.created', 'gl.identity.user.created', true],
    ['gl.identity.*.created', 'gl.identity.user.updated', false],
    ['gl.identity.*.created', 'gl.identity.user.created.x', false],
    ['cmd.registry.>', 'gl.registry.tags_requested', false],
    ['gl.alerts.alert.created', 'gl.alerts.alert.created', true],
  ])('%s matches %s: %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});
