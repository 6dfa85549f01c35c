import { useHarness } from '@gl/testing';
import type { Model } from 'mongoose';
import type { NoteableWordDoc } from './noteable.model';
import { labelKey } from './word-filters';
import { createNoteableWordsStore, wordsOf } from './noteable-words.store';
import { startDiscussionsHarness } from '../testing/discussions.harness';

let nextId = 70_000_000 + Math.floor(Math.random() * 1_000_000);

describe('noteable words: an entry per label and assignee of a noteable', () => {
  const h = useHarness(startDiscussionsHarness);
  const model = () => h.runtime.connection.model('NoteableWord') as Model<NoteableWordDoc>;
  const wordsOfNoteable = async (id: number) =>
    (await model().find({ noteableId: id }).lean()).map((e) => e.word).sort();

  it('When labels are replaced, then the new entries are written, and the old ones go once no write has named them for a minute', async () => {
    const clock = { at: 1_000_000 };
    const store = createNoteableWordsStore(model(), () => clock.at);
    const id = nextId++;
    await store.replace(id, wordsOf({ labels: ['a', 'b'], assigneeIds: [7] }), async () => undefined);
    expect(await wordsOfNoteable(id)).toEqual([labelKey('a'), labelKey('b'), 'u7'].sort());
    // Within the minute a replaced label's entry stays (another replica's clock may be behind).
    clock.at += 30_000;
    await store.replace(id, wordsOf({ labels: ['c'] }), async () => undefined);
    expect(await wordsOfNoteable(id)).toEqual([labelKey('a'), labelKey('b'), labelKey('c'), 'u7'].sort());
    clock.at += 90_000;
    await store.replace(id, wordsOf({ labels: ['c'] }), async () => undefined);
    // Only the family written is replaced: the assignee entry stays.
    expect(await wordsOfNoteable(id)).toEqual([labelKey('c'), 'u7'].sort());
  });

  it('When a write fails, then its new entries stay (extra entries are harmless) and the old ones too', async () => {
    const store = createNoteableWordsStore(model());
    const id = nextId++;
    await store.ensure(id, wordsOf({ labels: ['a'] }));
    await expect(
      store.replace(id, wordsOf({ labels: ['b'] }), async () => {
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(await wordsOfNoteable(id)).toEqual([labelKey('a'), labelKey('b')].sort());
  });

  it('When writers replace the labels of one noteable at once, then the entries hold at least the labels the last write left', async () => {
    // Each writer sees a clock far ahead of the entries' creation, so every prune may remove what it does
    // not name: only the order of the steps keeps the final labels' entries.
    const clock = { at: 10_000_000 };
    const store = createNoteableWordsStore(model(), () => (clock.at += 100_000));
    const id = nextId++;
    const stored = { labels: [] as string[] };
    const sets = Array.from({ length: 12 }, (_, i) => [`l${i}`, `l${(i + 1) % 12}`]);
    await Promise.all(
      sets.map((labels) =>
        store.replace(id, wordsOf({ labels }), async () => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
          stored.labels = labels;
        }),
      ),
    );
    const held = await wordsOfNoteable(id);
    for (const label of stored.labels) expect(held).toContain(labelKey(label));
  });

  it('When few noteables have a word, then their ids; when more than the limit, null', async () => {
    const store = createNoteableWordsStore(model());
    const word = `zz${nextId}`;
    const ids = [nextId++, nextId++, nextId++];
    await store.ensureMany(ids.map((id) => ({ id, words: { label: [word] } })));
    expect((await store.fewNoteableIds(word, 3))?.sort()).toEqual(ids.sort());
    expect(await store.fewNoteableIds(word, 2)).toBeNull();
    expect(await store.fewNoteableIds(`${word}-none`, 2)).toEqual([]);
  });
});
