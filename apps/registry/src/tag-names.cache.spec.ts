import { createTagNameCache } from './tag-names.cache';

describe('tag-names.cache', () => {
  const loader = () => {
    const loads: number[] = [];
    const load = (id: number) => {
      loads.push(id);
      return Promise.resolve(Array.from({ length: 10 }, (_, i) => `t${9 - i}-${id}`));
    };
    return { loads, load };
  };

  it('When a repository is listed again at the same version, then its sorted names come from memory', async () => {
    const { loads, load } = loader();
    const cache = createTagNameCache(load);
    const first = await cache.names({ _id: 1, tagsVersion: 3 });
    expect(first[0]).toBe('t0-1');
    expect(await cache.names({ _id: 1, tagsVersion: 3 })).toBe(first);
    await cache.names({ _id: 1, tagsVersion: 4 });
    expect(loads).toEqual([1, 1]);
  });

  it('When the names held pass the bound, then the least recently listed repositories are forgotten', async () => {
    const { loads, load } = loader();
    const cache = createTagNameCache(load, 25);
    await cache.names({ _id: 1, tagsVersion: 0 });
    await cache.names({ _id: 2, tagsVersion: 0 });
    await cache.names({ _id: 1, tagsVersion: 0 }); // 1 is now the most recent
    await cache.names({ _id: 3, tagsVersion: 0 }); // 30 names: 2 goes
    await cache.names({ _id: 1, tagsVersion: 0 });
    await cache.names({ _id: 2, tagsVersion: 0 });
    expect(loads).toEqual([1, 2, 3, 2]);
  });

  it('When one repository alone holds more than the bound, then it is still kept', async () => {
    const { loads, load } = loader();
    const cache = createTagNameCache(load, 5);
    await cache.names({ _id: 7, tagsVersion: 0 });
    await cache.names({ _id: 7, tagsVersion: 0 });
    expect(loads).toEqual([7]);
  });
});
