import { useMatches } from '@tanstack/react-router';
import { useDocumentTitle } from '@/lib/documentTitle';

/**
 * The name of each screen, by the spec's route name, for the browser tab. A page that shows a
 * named thing (a project, an element) puts that name first itself.
 */
export const SCREEN_TITLES: Readonly<Record<string, string>> = {
  'corpus-list': 'Projects',
  navigation: 'Project',
  'element-details': 'Element',
  'image-elements': 'Image elements',
  'elements-selected': 'Selection',
  search: 'Search',
  'dataset-details': 'Dataset',
  'corpus-create': 'New project',
  'corpus-update': 'Project settings',
  'corpus-wait': 'Project',
  login: 'Log in',
  register: 'Register',
  logout: 'Log out',
  'password-reset': 'Password reset',
  'password-reset-confirm': 'Password reset',
  'user-profile': 'Profile',
  'user-verify-email': 'E-mail verification',
  'processes-list': 'Processes',
  'process-details': 'Process',
  'process-configure': 'Process configuration',
  'process-filter': 'Process filters',
  'process-datasets': 'Process datasets',
  'process-budget': 'Process budget',
  'process-wait': 'Process',
  'workers-activity': 'Workers activity',
  'workers-list': 'Workers',
  'worker-details': 'Worker',
  'worker-version': 'Worker version',
  'worker-runs': 'Worker runs',
  agents: 'Agents',
  'models-list': 'Models',
  'model-details': 'Model',
  'model-version': 'Model version',
  'budget-list': 'Budgets',
  'budget-details': 'Budget',
  'secret-list': 'Secrets',
  'secret-details': 'Secret',
  'group-details': 'Group',
  'files-import': 'Import files',
  'bucket-import': 'Import from a bucket',
  'pending-changes': 'Pending changes',
  unreachable: 'Server unreachable',
  unverified: 'Unverified email',
};

/** Titles the tab after the screen the router shows (its deepest named route). */
export function ScreenTitle() {
  const name = useMatches({
    select: (matches) =>
      matches
        .map((match) => match.staticData?.name)
        .filter(Boolean)
        .at(-1),
  });
  useDocumentTitle([name ? SCREEN_TITLES[name] : null], 'fallback');
  return null;
}
