/**
 * IssuableBaseService#process_label_ids: `labels` replaces the labels, then `add_labels` are added
 * and `remove_labels` taken away; undefined when none of the three is given (the labels stay).
 */
export function labelsAfter(
  current: string[],
  labels: string[] | undefined,
  add: string[] | undefined,
  remove: string[] | undefined,
): string[] | undefined {
  if (labels === undefined && add === undefined && remove === undefined) return undefined;
  const next = [...(labels ?? current)];
  for (const name of add ?? []) if (!next.includes(name)) next.push(name);
  return next.filter((name) => !(remove ?? []).includes(name));
}
