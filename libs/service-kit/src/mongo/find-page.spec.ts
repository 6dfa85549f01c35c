import { boundedTotal, totalFromPage } from './find-page';

describe('totalFromPage', () => {
  it.each([
    [{ skip: 0, perPage: 20 }, 0, 0],
    [{ skip: 0, perPage: 20 }, 7, 7],
    [{ skip: 40, perPage: 20 }, 3, 43],
  ])('When page %j holds %i items short of a full page, then the total is %i', (page, found, total) => {
    expect(totalFromPage(page, found)).toBe(total);
  });

  it.each([
    [{ skip: 0, perPage: 20 }, 20],
    [{ skip: 60, perPage: 20 }, 0],
  ])('When page %j holds %i items (full, or past the end), then only a count can tell', (page, found) => {
    expect(totalFromPage(page, found)).toBeUndefined();
  });
});

describe('boundedTotal', () => {
  const never = () => Promise.reject(new Error('counted'));

  it.each([
    [{ skip: 0, shown: 0, hasNext: false }, 0],
    [{ skip: 0, shown: 7, hasNext: false }, 7],
    [{ skip: 40, shown: 3, hasNext: false }, 43],
    [{ skip: 20, shown: 20, hasNext: false }, 40],
  ])(
    'When %j shows the end within the limit, then the total is %i without a count',
    async (window, total) => {
      expect(await boundedTotal(window, 100, never)).toBe(total);
    },
  );

  it.each([
    [{ skip: 100, shown: 3, hasNext: false }],
    [{ skip: 90, shown: 10, hasNext: true }],
    [{ skip: 200, shown: 20, hasNext: true }],
  ])('When %j already reaches past the limit, then there is no total and no count', async (window) => {
    expect(await boundedTotal(window, 100, never)).toBeNull();
  });

  it('When the window cannot tell, then the count decides', async () => {
    expect(await boundedTotal({ skip: 0, shown: 20, hasNext: true }, 100, () => Promise.resolve(57))).toBe(
      57,
    );
    expect(
      await boundedTotal({ skip: 60, shown: 0, hasNext: false }, 100, () => Promise.resolve(null)),
    ).toBeNull();
    // An empty page far past the end of a short list: counted, not assumed past the limit.
    expect(await boundedTotal({ skip: 500, shown: 0, hasNext: false }, 100, () => Promise.resolve(5))).toBe(
      5,
    );
  });
});
