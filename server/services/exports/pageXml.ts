/** The server's side of the PAGE XML export: the page read from the database, then written by the shared writer. */
import type { Db } from '../../db';
import { writePageXml, type PageXmlOptions } from '../../../src/lib/exports/pageXml';
import { readPageLayout, type PageLayoutOptions } from './pageLayout';

/** The page as a PAGE XML 2019 document (see readPageLayout for the errors it throws). */
export async function exportPageXml(
  db: Db,
  pageId: string,
  options: PageLayoutOptions & PageXmlOptions = {},
): Promise<string> {
  return writePageXml(await readPageLayout(db, pageId, options), options);
}
