import type { IssueOrderBy, MergeRequestOrderBy } from '@gl/contracts';

/**
 * How a list of issues or merge requests is ordered: Issue.sort_by_attribute and Issuable.sort_by_attribute
 * for `"#{order_by}_#{sort}"` (lib/api/helpers/issues_helpers.rb), always ending in the id, so equal keys
 * have one order and pages neither repeat nor skip an item.
 */
export interface IssuableOrder {
  /** The stored field ordered on first; null: the id alone. */
  field: string | null;
  direction: 1 | -1;
  /** Items without a value come after the others whatever the direction (Gitlab::Database.nulls_last_order). */
  nullsLast: boolean;
  /** Direction of the id that breaks ties. */
  tie: 1 | -1;
  /**
   * The items without a value in parts, one after the other, each by the id (absent: one part): what
   * decides among them besides the id, as conditions.
   */
  blankParts?: Record<string, unknown>[];
  /** The items without a value come first instead (a count of none is the lowest, not unknown). */
  blanksFirst?: boolean;
}

/**
 * "Has a value" for each nulls-last field as a range the database answers by index (`$ne: null` is left
 * to a scan of every candidate on the local FerretDB): positions are int4, due dates `YYYY-MM-DD` strings
 * (every string is ≥ ''), merge times dates.
 */
export const HAS_VALUE: Record<string, Record<string, unknown>> = {
  relativePosition: { $gte: -2_147_483_648 },
  dueDate: { $gte: '' },
  mergedAt: { $gte: new Date(0) },
  milestoneDue: { $gte: '' },
  upvotesCount: { $gte: 1 },
};

const dir = (sort: 'asc' | 'desc' | undefined): 1 | -1 => (sort === 'asc' ? 1 : -1);

/** GitLab's defaults: order_by=created_at, sort=desc (lib/api/issues.rb, lib/api/merge_requests.rb). */
export function issuableOrder(
  orderBy: IssueOrderBy | MergeRequestOrderBy | 'id' | undefined,
  sort: 'asc' | 'desc' | undefined,
): IssuableOrder {
  const direction = dir(sort);
  switch (orderBy ?? 'created_at') {
    case 'id':
      // Keyset pages only (issuable-keyset.ts): the id alone, in the direction asked.
      return { field: null, direction, nullsLast: false, tie: direction };
    case 'created_at':
      return { field: 'createdAt', direction, nullsLast: false, tie: direction };
    case 'updated_at':
      return { field: 'updatedAt', direction, nullsLast: false, tie: direction };
    case 'merged_at':
      return { field: 'mergedAt', direction, nullsLast: true, tie: direction };
    case 'title':
      // order_title_asc / order_title_desc, then with_order_id_desc.
      return { field: 'title', direction, nullsLast: false, tie: -1 };
    case 'due_date':
      // order_due_date_asc / _desc (nulls last), then with_order_id_desc.
      return { field: 'dueDate', direction, nullsLast: true, tie: -1 };
    case 'relative_position':
      // Issue.order_by_relative_position: relative_position nulls last, then id in the same direction.
      return { field: 'relativePosition', direction, nullsLast: true, tie: direction };
    case 'milestone_due':
      // Milestoneable.order_milestone_due_asc / _desc: `milestones.due_date IS NULL, milestones.id IS NULL,
      // milestones.due_date <dir>`, then with_order_id_desc. Items whose milestone has no due date come
      // before those without a milestone. The due date is the item's copy of it (`milestoneDue`).
      return {
        field: 'milestoneDue',
        direction,
        nullsLast: true,
        tie: -1,
        blankParts: [{ milestoneId: { $gte: 1 } }, { milestoneId: null }],
      };
    case 'priority':
      // Issuable.order_due_date_and_labels_priority: the milestone's due date then the highest label
      // priority, both nulls last in the direction, then with_order_id_desc. Labels here have no priority
      // (every item's is null), so the due date and the id decide; the items without one are not parted
      // by having a milestone (the reorder drops order_milestone_due_asc's keys).
      return { field: 'milestoneDue', direction, nullsLast: true, tie: -1 };
    case 'popularity':
      // Issue.order_upvotes_desc / _asc on `upvotes_count`, then with_order_id_desc: items without votes
      // have no `upvotesCount` and are read as their own part, last when descending, first when ascending.
      return { field: 'upvotesCount', direction, nullsLast: true, tie: -1, blanksFirst: direction === 1 };
    default:
      // label_priority (the highest label priority) orders first on a value no item here has (labels here
      // have no priority): every key is equal and null, so GitLab's final `id DESC` alone orders them.
      return { field: null, direction, nullsLast: false, tie: -1 };
  }
}

/** The database sort of the items that have a value for the field, then the id. */
export function sortSpec(order: IssuableOrder): Record<string, 1 | -1> {
  return order.field ? { [order.field]: order.direction, _id: order.tie } : { _id: order.tie };
}
