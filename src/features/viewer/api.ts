/** Images: RetrieveImage, with its query key beside the elements' image listing. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { ImageInfo } from '@/api/types';

export const imageKeys = {
  all: ['images'] as const,
  detail: (id: string) => [...imageKeys.all, 'detail', id] as const,
};

export function fetchImage(id: string): Promise<ImageInfo> {
  return api<ImageInfo>(`/image/${id}/`);
}

export const imageQuery = (id: string) =>
  queryOptions({ queryKey: imageKeys.detail(id), queryFn: () => fetchImage(id) });
