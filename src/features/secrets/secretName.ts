import { SECRET_NAME_MAX_LENGTH } from '@/api/secrets';

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * Why a name would be refused, before asking the server (which checks the same rules,
 * server/services/secrets/names.ts); null when it will do. Blank names just keep Add blocked.
 */
export function secretNameProblem(name: string): string | null {
  if (!name) return 'A name is required.';
  if (name.length > SECRET_NAME_MAX_LENGTH)
    return `Ensure this field has no more than ${SECRET_NAME_MAX_LENGTH} characters.`;
  const segments = name.split('/');
  if (segments.some((segment) => segment === ''))
    return 'Secret names are segments joined with "/": none of them may be empty.';
  if (segments.some((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..'))
    return 'Each segment of a secret name may only hold letters, digits, ".", "-" and "_", and may not be "." or "..".';
  return null;
}
