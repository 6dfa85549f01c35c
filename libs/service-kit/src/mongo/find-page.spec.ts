import { totalFromPage } from './find-page';

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
