/** The server's side of the ALTO export: the page read from the database, then written by the shared writer. */
import type { Db } from '../../db';
import { writeAlto, type AltoOptions } from '../../../src/lib/exports/alto';
import { readPageLayout, type PageLayoutOptions } from './pageLayout';

/** The page as an ALTO 4.4 document (see readPageLayout for the errors it throws). */
export async function exportAlto(
  db: Db,
  pageId: string,
  options: PageLayoutOptions & AltoOptions = {},
): Promise<string> {
  return writeAlto(await readPageLayout(db, pageId, options), options);
}
