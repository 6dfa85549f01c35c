import { DOMAIN_EVENT_TYPES, noteCreatedData } from './domain.events';
import { eventEnvelope } from './envelope';
import { issueCommentCreated } from './issue-comment.event';

describe('issueCommentCreated', () => {
  const ref = {
    projectId: 42,
    issue: { id: 4207, iid: 7, title: 'Issue 7' },
    thread: {
      id: 'a'.repeat(40),
      notes: [
        {
          id: 99,
          body: 'Hello',
          created_at: '2026-01-02T04:05:06+01:00',
          author: { avatar_url: 'https://www.gravatar.com/avatar/0?s=80&d=identicon' },
        },
      ],
    },
  };

  it('When built from an API thread, then it is a valid note.created envelope about the thread’s first note by root', () => {
    const event = eventEnvelope.parse(issueCommentCreated(ref, '8a2c7a52-1f0e-4a39-9d5f-0c3c5d1f6a11'));
    expect(event).toMatchObject({
      id: '8a2c7a52-1f0e-4a39-9d5f-0c3c5d1f6a11',
      type: DOMAIN_EVENT_TYPES.discussions.noteCreated,
      producer: 'discussions',
      actor: { id: 1, username: 'root' },
      projectId: 42,
    });
    expect(noteCreatedData.parse(event.data)).toMatchObject({
      noteId: 99,
      discussionId: 'a'.repeat(40),
      createdAt: '2026-01-02T03:05:06.000Z',
      noteableType: 'Issue',
      noteableId: 4207,
      noteableIid: 7,
      targetTitle: 'Issue 7',
      authorAvatarUrl: 'https://www.gravatar.com/avatar/0?s=80&d=identicon',
    });
  });
});
