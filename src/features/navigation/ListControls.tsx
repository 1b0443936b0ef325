import { useId } from 'react';
import { PAGE_SIZES, type Order, type OrderDirection, type PageSize } from '@/lib/navigationQuery';
import { ui } from './styles';

const ORDER_LABELS: Record<Order, string> = {
  name: 'Name',
  created: 'Creation date',
  random: 'Random',
  position: 'Position',
};

export interface ListControlsProps {
  order: Order;
  direction: OrderDirection;
  pageSize: PageSize;
  orders: readonly Order[];
  onOrderChange: (order: Order, direction: OrderDirection) => void;
  onPageSizeChange: (pageSize: PageSize) => void;
}

/** Ordering, direction (meaningless for a random order, so hidden then) and page size. */
export function ListControls({
  order,
  direction,
  pageSize,
  orders,
  onOrderChange,
  onPageSizeChange,
}: ListControlsProps) {
  const orderId = useId();
  const directionId = useId();
  const sizeId = useId();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={orderId} className={ui.label}>
          Order by
        </label>
        <select
          id={orderId}
          className={`${ui.select} mt-1`}
          value={order}
          onChange={(event) => onOrderChange(event.target.value as Order, direction)}
        >
          {orders.map((option) => (
            <option key={option} value={option}>
              {ORDER_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      {order !== 'random' && (
        <div>
          <label htmlFor={directionId} className={ui.label}>
            Direction
          </label>
          <select
            id={directionId}
            className={`${ui.select} mt-1`}
            value={direction}
            onChange={(event) => onOrderChange(order, event.target.value as OrderDirection)}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
      )}
      <div>
        <label htmlFor={sizeId} className={ui.label}>
          Page size
        </label>
        <select
          id={sizeId}
          className={`${ui.select} mt-1`}
          value={pageSize}
          onChange={(event) => onPageSizeChange(Number(event.target.value) as PageSize)}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
