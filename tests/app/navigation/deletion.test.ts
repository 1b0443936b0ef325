import { describe, expect, it } from 'vitest';
import { DELETION_FILTERS, deletionBlocked, deletionQuery } from '@/features/navigation/deletion';
import { parseNavigationQuery } from '@/lib/navigationQuery';

describe('Deletion of filtered elements', () => {
  it('accepts the filters the deletion applies, not recursive', () => {
    expect(DELETION_FILTERS).not.toContain('recursive');
    expect(DELETION_FILTERS).toContain('class_id');
    expect(deletionBlocked(parseNavigationQuery({ type: 'page' }), 4)).toBeNull();
    expect(deletionBlocked(parseNavigationQuery({ page: 2 }), 4)).toBe(
      'Add a filter to choose the elements to delete',
    );
    expect(deletionBlocked(parseNavigationQuery({ type: 'page', recursive: true }), 4)).toBe(
      'Elements cannot be deleted with this filter: Recursive',
    );
    expect(deletionBlocked(parseNavigationQuery({ type: 'page' }), null)).toBe(
      'The elements are loading',
    );
    expect(deletionBlocked(parseNavigationQuery({ type: 'page' }), 0)).toBe(
      'No elements to delete',
    );
  });

  it('sends the filters and the metadata operator, not the paging', () => {
    const query = parseNavigationQuery({
      metadata_name: 'year',
      metadata_value: '1850',
      metadata_operator: 'gte',
      page: 3,
      page_size: 50,
      order: 'created',
      order_direction: 'desc',
    });
    expect(deletionQuery(query)).toEqual({
      metadata_name: 'year',
      metadata_value: '1850',
      metadata_operator: 'gte',
    });
  });
});
