/** The name and type of an element as the edit, new folder and sub-element forms check them. */

/** The API's limit on an element's name (the spec does not give its value). */
export const ELEMENT_NAME_MAX = 250;

export const ELEMENT_FORM_MESSAGES = {
  // Spec 001 §5 "Element edit", word for word.
  typeRequired: 'A type is required',
  // Not in the spec: the API refuses a blank name.
  nameRequired: 'A name is required',
} as const;

export interface ElementFields {
  name: string;
  type: string;
}

export type ElementFieldErrors = Partial<Record<keyof ElementFields, string>>;

export function validateElementFields({ name, type }: ElementFields): ElementFieldErrors {
  const errors: ElementFieldErrors = {};
  if (!name.trim()) errors.name = ELEMENT_FORM_MESSAGES.nameRequired;
  if (!type) errors.type = ELEMENT_FORM_MESSAGES.typeRequired;
  return errors;
}

export function hasErrors(errors: ElementFieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** What each field shows: its own check once the form was submitted, else the server's word. */
export function fieldMessages(
  local: ElementFieldErrors,
  submitted: boolean,
  server: Record<string, string[]>,
): Record<keyof ElementFields, string[]> {
  const pick = (field: keyof ElementFields) => {
    const own = local[field];
    return submitted && own ? [own] : (server[field] ?? []);
  };
  return { name: pick('name'), type: pick('type') };
}

/** A new element's fields: no name yet; a single type offered is preselected (spec 001 §5). */
export function newElementFields(types: readonly { slug: string }[]): ElementFields {
  return { name: '', type: types.length === 1 ? types[0]!.slug : '' };
}
