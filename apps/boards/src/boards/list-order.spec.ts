import { isValidMove, moveItem, removeItem } from './list-order';

describe('list order', () => {
  const lists = ['a', 'b', 'c', 'd'];

  it('When a list moves down, then the lists between its old and new place move up by one', () => {
    expect(moveItem(lists, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
  });

  it('When a list moves up, then the lists between its new and old place move down by one', () => {
    expect(moveItem(lists, 3, 1)).toEqual(['a', 'd', 'b', 'c']);
  });

  it('When a list moves to the ends, then the order is complete and unchanged otherwise', () => {
    expect(moveItem(lists, 1, 3)).toEqual(['a', 'c', 'd', 'b']);
    expect(moveItem(lists, 2, 0)).toEqual(['c', 'a', 'b', 'd']);
  });

  it.each([
    ['the same position', 1, 1],
    ['a negative position', 1, -1],
    ['the count', 1, 4],
    ['beyond the count', 0, 10],
  ])('When the move is to %s, then it is refused', (_name, from, to) => {
    expect(isValidMove(lists.length, from, to)).toBe(false);
    expect(moveItem(lists, from, to)).toBeNull();
  });

  it('When a list is removed, then the later lists close the gap', () => {
    expect(removeItem(lists, 1)).toEqual(['a', 'c', 'd']);
  });

  it('When many random moves are applied, then every item is kept exactly once', () => {
    let order = Array.from({ length: 7 }, (_, i) => i);
    for (let i = 0; i < 500; i++) {
      const from = Math.floor(Math.random() * order.length);
      const to = Math.floor(Math.random() * order.length);
      order = moveItem(order, from, to) ?? order;
    }
    expect([...order].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
