/**
 * RetrieveFolderManifest: a IIIF Presentation 2 manifest of a folder, one canvas per child on an
 * image, in the folder's order, so any IIIF viewer (Mirador, the Universal Viewer) can page
 * through it.
 */
import type { Db } from '../../db';
import type { Element } from '../../db/schema';
import { imageJson } from '../images';

const PRESENTATION_CONTEXT = 'http://iiif.io/api/presentation/2/context.json';
const IMAGE_CONTEXT = 'http://iiif.io/api/image/2/context.json';
const IMAGE_PROFILE = 'http://iiif.io/api/image/2/level1.json';

export async function folderManifest(
  db: Db,
  folder: Element,
  manifestUrl: string,
  origin: string,
): Promise<Record<string, unknown>> {
  const pages = await db
    .selectFrom('element_links')
    .innerJoin('elements', 'elements.id', 'element_links.child_id')
    .innerJoin('images', 'images.id', 'elements.image_id')
    .selectAll('images')
    .select(['elements.id as element_id', 'elements.name as element_name'])
    .where('element_links.parent_id', '=', folder.id)
    .orderBy('element_links.position')
    .orderBy('elements.id')
    .execute();
  const base = manifestUrl.replace(/manifest\/?$/, '');
  return {
    '@context': PRESENTATION_CONTEXT,
    '@id': manifestUrl,
    '@type': 'sc:Manifest',
    label: folder.name,
    sequences: [
      {
        '@id': `${base}sequence/`,
        '@type': 'sc:Sequence',
        canvases: pages.map(({ element_id, element_name, ...image }) => {
          const { url, width, height } = imageJson(image, origin);
          const canvasId = `${base}canvas/${element_id}/`;
          return {
            '@id': canvasId,
            '@type': 'sc:Canvas',
            label: element_name,
            width,
            height,
            images: [
              {
                '@type': 'oa:Annotation',
                motivation: 'sc:painting',
                on: canvasId,
                resource: {
                  '@id': `${url}/full/full/0/default.jpg`,
                  '@type': 'dctypes:Image',
                  format: 'image/jpeg',
                  width,
                  height,
                  service: { '@context': IMAGE_CONTEXT, '@id': url, profile: IMAGE_PROFILE },
                },
              },
            ],
          };
        }),
      },
    ],
  };
}
