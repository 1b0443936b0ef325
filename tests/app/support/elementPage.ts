/** What every element page suite does around each test. */
import { beforeEach } from 'vitest';
import { setDisplaySetting } from '@/features/elements/displaySettings';
import { isolateEachTest } from './harness';

/**
 * Each test starts afresh, with the page's trees as the suite needs them: display settings
 * outlive a test.
 */
export function isolateElementPageTests({ annotationsTree = false } = {}): void {
  isolateEachTest();
  beforeEach(() => {
    setDisplaySetting('annotationsTree', annotationsTree);
    setDisplaySetting('folderTree', false);
  });
}
