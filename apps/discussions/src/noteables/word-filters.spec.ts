import {
  requiredWords,
  withAssignee,
  withLabel,
  withNoLabel,
  withSomeAssignee,
  withSomeLabel,
  withoutLabel,
  labelKey,
} from './word-filters';

describe('requiredWords: the labels and assignees every match of a filter has', () => {
  it('When labels and assignees are required at any depth of $and, then their words, once each', () => {
    const filter = {
      $and: [{ kind: 'Issue' }, withLabel('Doing'), { $and: [withAssignee(7), withLabel('Doing')] }],
    };
    expect(requiredWords(filter)).toEqual([labelKey('Doing'), 'u7']);
  });

  it('When a condition only excludes, or allows others ($or, Any, None), then it requires nothing', () => {
    const filter = {
      $and: [
        withoutLabel('Doing'),
        withSomeLabel(),
        withNoLabel(),
        withSomeAssignee(),
        { $or: [withLabel('a'), withLabel('b')] },
        { labelKeys: { $regex: ` ${labelKey('x')} `, $options: 'i' } },
      ],
    };
    expect(requiredWords(filter)).toEqual([]);
  });
});
