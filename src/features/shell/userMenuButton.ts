/** The user menu's button, and what stands in for it until the menu's code has loaded. */
export const USER_MENU_BUTTON =
  'flex items-center gap-1 rounded px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-600 data-[open]:bg-brand-600';
