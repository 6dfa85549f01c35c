import { activityEventEntity } from '@gl/contracts';
import { GHOST_USER } from '@gl/service-kit';
import type { ActivityDoc } from './events.models';
import { authorsOf, presentActivity } from './events.presenter';

const doc = (over: Partial<ActivityDoc> = {}): ActivityDoc => ({
  _id: 7,
  sourceEventId: 'e-7',
  projectId: 12,
  groupId: null,
  authorId: 901,
  authorUsername: null,
  authorName: null,
  action: 'joined',
  actionName: 'joined',
  targetId: null,
  targetIid: null,
  targetType: null,
  targetTitle: null,
  note: null,
  pushData: null,
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  ...over,
});

describe("presentActivity (GitLab's Entities::Event)", () => {
  it('When the author is unknown, then author_username is null (not absent) and there is no author', () => {
    const entity = presentActivity(doc(), authorsOf([doc()], [], 'http://localhost'));
    expect(activityEventEntity.parse(entity)).toEqual(entity);
    expect(entity).toHaveProperty('author_username', null);
    expect(entity).not.toHaveProperty('author');
  });

  it('When any event is shown, then it carries the legacy title and data fields, null', () => {
    const d = doc({ authorUsername: 'root', authorName: 'Administrator' });
    const entity = presentActivity(d, authorsOf([d], [], 'http://localhost'));
    expect(entity).toMatchObject({ title: null, data: null, author_username: 'root' });
    expect(Object.keys(entity)).toEqual(expect.arrayContaining(['title', 'data', 'author_username']));
  });

  it('When the author was deleted and the removal of their events has not reached this one, then it shows the Ghost User', () => {
    const d = doc({ authorUsername: 'carol', authorName: 'Carol' });
    const deleted = {
      _id: 901,
      username: 'carol',
      usernameLower: 'carol',
      name: 'Carol',
      state: 'active',
      destroyed: true,
    };
    const entity = presentActivity(d, authorsOf([d], [deleted], 'http://localhost'));
    expect(entity).toMatchObject({
      author_username: 'ghost',
      author: { id: GHOST_USER.id, username: 'ghost' },
    });
  });
});
