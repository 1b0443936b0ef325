/**
 * Secret names are paths: segments joined with `/` (`ocr/service/key`), as the `/secret/{name+}`
 * page and `GET /secret/{name}` carry them in the URL. Each segment keeps to characters a URL
 * carries as they are, so a name reads the same in the address bar, the API and a worker's
 * configuration.
 */
import type { ErrorItem } from '../../errors';

export const SECRET_NAME_MAX = 250;
/** 64 KiB of text: room for a certificate or a service account's JSON, not for files. */
export const SECRET_CONTENT_MAX = 65_536;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

export const NAME_EMPTY_SEGMENT =
  'Secret names are segments joined with "/": none of them may be empty.';
export const NAME_BAD_SEGMENT =
  'Each segment of a secret name may only hold letters, digits, ".", "-" and "_", and may not be "." or "..".';

/** What is wrong with a name, each problem once; empty when the name will do. */
export function nameProblems(name: string): ErrorItem[] {
  const attr = 'name';
  if (name === '') return [{ code: 'blank', detail: 'This field may not be blank.', attr }];
  if (name.length > SECRET_NAME_MAX) {
    return [
      {
        code: 'max_length',
        detail: `Ensure this field has no more than ${SECRET_NAME_MAX} characters.`,
        attr,
      },
    ];
  }
  const segments = name.split('/');
  const problems: ErrorItem[] = [];
  if (segments.some((segment) => segment === '')) {
    problems.push({ code: 'invalid', detail: NAME_EMPTY_SEGMENT, attr });
  }
  if (
    segments.some(
      (segment) =>
        segment !== '' && (!SEGMENT.test(segment) || segment === '.' || segment === '..'),
    )
  ) {
    problems.push({ code: 'invalid', detail: NAME_BAD_SEGMENT, attr });
  }
  return problems;
}
