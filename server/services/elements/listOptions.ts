/**
 * What a list asks besides its filters: order, direction, recursion and the with_* flags that
 * add parts to each element (spec 001 §3 "Navigation query").
 */
import type { QueryReader } from './filters';

export const ORDERS = ['name', 'created', 'random', 'position'] as const;
export type ElementOrder = (typeof ORDERS)[number];
export type OrderDirection = 'asc' | 'desc';

/** Which optional parts each element of a list carries. */
export interface SerializeOptions {
  classes: boolean;
  metadata: boolean;
  hasChildren: boolean;
  corpus: boolean;
  zone: boolean;
}

export const DEFAULT_SERIALIZE: SerializeOptions = {
  classes: false,
  metadata: false,
  hasChildren: false,
  corpus: false,
  zone: true,
};

export interface ListOptions {
  order: ElementOrder;
  direction: OrderDirection;
  recursive: boolean;
  with: SerializeOptions;
}

export type ListKind = 'corpus' | 'children' | 'parents' | 'image';

/** Position only means something under one parent: the children lists are ordered by it. */
export function readListOptions(reader: QueryReader, kind: ListKind): ListOptions {
  const orders = kind === 'children' ? ORDERS : ORDERS.filter((order) => order !== 'position');
  const order = reader.choice('order', orders) ?? (kind === 'children' ? 'position' : 'name');
  const direction = reader.choice('order_direction', ['asc', 'desc'] as const) ?? 'asc';
  const hierarchy = kind === 'children' || kind === 'parents';
  const flag = (name: string, fallback: boolean) => reader.boolean(name) ?? fallback;
  return {
    order,
    direction,
    recursive: hierarchy ? flag('recursive', false) : false,
    with: {
      classes: flag('with_classes', false),
      metadata: flag('with_metadata', false),
      hasChildren: flag('with_has_children', false),
      corpus: flag('with_corpus', false),
      zone: flag('with_zone', true),
    },
  };
}
