import { eventually } from '@gl/testing';
import { api, unique } from './e2e.helpers';

interface Issue {
  id: number;
  iid: number;
  title: string;
  state: string;
  labels: string[];
}

/**
 * A board's columns and a card moved between them through the gateway by raw HTTP: the boards service
 * publishes the board's definition, discussions answers the column and the move.
 */
describe('board lists: column issues and card moves through the gateway', () => {
  let groupId: number;
  let projectId: number;
  let boardId: number;
  let listId: number;
  let doing: string;

  async function json<T>(path: string, init: Parameters<typeof api>[1] = {}): Promise<T> {
    const res = await api(path, {
      ...init,
      headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
    });
    expect(res.status).toBeLessThan(300);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    const path = unique('bcg');
    doing = unique('Doing');
    groupId = (
      await json<{ id: number }>('/groups', { method: 'POST', body: JSON.stringify({ name: path, path }) })
    ).id;
    projectId = (
      await json<{ id: number }>('/projects', {
        method: 'POST',
        body: JSON.stringify({ name: 'app', namespace_id: groupId }),
      })
    ).id;
    // The free tier shows every group one board; higher tiers create them.
    const shown = await json<{ id: number }[]>(`/groups/${groupId}/boards`);
    boardId =
      shown[0]?.id ??
      (
        await json<{ id: number }>(`/groups/${groupId}/boards`, {
          method: 'POST',
          body: JSON.stringify({ name: 'B' }),
        })
      ).id;
    const label = await json<{ id: number }>(`/groups/${groupId}/labels`, {
      method: 'POST',
      body: JSON.stringify({ name: doing, color: '#0000FF' }),
    });
    listId = (
      await json<{ id: number }>(`/groups/${groupId}/boards/${boardId}/lists`, {
        method: 'POST',
        body: JSON.stringify({ label_id: label.id }),
      })
    ).id;
    for (const [title, labels] of [
      ['one', doing],
      ['two', doing],
      ['card', ''],
    ]) {
      await json(`/projects/${projectId}/issues`, {
        method: 'POST',
        body: JSON.stringify({ title, labels }),
      });
    }
  });

  const column = async (list: number | string): Promise<Issue[]> =>
    json<Issue[]>(`/groups/${groupId}/boards/${boardId}/lists/${list}/issues?per_page=100`);

  it('When a column is read and a card is moved, then the board shows it in its new list, in place', async () => {
    // The board's definition reaches discussions as an event: 404 until then.
    const first = await eventually(
      async () => {
        const res = await api(`/groups/${groupId}/boards/${boardId}/lists/${listId}/issues`);
        return res.status === 200 ? ((await res.json()) as Issue[]).map((i) => i.title) : [];
      },
      (titles) => titles.length === 2,
    );
    expect(first).toEqual(['one', 'two']);
    const res = await api(`/groups/${groupId}/boards/${boardId}/lists/${listId}/issues?per_page=1`);
    expect(res.headers.get('x-total')).toBe('2');
    const [card] = await column('backlog');
    const [one, two] = await column(listId);
    const moved = await api(`/groups/${groupId}/boards/${boardId}/issues/${card!.id}/move`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        from_list_id: 'backlog',
        to_list_id: listId,
        move_after_id: one!.id,
        move_before_id: two!.id,
      }),
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as Issue).labels).toEqual([doing]);
    expect((await column(listId)).map((i) => i.title)).toEqual(['one', 'card', 'two']);
    const closed = await api(`/groups/${groupId}/boards/${boardId}/issues/${card!.id}/move`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ from_list_id: listId, to_list_id: 'closed' }),
    });
    expect(((await closed.json()) as Issue).state).toBe('closed');
    expect((await column('closed')).map((i) => i.title)).toEqual(['card']);
  });

  it('When the caller or the path is wrong, then 401, 404 and 400 through the gateway', async () => {
    expect(
      (await api(`/groups/${groupId}/boards/${boardId}/lists/backlog/issues`, { token: null })).status,
    ).toBe(401);
    const board = await api(`/groups/${groupId}/boards/999999999/lists/backlog/issues`);
    expect(board.status).toBe(404);
    expect(await board.json()).toEqual({ message: '404 Board Not Found' });
    const list = await api(`/groups/${groupId}/boards/${boardId}/lists/nope/issues`);
    expect(list.status).toBe(400);
    // The boards service still answers its own list route.
    expect((await api(`/groups/${groupId}/boards/${boardId}/lists/${listId}`)).status).toBe(200);
  });
  it('When a column is paged by cursor, then following Link rel="next" through the gateway walks it once', async () => {
    const titles: string[] = [];
    let url: string | null =
      `/groups/${groupId}/boards/${boardId}/lists/${listId}/issues?pagination=keyset&per_page=1`;
    for (let guard = 0; url !== null && guard < 10; guard++) {
      const res = await api(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBeNull();
      titles.push(...((await res.json()) as Issue[]).map((i) => i.title));
      const link = res.headers.get('link');
      // An absolute URL on the gateway, as GitLab's HeaderBuilder writes it.
      url = link ? new URL(link.slice(1, link.indexOf('>'))).href.replace(/^.*\/api\/v4/, '') : null;
    }
    expect(titles).toEqual(['one', 'two']);
    const bad = await api(
      `/groups/${groupId}/boards/${boardId}/lists/${listId}/issues?pagination=keyset&cursor=x`,
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'cursor is invalid' });
  });
});
