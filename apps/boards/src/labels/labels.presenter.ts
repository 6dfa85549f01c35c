import type { z } from 'zod';
import type { LabelEntity, labelBasicEntity } from '@gl/contracts';
import type { LabelDoc } from '../boards.models';
import type { BoardLabel } from '../boards/board-parents';

type LabelBasic = z.infer<typeof labelBasicEntity>;

/** LabelsHelper#text_color_for_bg: dark text on light backgrounds, white on dark ones. */
export function textColorFor(color: string): string {
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  const luminance = (r! * 0.299 + g! * 0.587 + b! * 0.114) / 255;
  return luminance > 0.5 ? '#1F1E24' : '#FFFFFF';
}

/**
 * Entities::Label (Entities::ProjectLabel with `is_project_label`); `subscribed`: whether the caller
 * subscribed to it (label-subscriptions.ts).
 */
export function presentLabel(
  label: Pick<LabelDoc, '_id' | 'name' | 'description' | 'color' | 'priority'>,
  subscribed = false,
  isProjectLabel = false,
): LabelEntity {
  return {
    id: label._id,
    name: label.name,
    description: label.description,
    description_html: label.description ?? '',
    text_color: textColorFor(label.color),
    color: label.color,
    subscribed,
    priority: label.priority,
    is_project_label: isProjectLabel,
    archived: false,
  };
}

export function presentLabelBasic(label: BoardLabel): LabelBasic {
  return { id: label._id, name: label.name, color: label.color, description: label.description };
}
